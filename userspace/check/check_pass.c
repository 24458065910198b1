// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope check: pairing passes and the per-pass rules (checker.c has
 * the event loop).
 *
 * Passes are paired per (task, execution context) on a stack of frames,
 * each frame keyed by (head, val, call type). In a complete trace every
 * run, return, stop and call_end belongs to the innermost open pass: the
 * passes below it wait in a callback. So an event only ever matches the
 * top frame: a run when no callback of it is in flight, a return or stop
 * of the callback that is, a call_end when none is. Anything else is an
 * orphan of a pass whose call_begin is not in the trace (it began before
 * recording, or the recorder was detaching); it is counted, and never
 * attributed to a deeper frame. The one exception: when the top pass has
 * finished its walk and the callback it ran in returns, its call_end is
 * missing (begin-without-end) and the return goes to the pass below.
 *
 * A stopped robust pass waits, in the slot of its nesting depth (the
 * frame it ran in, or the stack's base), for the rollback pass that must
 * come next at that depth; the rollback takes it over, so passes nested
 * in rollback callbacks have slots of their own.
 *
 * When the task's CPU lost events since its previous event (a loss
 * marker, checker.c), its open passes and a robust pass waiting for its
 * rollback are excused from the pairing rules, and its orphans are put
 * down to the gap until its next call_begin.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "checker_int.h"

static const char *const call_types[] = { "plain", "robust", "rollback" };

static void robust_gap(struct robust *r)
{
	if (r->valid)
		r->gapped = true;
}

/* The stack may have lost events: suspend the pairing rules of what is open. */
static void stack_gap(struct stack *st)
{
	size_t d;

	st->resync = true;
	robust_gap(&st->base);
	for (d = 0; d < st->depth; d++) {
		st->f[d].gapped = true;
		robust_gap(&st->f[d].undo);
		robust_gap(&st->f[d].child);
	}
}

static struct stack *stack_get(struct checker *ck, __u64 task, __u32 ctx, __u32 cpu)
{
	struct stack **cached = &ck->cpu_stack[cpu % CHK_CPU_CACHE];
	struct skey k = { task, ctx, 0 };
	struct stack *st = *cached;

	/* a CPU mostly goes on with the task it ran last */
	if (st && st->key.task == task && st->key.ctx == ctx)
		return st;
	HASH_FIND(hh, ck->stacks, &k, sizeof(k), st);
	if (!st) {
		st = calloc(1, sizeof(*st));
		if (!st)
			return NULL;
		st->key = k;
		st->last_idx = -1;
		HASH_ADD(hh, ck->stacks, key, sizeof(k), st);
		if (ck->oom) {
			free(st);
			return NULL;
		}
	}
	*cached = st;
	return st;
}

static struct frame *top(struct stack *st)
{
	return st->depth ? &st->f[st->depth - 1] : NULL;
}

/* where a stopped robust pass at the current depth waits for its rollback */
static struct robust *child_slot(struct stack *st)
{
	return st->depth ? &st->f[st->depth - 1].child : &st->base;
}

static void robust_free(struct robust *r)
{
	free(r->runs);
}

static void swap_runs(struct run **a, size_t *cap_a, struct run **b, size_t *cap_b)
{
	struct run *r = *a;
	size_t c = *cap_a;

	*a = *b;
	*cap_a = *cap_b;
	*b = r;
	*cap_b = c;
}

/* A stopped robust pass that no rollback followed: `why` ended the wait. */
static void settle_robust(struct checker *ck, struct robust *r, const char *why,
			  size_t idx)
{
	if (!r->valid)
		return;
	r->valid = false;
	if (r->gapped) {
		if (!r->gap_counted)
			ck->s->gap_passes++;
		return;
	}
	chk_violation(ck, r->end_idx, r->head, 0, "missing-rollback",
		      "robust pass stopped (ret 0x%x after %d callbacks) and no rollback "
		      "pass followed (%s at event %zu)", (unsigned int)r->ret, r->nr_calls,
		      why, idx);
}

static void group_index_free(struct frame *f)
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

/* A frame slot for a new pass; the buffers of its last use are kept. */
static void frame_reset(struct frame *f)
{
	group_index_free(f);
	f->nr_runs = 0;
	f->nr_groups = 0;
	f->in_flight = f->stop_due = f->disordered = f->gapped = false;
	f->undo_reported = false;
	f->phantom = false;
	f->rb_stray = -1;
	f->stop_idx = -1;
	f->undo.valid = false;
	f->child.valid = false;
}

static void frame_free(struct frame *f)
{
	group_index_free(f);
	free(f->runs);
	free(f->groups);
	robust_free(&f->undo);
	robust_free(&f->child);
}

/* Drop the top frame, which has no call_end. */
static const char *type_name(const struct frame *f)
{
	return f->phantom ? "unrecorded" : call_types[f->type];
}

static void pop_unended(struct checker *ck, struct stack *st, const char *why,
			size_t idx)
{
	struct frame *f = top(st);

	settle_robust(ck, &f->child, "its outer pass lost track", idx);
	if (f->gapped)
		ck->s->gap_passes++;
	else
		chk_violation(ck, f->begin_idx, f->head, 0, "begin-without-end",
			      "%s pass has no call_end (%s at event %zu)",
			      type_name(f), why, idx);
	st->depth--;
}

static void orphan(struct checker *ck, struct stack *st, unsigned long long *count)
{
	if (st->resync)
		ck->s->gap_orphans++;
	else
		(*count)++;
}

static bool frame_is(const struct frame *f, const struct cs_rec_event *e)
{
	return f->head == e->head && f->val == e->val;
}

static const char *const ev_names[] = {
	[CS_REC_RUN] = "notifier_run", [CS_REC_RETURN] = "notifier_return",
	[CS_REC_STOP] = "notifier_stop", [CS_REC_CALL_END] = "call_end",
};

/*
 * e fits no open pass of its task, and pass f (the innermost) is open.
 * A pass whose call_begin is not in the trace could explain it only if
 * it began after f's callback (in flight: nest_ok), while the recorder
 * was stopping; or if events were lost. Else it is a violation.
 */
static void stray(struct checker *ck, struct stack *st, const struct frame *f,
		  const struct cs_rec_event *e, size_t idx, bool nest_ok,
		  unsigned long long *count)
{
	if (st->resync) {
		ck->s->gap_orphans++;
		return;
	}
	if (nest_ok && chk_stopping_phase(ck, idx)) {
		(*count)++;
		return;
	}
	ck->s->stray_events++;
	chk_violation(ck, idx, e->head, e->type == CS_REC_CALL_END ? 0 : e->cb,
		      "stray-event", "%s (val %llu) fits no open pass of its task: "
		      "the innermost is the %s pass of event %zu%s%s", ev_names[e->type],
		      (unsigned long long)e->val, type_name(f), f->begin_idx,
		      !f->in_flight ? ", between callbacks" :
		      ", in a callback", nest_ok ? ", and passes still begin later" : "");
}

/* an event of a pass without call_begin (f->phantom): an orphan */
static void phantom_event(struct checker *ck, const struct frame *f,
			  unsigned long long *count)
{
	if (f->gapped)
		ck->s->gap_orphans++;
	else
		(*count)++;
}

/* A frame slot on top of the stack; NULL without memory. */
static struct frame *push_frame(struct checker *ck, struct stack *st)
{
	struct frame *f;

	if (!st->cap && ck->nr_pool) {
		ck->nr_pool--;
		st->f = ck->pool[ck->nr_pool].f;
		st->cap = ck->pool[ck->nr_pool].cap;
	}
	if (!chk_grow((void **)&st->f, &st->cap, st->depth, sizeof(*f)))
		return NULL;
	f = &st->f[st->depth++];
	frame_reset(f);
	return f;
}

/*
 * A pass whose call_begin is not in the trace, nested in the callback in
 * flight; e is its first event. Paired like any other, never counted as
 * checked; its events count as orphans.
 */
static struct frame *push_phantom(struct checker *ck, struct stack *st,
				  const struct cs_rec_event *e, size_t idx)
{
	/* (callers push a phantom only on a pass with a callback in flight) */
	size_t after = st->depth ? top(st)->last.idx : idx;
	struct frame *f = push_frame(ck, st);

	if (!f)
		return NULL;
	f->head = e->head;
	f->val = e->val;
	f->begin_idx = idx;
	f->after_idx = after;
	f->type = CALL_PLAIN;	/* its call_end tells */
	f->nr_to_call = -1;
	f->phantom = true;
	f->gapped = st->resync;
	return f;
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
	if (!chk_grow((void **)&f->groups, &f->cap_groups, f->nr_groups, sizeof(*g)))
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

static int on_run(struct checker *ck, struct stack *st, const struct cs_rec_event *e,
		  size_t idx)
{
	struct frame *f = top(st);
	struct member *m;
	struct group *g;
	bool republished;
	struct run *r;

	if (!f) {
		orphan(ck, st, &ck->s->orphan_runs);
		return 0;
	}
	if (f->in_flight) {
		/*
		 * The first callback of a pass nested in f's. A robust pass
		 * of the chain stopped there: this may be its rollback, whose
		 * call_begin the recorder dropped as it stopped (it decides by
		 * when it reads an event, which may lag): judged at its end.
		 */
		bool undo = f->child.valid && f->child.head == e->head &&
			    !st->resync && !chk_stopping_phase(ck, idx);

		if (undo)
			ck->s->orphan_runs++;
		else
			stray(ck, st, f, e, idx, true, &ck->s->orphan_runs);
		f = push_phantom(ck, st, e, idx);
		if (!f)
			return -ENOMEM;
		if (undo)
			f->rb_stray = idx;
	} else if (!frame_is(f, e)) {
		stray(ck, st, f, e, idx, false, &ck->s->orphan_runs);
		return 0;
	} else if (f->phantom) {
		phantom_event(ck, f, &ck->s->orphan_runs);
	}
	/* passes of a chain mostly run its blocks in the same order */
	m = f->nr_runs && f->last_m ? f->last_m->next_run : NULL;
	if (!m || m->key.nb != e->nb || m->key.head != e->head) {
		m = chk_member_get(ck, e->head, e->nb);
		if (!m)
			return -ENOMEM;
		if (f->nr_runs && f->last_m)
			f->last_m->next_run = m;
	}
	if (f->stop_idx >= 0)
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
		if (!chk_grow((void **)&m->sus, &m->cap_sus, m->nr_sus, sizeof(*m->sus)))
			return -ENOMEM;
		m->sus[m->nr_sus++] = (struct suspect){ idx, f->after_idx, m->gone_idx,
							e->cb, m->snap_state, f->phantom };
	}
	if (m->state == M_UNKNOWN) {
		m->state = M_MEMBER;	/* on the chain, order unknown */
		m->at = idx;
	}

	if (f->nr_runs && e->priority > f->last.prio) {
		r = &f->last;
		chk_violation(ck, idx, e->head, e->cb, "priority-order",
			      "priority %d ran after priority %d (event %zu) in the "
			      "pass of event %zu", e->priority, r->prio, r->idx,
			      f->begin_idx);
		f->disordered = true;
	}
	g = group_of(ck, f, e->priority);
	if (!g)
		return -ENOMEM;
	/*
	 * Judged by its registration only while it is on the chain and no
	 * membership event may have been lost since: a block unregistered
	 * (before or during this pass) may run published again, before the
	 * event of its new registration.
	 */
	if (m->state == M_MEMBER && m->seq >= 0 && !chk_gap_between(ck, m->seq, idx)) {
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

	f->last = (struct run){ idx, e->cb, e->nb, e->priority, 0 };
	f->last_m = m;
	if (f->type == CALL_ROBUST || f->phantom) {	/* (a phantom's type comes last) */
		if (!chk_grow((void **)&f->runs, &f->cap_runs, f->nr_runs, sizeof(*r)))
			return -ENOMEM;
		f->runs[f->nr_runs] = f->last;
	}
	f->nr_runs++;
	f->in_flight = true;
	return 0;
}

static void on_return(struct checker *ck, struct stack *st, const struct cs_rec_event *e,
		      size_t idx)
{
	struct frame *f = top(st);

	/* the pass's walk is over but not its call_end: the outer callback returned */
	if (f && !f->in_flight && st->depth >= 2) {
		struct frame *o = &st->f[st->depth - 2];

		if (o->in_flight && frame_is(o, e) && o->last.nb == e->nb) {
			pop_unended(ck, st, "the callback it ran in returned", idx);
			f = o;
		}
	}
	if (!f) {
		orphan(ck, st, &ck->s->orphan_returns);
		return;
	}
	if (!f->in_flight || !frame_is(f, e) || f->last.nb != e->nb) {
		stray(ck, st, f, e, idx, false, &ck->s->orphan_returns);
		return;
	}
	if (f->phantom)
		phantom_event(ck, f, &ck->s->orphan_returns);
	settle_robust(ck, &f->child, "the callback it ran in returned", idx);
	f->last.ret = e->ret;
	f->in_flight = false;
	if (e->ret & CS_NOTIFY_STOP_MASK) {
		f->stop_due = true;
		if (f->stop_idx < 0)
			f->stop_idx = idx;
	}
}

static void on_stop(struct checker *ck, struct stack *st, const struct cs_rec_event *e,
		    size_t idx)
{
	struct frame *f = top(st);
	const struct run *r;

	if (!f) {
		orphan(ck, st, &ck->s->orphan_stops);
		return;
	}
	if (f->in_flight || !f->nr_runs || !frame_is(f, e) || f->last.nb != e->nb) {
		stray(ck, st, f, e, idx, false, &ck->s->orphan_stops);
		return;
	}
	if (f->phantom)
		phantom_event(ck, f, &ck->s->orphan_stops);
	r = &f->last;
	if (!f->gapped) {
		if (!f->stop_due)
			chk_violation(ck, idx, e->head, e->cb, "stop-event",
				      "notifier_stop, but its return (event %zu) was 0x%x, "
				      "without NOTIFY_STOP_MASK%s", r->idx, (unsigned int)r->ret,
				      f->stop_idx >= 0 ? " or it was stopped already" : "");
		else if (e->ret != r->ret || e->nr_calls != (int)f->nr_runs)
			chk_violation(ck, idx, e->head, e->cb, "stop-event",
				      "notifier_stop says ret 0x%x after %d callbacks, the "
				      "pass saw 0x%x after %zu", (unsigned int)e->ret,
				      e->nr_calls, (unsigned int)r->ret, f->nr_runs);
	}
	f->stop_due = false;
	if (f->stop_idx < 0)
		f->stop_idx = idx;
}

static int on_begin(struct checker *ck, struct stack *st, const struct cs_rec_event *e,
		    size_t idx)
{
	struct robust *p;
	struct frame *f;

	/* nesting needs a callback in flight in the pass below */
	while (st->depth && !top(st)->in_flight)
		pop_unended(ck, st, "next call_begin on this task", idx);
	p = child_slot(st);
	if (p->valid && (e->call_type != CALL_ROLLBACK || p->head != e->head))
		settle_robust(ck, p, "another call_begin", idx);

	f = push_frame(ck, st);
	if (!f)
		return -ENOMEM;
	p = st->depth >= 2 ? &st->f[st->depth - 2].child : &st->base;
	f->head = e->head;
	f->val = e->val;
	f->begin_idx = f->after_idx = idx;
	f->type = e->call_type;
	f->nr_to_call = e->nr_to_call;

	if (f->type == CALL_ROLLBACK) {
		if (p->valid) {
			/* take the robust pass over (swapping buffers) */
			swap_runs(&f->undo.runs, &f->undo.cap_runs, &p->runs, &p->cap_runs);
			f->undo.valid = true;
			f->undo.gapped = p->gapped;
			f->undo.gap_counted = p->gap_counted;
			f->undo.head = p->head;
			f->undo.end_idx = p->end_idx;
			f->undo.ret = p->ret;
			f->undo.nr_calls = p->nr_calls;
			f->undo.nr_runs = p->nr_runs;
			p->valid = false;
			/* (probes: -1, unknown; the runs are judged at its end) */
			if (!f->undo.gapped && !(ck->probes && f->nr_to_call < 0) &&
			    (long long)f->nr_to_call != (long long)f->undo.nr_calls - 1)
				chk_violation(ck, idx, e->head, 0, "rollback",
					      "rollback pass has nr_to_call=%d, the robust pass "
					      "(ended at event %zu) stopped at callback %d",
					      f->nr_to_call, f->undo.end_idx, f->undo.nr_calls);
		} else if (st->resync) {
			ck->s->gap_passes++;
		} else {
			chk_violation(ck, idx, e->head, 0, "rollback",
				      "rollback pass follows no stopped robust pass of this "
				      "chain");
		}
	}
	st->resync = false;
	return 0;
}

/* A pass ended with its call_end e: apply the per-pass rules. */
static void finish_pass(struct checker *ck, struct stack *st, struct frame *f,
			const struct cs_rec_event *e, size_t idx)
{
	const struct run *last = f->nr_runs ? &f->last : NULL;
	int want_ret = last ? last->ret : CS_NOTIFY_DONE;
	struct robust *p;

	if (f->phantom) {
		f->type = e->call_type;
		phantom_event(ck, f, &ck->s->orphan_ends);
		/* a rollback whose call_begin the recorder dropped */
		p = child_slot(st);
		if (f->type == CALL_ROLLBACK && p->valid && p->head == f->head)
			p->valid = false;
		else if (f->rb_stray >= 0) {
			ck->s->orphan_runs--;	/* a stray after all */
			stray(ck, st, top(st), &ck->t->events[f->rb_stray], f->rb_stray,
			      true, &ck->s->orphan_runs);
		}
	} else {
		ck->s->passes++;
	}
	settle_robust(ck, &f->child, "its outer pass ended", idx);
	if (f->gapped) {
		ck->s->gap_passes++;
		goto robust;
	}
	if (e->nr_calls != (int)f->nr_runs)
		chk_violation(ck, idx, f->head, 0, "nr-calls",
			      "%s pass of event %zu: call_end says nr_calls=%d, %zu "
			      "callbacks ran", call_types[f->type], f->begin_idx,
			      e->nr_calls, f->nr_runs);
	if (f->type != CALL_ROLLBACK && f->nr_to_call >= 0 &&
	    f->nr_runs > (size_t)f->nr_to_call)
		chk_violation(ck, idx, f->head, 0, "nr-to-call",
			      "%s pass of event %zu: nr_to_call=%d, %zu callbacks ran",
			      call_types[f->type], f->begin_idx, f->nr_to_call, f->nr_runs);
	if (f->stop_due)
		chk_violation(ck, idx, f->head, last->cb, "stop-event",
			      "no notifier_stop after the NOTIFY_STOP_MASK return of the "
			      "callback run at event %zu", last->idx);
	if (e->ret != want_ret) {
		bool stopped = e->ret & CS_NOTIFY_STOP_MASK;

		if (stopped != !!(want_ret & CS_NOTIFY_STOP_MASK))
			chk_violation(ck, idx, f->head, 0, "end-ret",
				      "%s pass of event %zu: call_end says %s (ret 0x%x), but "
				      "%s", call_types[f->type], f->begin_idx,
				      stopped ? "stopped" : "not stopped", (unsigned int)e->ret,
				      !last ? "no callback ran" :
				      stopped ? "the last callback did not stop it" :
				      "the last callback stopped it");
		else if (last)
			chk_violation(ck, idx, f->head, 0, "end-ret",
				      "%s pass of event %zu: call_end ret 0x%x, the last "
				      "callback (event %zu) returned 0x%x", call_types[f->type],
				      f->begin_idx, (unsigned int)e->ret, last->idx,
				      (unsigned int)last->ret);
		else
			chk_violation(ck, idx, f->head, 0, "end-ret",
				      "%s pass of event %zu: call_end ret 0x%x, no callback "
				      "ran (NOTIFY_DONE)", call_types[f->type], f->begin_idx,
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
robust:
	if (f->undo.valid && f->undo.gapped && !f->undo.gap_counted && !f->gapped)
		ck->s->gap_passes++;
	f->undo.valid = false;
	if (f->type == CALL_ROBUST && (e->ret & CS_NOTIFY_STOP_MASK)) {
		/* f is popped already: this is the slot of its depth */
		p = child_slot(st);
		settle_robust(ck, p, "another robust pass stopped", idx);
		swap_runs(&p->runs, &p->cap_runs, &f->runs, &f->cap_runs);
		p->nr_runs = f->nr_runs;
		p->valid = true;
		p->gapped = p->gap_counted = f->gapped;
		p->head = f->head;
		p->end_idx = idx;
		p->ret = e->ret;
		p->nr_calls = e->nr_calls;
		f->nr_runs = 0;
	}
}

static int on_end(struct checker *ck, struct stack *st, const struct cs_rec_event *e,
		  size_t idx)
{
	struct frame *f = top(st);
	struct robust *p;

	if (f && f->in_flight) {
		/* a pass nested in f's callback that ran none */
		unsigned long long counted = 0;	/* finish_pass counts it */

		/* (not if it is a rollback whose call_begin was dropped: on_run) */
		if (e->call_type != CALL_ROLLBACK || !f->child.valid ||
		    f->child.head != e->head)
			stray(ck, st, f, e, idx, true, &counted);
		f = push_phantom(ck, st, e, idx);
		if (!f)
			return -ENOMEM;
	}
	if (f && !f->in_flight && frame_is(f, e) &&
	    (f->type == e->call_type || f->phantom)) {
		st->depth--;
		finish_pass(ck, st, f, e, idx);
		if (!st->depth && chk_grow((void **)&ck->pool, &ck->cap_pool, ck->nr_pool,
				       sizeof(*ck->pool))) {
			/* nothing open: lend the frames to the next stack */
			ck->pool[ck->nr_pool++] = (struct fpool){ st->f, st->cap };
			st->f = NULL;
			st->cap = 0;
		}
		return 0;
	}
	/* a rollback whose call_begin the recorder missed still followed */
	p = child_slot(st);
	if (p->valid && e->call_type == CALL_ROLLBACK && e->head == p->head)
		p->valid = false;
	if (f)
		stray(ck, st, f, e, idx, false, &ck->s->orphan_ends);
	else
		orphan(ck, st, &ck->s->orphan_ends);
	return 0;
}

int chk_pass_event(struct checker *ck, const struct cs_rec_event *e, size_t idx)
{
	struct stack *st = stack_get(ck, e->task, e->ctx, e->cpu);
	int err = 0;

	if (!st)
		return -ENOMEM;
	/* events may have been lost since its previous one, on any CPU */
	if (chk_gap_between(ck, st->last_idx, idx))
		stack_gap(st);
	st->last_idx = idx;
	st->last_cpu = e->cpu;

	switch (e->type) {
	case CS_REC_RUN:
		err = on_run(ck, st, e, idx);
		break;
	case CS_REC_RETURN:
		on_return(ck, st, e, idx);
		break;
	case CS_REC_STOP:
		on_stop(ck, st, e, idx);
		break;
	case CS_REC_CALL_BEGIN:
		err = on_begin(ck, st, e, idx);
		break;
	case CS_REC_CALL_END:
		err = on_end(ck, st, e, idx);
		break;
	}
	return err;
}

static void await_at_end(struct checker *ck, struct robust *r)
{
	if (!r->valid)
		return;
	r->valid = false;
	ck->s->open_rollbacks++;
}

void chk_passes_finish(struct checker *ck)
{
	size_t end = ck->t->nr_events;
	struct stack *st;
	size_t d;

	for (st = ck->stacks; st; st = st->hh.next) {
		if (chk_gap_between(ck, st->last_idx, end))
			stack_gap(st);
		ck->s->open_passes += st->depth;
		/* the recording ended before its rollback: open, like a pass */
		await_at_end(ck, &st->base);
		for (d = 0; d < st->depth; d++)
			await_at_end(ck, &st->f[d].child);
	}
}

void chk_passes_free(struct checker *ck)
{
	struct stack *st, *stt;
	size_t d, i;

	HASH_ITER(hh, ck->stacks, st, stt) {
		HASH_DELETE(hh, ck->stacks, st);
		for (d = 0; d < st->cap; d++)
			frame_free(&st->f[d]);
		free(st->f);
		robust_free(&st->base);
		free(st);
	}
	for (i = 0; i < ck->nr_pool; i++) {
		for (d = 0; d < ck->pool[i].cap; d++)
			frame_free(&ck->pool[i].f[d]);
		free(ck->pool[i].f);
	}
	free(ck->pool);
}
