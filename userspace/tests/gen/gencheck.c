// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * cs-gencheck: trace files for `chainscope check` tests and the offline
 * benchmark, written through tracefile.c.
 *
 *   cs-gencheck SCENARIO FILE     one crafted trace (tests/sh/check.sh says
 *                                 what each must give)
 *   cs-gencheck --list            the scenario names
 *   cs-gencheck --seeds DIR       every scenario into DIR (fuzz corpus)
 *   cs-gencheck bench N FILE      a clean trace of about N events: many
 *                                 tasks, chains and callbacks, passes of
 *                                 8 CPUs interleaved, nesting, robust
 *                                 passes and their rollbacks
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gencheck.h"

const struct blk A = { CB_A, 0xffff888000001000ULL, 10 };
const struct blk B = { CB_B, 0xffff888000002000ULL, 0 };
const struct blk C = { CB_C, 0xffff888000003000ULL, 0 };
const struct blk D = { CB_D, 0xffff888000004000ULL, 5 };
const struct blk E = { CB_E, 0xffff888000005000ULL, 0 };

struct cs_trace_writer *w;
__u64 now;
__u64 cur_task;
static __u32 cur_cpu;

void emit(struct cs_rec_event *e)
{
	int err = cs_trace_write(w, e, 1);

	if (err) {
		fprintf(stderr, "cs-gencheck: write: %s\n", strerror(-err));
		exit(1);
	}
}

void put(struct cs_rec_event *e, int type, __u64 head)
{
	e->type = type;
	e->head = head;
	e->ts = now;
	e->task = cur_task;
	e->pid = cur_task == TASK1 ? 100 : 200;
	e->cpu = cur_cpu;
	e->ctx = CS_REC_CTX_TASK;
	e->kind = BLOCKING;
	now += 1000;
	emit(e);
}

void member(int type, __u64 head, const struct blk *b)
{
	struct cs_rec_event e = { .cb = b->cb, .nb = b->nb, .priority = b->prio };

	put(&e, type, head);
}

void begin(__u64 head, int type, __u64 val, int nr_to_call)
{
	struct cs_rec_event e = { .call_type = type, .nr_to_call = nr_to_call,
				  .val = val };

	put(&e, CS_REC_CALL_BEGIN, head);
}

void end(__u64 head, int type, __u64 val, int nr_to_call, int ret, int nr_calls)
{
	struct cs_rec_event e = { .call_type = type, .nr_to_call = nr_to_call,
				  .val = val, .ret = ret, .nr_calls = nr_calls };

	put(&e, CS_REC_CALL_END, head);
}

void run(__u64 head, __u64 val, const struct blk *b)
{
	struct cs_rec_event e = { .cb = b->cb, .nb = b->nb, .priority = b->prio,
				  .val = val };

	put(&e, CS_REC_RUN, head);
}

void ret(__u64 head, __u64 val, const struct blk *b, int r)
{
	struct cs_rec_event e = { .cb = b->cb, .nb = b->nb, .priority = b->prio,
				  .val = val, .ret = r, .duration_ns = 1000 };

	put(&e, CS_REC_RETURN, head);
}

void stop(__u64 head, __u64 val, const struct blk *b, int r, int nr_calls)
{
	struct cs_rec_event e = { .cb = b->cb, .nb = b->nb, .priority = b->prio,
				  .val = val, .ret = r, .nr_calls = nr_calls };

	put(&e, CS_REC_STOP, head);
}

void cb(__u64 head, __u64 val, const struct blk *b, int r)
{
	run(head, val, b);
	ret(head, val, b, r);
}

/* the trailer's totals: what the loss records add up to, as record writes */
static __u64 total_lost, total_missed;

static void loss(__u32 cpu, int reason, __u64 count)
{
	struct cs_rec_event e = { .type = CS_REC_LOSS, .ts = now, .cpu = cpu,
				  .reason = reason, .val = count };

	if (reason == CS_REC_LOSS_MISSED)
		total_missed += count;
	else
		total_lost += count;
	now += 1000;
	emit(&e);
}

static void registrations(void)
{
	member(CS_REC_REGISTER, H1, &A);
	member(CS_REC_REGISTER, H1, &B);
	member(CS_REC_REGISTER, H1, &C);
	member(CS_REC_REGISTER, H2, &D);
}

/* robust pass over test_chain that B vetoes: A ran before it */
static void robust_ab_vetoed(void)
{
	begin(H1, ROBUST, VAL, -1);
	cb(H1, VAL, &A, NOTIFY_OK);
	cb(H1, VAL, &B, NOTIFY_BAD);
	stop(H1, VAL, &B, NOTIFY_BAD, 2);
	end(H1, ROBUST, VAL, -1, NOTIFY_BAD, 2);
}

static void plain_abc(void)
{
	begin(H1, PLAIN, VAL, -1);
	cb(H1, VAL, &A, NOTIFY_OK);
	cb(H1, VAL, &B, NOTIFY_OK);
	cb(H1, VAL, &C, NOTIFY_OK);
	end(H1, PLAIN, VAL, -1, NOTIFY_OK, 3);
}

static int scenario(const char *name)
{
	if (!strcmp(name, "no-events"))
		return 0;
	if (!strcmp(name, "only-loss")) {
		loss(0, CS_REC_LOSS_RING_FULL, 5);
		return 0;
	}
	if (!strncmp(name, "snap-", 5))
		return snap_scenario(name + 5);
	if (!strncmp(name, "probes-", 7))
		name += 7;	/* the same trace, from a probes recording */
	if (!strncmp(name, "order-", 6))
		return order_scenario(name + 6);
	if (!strcmp(name, "reg-two-tasks") || !strcmp(name, "reg-one-task")) {
		/*
		 * B and C (0) registered by two tasks (one), C's event first;
		 * then a pass runs them in link order, B before C: probes
		 * record membership at the API's fexit, where two tasks'
		 * events may come in another order than the links
		 */
		member(CS_REC_REGISTER, H1, &A);
		cur_task = !strcmp(name, "reg-two-tasks") ? TASK2 : TASK1;
		member(CS_REC_REGISTER, H1, &C);
		cur_task = TASK1;
		member(CS_REC_REGISTER, H1, &B);
		plain_abc();
		return 0;
	}
	registrations();
	if (!strcmp(name, "rollback-unknown") || !strcmp(name, "rollback-unknown-long")) {
		/* nr_to_call -1 on the rollback (probes: the API has none) */
		bool too_long = !strcmp(name, "rollback-unknown-long");

		robust_ab_vetoed();
		begin(H1, ROLLBACK, VAL_DOWN, -1);
		cb(H1, VAL_DOWN, &A, NOTIFY_OK);
		if (too_long)
			cb(H1, VAL_DOWN, &B, NOTIFY_OK);	/* B vetoed: not undone */
		end(H1, ROLLBACK, VAL_DOWN, -1, NOTIFY_OK, too_long ? 2 : 1);
	} else if (!strcmp(name, "nest-rollback")) {
		/* clean: a robust pass nested in a callback of another chain's rollback */
		robust_ab_vetoed();
		begin(H1, ROLLBACK, VAL_DOWN, 1);
		run(H1, VAL_DOWN, &A);
		begin(H2, ROBUST, VAL, -1);
		cb(H2, VAL, &D, NOTIFY_BAD);
		stop(H2, VAL, &D, NOTIFY_BAD, 1);
		end(H2, ROBUST, VAL, -1, NOTIFY_BAD, 1);
		begin(H2, ROLLBACK, VAL_DOWN, 0);
		end(H2, ROLLBACK, VAL_DOWN, 0, NOTIFY_DONE, 0);
		ret(H1, VAL_DOWN, &A, NOTIFY_OK);
		end(H1, ROLLBACK, VAL_DOWN, 1, NOTIFY_OK, 1);
		plain_abc();
	} else if (!strcmp(name, "nest-same-chain")) {
		/* clean: robust + rollback nested in the rollback of the same chain */
		robust_ab_vetoed();
		begin(H1, ROLLBACK, VAL_DOWN, 1);
		run(H1, VAL_DOWN, &A);
		robust_ab_vetoed();
		begin(H1, ROLLBACK, VAL_DOWN, 1);
		cb(H1, VAL_DOWN, &A, NOTIFY_OK);
		end(H1, ROLLBACK, VAL_DOWN, 1, NOTIFY_OK, 1);
		ret(H1, VAL_DOWN, &A, NOTIFY_OK);
		end(H1, ROLLBACK, VAL_DOWN, 1, NOTIFY_OK, 1);
		/* and a plain pass nested in a plain pass of the same chain */
		begin(H1, PLAIN, VAL, -1);
		run(H1, VAL, &A);
		plain_abc();
		ret(H1, VAL, &A, NOTIFY_OK);
		cb(H1, VAL, &B, NOTIFY_OK);
		cb(H1, VAL, &C, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 3);
	} else if (!strcmp(name, "orphan-nested")) {
		/*
		 * clean: in A's callback, a pass of the same chain whose
		 * call_begin is not in the trace (the recorder detaches
		 * call_begin first): 3 orphans, no nr-calls on the outer pass
		 */
		begin(H1, PLAIN, VAL, -1);
		run(H1, VAL, &A);
		cb(H1, VAL, &B, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 1);
		ret(H1, VAL, &A, NOTIFY_OK);
		cb(H1, VAL, &B, NOTIFY_OK);
		cb(H1, VAL, &C, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 3);
	} else if (!strcmp(name, "orphan-before")) {
		/* clean: the end of a pass that began before recording */
		cb(H1, VAL, &B, NOTIFY_OK);
		cb(H1, VAL, &C, NOTIFY_STOP);
		stop(H1, VAL, &C, NOTIFY_STOP, 3);
		end(H1, PLAIN, VAL, -1, NOTIFY_STOP, 3);
		plain_abc();
	} else if (!strcmp(name, "missing-rollback")) {
		robust_ab_vetoed();
		plain_abc();
	} else if (!strcmp(name, "missing-rollback-at-end")) {
		plain_abc();
		robust_ab_vetoed();
	} else if (!strcmp(name, "missing-rollback-nested")) {
		/* the stopped robust pass runs in A's callback, which returns */
		begin(H2, PLAIN, VAL, -1);
		run(H2, VAL, &D);
		robust_ab_vetoed();
		ret(H2, VAL, &D, NOTIFY_OK);
		end(H2, PLAIN, VAL, -1, NOTIFY_OK, 1);
	} else if (!strcmp(name, "end-ret-stop")) {
		/* call_end says stopped, no callback stopped it */
		begin(H1, PLAIN, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_OK);
		cb(H1, VAL, &B, NOTIFY_OK);
		cb(H1, VAL, &C, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_STOP, 3);
	} else if (!strcmp(name, "end-ret-value")) {
		/* the last callback returned NOTIFY_DONE, call_end says NOTIFY_OK */
		begin(H1, PLAIN, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_OK);
		cb(H1, VAL, &B, NOTIFY_DONE);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 2);
	} else if (!strcmp(name, "end-ret-empty")) {
		begin(H1 + 0x100, PLAIN, VAL, -1);
		end(H1 + 0x100, PLAIN, VAL, -1, NOTIFY_OK, 0);
	} else if (!strcmp(name, "end-ret-unstopped")) {
		/* B stopped the pass, call_end says it was not stopped */
		begin(H1, PLAIN, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_OK);
		cb(H1, VAL, &B, NOTIFY_BAD);
		stop(H1, VAL, &B, NOTIFY_BAD, 2);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 2);
	} else if (!strcmp(name, "registration-order-apart")) {
		/*
		 * C registered after B (both 0) runs before it, with E (0,
		 * registered before recording) between them
		 */
		begin(H1, PLAIN, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_OK);
		cb(H1, VAL, &C, NOTIFY_OK);
		cb(H1, VAL, &E, NOTIFY_OK);
		cb(H1, VAL, &B, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 4);
	} else if (!strcmp(name, "registration-order-prio")) {
		/* C before B with D (5) between: priority-order as well */
		begin(H1, PLAIN, VAL, -1);
		cb(H1, VAL, &C, NOTIFY_OK);
		cb(H1, VAL, &D, NOTIFY_OK);
		cb(H1, VAL, &B, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 3);
	} else if (!strcmp(name, "gap-excused")) {
		/*
		 * CPU 0 loses events while passes of task 1 are open: B's
		 * run and return, a call_end, a rollback. Nothing is judged
		 * that the gap may have taken.
		 */
		begin(H1, PLAIN, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_OK);
		loss(0, CS_REC_LOSS_RING_FULL, 2);
		cb(H1, VAL, &C, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 3);
		begin(H1, PLAIN, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_OK);
		loss(0, CS_REC_LOSS_NMI, 1);
		robust_ab_vetoed();
		loss(0, CS_REC_LOSS_RING_FULL, 1);
		plain_abc();
	} else if (!strcmp(name, "gap-any-cpu")) {
		/* recursion misses are not located to a CPU: they excuse all */
		begin(H1, PLAIN, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_OK);
		loss(CS_REC_CPU_ANY, CS_REC_LOSS_MISSED, 2);
		cb(H1, VAL, &C, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 3);
		/* orphans after the gap are the gap's */
		cb(H1, VAL, &B, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 2);
	} else if (!strcmp(name, "gap-other-cpu")) {
		/*
		 * CPU 1 lost events after its pass, which came after task 1's:
		 * task 1's pass is still judged
		 */
		begin(H1, PLAIN, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_OK);
		cb(H1, VAL, &C, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 3);
		cur_cpu = 1;
		cur_task = TASK2;
		begin(H2, PLAIN, VAL, -1);
		cb(H2, VAL, &D, NOTIFY_OK);
		end(H2, PLAIN, VAL, -1, NOTIFY_OK, 1);
		loss(1, CS_REC_LOSS_RING_FULL, 2);
	} else if (!strcmp(name, "publish-window")) {
		/*
		 * clean: C runs after its notifier_unregister event in a pass
		 * that began before it; E runs before its notifier_register
		 * event (published first); D, unregistered, runs in a later
		 * pass just before the event of its registration again
		 */
		begin(H1, PLAIN, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_OK);
		cur_task = TASK2;
		member(CS_REC_UNREGISTER, H1, &C);
		cur_task = TASK1;
		cb(H1, VAL, &B, NOTIFY_OK);
		cb(H1, VAL, &C, NOTIFY_OK);
		cb(H1, VAL, &E, NOTIFY_OK);
		cur_task = TASK2;
		member(CS_REC_REGISTER, H1, &E);
		cur_task = TASK1;
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 4);
		begin(H1, PLAIN, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_OK);
		cb(H1, VAL, &B, NOTIFY_OK);
		cb(H1, VAL, &E, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 3);
		member(CS_REC_UNREGISTER, H2, &D);
		begin(H2, PLAIN, VAL, -1);
		run(H2, VAL, &D);
		cur_task = TASK2;
		member(CS_REC_REGISTER, H2, &D);
		cur_task = TASK1;
		ret(H2, VAL, &D, NOTIFY_OK);
		end(H2, PLAIN, VAL, -1, NOTIFY_OK, 1);
	} else if (!strcmp(name, "republished")) {
		/*
		 * clean: B, unregistered, is published again behind E (same
		 * priority) and runs there before its register event: its
		 * old registration says nothing of its place
		 */
		member(CS_REC_REGISTER, H1, &E);
		member(CS_REC_UNREGISTER, H1, &B);
		begin(H1, PLAIN, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_OK);
		cb(H1, VAL, &C, NOTIFY_OK);
		cb(H1, VAL, &E, NOTIFY_OK);
		cb(H1, VAL, &B, NOTIFY_OK);
		cur_task = TASK2;
		member(CS_REC_REGISTER, H1, &B);
		cur_task = TASK1;
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 4);
	} else if (!strcmp(name, "rollback-stopped")) {
		/* clean: a val_down callback may stop the rollback early */
		begin(H1, ROBUST, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_OK);
		cb(H1, VAL, &B, NOTIFY_OK);
		cb(H1, VAL, &C, NOTIFY_BAD);
		stop(H1, VAL, &C, NOTIFY_BAD, 3);
		end(H1, ROBUST, VAL, -1, NOTIFY_BAD, 3);
		begin(H1, ROLLBACK, VAL_DOWN, 2);
		cb(H1, VAL_DOWN, &A, NOTIFY_STOP);
		stop(H1, VAL_DOWN, &A, NOTIFY_STOP, 1);
		end(H1, ROLLBACK, VAL_DOWN, 2, NOTIFY_STOP, 1);
	} else if (!strcmp(name, "rollback-order")) {
		/* the rollback calls B before A */
		begin(H1, ROBUST, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_OK);
		cb(H1, VAL, &B, NOTIFY_OK);
		cb(H1, VAL, &C, NOTIFY_BAD);
		stop(H1, VAL, &C, NOTIFY_BAD, 3);
		end(H1, ROBUST, VAL, -1, NOTIFY_BAD, 3);
		begin(H1, ROLLBACK, VAL_DOWN, 2);
		cb(H1, VAL_DOWN, &B, NOTIFY_OK);
		cb(H1, VAL_DOWN, &A, NOTIFY_OK);
		end(H1, ROLLBACK, VAL_DOWN, 2, NOTIFY_OK, 2);
	} else if (!strcmp(name, "forged-name")) {
		/* cb_e's name in the trace tries to forge a line of output */
		begin(H1, PLAIN, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_STOP);
		stop(H1, VAL, &A, NOTIFY_STOP, 1);
		cb(H1, VAL, &E, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 2);
	} else if (!strcmp(name, "stop-event")) {
		/* B returned NOTIFY_BAD: no notifier_stop */
		begin(H1, PLAIN, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_OK);
		cb(H1, VAL, &B, NOTIFY_BAD);
		end(H1, PLAIN, VAL, -1, NOTIFY_BAD, 2);
	} else if (!strcmp(name, "stray-return")) {
		/* B returns while A runs: no pass of the task can explain it */
		begin(H1, PLAIN, VAL, -1);
		run(H1, VAL, &A);
		ret(H1, VAL, &B, NOTIFY_OK);
		ret(H1, VAL, &A, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 1);
	} else if (!strcmp(name, "stray-end-type")) {
		/* a robust pass ends as a plain one */
		begin(H1, ROBUST, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 1);
	} else if (!strcmp(name, "stray-end-val")) {
		begin(H1, PLAIN, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_OK);
		end(H1, PLAIN, VAL + 4, -1, NOTIFY_OK, 1);
	} else if (!strcmp(name, "stray-end-inflight")) {
		/*
		 * call_end while A is in flight: only a pass nested in A's
		 * callback, begun while the recorder stopped, could end here,
		 * and it ran no callback
		 */
		begin(H1, PLAIN, VAL, -1);
		run(H1, VAL, &A);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 1);
	} else if (!strcmp(name, "stray-nested-midtrace")) {
		/* a nested pass without call_begin, but passes begin later */
		begin(H1, PLAIN, VAL, -1);
		run(H1, VAL, &A);
		cb(H1, VAL, &B, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 1);
		ret(H1, VAL, &A, NOTIFY_OK);
		cb(H1, VAL, &B, NOTIFY_OK);
		cb(H1, VAL, &C, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 3);
		now += 2000000;		/* 2 ms: no racer of a stopping flag */
		plain_abc();
	} else if (!strcmp(name, "orphan-nested-same")) {
		/*
		 * clean: while the recorder stops, a robust pass of the same
		 * chain and val (call_begin not recorded) runs A and B in A's
		 * callback: paired apart, the outer pass is right
		 */
		begin(H1, PLAIN, VAL, -1);
		run(H1, VAL, &A);
		cb(H1, VAL, &A, NOTIFY_OK);
		cb(H1, VAL, &B, NOTIFY_OK);
		end(H1, ROBUST, VAL, -1, NOTIFY_OK, 2);
		ret(H1, VAL, &A, NOTIFY_OK);
		cb(H1, VAL, &B, NOTIFY_OK);
		cb(H1, VAL, &C, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 3);
	} else if (!strcmp(name, "gap-missed-late")) {
		/*
		 * B's run and return were missed (recursion) and the marker
		 * came at the recorder's next poll, after the pass ended
		 */
		begin(H1, PLAIN, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_OK);
		cb(H1, VAL, &C, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 3);
		now += 90000000;	/* 90 ms */
		loss(CS_REC_CPU_ANY, CS_REC_LOSS_MISSED, 2);
	} else if (!strcmp(name, "gap-missed-old")) {
		/* a pass that ended 600 ms before a miss's marker is judged */
		begin(H1, PLAIN, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_OK);
		cb(H1, VAL, &C, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 3);
		now += 600000000;
		plain_abc();
		loss(CS_REC_CPU_ANY, CS_REC_LOSS_MISSED, 2);
	} else if (!strcmp(name, "gap-migrate")) {
		/*
		 * B blocks: its run is lost on CPU 2, it returns on CPU 1;
		 * CPU 2's marker comes with its next event, after the pass
		 */
		begin(H1, PLAIN, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_OK);
		cur_cpu = 1;
		ret(H1, VAL, &B, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 2);
		cur_cpu = 2;
		cur_task = TASK2;
		loss(2, CS_REC_LOSS_RING_FULL, 1);
		begin(H2, PLAIN, VAL, -1);
		cb(H2, VAL, &D, NOTIFY_OK);
		end(H2, PLAIN, VAL, -1, NOTIFY_OK, 1);
	} else if (!strcmp(name, "gap-zero")) {
		/* a marker of no event excuses nothing (if the reader takes it) */
		begin(H1, PLAIN, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_OK);
		loss(0, CS_REC_LOSS_RING_FULL, 0);
		loss(CS_REC_CPU_ANY, CS_REC_LOSS_MISSED, 0);
		cb(H1, VAL, &C, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 3);
	} else if (!strcmp(name, "rollback-begin-dropped") ||
		   !strcmp(name, "rollback-begin-dropped-plain")) {
		/*
		 * In D's callback a robust pass stops; the recorder, stopping,
		 * dropped its rollback's call_begin, but passes of other tasks
		 * begin later (read before the stop): clean. Unless what
		 * follows the robust pass ends as a plain pass: a stray.
		 */
		begin(H2, PLAIN, VAL, -1);
		run(H2, VAL, &D);
		robust_ab_vetoed();
		cb(H1, VAL_DOWN, &A, NOTIFY_OK);
		if (!strcmp(name, "rollback-begin-dropped"))
			end(H1, ROLLBACK, VAL_DOWN, 1, NOTIFY_OK, 1);
		else
			end(H1, PLAIN, VAL_DOWN, -1, NOTIFY_OK, 1);
		ret(H2, VAL, &D, NOTIFY_OK);
		end(H2, PLAIN, VAL, -1, NOTIFY_OK, 1);
		now += 2000000;
		cur_task = TASK2;
		plain_abc();
	} else if (!strcmp(name, "gap-reregister")) {
		/*
		 * CPU 1 lost B's unregister and register (now behind E):
		 * the registrations before the gap do not order the pass
		 */
		cur_cpu = 1;
		cur_task = TASK2;
		member(CS_REC_REGISTER, H1, &E);
		loss(1, CS_REC_LOSS_RING_FULL, 2);
		cur_cpu = 0;
		cur_task = TASK1;
		begin(H1, PLAIN, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_OK);
		cb(H1, VAL, &C, NOTIFY_OK);
		cb(H1, VAL, &E, NOTIFY_OK);
		cb(H1, VAL, &B, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 4);
	} else if (!strcmp(name, "gap-register")) {
		/* C's unregister is in the trace, its register again was lost */
		cur_cpu = 1;
		cur_task = TASK2;
		member(CS_REC_UNREGISTER, H1, &C);
		loss(1, CS_REC_LOSS_RING_FULL, 1);
		cur_cpu = 0;
		cur_task = TASK1;
		plain_abc();
	} else if (!strcmp(name, "republished-midpass")) {
		/*
		 * clean: B is unregistered while the pass walks and published
		 * again behind C; the pass runs it there, before its register
		 * event: its old registration says nothing of its place
		 */
		begin(H1, PLAIN, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_OK);
		cur_task = TASK2;
		member(CS_REC_UNREGISTER, H1, &B);
		cur_task = TASK1;
		cb(H1, VAL, &C, NOTIFY_OK);
		cb(H1, VAL, &B, NOTIFY_OK);
		cur_task = TASK2;
		member(CS_REC_REGISTER, H1, &B);
		cur_task = TASK1;
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 3);
	} else if (!strcmp(name, "long-name")) {
		/* E's name is as long as the reader allows: printed whole */
		begin(H1, PLAIN, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_STOP);
		stop(H1, VAL, &A, NOTIFY_STOP, 1);
		cb(H1, VAL, &E, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 2);
	} else if (!strcmp(name, "nr-to-call")) {
		begin(H1, PLAIN, VAL, 1);
		cb(H1, VAL, &A, NOTIFY_OK);
		cb(H1, VAL, &B, NOTIFY_OK);
		end(H1, PLAIN, VAL, 1, NOTIFY_OK, 2);
	} else {
		return -1;
	}
	return 0;
}

static const char *const scenarios[] = {
	"nest-rollback", "nest-same-chain", "orphan-nested", "orphan-before",
	"missing-rollback", "missing-rollback-at-end", "missing-rollback-nested",
	"end-ret-stop", "end-ret-value", "end-ret-empty", "end-ret-unstopped",
	"registration-order-apart", "registration-order-prio", "gap-excused",
	"gap-any-cpu", "gap-other-cpu", "publish-window", "republished", "rollback-stopped",
	"rollback-order", "stop-event", "nr-to-call", "forged-name",
	"stray-return", "stray-end-type", "stray-end-val", "stray-end-inflight",
	"stray-nested-midtrace", "orphan-nested-same", "gap-missed-late",
	"gap-missed-old", "gap-migrate", "gap-reregister", "gap-register",
	"republished-midpass", "long-name", "no-events", "only-loss", "gap-zero",
	"rollback-begin-dropped", "rollback-begin-dropped-plain",
	SNAP_SCENARIOS
	ORDER_SCENARIOS
	"rollback-unknown", "probes-rollback-unknown", "probes-rollback-unknown-long",
	"reg-two-tasks", "probes-reg-two-tasks", "probes-reg-one-task",
	"probes-nr-to-call",
};
#define NR_SCENARIOS (sizeof(scenarios) / sizeof(scenarios[0]))

static const struct cs_trace_sym syms[] = {
	{ H1, "test_chain", "testmod" },
	{ H2, "nest_chain", "testmod" },
	{ CB_A, "cb_a", "testmod" },
	{ CB_B, "cb_b", "testmod" },
	{ CB_C, "cb_c", NULL },
	{ CB_D, "cb_d", NULL },
	{ CB_E, "cb_e", NULL },
};

static const struct cs_trace_sym forged_syms[] = {
	{ H1, "test_chain", "testmod" },
	{ CB_E, "cb_e\nevent 0: chain x: callback y: rule forged: z", NULL },
};

/* 511 name bytes and an offset: the longest name the reader takes */
#define LONG_NAME "cb_e_aaaaaaaaaaaaaaa" \
	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" \
	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" \
	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" \
	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaz" \
	"+0xffffffffffffffff"

static const struct cs_trace_sym long_syms[] = {
	{ H1, "test_chain", "testmod" },
	{ CB_E, LONG_NAME, NULL },
};

static int write_one(const char *name, const char *path)
{
	int err;

	now = 1000000;
	cur_task = TASK1;
	cur_cpu = 0;
	total_lost = total_missed = 0;
	w = cs_trace_open(path, 0, NULL);
	if (w && ((!strncmp(name, "probes-", 7) &&
		   cs_trace_set_source(w, CS_TRACE_SOURCE_PROBES)) ||
		  cs_trace_begin(w, "6.1.0-test", "00000000-1111-2222-3333-444444444444",
				 now - 500))) {
		cs_trace_discard(w);
		w = NULL;
		errno = EINVAL;
	}
	if (!w) {
		fprintf(stderr, "cs-gencheck: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (scenario(name)) {
		cs_trace_abort(w);
		remove(path);
		fprintf(stderr, "cs-gencheck: unknown scenario '%s'\n", name);
		return 2;
	}
	if (!strcmp(name, "forged-name"))
		err = cs_trace_finish(w, total_lost, total_missed, now, forged_syms,
				      sizeof(forged_syms) / sizeof(forged_syms[0]));
	else if (!strcmp(name, "long-name"))
		err = cs_trace_finish(w, 0, 0, now, long_syms,
				      sizeof(long_syms) / sizeof(long_syms[0]));
	else if (!strcmp(name, "only-loss"))
		err = cs_trace_finish(w, 5, 0, now, syms, sizeof(syms) / sizeof(syms[0]));
	else
		err = cs_trace_finish(w, total_lost, total_missed, now, syms,
				      sizeof(syms) / sizeof(syms[0]));
	if (err) {
		fprintf(stderr, "cs-gencheck: %s: %s\n", path, strerror(-err));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	char path[4096];
	size_t i;
	int rc;

	cs_trace_write_refused_strings(true);	/* crafted files, for the reader */
	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (i = 0; i < NR_SCENARIOS; i++)
			puts(scenarios[i]);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "--seeds")) {
		for (i = 0; i < NR_SCENARIOS; i++) {
			snprintf(path, sizeof(path), "%s/check-%s.cstrace", argv[2],
				 scenarios[i]);
			rc = write_one(scenarios[i], path);
			if (rc)
				return rc;
		}
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "bench")) {
		char *endp;
		unsigned long long n = strtoull(argv[2], &endp, 10);

		if (*endp || !n) {
			fprintf(stderr, "cs-gencheck: invalid event count '%s'\n", argv[2]);
			return 2;
		}
		return bench(n, argv[3]);
	}
	if (argc != 3) {
		fprintf(stderr, "usage: cs-gencheck SCENARIO FILE | --list | --seeds DIR | "
			"bench N FILE\n");
		return 2;
	}
	return write_one(argv[1], argv[2]);
}
