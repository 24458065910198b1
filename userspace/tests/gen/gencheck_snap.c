// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * cs-gencheck snap-NAME: traces that start with the chains' snapshots
 * (CS_REC_SNAPSHOT, version 3), for the snapshot rules of `chainscope
 * check` (check_snap.c). snap-NAME+nosnap writes the same events without
 * the snapshot records: what check could judge before (tests/sh/check.sh).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "gencheck.h"

#define SLACK_NS 100000000ULL	/* past CHK_SNAP_SLACK_NS (checker_int.h) */

static bool nosnap;

/* head's snapshot at time ts: the n blocks of b in call order */
static void snap_at(__u64 head, const struct blk *const *b, int n, int state, __u64 ts)
{
	struct cs_rec_event e = { .type = CS_REC_SNAPSHOT, .head = head, .ts = ts,
				  .kind = BLOCKING, .nr_to_call = n, .ret = state };
	int i;

	if (nosnap)
		return;
	if (!n)
		emit(&e);
	for (i = 0; i < n; i++) {
		e.nr_calls = i;
		e.cb = b[i]->cb;
		e.nb = b[i]->nb;
		e.priority = b[i]->prio;
		emit(&e);
	}
}

/* test_chain: A B C, nest_chain: D; then time passes (the walk's slack) */
static void snapshots(int state)
{
	static const struct blk *const h1[] = { &A, &B, &C }, *const h2[] = { &D };

	snap_at(H1, h1, 3, state, now);
	snap_at(H2, h2, 1, state, now);
	now += SLACK_NS;
}

static void member_err(int type, __u64 head, const struct blk *b, int err)
{
	struct cs_rec_event e = { .cb = b->cb, .nb = b->nb, .priority = b->prio,
				  .ret = err };

	put(&e, type, head);
}

static void pass(__u64 head, const struct blk *const *b, int n)
{
	int i;

	begin(head, PLAIN, VAL, -1);
	for (i = 0; i < n; i++)
		cb(head, VAL, b[i], NOTIFY_OK);
	end(head, PLAIN, VAL, -1, NOTIFY_OK, n);
}

int snap_scenario(const char *full)
{
	static const struct blk *const abc[] = { &A, &B, &C }, *const ab[] = { &A, &B },
				    *const acb[] = { &A, &C, &B }, *const ac[] = { &A, &C },
				    *const ae[] = { &A, &E }, *const abce[] = { &A, &B, &C, &E },
				    *const d[] = { &D };
	char name[64];
	size_t len = strlen(full);

	nosnap = len > 7 && !strcmp(full + len - 7, "+nosnap");
	if (nosnap)
		len -= 7;
	if (len >= sizeof(name))
		return -1;
	memcpy(name, full, len);
	name[len] = '\0';

	if (!strcmp(name, "clean")) {
		/* the order of B and C (priority 0) is the snapshot's */
		snapshots(CS_REC_SNAP_STABLE);
		pass(H1, abc, 3);
		pass(H2, d, 1);
		member(CS_REC_UNREGISTER, H1, &C);
		pass(H1, ab, 2);
		member(CS_REC_REGISTER, H1, &C);
		pass(H1, abc, 3);
	} else if (!strcmp(name, "order")) {
		/* the chain holds C before B: B C is out of order */
		snap_at(H1, acb, 3, CS_REC_SNAP_STABLE, now);
		now += SLACK_NS;
		pass(H1, abc, 3);
	} else if (!strcmp(name, "unlisted-first")) {
		/* the first event runs E, which test_chain does not hold */
		snapshots(CS_REC_SNAP_STABLE);
		pass(H1, ae, 2);
	} else if (!strcmp(name, "unlisted-registered")) {
		/* E runs published, just before its register event: legal */
		snapshots(CS_REC_SNAP_STABLE);
		pass(H1, abce, 4);
		member(CS_REC_REGISTER, H1, &E);
		pass(H1, abce, 4);
	} else if (!strcmp(name, "register-listed")) {
		snapshots(CS_REC_SNAP_STABLE);
		member(CS_REC_REGISTER, H1, &B);
		pass(H1, abc, 3);
	} else if (!strcmp(name, "register-slack")) {
		/* right after the walk: it may have seen B published already */
		snap_at(H1, abc, 3, CS_REC_SNAP_STABLE, now);
		member(CS_REC_REGISTER, H1, &B);
		now += SLACK_NS;
		pass(H1, ac, 2);
		pass(H1, acb, 3);
	} else if (!strcmp(name, "unregister-unlisted")) {
		snapshots(CS_REC_SNAP_STABLE);
		member(CS_REC_UNREGISTER, H1, &E);
	} else if (!strcmp(name, "enoent")) {
		snapshots(CS_REC_SNAP_STABLE);
		member_err(CS_REC_UNREGISTER_ERROR, H1, &A, -2);	/* -ENOENT */
	} else if (!strcmp(name, "eexist")) {
		snapshots(CS_REC_SNAP_STABLE);
		member_err(CS_REC_REGISTER_ERROR, H1, &E, -17);	/* -EEXIST */
	} else if (!strcmp(name, "unstable")) {
		/* C before B and no E, but the walk was not stable: unknown */
		snap_at(H1, acb, 3, CS_REC_SNAP_UNSTABLE, now);
		now += SLACK_NS;
		pass(H1, abce, 4);
	} else if (!strcmp(name, "before-walk")) {
		/* the walk ended after this pass began: E may have left since */
		snap_at(H1, abc, 3, CS_REC_SNAP_STABLE, now + SLACK_NS);
		pass(H1, ae, 2);
		now += 2 * SLACK_NS;	/* the recording ends after the walk */
	} else if (!strcmp(name, "midtrace")) {
		/* a head walked later in the recording: B left in between */
		member(CS_REC_REGISTER, H1, &A);
		member(CS_REC_REGISTER, H1, &B);
		member(CS_REC_REGISTER, H1, &C);
		pass(H1, abc, 3);
		snap_at(H1, ac, 2, CS_REC_SNAP_STABLE, now);
		now += SLACK_NS;
		pass(H1, abc, 3);
	} else if (!strcmp(name, "phantom-unlisted")) {
		/*
		 * While the recorder stops (no call_begin follows), a pass of
		 * test_chain nests in D's callback, its call_begin dropped;
		 * D began running after the walk, so did the nested pass: it
		 * runs E, which the snapshot does not list and nothing
		 * registers
		 */
		snapshots(CS_REC_SNAP_STABLE);
		begin(H2, PLAIN, VAL, -1);
		run(H2, VAL, &D);
		cb(H1, VAL, &A, NOTIFY_OK);
		cb(H1, VAL, &E, NOTIFY_OK);
		end(H1, PLAIN, VAL, -1, NOTIFY_OK, 2);
		ret(H2, VAL, &D, NOTIFY_OK);
		end(H2, PLAIN, VAL, -1, NOTIFY_OK, 1);
	} else if (!strcmp(name, "only")) {
		snapshots(CS_REC_SNAP_STABLE);
		snap_at(H2 + 0x100, NULL, 0, CS_REC_SNAP_STABLE, now);
	} else {
		return -1;
	}
	return 0;
}
