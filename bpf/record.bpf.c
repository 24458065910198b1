// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * chainscope record: every notifier event, as one struct cs_rec_event
 * each, through a ring buffer to user space (userspace/cmd/record.c;
 * live/record_events.c writes the trace file). A failed bpf_ringbuf_reserve() loses the event
 * and counts it twice per CPU: in rec_stats (the run's totals:
 * CS_REC_STAT_LOST when the ring is full, CS_REC_STAT_LOST_NMI in NMI
 * context, where reserve only trylocks and fails on a busy lock too) and
 * in rec_pending. The next program on that CPU whose reserve succeeds
 * first puts a CS_REC_LOSS record with the pending count into the ring
 * and resets it, so the loss stands in the stream where it happened.
 * NMI context comes from the kernel's per-CPU preempt count
 * (exec_ctx.bpf.h; 6.1 has no bpf_in_nmi()); record refuses to run on a
 * kernel whose BTF does not locate it.
 *
 * Two sources, one stream (userspace/live/record_prog.c loads one set):
 *  - tracepoints: tp_btf programs on the eight notifier tracepoints of our
 *    core (the typed arguments; every chainscope kernel has their BTF).
 *    A return's run time pairs it with its run (cb_pair.bpf.h), and a
 *    return with NOTIFY_STOP_MASK is followed by the stop record that
 *    probes mode writes too (rec_cb_return());
 *  - probes: the hooks of bpf/probemode.bpf.h (fentry/fexit on the
 *    exported chain API, kprobe.multi on the watched callbacks), on any
 *    kernel. They write the same records, with what the API cannot tell
 *    as the tracepoints' "unknown": nr_to_call -1 on plain and robust
 *    passes (every caller of the API passes -1, so that is also what our
 *    core records). Passes of a chain whose callbacks are not all
 *    attached yet are no events there (counted instead).
 * Lock waits come from lock:contention_begin/end in both modes
 * (lock_contention_*, below).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "record.h"
#include "chainscope.bpf.h"
#include "chain_lock.bpf.h"
#include "exec_ctx.bpf.h"
#include "cb_pair.bpf.h"

/* e->ctx is cs_exec_ctx()'s value: the file format must not drift from it */
_Static_assert(CS_REC_CTX_TASK == CS_CTX_TASK && CS_REC_CTX_SOFTIRQ == CS_CTX_SOFTIRQ &&
	       CS_REC_CTX_HARDIRQ == CS_CTX_HARDIRQ && CS_REC_CTX_NMI == CS_CTX_NMI,
	       "enum cs_rec_ctx differs from enum cs_exec_ctx");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, CS_REC_RINGBUF_SIZE);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, CS_REC_STAT_MAX);
	__type(key, __u32);
	__type(value, __u64);
} rec_stats SEC(".maps");

/* Events lost on this CPU since its last CS_REC_LOSS record, by reason. */
struct rec_pending {
	__u64 n[CS_REC_LOSS_MISSED];	/* RING_FULL, NMI */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct rec_pending);
} rec_pending SEC(".maps");

/*
 * Wakeups are batched. A commit with flags 0 wakes the reader whenever it
 * has caught up, which at a modest rate is every record: an irq_work
 * queued on the traced CPU per event. Records are committed with
 * BPF_RB_NO_WAKEUP instead while the ring holds less than
 * targ_wakeup_bytes (--wakeup percent of it), and the reader drains the
 * ring at least every 100 ms on its own (userspace/cmd/record.c). From
 * that fill on, one commit wakes the reader, so a burst cannot fill the
 * ring behind a sleeping reader: the first to set rec_woken, which user
 * space clears after each read of the ring (one wakeup per reader cycle;
 * a reader that is behind, or stopped, is not woken again for every
 * record). 0: flags 0 on every commit.
 */
const volatile __u64 targ_wakeup_bytes = 0;
__u32 rec_woken = 0;

static __always_inline void rec_commit(void *e)
{
	__u64 flags = 0;

	if (targ_wakeup_bytes) {
		flags = BPF_RB_NO_WAKEUP;
		/* a plain load first: while a wakeup is out, no query */
		if (!*(volatile __u32 *)&rec_woken &&
		    bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) >= targ_wakeup_bytes &&
		    !__sync_lock_test_and_set(&rec_woken, 1))
			flags = BPF_RB_FORCE_WAKEUP;
	}
	bpf_ringbuf_submit(e, flags);
}

/*
 * Atomics on per-CPU values: a program in NMI can interrupt another on
 * the same CPU between its load and store.
 */
static __always_inline void count_loss(struct rec_pending *p, __u32 reason)
{
	__u32 idx = reason == CS_REC_LOSS_NMI ? CS_REC_STAT_LOST_NMI : CS_REC_STAT_LOST;
	__u64 *cnt = bpf_map_lookup_elem(&rec_stats, &idx);

	if (cnt)
		__sync_fetch_and_add(cnt, 1);
	if (p)
		__sync_fetch_and_add(&p->n[reason], 1);
}

/*
 * The pending loss of one reason into the ring, if there is room now;
 * false while a count stays pending.
 */
static __always_inline bool put_loss(struct rec_pending *p, __u32 reason, __u32 cpu)
{
	struct cs_rec_event *m;
	__u64 n;

	if (!*(volatile __u64 *)&p->n[reason])
		return true;
	m = bpf_ringbuf_reserve(&events, sizeof(*m), 0);
	if (!m)
		return false;	/* still no room: the count stays pending */
	n = __sync_lock_test_and_set(&p->n[reason], 0);
	if (!n) {		/* an NMI took it meanwhile */
		bpf_ringbuf_discard(m, BPF_RB_NO_WAKEUP);
		return true;
	}
	__builtin_memset(m, 0, sizeof(*m));
	m->ts = bpf_ktime_get_ns();
	m->cpu = cpu;
	m->type = CS_REC_LOSS;
	m->val = n;
	m->reason = reason;
	rec_commit(m);
	return true;
}

/*
 * A zeroed event with the common fields set, or NULL (counted as lost),
 * after the loss record for what this CPU lost before it. While a loss
 * record could not be written, events of this CPU are lost too: no event
 * is recorded between a loss and the record that locates it.
 */
static __always_inline struct cs_rec_event *rec_start(__u16 type, void *head,
						       int kind)
{
	__u32 zero = 0, cpu = bpf_get_smp_processor_id(), ctx = cs_exec_ctx();
	struct rec_pending *p = bpf_map_lookup_elem(&rec_pending, &zero);
	struct cs_rec_event *e;

	if (p) {
		bool clear = put_loss(p, CS_REC_LOSS_RING_FULL, cpu);

		clear = put_loss(p, CS_REC_LOSS_NMI, cpu) && clear;
		e = clear ? bpf_ringbuf_reserve(&events, sizeof(*e), 0) : NULL;
	} else {
		e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	}
	if (!e) {
		count_loss(p, ctx == CS_CTX_NMI ? CS_REC_LOSS_NMI : CS_REC_LOSS_RING_FULL);
		return NULL;
	}
	__builtin_memset(e, 0, sizeof(*e));
	e->ts = bpf_ktime_get_ns();
	e->task = (__u64)bpf_get_current_task();
	e->pid = (__u32)bpf_get_current_pid_tgid();
	e->cpu = cpu;
	e->ctx = ctx;
	e->type = type;
	e->head = (__u64)head;
	e->kind = kind;
	return e;
}

/* rec_start() for the events of one callback, register .. stop */
static __always_inline struct cs_rec_event *rec_cb_start(__u16 type, void *cb,
							  void *head,
							  struct notifier_block *nb,
							  int priority, int kind)
{
	struct cs_rec_event *e = rec_start(type, head, kind);

	if (e) {
		e->cb = (__u64)cb;
		e->nb = (__u64)nb;	/* may be freed already: never dereferenced */
		e->priority = priority;
	}
	return e;
}

static __always_inline int rec_member(__u16 type, void *cb, void *head,
				      struct notifier_block *nb, int priority,
				      int kind, int err)
{
	struct cs_rec_event *e;

	chain_lock_learn((__u64)head, kind);
	e = rec_cb_start(type, cb, head, nb, priority, kind);
	if (!e)
		return 0;
	e->ret = err;
	rec_commit(e);
	return 0;
}

#define REC_MEMBER(ev, type)							\
SEC("tp_btf/" #ev)								\
int BPF_PROG(rec_##ev, void *cb, void *head, struct notifier_block *nb,	\
	     int priority, enum notifier_chain_kind kind)			\
{										\
	return rec_member(type, cb, head, nb, priority, kind, 0);		\
}

#define REC_MEMBER_ERROR(ev, type)						\
SEC("tp_btf/" #ev)								\
int BPF_PROG(rec_##ev, void *cb, void *head, struct notifier_block *nb,	\
	     int priority, enum notifier_chain_kind kind, int err)		\
{										\
	return rec_member(type, cb, head, nb, priority, kind, err);		\
}

REC_MEMBER(notifier_register, CS_REC_REGISTER)
REC_MEMBER(notifier_unregister, CS_REC_UNREGISTER)
REC_MEMBER_ERROR(notifier_register_error, CS_REC_REGISTER_ERROR)
REC_MEMBER_ERROR(notifier_unregister_error, CS_REC_UNREGISTER_ERROR)

SEC("tp_btf/notifier_run")
int BPF_PROG(rec_run, void *cb, void *head, struct notifier_block *nb,
	     int priority, enum notifier_chain_kind kind, unsigned long val)
{
	struct cs_rec_event *e = rec_cb_start(CS_REC_RUN, cb, head, nb, priority, kind);

	if (e) {
		e->val = val;
		rec_commit(e);
	}
	cs_cb_run(cb);		/* last: the callback starts now */
	return 0;
}

/*
 * A callback's return, with its run time, and if it stopped the pass,
 * the stop: nr_calls = the callbacks of the pass that ran (both modes).
 */
static __always_inline void rec_cb_return(void *cb, void *head, void *nb, int kind,
					  unsigned long val, int priority, int ret,
					  __u64 duration_ns, int nr_calls)
{
	struct cs_rec_event *e = rec_cb_start(CS_REC_RETURN, cb, head, nb, priority, kind);

	if (e) {
		e->val = val;
		e->ret = ret;
		e->duration_ns = duration_ns;
		rec_commit(e);
	}
	if (!(ret & CS_NOTIFY_STOP_MASK))
		return;
	e = rec_cb_start(CS_REC_STOP, cb, head, nb, priority, kind);
	if (!e)
		return;
	e->val = val;
	e->ret = ret;
	e->nr_calls = nr_calls;
	rec_commit(e);
}

SEC("tp_btf/notifier_return")
int BPF_PROG(rec_return, void *cb, void *head, struct notifier_block *nb,
	     int priority, enum notifier_chain_kind kind, unsigned long val, int ret)
{
	__u64 dur;
	int ran;

	dur = cs_cb_return(cb, bpf_ktime_get_ns(), &ran);
	rec_cb_return(cb, head, nb, kind, val, priority, ret, dur, ran);
	return 0;
}

/*
 * Set by user space when the recording ends: passes under way finish,
 * new ones are not recorded, except rollbacks, which complete a robust
 * pass that stopped (userspace/live/record_events.c drops those it did
 * not wait for).
 */
volatile bool stopping;

SEC("tp_btf/notifier_call_begin")
int BPF_PROG(rec_call_begin, void *head, enum notifier_chain_kind kind,
	     unsigned long val, int nr_to_call, enum notifier_call_type type)
{
	struct cs_rec_event *e;

	cs_cb_pass_begin();	/* counts its callbacks, recorded or not */
	if (stopping && type != NOTIFIER_CALL_ROLLBACK)
		return 0;
	e = rec_start(CS_REC_CALL_BEGIN, head, kind);
	if (!e)
		return 0;
	e->val = val;
	e->nr_to_call = nr_to_call;
	e->call_type = type;
	rec_commit(e);
	return 0;
}

SEC("tp_btf/notifier_call_end")
int BPF_PROG(rec_call_end, void *head, enum notifier_chain_kind kind,
	     unsigned long val, int nr_to_call, enum notifier_call_type type, int ret,
	     int nr_calls)
{
	struct cs_rec_event *e;

	chain_lock_learn((__u64)head, kind);
	e = rec_start(CS_REC_CALL_END, head, kind);
	if (!e)
		return 0;
	e->val = val;
	e->nr_to_call = nr_to_call;
	e->call_type = type;
	e->ret = ret;
	e->nr_calls = nr_calls;
	rec_commit(e);
	return 0;
}

/* --- lock waits, both modes ------------------------------------------------ */

/*
 * CS_REC_LOCK_WAIT: one contended acquisition of a watched chain's rwsem
 * or mutex (bpf/chain_lock.bpf.h), at its lock:contention_end: `lock`,
 * `lock_op`, `duration_ns` = the wait (at least 1). Uncontended
 * acquisitions are no events. Tracepoints mode learns the heads from the
 * notifier events (rec_member(), rec_call_end()).
 */
SEC("tp_btf/contention_begin")
int BPF_PROG(lock_contention_begin, void *lock, unsigned int flags)
{
	if (stopping)
		return 0;
	return chain_lock_begin(lock, flags);
}

SEC("tp_btf/contention_end")
int BPF_PROG(lock_contention_end, void *lock, int ret)
{
	struct cs_rec_event *e;
	struct cs_lt_val lt;

	if (!chain_lock_end(lock, &lt))
		return 0;
	e = rec_start(CS_REC_LOCK_WAIT, (void *)lt.head, lt.kind);
	if (!e)
		return 0;
	e->lock = (__u64)lock;
	e->lock_op = lt.op;
	e->duration_ns = lt.ts;
	rec_commit(e);
	return 0;
}

/* --- probes mode ------------------------------------------------------------ */

#include "probemode.bpf.h"

/*
 * Which synthesised passes are recorded, per (task, context): a shadow of
 * probemode.bpf.h's pass stack (which already leaves out the passes of a
 * chain whose callbacks were not all attached when they began: counted in
 * cs_pm_early, reported by user space). While the recorder stops
 * (`stopping`) a new pass is not recorded, nor one of a chain with a
 * callback probes mode cannot see (rec_pm_complete()); and then as a
 * whole: its runs,
 * returns, stops and call_end go with its call_begin. (The tracepoint
 * programs cannot know, and record those as orphans.) A stopped robust
 * pass keeps its frame for the rollback that follows, recorded with it.
 */
struct rec_pm_frame {
	__u64 head;
	__u32 recorded;
	__u32 awaiting;		/* a stopped robust pass: its rollback is next */
};

struct rec_pm_stack {
	__u32 depth;
	__u32 __pad;
	struct rec_pm_frame f[CS_MAX_DEPTH];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CS_PM_MAX_TASKS);	/* as probemode.bpf.h's stacks */
	__type(key, struct cs_pm_key);
	__type(value, struct rec_pm_stack);
} rec_pm_stacks SEC(".maps");

static struct rec_pm_stack rec_pm_zero_stack;


static __always_inline struct notifier_block *rec_pm_first(void *head, int kind)
{
	switch (kind) {
	case CS_PM_ATOMIC:
		return BPF_CORE_READ((struct atomic_notifier_head *)head, head);
	case CS_PM_BLOCKING:
		return BPF_CORE_READ((struct blocking_notifier_head *)head, head);
	case CS_PM_SRCU:
		return BPF_CORE_READ((struct srcu_notifier_head *)head, head);
	default:
		return BPF_CORE_READ((struct raw_notifier_head *)head, head);
	}
}

/*
 * Are the callbacks of every block on the chain attached, as a pass
 * begins? A callback that cannot be (notrace, inlined; user space names
 * it) would leave its runs out of the pass, and with them the value the
 * pass returns, the stop that ends it, a robust pass's rollback: check
 * would rightly call that a violation. Such passes are not recorded, only
 * counted (CS_REC_STAT_PARTIAL), and so are those of a chain longer than
 * CS_REC_PM_MAX_WALK blocks (CS_REC_STAT_LONG). A block that a writer
 * links meanwhile is covered by probemode.bpf.h (its callback, if new,
 * makes the chain pending); one freed under us reads as an unknown
 * callback: not recorded.
 */
static __always_inline int rec_pm_complete(void *head, int kind)
{
	struct notifier_block *nb = rec_pm_first(head, kind);
	__u64 cb;
	int i;

	for (i = 0; i < CS_REC_PM_MAX_WALK && nb; i++) {
		cb = (__u64)BPF_CORE_READ(nb, notifier_call);
		if (!bpf_map_lookup_elem(&cs_pm_cbmap, &cb))
			return CS_REC_STAT_PARTIAL;
		nb = BPF_CORE_READ(nb, next);
	}
	return nb ? CS_REC_STAT_LONG : -1;	/* -1: complete */
}

/* Push (or, for a rollback, take over) this pass's frame: recorded? */
static __always_inline bool rec_pm_begin(void *head, int kind, int type)
{
	struct rec_pm_stack *st;
	struct rec_pm_frame *f;
	struct cs_pm_key key;
	__u32 d;
	bool rec;

	cs_pm_key_init(&key);
	st = cs_lookup_or_init(&rec_pm_stacks, &key, &rec_pm_zero_stack);
	if (!st)
		return false;	/* counted in stats: its events are dropped */
	d = st->depth;
	if (d && d <= CS_MAX_DEPTH) {
		f = &st->f[(d - 1) & (CS_MAX_DEPTH - 1)];
		if (f->awaiting) {
			f->awaiting = 0;
			if (type == CS_CALL_ROLLBACK && f->head == (__u64)head)
				return f->recorded;
			st->depth = --d;	/* no rollback came: the pass is over */
		}
	}
	rec = !stopping;
	if (rec) {
		int why = rec_pm_complete(head, kind);

		if (why >= 0) {
			__u32 idx = why;
			__u64 *cnt = bpf_map_lookup_elem(&rec_stats, &idx);

			if (cnt)
				__sync_fetch_and_add(cnt, 1);
			rec = false;
		}
	}
	if (d < CS_MAX_DEPTH) {
		f = &st->f[d & (CS_MAX_DEPTH - 1)];
		f->head = (__u64)head;
		f->recorded = rec;
		f->awaiting = 0;
	} else {
		rec = false;	/* (probemode.bpf.h counts it too) */
	}
	st->depth = d + 1;
	return rec;
}

/* Pop the innermost frame of head (and any above it): was it recorded? */
static __always_inline bool rec_pm_end(void *head, int type, int ret)
{
	struct rec_pm_stack *st;
	struct rec_pm_frame *f;
	struct cs_pm_key key;
	__u32 d, i;
	bool rec;

	cs_pm_key_init(&key);
	st = bpf_map_lookup_elem(&rec_pm_stacks, &key);
	if (!st || !st->depth)
		return false;
	d = st->depth - 1;
	if (d >= CS_MAX_DEPTH) {
		st->depth = d;
		return false;
	}
	for (i = 0; i < CS_MAX_DEPTH; i++) {
		if (i > d || st->f[(d - i) & (CS_MAX_DEPTH - 1)].head == (__u64)head)
			break;
	}
	if (i > d || i >= CS_MAX_DEPTH)
		return false;
	d -= i;
	f = &st->f[d & (CS_MAX_DEPTH - 1)];
	rec = f->recorded;
	if (type == CS_CALL_ROBUST && (ret & CS_NOTIFY_STOP_MASK)) {
		f->awaiting = 1;	/* the rollback takes it over */
		st->depth = d + 1;
		return rec;
	}
	st->depth = d;
	if (!d)
		bpf_map_delete_elem(&rec_pm_stacks, &key);
	return rec;
}

/* A callback event: is the innermost pass head's, and recorded? */
static __always_inline bool rec_pm_in_recorded(void *head)
{
	struct rec_pm_stack *st;
	struct rec_pm_frame *f;
	struct cs_pm_key key;
	__u32 d;

	cs_pm_key_init(&key);
	st = bpf_map_lookup_elem(&rec_pm_stacks, &key);
	if (!st || !st->depth || st->depth > CS_MAX_DEPTH)
		return false;
	d = st->depth - 1;
	f = &st->f[d & (CS_MAX_DEPTH - 1)];
	return f->head == (__u64)head && f->recorded && !f->awaiting;
}

static __always_inline void cs_pm_call_begin(void *head, int kind, unsigned long val,
					     int nr_to_call, int type)
{
	struct cs_rec_event *e;

	if (!rec_pm_begin(head, kind, type))
		return;
	e = rec_start(CS_REC_CALL_BEGIN, head, kind);
	if (!e)
		return;
	e->val = val;
	e->nr_to_call = nr_to_call;
	e->call_type = type;
	rec_commit(e);
}

static __always_inline void cs_pm_call_end(void *head, int kind, unsigned long val,
					   int nr_to_call, int type, int ret, int nr_calls)
{
	struct cs_rec_event *e;

	if (!rec_pm_end(head, type, ret))
		return;
	e = rec_start(CS_REC_CALL_END, head, kind);
	if (!e)
		return;
	e->val = val;
	e->nr_to_call = nr_to_call;
	e->call_type = type;
	e->ret = ret;
	e->nr_calls = nr_calls;
	rec_commit(e);
}

static __always_inline void cs_pm_run(void *cb, void *head, void *nb, int kind,
				      unsigned long val, int priority)
{
	struct cs_rec_event *e;

	if (!rec_pm_in_recorded(head))
		return;
	e = rec_cb_start(CS_REC_RUN, cb, head, nb, priority, kind);
	if (!e)
		return;
	e->val = val;
	rec_commit(e);
}

static __always_inline void cs_pm_return(void *cb, void *head, void *nb, int kind,
					 unsigned long val, int priority, int ret,
					 __u64 duration_ns, int nr_calls)
{
	if (rec_pm_in_recorded(head))
		rec_cb_return(cb, head, nb, kind, val, priority, ret, duration_ns, nr_calls);
}

/* (Un)registration, from the API's fexit: after the lock is released */
static __always_inline void cs_pm_membership(int rec_type, void *cb, void *head, void *nb,
					     int priority, int err, int kind)
{
	rec_member(rec_type, cb, head, nb, priority, kind, err);
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
