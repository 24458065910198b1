// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope check: the per-pass rules, on a pass check_pass.c paired.
 * Each run is judged as it comes: it must not follow a stop, must come
 * in priority order and, within a priority, in registration order (or
 * the order a snapshot listed), and a rollback's runs must be the robust
 * pass's. At its call_end a pass is judged whole: nr_calls, nr_to_call,
 * the stop event, the ret, and a rollback's length.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "checker_int.h"
#include "trace_helpers.h"

const char *const chk_call_types[] = { "plain", "robust", "rollback" };

void chk_group_index_free(struct frame *f)
{
	struct gnode *n, *tmp;

	HASH_ITER(hh, f->group_index, n, tmp) {
		HASH_DELETE(hh, f->group_index, n);
		free(n);
	}
}

static bool group_index_add(struct checker *ck, struct frame *f, size_t gi)
{
	struct gnode *n = malloc(sizeof(*n));

	if (!n)
		return false;
	n->prio = f->groups[gi].prio;
	n->gi = gi;
	HASH_ADD_INT(f->group_index, prio, n);
	if (ck->oom) {
		free(n);
		return false;
	}
	return true;
}

/* The group of runs with priority prio; NULL without memory. */
static struct group *group_of(struct checker *ck, struct frame *f, int prio)
{
	struct gnode *n;
	struct group *g;
	size_t i;

	if (f->nr_groups && f->groups[f->nr_groups - 1].prio == prio)
		return &f->groups[f->nr_groups - 1];
	if (f->disordered) {
		/* rare (a priority-order violation): index the groups */
		if (!f->group_index)
			for (i = 0; i < f->nr_groups; i++)
				if (!group_index_add(ck, f, i))
					return NULL;
		HASH_FIND_INT(f->group_index, &prio, n);
		if (n)
			return &f->groups[n->gi];
	}
	if (cs_grow(&f->groups, &f->cap_groups, f->nr_groups + 1, sizeof(*g)))
		return NULL;
	g = &f->groups[f->nr_groups++];
	g->prio = prio;
	g->max_seq = -1;
	g->max_idx = 0;
	g->max_snap = false;
	if (f->disordered && !group_index_add(ck, f, f->nr_groups - 1))
		return NULL;
	return g;
}

/*
 * Run e of pass f: its block found, and judged by whether it was gone and
 * the order it ran in (after a stop, by priority, by registration,
 * against the robust pass a rollback undoes). Its member, or NULL
 * without memory.
 */
struct member *chk_run_rules(struct checker *ck, struct frame *f,
			     const struct cs_rec_event *e, size_t idx)
{
	struct member *m;
	struct group *g;
	bool republished;
	struct run *r;

	/* passes of a chain mostly run its blocks in the same order */
	m = f->nr_runs && f->last_m ? f->last_m->next_run : NULL;
	if (!m || m->key.nb != e->nb || m->key.head != e->head) {
		m = chk_member_get(ck, e->head, e->nb);
		if (!m)
			return NULL;
		if (f->nr_runs && f->last_m)
			f->last_m->next_run = m;
	}
	/* (f->shared: which pass stopped, and which ran what, is not known) */
	if (f->stop_idx >= 0 && !f->shared)
		chk_violation(ck, idx, e->head, e->cb, "run-after-stop",
			      "ran after the pass stopped at event %lld", f->stop_idx);
	f->stop_due = false;	/* run-after-stop says it */
	/*
	 * Gone before the pass began (after_idx; file order is the ring's,
	 * record.md "Ordering"): a stale run, or published again. Not listed
	 * by the snapshot: the pass must have begun after the walk ended (by
	 * time: record, not the ring, writes it), else it may have read the
	 * list before the block left.
	 */
	republished = m->state == M_GONE && m->gone_idx < f->after_idx;
	if (republished && m->snap_state)
		republished = ck->t->events[f->after_idx].ts >
			      ck->t->events[m->gone_idx].ts;
	if (republished && !chk_gap_between(ck, m->gone_idx, idx)) {
		if (cs_grow(&m->sus, &m->cap_sus, m->nr_sus + 1, sizeof(*m->sus)))
			return NULL;
		m->sus[m->nr_sus++] = (struct suspect){ idx, f->after_idx, m->gone_idx,
							e->cb, m->snap_state, f->phantom };
	}
	if (m->state == M_UNKNOWN) {
		m->state = M_MEMBER;	/* on the chain, order unknown */
		m->at = idx;
		m->by_phantom = f->phantom;
	}
	m->ran = true;

	if (f->nr_runs && e->priority > f->last.prio && !f->shared) {
		r = &f->last;
		chk_violation(ck, idx, e->head, e->cb, "priority-order",
			      "priority %d ran after priority %d (event %zu) in the "
			      "pass of event %zu", e->priority, r->prio, r->idx,
			      f->begin_idx);
		f->disordered = true;
	}
	g = group_of(ck, f, e->priority);
	if (!g)
		return NULL;
	/*
	 * Judged by its registration only while it is on the chain and no
	 * membership event may have been lost since: a block unregistered
	 * (before or during this pass) may run published again, before the
	 * event of its new registration.
	 */
	if (m->state == M_MEMBER && m->seq >= 0 && !chk_gap_between(ck, m->seq, idx) &&
	    !f->shared) {
		if (g->max_seq <= m->seq) {
			g->max_seq = m->seq;
			g->max_task = m->seq_task;
			g->max_idx = idx;
			g->max_snap = m->snap_seq;
		} else if ((!ck->probes || m->snap_seq || g->max_snap ||
			    g->max_task == m->seq_task) &&
			   chk_snap_judge(ck, m, m->snap_seq || g->max_snap, UINT64_MAX)) {
			/*
			 * A snapshot record's index is the block's place. In
			 * probes mode the register events come from the API's
			 * fexit, after the lock is dropped: only one task's
			 * registrations are in link order there.
			 */
			chk_violation(ck, idx, e->head, e->cb, "registration-order",
				      "priority %d: block %s at event %lld ran after "
				      "the one %s at event %lld (event %zu)",
				      e->priority, m->snap_seq ? "listed by the snapshot" :
				      "registered", m->seq, g->max_snap ?
				      "listed by the snapshot" : "registered", g->max_seq,
				      g->max_idx);
		}
	}

	if (f->type == CALL_ROLLBACK && f->undo.valid && !f->undo.gapped &&
	    !f->gapped && !f->undo_reported && f->nr_runs < f->undo.nr_runs &&
	    f->undo.runs[f->nr_runs].nb != e->nb) {
		chk_violation(ck, idx, e->head, e->cb, "rollback", "rollback callback %zu "
			      "is not callback %zu of the robust pass (event %zu)",
			      f->nr_runs + 1, f->nr_runs + 1, f->undo.runs[f->nr_runs].idx);
		f->undo_reported = true;
	}

	return m;
}

/* The rules of a pass's end, f ended by its call_end e (not gapped) */
void chk_end_rules(struct checker *ck, const struct frame *f, const struct cs_rec_event *e,
		   size_t idx)
{
	const struct run *last = f->nr_runs ? &f->last : NULL;
	int want_ret = last ? last->ret : CS_NOTIFY_DONE;

	if (e->nr_calls != (int)f->nr_runs)
		chk_violation(ck, idx, f->head, 0, "nr-calls",
			      "%s pass of event %zu: call_end says nr_calls=%d, %zu "
			      "callbacks ran", chk_call_types[f->type], f->begin_idx,
			      e->nr_calls, f->nr_runs);
	if (f->type != CALL_ROLLBACK && f->nr_to_call >= 0 &&
	    f->nr_runs > (size_t)f->nr_to_call)
		chk_violation(ck, idx, f->head, 0, "nr-to-call",
			      "%s pass of event %zu: nr_to_call=%d, %zu callbacks ran",
			      chk_call_types[f->type], f->begin_idx, f->nr_to_call, f->nr_runs);
	if (f->stop_due)
		chk_violation(ck, idx, f->head, last->cb, "stop-event",
			      "no notifier_stop after the NOTIFY_STOP_MASK return of the "
			      "callback run at event %zu", last->idx);
	if (e->ret != want_ret) {
		bool stopped = e->ret & CS_NOTIFY_STOP_MASK;

		if (stopped != !!(want_ret & CS_NOTIFY_STOP_MASK))
			chk_violation(ck, idx, f->head, 0, "end-ret",
				      "%s pass of event %zu: call_end says %s (ret 0x%x), but "
				      "%s", chk_call_types[f->type], f->begin_idx,
				      stopped ? "stopped" : "not stopped", (unsigned int)e->ret,
				      !last ? "no callback ran" :
				      stopped ? "the last callback did not stop it" :
				      "the last callback stopped it");
		else if (last)
			chk_violation(ck, idx, f->head, 0, "end-ret",
				      "%s pass of event %zu: call_end ret 0x%x, the last "
				      "callback (event %zu) returned 0x%x", chk_call_types[f->type],
				      f->begin_idx, (unsigned int)e->ret, last->idx,
				      (unsigned int)last->ret);
		else
			chk_violation(ck, idx, f->head, 0, "end-ret",
				      "%s pass of event %zu: call_end ret 0x%x, no callback "
				      "ran (NOTIFY_DONE)", chk_call_types[f->type], f->begin_idx,
				      (unsigned int)e->ret);
	}
	if (f->type == CALL_ROLLBACK && f->undo.valid && !f->undo.gapped) {
		const struct robust *u = &f->undo;
		long long want = u->nr_calls > 0 ? (long long)u->nr_calls - 1 : 0;
		bool stopped = last && (last->ret & CS_NOTIFY_STOP_MASK);

		/* a val_down callback may stop the rollback itself */
		if ((long long)f->nr_runs > want ||
		    ((long long)f->nr_runs < want && !stopped))
			chk_violation(ck, idx, f->head, 0, "rollback",
				      "rollback pass of event %zu ran %zu callbacks, the "
				      "robust pass (ended at event %zu) stopped at callback "
				      "%d, so want %lld", f->begin_idx, f->nr_runs, u->end_idx,
				      u->nr_calls, want);
	}
}
