// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * cs-gencheck order-NAME: runs of a block around its membership events,
 * for the ordering rule of `chainscope check` (userspace/record.md,
 * "Ordering"): notifier_register fires after the block is published and
 * notifier_unregister after it is unlinked, before the grace period ends.
 * A run before the register event, or after the unregister event in a
 * pass that began before it, is legal; a run in a pass that began after
 * the unregister event is legal only if the block's next membership event
 * registers it again (tests/sh/check.sh says what each must give).
 *
 * test_chain holds A (10), B, C (0) at the start; E (0) is not on it.
 */
#include <string.h>

#include "gencheck.h"

#define TASK3 0xffff888000300000ULL	/* a third writer (pid as task 2's) */

static void registrations(void)
{
	member(CS_REC_REGISTER, H1, &A);
	member(CS_REC_REGISTER, H1, &B);
	member(CS_REC_REGISTER, H1, &C);
}

/* one event of the other task (a writer) */
static void other(int type, __u64 head, const struct blk *b)
{
	cur_task = TASK2;
	member(type, head, b);
	cur_task = TASK1;
}

/* a failed unregister (-ENOENT) of b on test_chain, by task */
static void enoent(const struct blk *b, __u64 task)
{
	struct cs_rec_event e = { .cb = b->cb, .nb = b->nb, .priority = b->prio,
				  .ret = -2 };

	cur_task = task;
	put(&e, CS_REC_UNREGISTER_ERROR, H1);
	cur_task = TASK1;
}

int order_scenario(const char *name)
{
	if (!strcmp(name, "register-midpass")) {
		/*
		 * clean: E is registered while a pass walks; the pass (begun
		 * before the event) runs it after the event, the next pass
		 * too, behind B and C (registration order)
		 */
		registrations();
		begin(H1, PLAIN, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_OK);
		other(CS_REC_REGISTER, H1, &E);
		cb(H1, VAL, &B, NOTIFY_OK);
		cb(H1, VAL, &C, NOTIFY_OK);
		cb(H1, VAL, &E, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 4);
		begin(H1, PLAIN, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_OK);
		cb(H1, VAL, &B, NOTIFY_OK);
		cb(H1, VAL, &C, NOTIFY_OK);
		cb(H1, VAL, &E, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 4);
	} else if (!strcmp(name, "run-before-register")) {
		/*
		 * clean: E is published while a pass is open and runs there
		 * before its notifier_register event
		 */
		registrations();
		begin(H1, PLAIN, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_OK);
		cb(H1, VAL, &B, NOTIFY_OK);
		cb(H1, VAL, &C, NOTIFY_OK);
		cb(H1, VAL, &E, NOTIFY_OK);
		other(CS_REC_REGISTER, H1, &E);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 4);
	} else if (!strcmp(name, "unregister-midpass")) {
		/*
		 * clean: C is unregistered while a pass walks; the pass (begun
		 * before the event) still runs it: the grace period waits for
		 * that pass
		 */
		registrations();
		begin(H1, PLAIN, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_OK);
		other(CS_REC_UNREGISTER, H1, &C);
		cb(H1, VAL, &B, NOTIFY_OK);
		cb(H1, VAL, &C, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 3);
	} else if (!strcmp(name, "unregistered-before-pass")) {
		/*
		 * E's only membership event is its unregister; a pass that
		 * began after it runs E, and nothing registers E again
		 */
		registrations();
		other(CS_REC_UNREGISTER, H1, &E);
		begin(H1, PLAIN, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_OK);
		cb(H1, VAL, &B, NOTIFY_OK);
		cb(H1, VAL, &C, NOTIFY_OK);
		cb(H1, VAL, &E, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 4);
	} else if (!strcmp(name, "enoent-then-register")) {
		/*
		 * As judged-at-enoent, but a register and an unregister of C
		 * follow the -ENOENT. Impossible from tracepoints (C was not
		 * on the chain at the -ENOENT, so not when it ran either). In
		 * a probes recording (membership records at the API's fexit,
		 * after the lock) it is three writers' records out of order:
		 * task 2 published C before the pass, task 3 unlinked it
		 * again, task 1 got -ENOENT; task 1's record came first, then
		 * task 2's, then task 3's.
		 */
		registrations();
		other(CS_REC_UNREGISTER, H1, &C);
		begin(H1, PLAIN, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_OK);
		cb(H1, VAL, &B, NOTIFY_OK);
		cb(H1, VAL, &C, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 3);
		enoent(&C, TASK1);
		other(CS_REC_REGISTER, H1, &C);
		cur_task = TASK3;
		member(CS_REC_UNREGISTER, H1, &C);
		cur_task = TASK1;
	} else if (!strcmp(name, "judged-at-enoent")) {
		/*
		 * C runs in a pass that began after its unregister; its next
		 * membership event is a failed unregister (-ENOENT), not a
		 * registration: the run was stale
		 */
		registrations();
		other(CS_REC_UNREGISTER, H1, &C);
		begin(H1, PLAIN, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_OK);
		cb(H1, VAL, &B, NOTIFY_OK);
		cb(H1, VAL, &C, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 3);
		enoent(&C, TASK2);
		other(CS_REC_REGISTER, H1, &C);
	} else if (!strcmp(name, "rollback-after-unregister")) {
		/*
		 * A robust pass began before A's unregister, its rollback
		 * after it: a rollback walks the chain from its head again,
		 * so it cannot reach A
		 */
		registrations();
		begin(H1, ROBUST, VAL, -1);
		cb(H1, VAL, &A, NOTIFY_OK);
		cb(H1, VAL, &B, NOTIFY_BAD);
		stop(H1, VAL, &B, NOTIFY_BAD, 2);
		end(H1, ROBUST, VAL, -1, NOTIFY_BAD, 2);
		other(CS_REC_UNREGISTER, H1, &A);
		begin(H1, ROLLBACK, VAL_DOWN, 1);
		cb(H1, VAL_DOWN, &A, NOTIFY_OK);
		end(H1, ROLLBACK, VAL_DOWN, 1, NOTIFY_OK, 1);
	} else if (!strcmp(name, "phantom-unregister") ||
		   !strcmp(name, "phantom-unregister-before")) {
		/*
		 * While the recorder stops (no call_begin follows), a pass of
		 * nest_chain nests in A's callback, its call_begin dropped. D
		 * is unregistered after A began running: the nested pass may
		 * have begun before that, so its run of D is legal. In the
		 * -before twin D left before A ran: the nested pass began
		 * after the unregister.
		 */
		registrations();
		member(CS_REC_REGISTER, H2, &D);
		if (!strcmp(name, "phantom-unregister-before"))
			other(CS_REC_UNREGISTER, H2, &D);
		begin(H1, PLAIN, VAL, -1);
		run(H1, VAL, &A);
		if (!strcmp(name, "phantom-unregister"))
			other(CS_REC_UNREGISTER, H2, &D);
		cb(H2, VAL, &D, NOTIFY_OK);
		end(H2, PLAIN, VAL, -1, NOTIFY_OK, 1);
		ret(H1, VAL, &A, NOTIFY_OK);
		cb(H1, VAL, &B, NOTIFY_OK);
		cb(H1, VAL, &C, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 3);
	} else {
		return -1;
	}
	return 0;
}
