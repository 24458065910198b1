// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * cs-gentrace: synthetic chainscope trace files for the host tests, written
 * through tracefile.c. One scenario is clean; each other one injects one
 * violation of a `chainscope check` rule, named like the rule; `slower`
 * is clean but slower (for diff); `loss` is clean with in-stream loss
 * records of every reason; `clean-snapshot` is `clean` with the chains'
 * membership in snapshot records (version 3) instead of register events;
 * `timeline` has interrupts on two CPUs and chains nested three deep,
 * `timeline-loss` passes cut by losses, for report's timeline exports;
 * `deep` one task nesting --count passes (16000), each in a callback of
 * the one outside it, none of them ending, and `deep-closed` the same
 * nesting unwound, for crafted inputs of report (2 and 4 records a level).
 * The bad-snap-* scenarios (not listed, in --seeds) write snapshots the
 * reader must refuse.
 *
 *   cs-gentrace [OPTIONS] SCENARIO FILE   write one trace
 *   cs-gentrace --list                    clean, slower and the rule scenarios
 *   cs-gentrace --seeds DIR               every scenario and file layout
 *                                         into DIR (fuzz seed corpus)
 *
 * Options, for the reader's tests:
 *   --version N       write file version N (1: no loss records, 2: no
 *                     snapshot records)
 *   --record-size N   records of N bytes (a newer writer's; tail zeroed)
 *   --unfinished      no trailer and footer (the recorder was killed)
 *   --partial N       then the first N bytes of one more record (disk full)
 *   --end-ns N        the trailer's end time (default: the last event's)
 *   --symbol NAME     one more symbol, NAME (the writer must refuse what
 *                     the reader refuses)
 *   --count N         levels of the deep scenarios
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracefile.h"

#define H1 0xffffffffc0001000ULL	/* test_chain */
#define H2 0xffffffffc0002000ULL	/* nest_chain */
#define LOCK1 0xffffffffc0001010ULL
#define CB_A 0xffffffffc0003000ULL
#define CB_B 0xffffffffc0003100ULL
#define CB_C 0xffffffffc0003200ULL
#define CB_D 0xffffffffc0003300ULL
#define NB_A 0xffff888000001000ULL	/* heap blocks: no symbol */
#define NB_B 0xffff888000002000ULL
#define NB_C 0xffff888000003000ULL
#define NB_D 0xffff888000004000ULL
#define TASK1 0xffff888000100000ULL
#define TASK2 0xffff888000200000ULL

#define NOTIFY_OK 1
#define NOTIFY_STOP 0x8001
#define NOTIFY_BAD 0x8002
#define BLOCKING 2

struct blk {
	__u64 cb, nb;
	int prio;
};

static const struct blk A = { CB_A, NB_A, 10 };
static const struct blk B = { CB_B, NB_B, 0 };
static const struct blk C = { CB_C, NB_C, 0 };
static const struct blk D = { CB_D, NB_D, 5 };

static struct cs_trace_writer *w;
static __u32 version = CS_TRACE_VERSION;
static __u32 record_size = sizeof(struct cs_rec_event);
static int unfinished;
static long partial = -1;
static long long end_ns = -1;
static const char *extra_sym;	/* --symbol NAME: one more, at EXTRA_SYM */
static long count = 16000;	/* --count N: levels of the deep scenarios */
#define EXTRA_SYM 0xffffffffc0009000ULL
static __u64 now = 1000000;
static __u64 cur_task = TASK1;
static __u8 cur_ctx = CS_REC_CTX_TASK;
static __u32 cur_cpu;

static void put(struct cs_rec_event *e, int type, __u64 head)
{
	e->type = type;
	e->head = head;
	e->ts = now;
	if (type != CS_REC_LOSS) {	/* a loss record has cpu, ts, val, reason */
		e->task = cur_task;
		/* other tasks are idle tasks: pid 0 */
		e->pid = cur_task == TASK1 ? 100 : cur_task == TASK2 ? 200 : 0;
		e->ctx = cur_ctx;
		e->cpu = cur_cpu;
		e->kind = BLOCKING;
	}
	now += 1000;
	if (cs_trace_write(w, e, 1)) {
		perror("cs-gentrace: write");
		exit(1);
	}
}

static void member(int type, __u64 head, const struct blk *b, int err)
{
	struct cs_rec_event e = { .cb = b->cb, .nb = b->nb, .priority = b->prio,
				  .ret = err };

	put(&e, type, head);
}

static void begin(__u64 head, int type, int nr_to_call)
{
	struct cs_rec_event e = { .call_type = type, .nr_to_call = nr_to_call, .val = 3 };

	put(&e, CS_REC_CALL_BEGIN, head);
}

static void end(__u64 head, int type, int nr_to_call, int ret, int nr_calls)
{
	struct cs_rec_event e = { .call_type = type, .nr_to_call = nr_to_call, .val = 3,
				  .ret = ret, .nr_calls = nr_calls };

	put(&e, CS_REC_CALL_END, head);
}

static void run(__u64 head, const struct blk *b)
{
	struct cs_rec_event e = { .cb = b->cb, .nb = b->nb, .priority = b->prio, .val = 3 };

	put(&e, CS_REC_RUN, head);
}

static void ret(__u64 head, const struct blk *b, int r, __u64 ns)
{
	struct cs_rec_event e = { .cb = b->cb, .nb = b->nb, .priority = b->prio, .val = 3,
				  .ret = r, .duration_ns = ns };

	put(&e, CS_REC_RETURN, head);
}

static void stop(__u64 head, const struct blk *b, int r, int nr_calls)
{
	struct cs_rec_event e = { .cb = b->cb, .nb = b->nb, .priority = b->prio, .val = 3,
				  .ret = r, .nr_calls = nr_calls };

	put(&e, CS_REC_STOP, head);
}

static void lock_wait(__u64 head, int op, __u64 ns)
{
	struct cs_rec_event e = { .lock = LOCK1, .lock_op = op, .duration_ns = ns };

	put(&e, CS_REC_LOCK_WAIT, head);
}

/*
 * One snapshot record, as record writes them (bpf/record.h): position pos
 * of a chain of length len, b NULL for an empty chain.
 */
static void snap_rec(__u64 head, int pos, int len, const struct blk *b, int state)
{
	struct cs_rec_event e = { .type = CS_REC_SNAPSHOT, .head = head, .ts = now,
				  .kind = BLOCKING, .nr_calls = pos, .nr_to_call = len,
				  .ret = state };

	if (b) {
		e.cb = b->cb;
		e.nb = b->nb;
		e.priority = b->prio;
	}
	if (cs_trace_write(w, &e, 1)) {
		perror("cs-gentrace: write");
		exit(1);
	}
}

/* a chain's snapshot: its n blocks in call order, all stamped now */
static void snapshot(__u64 head, const struct blk *const *b, int n)
{
	int i;

	if (!n)
		snap_rec(head, 0, 0, NULL, CS_REC_SNAP_STABLE);
	for (i = 0; i < n; i++)
		snap_rec(head, i, n, b[i], CS_REC_SNAP_STABLE);
	now += 1000;
}

/* what registrations() registers, as snapshots, and the empty chain */
static void snapshots(void)
{
	static const struct blk *const h1[] = { &A, &B, &C }, *const h2[] = { &D };

	snapshot(H1, h1, 3);
	snapshot(H2, h2, 1);
	snapshot(H2 + 0x100, NULL, 0);
	now += 100000000;	/* past the walk's slack (checker_int.h) */
}

/* what the loss records add up to, for the trailer */
static __u64 lost_total, missed_total;

/* events were lost on cpu (CS_REC_CPU_ANY: recursion misses) */
static void loss(__u32 cpu, int reason, __u64 n)
{
	struct cs_rec_event e = { .cpu = cpu, .reason = reason, .val = n };

	*(reason == CS_REC_LOSS_MISSED ? &missed_total : &lost_total) += n;
	put(&e, CS_REC_LOSS, 0);
}

/* call and return one callback */
static void cb(__u64 head, const struct blk *b, int r, __u64 ns)
{
	run(head, b);
	ret(head, b, r, ns);
}

/* A plain pass over one block that returns NOTIFY_OK after ns */
static void pass_one(__u64 head, const struct blk *b, __u64 ns)
{
	begin(head, 0, -1);
	cb(head, b, NOTIFY_OK, ns);
	end(head, 0, -1, NOTIFY_OK, 1);
}

/* A plain pass over A (10), B (0), C (0) */
static void pass_abc(int nr_calls_claimed)
{
	begin(H1, 0, -1);
	cb(H1, &A, NOTIFY_OK, 3000);
	cb(H1, &B, NOTIFY_OK, 150000);
	cb(H1, &C, NOTIFY_OK, 40);
	end(H1, 0, -1, NOTIFY_OK, nr_calls_claimed);
}

static void registrations(void)
{
	lock_wait(H1, 1, 0);
	member(CS_REC_REGISTER, H1, &A, 0);
	lock_wait(H1, 1, 2500);
	member(CS_REC_REGISTER, H1, &B, 0);
	lock_wait(H1, 1, 0);
	member(CS_REC_REGISTER, H1, &C, 0);
	member(CS_REC_REGISTER, H2, &D, 0);
}

static void clean_body(bool snap)
{
	int i;

	if (snap)
		snapshots();
	else
		registrations();
	for (i = 0; i < 5; i++) {
		lock_wait(H1, 0, i * 700);
		pass_abc(3);
	}
	/* A stops the pass */
	begin(H1, 0, -1);
	cb(H1, &A, NOTIFY_STOP, 2000);
	stop(H1, &A, NOTIFY_STOP, 1);
	end(H1, 0, -1, NOTIFY_STOP, 1);
	/* robust: B vetoes, rollback reaches A only */
	begin(H1, 1, -1);
	cb(H1, &A, NOTIFY_OK, 2000);
	cb(H1, &B, NOTIFY_BAD, 1000);
	stop(H1, &B, NOTIFY_BAD, 2);
	end(H1, 1, -1, NOTIFY_BAD, 2);
	begin(H1, 2, 1);
	cb(H1, &A, NOTIFY_OK, 2000);
	end(H1, 2, 1, NOTIFY_OK, 1);
	/* A calls nest_chain from inside its callback; meanwhile task 2 and
	 * a hardirq on task 1 run passes of their own */
	begin(H1, 0, -1);
	run(H1, &A);
	begin(H2, 0, -1);
	cur_task = TASK2;
	begin(H1, 0, 1);
	cb(H1, &A, NOTIFY_OK, 1500);
	cur_task = TASK1;
	cur_ctx = CS_REC_CTX_HARDIRQ;
	pass_one(H2, &D, 500);
	cur_ctx = CS_REC_CTX_TASK;
	cb(H2, &D, NOTIFY_OK, 600);
	end(H2, 0, -1, NOTIFY_OK, 1);
	cur_task = TASK2;
	end(H1, 0, 1, NOTIFY_OK, 1);
	cur_task = TASK1;
	ret(H1, &A, NOTIFY_OK, 9000);
	cb(H1, &B, NOTIFY_OK, 100000);
	cb(H1, &C, NOTIFY_OK, 50);
	end(H1, 0, -1, NOTIFY_OK, 3);
	/* C leaves; later calls reach A and B; errors consistent */
	member(CS_REC_UNREGISTER, H1, &C, 0);
	begin(H1, 0, -1);
	cb(H1, &A, NOTIFY_OK, 2000);
	cb(H1, &B, NOTIFY_OK, 120000);
	end(H1, 0, -1, NOTIFY_OK, 2);
	member(CS_REC_UNREGISTER_ERROR, H1, &C, -2);
	member(CS_REC_REGISTER_ERROR, H1, &A, -17);
	/* C comes back: now after B in registration order */
	member(CS_REC_REGISTER, H1, &C, 0);
	begin(H1, 0, -1);
	cb(H1, &A, NOTIFY_OK, 2000);
	cb(H1, &B, NOTIFY_OK, 110000);
	cb(H1, &C, NOTIFY_OK, 45);
	end(H1, 0, -1, NOTIFY_OK, 3);
	/* an empty-chain call and a pass still open when recording ends */
	begin(H2 + 0x100, 0, -1);
	end(H2 + 0x100, 0, -1, 0, 0);
	begin(H1, 0, -1);
	run(H1, &A);
}

/*
 * For report's timeline (--perfetto, --folded, the timeline SVG): interrupt
 * contexts on two CPUs, an NMI pass inside a hardirq pass inside a task's
 * callback, chains nested three deep, a task that sleeps in a callback and
 * wakes on the other CPU, the idle tasks of both CPUs (pid 0), an orphan
 * return and a lost one.
 */
static void timeline(void)
{
	registrations();
	ret(H1, &B, NOTIFY_OK, 100);		/* its pass began before recording */
	begin(H1, 0, -1);
	run(H1, &A);
	cur_ctx = CS_REC_CTX_HARDIRQ;		/* interrupts A's callback */
	begin(H2, 0, -1);
	run(H2, &D);
	cur_ctx = CS_REC_CTX_NMI;		/* interrupts the hardirq's callback */
	pass_one(H1, &C, 30);
	cur_ctx = CS_REC_CTX_HARDIRQ;
	ret(H2, &D, NOTIFY_OK, 900);
	end(H2, 0, -1, NOTIFY_OK, 1);
	cur_ctx = CS_REC_CTX_TASK;
	begin(H2, 0, -1);			/* A calls nest_chain, D calls test_chain */
	run(H2, &D);
	begin(H1 + 0x100, 0, -1);
	end(H1 + 0x100, 0, -1, 0, 0);
	cur_cpu = 1;				/* D slept, woke on CPU 1 */
	ret(H2, &D, NOTIFY_OK, 4000000);
	end(H2, 0, -1, NOTIFY_OK, 1);
	ret(H1, &A, NOTIFY_OK, 5000000);
	cb(H1, &B, NOTIFY_STOP, 100);
	stop(H1, &B, NOTIFY_STOP, 2);
	end(H1, 0, -1, NOTIFY_STOP, 2);
	cur_ctx = CS_REC_CTX_SOFTIRQ;		/* a softirq on CPU 1 */
	pass_one(H2, &D, 200);
	cur_ctx = CS_REC_CTX_TASK;
	cur_task = TASK2 + 0x1000;		/* the idle tasks of CPU 1 and 0 */
	pass_one(H2, &D, 200);
	cur_cpu = 0;
	cur_task = TASK2 + 0x2000;
	begin(H2, 0, -1);
	run(H2, &D);				/* its return was lost */
	run(H2, &D);
	ret(H2, &D, NOTIFY_OK, 200);
	end(H2, 0, -1, NOTIFY_OK, 1);
	cur_task = TASK1;
}

/*
 * Passes that a loss cuts: their ends may be among the lost events, so
 * report's timeline ends them unfinished there (the ends that do come are
 * unpaired); then a whole pass.
 */
static void timeline_loss(void)
{
	begin(H1, 0, -1);
	run(H1, &A);
	loss(0, CS_REC_LOSS_RING_FULL, 4);
	ret(H1, &A, NOTIFY_OK, 100);
	end(H1, 0, -1, NOTIFY_OK, 1);
	cur_task = TASK2;
	cur_cpu = 1;
	begin(H2, 0, -1);
	run(H2, &D);
	loss(CS_REC_CPU_ANY, CS_REC_LOSS_MISSED, 1);
	ret(H2, &D, NOTIFY_OK, 100);
	end(H2, 0, -1, NOTIFY_OK, 1);
	cur_task = TASK1;
	cur_cpu = 0;
	pass_abc(3);
}

/* one task nesting count passes, alternately of the two chains; closed: unwound */
static void deep(bool closed)
{
	static const struct blk *const cbs[] = { &A, &B, &C, &D };
	long i;

	registrations();
	for (i = 0; i < count; i++) {
		begin(i % 2 ? H2 : H1, 0, -1);
		run(i % 2 ? H2 : H1, cbs[i % 4]);
	}
	for (i = count; closed && i-- > 0;) {
		ret(i % 2 ? H2 : H1, cbs[i % 4], NOTIFY_OK, 1000 * (count - i));
		end(i % 2 ? H2 : H1, 0, -1, NOTIFY_OK, 1);
	}
}

static void scenario(const char *name)
{
	if (!strcmp(name, "deep") || !strcmp(name, "deep-closed")) {
		deep(!strcmp(name, "deep-closed"));
		return;
	}
	if (!strcmp(name, "timeline")) {
		timeline();
		return;
	}
	if (!strcmp(name, "timeline-loss")) {
		timeline_loss();
		return;
	}
	if (!strcmp(name, "clean")) {
		clean_body(false);
	} else if (!strcmp(name, "clean-snapshot")) {
		clean_body(true);
	} else if (!strcmp(name, "run-not-member")) {
		/* D is on nest_chain only: the snapshot of test_chain says so */
		snapshots();
		begin(H1, 0, -1);
		cb(H1, &A, NOTIFY_OK, 100);
		cb(H1, &D, NOTIFY_OK, 100);
		end(H1, 0, -1, NOTIFY_OK, 2);
	} else if (!strcmp(name, "bad-snap-order")) {
		snap_rec(H1, 0, 3, &A, 0);
		snap_rec(H1, 2, 3, &C, 0);
		snap_rec(H1, 1, 3, &B, 0);
	} else if (!strcmp(name, "bad-snap-length")) {
		snap_rec(H1, 0, 3, &A, 0);
		snap_rec(H1, 1, 2, &B, 0);
	} else if (!strcmp(name, "bad-snap-dup")) {
		snap_rec(H1, 0, 3, &A, 0);
		snap_rec(H1, 1, 3, &B, 0);
		snap_rec(H1, 2, 3, &B, 0);
	} else if (!strcmp(name, "bad-snap-head")) {
		snapshots();
		snap_rec(H2, 0, 0, NULL, 0);
	} else if (!strcmp(name, "bad-snap-cut")) {
		/* an event inside a snapshot, then one cut by the file's end */
		snap_rec(H1, 0, 3, &A, 0);
		snap_rec(H1, 1, 3, &B, 0);
		registrations();
	} else if (!strcmp(name, "bad-snap-end")) {
		registrations();
		pass_abc(3);
		snap_rec(H2, 0, 2, &D, 0);
	} else if (!strcmp(name, "bad-snap-prio")) {
		snap_rec(H1, 0, 3, &B, 0);
		snap_rec(H1, 1, 3, &A, 0);
		snap_rec(H1, 2, 3, &C, 0);
	} else if (!strcmp(name, "bad-snap-state")) {
		snap_rec(H1, 0, 1, &A, 2);
	} else if (!strcmp(name, "priority-order")) {
		registrations();
		begin(H1, 0, -1);
		cb(H1, &B, NOTIFY_OK, 100);
		cb(H1, &A, NOTIFY_OK, 100);
		cb(H1, &C, NOTIFY_OK, 100);
		end(H1, 0, -1, NOTIFY_OK, 3);
	} else if (!strcmp(name, "registration-order")) {
		registrations();
		begin(H1, 0, -1);
		cb(H1, &A, NOTIFY_OK, 100);
		cb(H1, &C, NOTIFY_OK, 100);
		cb(H1, &B, NOTIFY_OK, 100);
		end(H1, 0, -1, NOTIFY_OK, 3);
	} else if (!strcmp(name, "run-after-stop")) {
		registrations();
		begin(H1, 0, -1);
		cb(H1, &A, NOTIFY_STOP, 100);
		stop(H1, &A, NOTIFY_STOP, 1);
		cb(H1, &B, NOTIFY_OK, 100);
		end(H1, 0, -1, NOTIFY_OK, 2);
	} else if (!strcmp(name, "nr-calls")) {
		registrations();
		pass_abc(2);
	} else if (!strcmp(name, "begin-without-end")) {
		registrations();
		begin(H1, 0, -1);
		cb(H1, &A, NOTIFY_OK, 100);
		cb(H1, &B, NOTIFY_OK, 100);
		cb(H1, &C, NOTIFY_OK, 100);
		pass_abc(3);
	} else if (!strcmp(name, "rollback")) {
		registrations();
		begin(H1, 1, -1);
		cb(H1, &A, NOTIFY_OK, 100);
		cb(H1, &B, NOTIFY_BAD, 100);
		stop(H1, &B, NOTIFY_BAD, 2);
		end(H1, 1, -1, NOTIFY_BAD, 2);
		begin(H1, 2, 1);
		cb(H1, &A, NOTIFY_OK, 100);
		cb(H1, &B, NOTIFY_OK, 100);
		end(H1, 2, 1, NOTIFY_OK, 2);
	} else if (!strcmp(name, "run-after-unregister")) {
		registrations();
		member(CS_REC_UNREGISTER, H1, &C, 0);
		pass_abc(3);
	} else if (!strcmp(name, "membership-register")) {
		registrations();
		member(CS_REC_REGISTER, H1, &A, 0);
	} else if (!strcmp(name, "membership-unregister")) {
		registrations();
		member(CS_REC_UNREGISTER, H1, &C, 0);
		member(CS_REC_UNREGISTER, H1, &C, 0);
	} else if (!strcmp(name, "membership-eexist")) {
		registrations();
		member(CS_REC_UNREGISTER, H1, &C, 0);
		member(CS_REC_REGISTER_ERROR, H1, &C, -17);
	} else if (!strcmp(name, "membership-enoent")) {
		registrations();
		member(CS_REC_UNREGISTER_ERROR, H1, &A, -2);
	} else if (!strcmp(name, "loss")) {
		/* clean passes with losses between them: 7 + 2 lost, 3 missed */
		registrations();
		pass_abc(3);
		loss(0, CS_REC_LOSS_RING_FULL, 7);
		pass_abc(3);
		loss(1, CS_REC_LOSS_NMI, 2);
		loss(CS_REC_CPU_ANY, CS_REC_LOSS_MISSED, 3);
		pass_abc(3);
	} else if (!strcmp(name, "slower")) {
		/* clean, but B takes ~4x longer and C starts vetoing: for diff */
		int i;

		registrations();
		for (i = 0; i < 5; i++) {
			begin(H1, 0, -1);
			cb(H1, &A, NOTIFY_OK, 3000);
			cb(H1, &B, NOTIFY_OK, 600000);
			cb(H1, &C, NOTIFY_BAD, 40);
			stop(H1, &C, NOTIFY_BAD, 3);
			end(H1, 0, -1, NOTIFY_BAD, 3);
		}
	} else {
		fprintf(stderr, "cs-gentrace: unknown scenario '%s'\n", name);
		exit(2);
	}
}

static const char *const scenarios[] = {
	"clean", "priority-order", "registration-order", "run-after-stop", "nr-calls",
	"begin-without-end", "rollback", "run-after-unregister", "membership-register",
	"membership-unregister", "membership-eexist", "membership-enoent", "slower",
	"clean-snapshot", "run-not-member",
};

/* not a rule's (not listed): report's timeline tests; fuzz seeds */
static const char *const report_scenarios[] = { "timeline", "timeline-loss" };

/* the reader refuses these (tests/sh/tracefile.sh); fuzz seeds */
static const char *const bad_scenarios[] = {
	"bad-snap-order", "bad-snap-length", "bad-snap-dup", "bad-snap-head",
	"bad-snap-cut", "bad-snap-end", "bad-snap-prio", "bad-snap-state",
};

static const struct cs_trace_sym syms[] = {
	{ H1, "test_chain", "testmod" },
	{ H2, "nest_chain", "testmod" },
	{ CB_A, "cb_a", "testmod" },
	{ CB_B, "cb_b", "testmod" },
	{ CB_C, "cb_c", NULL },
	{ CB_D, "cb_d", NULL },
	{ LOCK1, "test_chain+0x10", "testmod" },
};

static int write_one(const char *name, const char *path)
{
	bool has_loss = !strcmp(name, "loss") || !strcmp(name, "timeline-loss");
	bool has_snap = strstr(name, "snap") || !strcmp(name, "run-not-member");
	int err;

	now = 1000000;
	cur_task = TASK1;
	cur_ctx = CS_REC_CTX_TASK;
	cur_cpu = 0;
	lost_total = missed_total = 0;
	if (partial >= (long)record_size) {
		fprintf(stderr, "cs-gentrace: --partial %ld is a whole %u-byte record\n",
			partial, record_size);
		return 2;
	}
	if (has_loss && version < 2) {
		fprintf(stderr, "cs-gentrace: version %u has no loss records\n", version);
		return 2;
	}
	if (has_snap && version < 3) {
		fprintf(stderr, "cs-gentrace: version %u has no snapshot records\n", version);
		return 2;
	}
	w = cs_trace_open(path, 0, NULL);
	if (!w) {
		fprintf(stderr, "cs-gentrace: %s: %s\n", path, strerror(errno));
		return 1;
	}
	err = cs_trace_set_layout(w, version, record_size);
	if (!err)
		err = cs_trace_begin(w, "6.1.0-test", "00000000-1111-2222-3333-444444444444",
				     now - 500);
	if (err) {
		fprintf(stderr, "cs-gentrace: %s: %s\n", path, strerror(-err));
		cs_trace_discard(w);
		return 1;
	}
	scenario(name);
	if (unfinished || partial >= 0) {
		static const unsigned char junk[4096] = { 0x5a };
		FILE *f;

		cs_trace_abort(w);
		if (partial <= 0)
			return 0;
		f = fopen(path, "ab");
		if (!f || fwrite(junk, 1, partial, f) != (size_t)partial || fclose(f)) {
			fprintf(stderr, "cs-gentrace: %s: %s\n", path, strerror(errno));
			return 1;
		}
		return 0;
	}
	{
		struct cs_trace_sym all[sizeof(syms) / sizeof(syms[0]) + 1];
		size_t n = sizeof(syms) / sizeof(syms[0]);

		memcpy(all, syms, sizeof(syms));
		if (extra_sym)
			all[n++] = (struct cs_trace_sym){ EXTRA_SYM, extra_sym, NULL };
		err = cs_trace_finish(w, lost_total, missed_total,
				      end_ns >= 0 ? (__u64)end_ns : now, all, n);
	}
	if (err) {
		fprintf(stderr, "cs-gentrace: %s: %s\n", path, strerror(-err));
		return 1;
	}
	return 0;
}

static long num_arg(const char *opt, const char *arg, long max)
{
	char *end;
	long v;

	errno = 0;
	v = arg ? strtol(arg, &end, 0) : -1;
	if (!arg || errno || end == arg || *end || v < 0 || v > max) {
		fprintf(stderr, "cs-gentrace: bad %s '%s'\n", opt, arg ? arg : "");
		exit(2);
	}
	return v;
}

/* every scenario, then some file layouts of the clean one */
static int seeds(const char *dir)
{
	char path[4096];
	size_t i;
	int rc = 0;

	for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s.cstrace", dir, scenarios[i]);
		rc |= write_one(scenarios[i], path);
	}
	for (i = 0; i < sizeof(report_scenarios) / sizeof(report_scenarios[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s.cstrace", dir, report_scenarios[i]);
		rc |= write_one(report_scenarios[i], path);
	}
	for (i = 0; i < sizeof(bad_scenarios) / sizeof(bad_scenarios[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s.cstrace", dir, bad_scenarios[i]);
		rc |= write_one(bad_scenarios[i], path);
	}
	version = 2;
	snprintf(path, sizeof(path), "%s/v2-loss.cstrace", dir);
	rc |= write_one("loss", path);
	version = CS_TRACE_VERSION;
	unfinished = 1;
	snprintf(path, sizeof(path), "%s/unfinished-bad-snap-end.cstrace", dir);
	rc |= write_one("bad-snap-end", path);
	unfinished = 0;
	snprintf(path, sizeof(path), "%s/loss.cstrace", dir);
	rc |= write_one("loss", path);
	version = 1;
	snprintf(path, sizeof(path), "%s/v1-clean.cstrace", dir);
	rc |= write_one("clean", path);
	version = CS_TRACE_VERSION;
	record_size = 136;
	snprintf(path, sizeof(path), "%s/wide-loss.cstrace", dir);
	rc |= write_one("loss", path);
	partial = 50;
	snprintf(path, sizeof(path), "%s/cut-wide-loss.cstrace", dir);
	rc |= write_one("loss", path);
	record_size = sizeof(struct cs_rec_event);
	partial = -1;
	unfinished = 1;
	snprintf(path, sizeof(path), "%s/unfinished-nr-calls.cstrace", dir);
	rc |= write_one("nr-calls", path);
	unfinished = 0;
	return rc;
}

int main(int argc, char **argv)
{
	int i = 1;
	size_t k;

	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (k = 0; k < sizeof(scenarios) / sizeof(scenarios[0]); k++)
			puts(scenarios[k]);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "--seeds"))
		return seeds(argv[2]);
	for (; i < argc && !strncmp(argv[i], "--", 2); i++) {
		const char *o = argv[i];

		if (!strcmp(o, "--version"))
			version = num_arg(o, argv[++i], CS_TRACE_VERSION);
		else if (!strcmp(o, "--record-size"))
			record_size = num_arg(o, argv[++i], 1 << 20);
		else if (!strcmp(o, "--unfinished"))
			unfinished = 1;
		else if (!strcmp(o, "--partial"))
			partial = num_arg(o, argv[++i], 4096);
		else if (!strcmp(o, "--end-ns"))
			end_ns = num_arg(o, argv[++i], LONG_MAX);
		else if (!strcmp(o, "--symbol"))
			extra_sym = argv[++i];
		else if (!strcmp(o, "--count"))
			count = num_arg(o, argv[++i], 1L << 30);
		else
			break;
		if (i >= argc) {
			fprintf(stderr, "cs-gentrace: %s needs a value\n", o);
			return 2;
		}
	}
	if (argc - i != 2 || !strncmp(argv[i], "--", 2)) {
		fprintf(stderr, "usage: cs-gentrace [--version N] [--record-size N] "
			"[--unfinished] [--partial N] [--end-ns N] [--symbol NAME] [--count N] "
			"SCENARIO FILE | "
			"--list | --seeds DIR\n");
		return 2;
	}
	return write_one(argv[i], argv[i + 1]);
}
