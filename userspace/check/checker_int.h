/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * chainscope check, internal: the state that checker.c (events,
 * membership, loss markers, output), check_pass.c (pass pairing) and
 * check_rules.c (the per-pass rules) share. Lookups are uthash tables.
 */
#ifndef CHAINSCOPE_CHECKER_INT_H
#define CHAINSCOPE_CHECKER_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "checker.h"

/*
 * uthash reports allocation failures in ck->oom instead of exiting:
 * every HASH_ADD has its `struct checker *ck` in scope.
 */
#define HASH_NONFATAL_OOM 1
#define uthash_nonfatal_oom(obj) (ck->oom = true)
#include <uthash.h>

enum { CALL_PLAIN = CS_CALL_PLAIN, CALL_ROBUST = CS_CALL_ROBUST, CALL_ROLLBACK = CS_CALL_ROLLBACK };

/* membership of (head, nb) as far as the trace tells */
enum mstate {
	M_UNKNOWN,
	M_MEMBER,	/* registered in the trace (seq >= 0) or seen running */
	M_GONE,
};

struct mkey {
	__u64 head, nb;
};

/*
 * a run after the block's unregister, in a pass that began after it; or
 * (snap) of a block its chain's snapshot does not list, in a pass that
 * began after the walk
 */
struct suspect {
	size_t run_idx;
	size_t begin_idx;	/* its pass's call_begin, or (phantom) after_idx */
	size_t gone_idx;	/* the unregister (or snapshot) it ran after */
	__u64 cb;
	bool snap;
	bool phantom;		/* the pass's call_begin is not in the trace */
};

struct member {
	struct mkey key;
	enum mstate state;
	size_t at;		/* the event that told its state */
	long long seq;		/* event index of its notifier_register, -1 */
	__u64 seq_task;		/* the task that registered it then */
	size_t gone_idx;	/* event index of its notifier_unregister */
	/*
	 * snap_state: state, at and gone_idx were told by the snapshot record
	 * at `at` (no membership event since); snap_seq: seq is the index of
	 * its snapshot record, its place in the chain's order
	 */
	bool snap_state, snap_seq;
	/*
	 * ran: seen running; ever_reg: a notifier_register of it is in the
	 * trace; by_phantom: its state (M_MEMBER) comes from a run in a pass
	 * whose call_begin is not in the trace, which may have read the chain
	 * before an unregister that tracing did not see (early history)
	 */
	bool ran, ever_reg, by_phantom;
	/* judged at its next membership event: legal if that registers it */
	struct suspect *sus;
	size_t nr_sus, cap_sus;
	/* the block that ran after it last time: a guess that saves lookups */
	struct member *next_run;
	UT_hash_handle hh;
};

struct run {
	size_t idx;		/* its notifier_run */
	__u64 cb, nb;
	int prio;
	int ret;		/* its notifier_return's */
};

/* the runs of one priority in a pass, for the registration order */
struct group {
	int prio;
	long long max_seq;	/* latest registration that ran, -1 */
	__u64 max_task;		/* the task that registered it */
	size_t max_idx;		/* its run */
	bool max_snap;		/* max_seq is a snapshot record */
};

/* frame->group_index: priority -> group, once priorities went up */
struct gnode {
	int prio;
	size_t gi;
	UT_hash_handle hh;
};

/* a stopped robust pass, waiting for (or taken over by) its rollback */
struct robust {
	bool valid, gapped, gap_counted;
	__u64 head;
	size_t end_idx;
	int ret, nr_calls;
	struct run *runs;
	size_t nr_runs, cap_runs;
};

struct frame {
	__u64 head, val;
	size_t begin_idx;
	/*
	 * An event the pass surely began after: its call_begin (begin_idx);
	 * for a phantom, the run of the callback it nests in (it began in
	 * that callback, at some point before its first event, begin_idx)
	 */
	size_t after_idx;
	int type, nr_to_call;
	size_t nr_runs;
	struct run last;	/* the latest run */
	struct member *last_m;	/* its membership entry */
	struct run *runs;	/* robust passes: every run, for the rollback */
	size_t cap_runs;
	struct group *groups;
	size_t nr_groups, cap_groups;
	struct gnode *group_index;	/* by priority, once disordered */
	bool in_flight;		/* the last run has not returned */
	bool stop_due;		/* a NOTIFY_STOP_MASK return awaits its notifier_stop */
	bool disordered;	/* priorities went up: groups are not contiguous */
	bool gapped;		/* open across a loss gap: pairing rules suspended */
	bool phantom;		/* its call_begin is not in the trace */
	/*
	 * no task (CS_TRACE_TASK_NONE) and another pass of its chain and val
	 * open with it: which runs are whose is unknown, its rules not judged
	 */
	bool shared;
	long long rb_stray;	/* phantom: its first event, a stray unless it is a rollback */
	long long stop_idx;	/* first NOTIFY_STOP_MASK return or stop, -1 */
	bool undo_reported;	/* rollback: a callback out of place was reported */
	struct robust undo;	/* rollback: the robust pass it undoes */
	struct robust child;	/* stopped robust pass nested in our callback */
};

struct skey {
	__u64 task;
	__u32 ctx, zero;
};

struct stack {
	struct skey key;
	struct frame *f;
	size_t depth, cap;
	struct robust base;	/* stopped robust pass at depth 0 */
	long long last_idx;	/* its previous event, -1 */
	__u32 last_cpu;
	bool resync;		/* a gap hit it: orphans are the gap's */
	/*
	 * the stream of the events with no task (CS_TRACE_TASK_NONE): every
	 * CPU's passes, interleaved. Frames are found by (head, val, type)
	 * wherever they are, not only on top; nesting is not known, so the
	 * rules that need it are not judged (check_pass.c)
	 */
	bool anon;
	UT_hash_handle hh;
};

/* a CPU's latest record, while locating its loss markers */
struct cpu_last {
	__u32 cpu;
	long long idx;
	UT_hash_handle hh;
};

/*
 * A recursion miss (CS_REC_CPU_ANY marker) is written when the recorder
 * reads the counters: every 100 ms, after a ring_buffer__poll() that
 * waits up to 100 ms, so up to ~200 ms after the miss plus the time it
 * took to write what the ring held then. Events up to this long before
 * such a marker's time may have lost their neighbours.
 */
#define CHK_MISSED_WINDOW_NS 500000000ULL

/*
 * While stopping, the recorder's BPF side drops non-rollback call_begins;
 * one that read the flag just before may land in the stream a little
 * after the first event of the stopping phase.
 */
#define CHK_STOP_RACE_NS 1000000ULL

/* a chain's snapshot (CS_REC_SNAPSHOT records, check_snap.c) */
struct snaphead {
	__u64 head;
	size_t idx;		/* its first record */
	__u64 ts;		/* when the walk ended */
	bool unstable;		/* writers changed the chain during the walk */
	UT_hash_handle hh;
};

/*
 * A notifier_register/unregister event fires after the list changed,
 * under the chain's writer lock, which a preempted writer may hold: a
 * membership event up to this long after a walk ended may describe a
 * change the walk already saw (or did not): it is not judged against the
 * snapshot.
 */
#define CHK_SNAP_SLACK_NS 50000000ULL

/* CPUs whose last stack is remembered (by cpu % CHK_CPU_CACHE) */
#define CHK_CPU_CACHE 64

/* frame arrays of stacks with nothing open, for reuse */
struct fpool {
	struct frame *f;
	size_t cap;
};

struct checker {
	const struct cs_trace *t;
	FILE *out;
	struct cs_check_stats *s;
	struct member *members;
	struct snaphead *snaps;
	struct stack *stacks;
	struct stack *cpu_stack[CHK_CPU_CACHE];	/* the last stack seen on a CPU */
	struct fpool *pool;
	size_t nr_pool, cap_pool;
	/*
	 * Where events may have been lost: gap_last[i] is the latest slot
	 * <= i (slot i: just before event i) in which a lost event may have
	 * been, or -1. NULL without loss markers.
	 */
	long long *gap_last;
	const struct cs_check_gap *gaps;	/* given (check --gap) */
	size_t nr_gaps;
	/* the last non-rollback call_begin, for the stopping phase */
	long long last_begin;
	__u64 last_begin_ts;
	/*
	 * A probes recording (header source): nr_to_call is -1 (unknown),
	 * rollbacks included; membership events come from the fexit of
	 * the API, so two tasks' registrations may be recorded in another
	 * order than they were linked in.
	 */
	bool probes;
	bool oom;
};

__attribute__((format(printf, 6, 7)))
void chk_violation(struct checker *ck, size_t idx, __u64 head, __u64 cb,
		   const char *rule, const char *fmt, ...);
/* The entry of (head, nb), created if missing; NULL without memory. */
struct member *chk_member_get(struct checker *ck, __u64 head, __u64 nb);
/* May an event have been lost after event `after`, up to event idx? */
static inline bool chk_gap_between(const struct checker *ck, long long after, size_t idx)
{
	return ck->gap_last && ck->gap_last[idx] > after;
}
/*
 * May event idx belong to the recorder's stopping phase, when passes
 * begin unrecorded? (No non-rollback call_begin follows it, but racers.)
 */
bool chk_stopping_phase(const struct checker *ck, size_t idx);

/* Judge m's runs after its unregister (or absence from the snapshot). */
void chk_judge_suspects(struct checker *ck, struct member *m, bool registered,
			size_t idx);

/* check_snap.c */
int chk_on_snapshot(struct checker *ck, const struct cs_rec_event *e, size_t idx);
const struct snaphead *chk_snap_of(const struct checker *ck, __u64 head);
/* A new membership entry: what its chain's snapshot says (not listed: gone). */
void chk_member_init(struct checker *ck, struct member *m);
/*
 * A rule is about to fire on m, whose state (or order, snap_seq) a
 * snapshot told: true to report it; false when the event at ts may
 * predate the walk (CHK_SNAP_SLACK_NS), or when the snapshot was unstable
 * (then counted as unknown). True for m not told by a snapshot.
 */
bool chk_snap_judge(struct checker *ck, const struct member *m, bool by_snap, __u64 ts);
void chk_snaps_free(struct checker *ck);

/* check_rules.c */
extern const char *const chk_call_types[];	/* by CALL_PLAIN ... CALL_ROLLBACK */
/* Judge run e of pass f; its member, or NULL without memory. */
struct member *chk_run_rules(struct checker *ck, struct frame *f,
			     const struct cs_rec_event *e, size_t idx);
/* Judge pass f whole, ended by its call_end e. */
void chk_end_rules(struct checker *ck, const struct frame *f, const struct cs_rec_event *e,
		   size_t idx);
void chk_group_index_free(struct frame *f);

/* check_pass.c */
int chk_pass_event(struct checker *ck, const struct cs_rec_event *e, size_t idx);
/* The end of the trace: what is still open or waiting. */
void chk_passes_finish(struct checker *ck);
void chk_passes_free(struct checker *ck);

#endif /* CHAINSCOPE_CHECKER_INT_H */
