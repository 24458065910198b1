// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope check: chain snapshots (CS_REC_SNAPSHOT, trace version 3).
 *
 * `record` walks each chain when it starts (or when it first sees a head)
 * and stores what was on it, in call order. From the snapshot on, the
 * chain's membership is known without a register event: a listed block is
 * on the chain, its record's index is its place in the registration order
 * (a later registration goes after it), and a block not listed is not on
 * the chain. The rules of checker.c and check_rules.c then judge the
 * chain's events from the first one:
 *
 *   membership-register / -unregister / -eexist / -enoent  against the
 *     snapshot, for events more than CHK_SNAP_SLACK_NS after the walk;
 *   registration-order  between listed blocks of one priority, and a
 *     listed block before one registered later;
 *   run-not-member  a block the snapshot does not list runs in a pass
 *     that began after the walk, and its next membership event does not
 *     register it (it may run published, just before that event).
 *
 * An unstable snapshot (writers changed the chain while it was walked)
 * still seeds membership, but what a rule would find on its word alone is
 * counted as unknown (the summary's `snapshots:` line), never reported as
 * a violation.
 */
#include <errno.h>
#include <stdlib.h>

#include "checker_int.h"

const struct snaphead *chk_snap_of(const struct checker *ck, __u64 head)
{
	struct snaphead *sh;

	HASH_FIND(hh, ck->snaps, &head, sizeof(head), sh);
	return sh;
}

void chk_member_init(struct checker *ck, struct member *m)
{
	const struct snaphead *sh = chk_snap_of(ck, m->key.head);

	if (!sh)
		return;
	m->state = M_GONE;	/* not listed */
	m->gone_idx = m->at = sh->idx;
	m->snap_state = true;
}

bool chk_snap_judge(struct checker *ck, const struct member *m, bool by_snap, __u64 ts)
{
	const struct snaphead *sh;

	if (!by_snap)
		return true;
	sh = chk_snap_of(ck, m->key.head);
	if (!sh)
		return true;
	/* (ts - sh->ts: a walk stamped near 2^64 must not wrap the slack) */
	if (ts <= sh->ts || ts - sh->ts <= CHK_SNAP_SLACK_NS)
		return false;	/* the walk may have seen this change already */
	if (sh->unstable) {
		ck->s->snap_unknown++;
		return false;
	}
	return true;
}

/* What the snapshot does not list has left the chain (as of its walk). */
static void snapshot_begins(struct checker *ck, const struct snaphead *sh)
{
	struct member *m;

	for (m = ck->members; m; m = m->hh.next) {
		if (m->key.head != sh->head)
			continue;
		m->state = M_GONE;
		m->gone_idx = m->at = sh->idx;
		m->snap_state = true;
		m->snap_seq = false;
	}
}

int chk_on_snapshot(struct checker *ck, const struct cs_rec_event *e, size_t idx)
{
	struct snaphead *sh;
	struct member *m;

	ck->s->snapshot_records++;
	if (!e->nr_calls) {	/* its first record (the reader checked the rest) */
		sh = calloc(1, sizeof(*sh));
		if (!sh)
			return -ENOMEM;
		sh->head = e->head;
		sh->idx = idx;
		sh->ts = e->ts;
		sh->unstable = e->ret == CS_REC_SNAP_UNSTABLE;
		HASH_ADD(hh, ck->snaps, head, sizeof(sh->head), sh);
		if (ck->oom) {
			free(sh);
			return -ENOMEM;
		}
		ck->s->snapshots++;
		ck->s->snapshots_unstable += sh->unstable;
		snapshot_begins(ck, sh);
	}
	if (!e->nr_to_call)
		return 0;	/* an empty chain */
	ck->s->snapshot_blocks++;
	m = chk_member_get(ck, e->head, e->nb);
	if (!m)
		return -ENOMEM;
	/* runs after its unregister: it was published again since */
	if (m->nr_sus)
		chk_judge_suspects(ck, m, true, idx);
	m->state = M_MEMBER;
	m->seq = idx;
	m->at = idx;
	m->snap_state = m->snap_seq = true;
	return 0;
}

void chk_snaps_free(struct checker *ck)
{
	struct snaphead *sh, *tmp;

	HASH_ITER(hh, ck->snaps, sh, tmp) {
		HASH_DELETE(hh, ck->snaps, sh);
		free(sh);
	}
}
