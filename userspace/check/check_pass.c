// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope check: pairing passes (checker.c has the event loop, and
 * check_rules.c the rules a pass's runs and its end are judged by).
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
 *
 * Events with no task (CS_TRACE_TASK_NONE, a console without caller
 * ids) are one stream of every CPU's passes, interleaved: there an event
 * goes to the open pass of its (head, val, type) wherever it is on the
 * stack, and what fits none is an orphan. Nesting is not known, so what
 * needs it is not judged: stray-event, begin-without-end (a pass is left
 * open, not popped), missing-rollback and the rollback rules (which
 * robust pass a rollback undoes). Two passes of one chain and val open
 * at once cannot be told apart: their runs' and ends' rules are not
 * judged either (counted, shared_passes).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "checker_int.h"
#include "trace_helpers.h"

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
		st->anon = task == CS_TRACE_TASK_NONE;
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

/* A frame slot for a new pass; the buffers of its last use are kept. */
static void frame_reset(struct frame *f)
{
	chk_group_index_free(f);
	f->nr_runs = 0;
	f->nr_groups = 0;
	f->in_flight = f->stop_due = f->disordered = f->gapped = false;
	f->undo_reported = false;
	f->phantom = false;
	f->shared = false;
	f->rb_stray = -1;
	f->stop_idx = -1;
	f->undo.valid = false;
	f->child.valid = false;
}

static void frame_free(struct frame *f)
{
	chk_group_index_free(f);
	free(f->runs);
	free(f->groups);
	robust_free(&f->undo);
	robust_free(&f->child);
}

/* Drop the top frame, which has no call_end. */
static const char *type_name(const struct frame *f)
{
	return f->phantom ? "unrecorded" : chk_call_types[f->type];
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
	if (cs_grow(&st->f, &st->cap, st->depth + 1, sizeof(*f)))
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

static int run_in(struct checker *ck, struct frame *f, const struct cs_rec_event *e,
		  size_t idx);

static int on_run(struct checker *ck, struct stack *st, const struct cs_rec_event *e,
		  size_t idx)
{
	struct frame *f = top(st);

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
	return run_in(ck, f, e, idx);
}

/* run e of pass f: judged, and f's callback in flight */
static int run_in(struct checker *ck, struct frame *f, const struct cs_rec_event *e, size_t idx)
{
	struct member *m = chk_run_rules(ck, f, e, idx);

	if (!m)
		return -ENOMEM;
	f->last = (struct run){ idx, e->cb, e->nb, e->priority, 0 };
	f->last_m = m;
	if (f->type == CALL_ROBUST || f->phantom) {	/* (a phantom's type comes last) */
		if (cs_grow(&f->runs, &f->cap_runs, f->nr_runs + 1, sizeof(*f->runs)))
			return -ENOMEM;
		f->runs[f->nr_runs] = f->last;
	}
	f->nr_runs++;
	f->in_flight = true;
	return 0;
}

static void return_in(struct checker *ck, struct frame *f, const struct cs_rec_event *e,
		      size_t idx);

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
	return_in(ck, f, e, idx);
}

/* the return e of f's callback in flight */
static void return_in(struct checker *ck, struct frame *f, const struct cs_rec_event *e,
		      size_t idx)
{
	settle_robust(ck, &f->child, "the callback it ran in returned", idx);
	f->last.ret = e->ret;
	f->in_flight = false;
	if (e->ret & CS_NOTIFY_STOP_MASK) {
		f->stop_due = true;
		if (f->stop_idx < 0)
			f->stop_idx = idx;
	}
}

static void stop_in(struct checker *ck, struct frame *f, const struct cs_rec_event *e,
		    size_t idx);

static void on_stop(struct checker *ck, struct stack *st, const struct cs_rec_event *e,
		    size_t idx)
{
	struct frame *f = top(st);

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
	stop_in(ck, f, e, idx);
}

/* the notifier_stop e of pass f, after its last callback returned */
static void stop_in(struct checker *ck, struct frame *f, const struct cs_rec_event *e,
		    size_t idx)
{
	const struct run *r = &f->last;

	if (!f->gapped && !f->shared) {
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

/* A pass ended with its call_end e: its rules, a stopped robust pass handed on. */
static void finish_pass(struct checker *ck, struct stack *st, struct frame *f,
			const struct cs_rec_event *e, size_t idx)
{
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
	if (f->gapped)
		ck->s->gap_passes++;
	else if (f->shared)
		ck->s->shared_passes++;
	else
		chk_end_rules(ck, f, e, idx);
	if (f->undo.valid && f->undo.gapped && !f->undo.gap_counted && !f->gapped)
		ck->s->gap_passes++;
	f->undo.valid = false;
	/* (no task: which rollback is its is not known) */
	if (!st->anon && f->type == CALL_ROBUST && (e->ret & CS_NOTIFY_STOP_MASK)) {
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

/* the top pass ended by its call_end e */
static void end_top(struct checker *ck, struct stack *st, const struct cs_rec_event *e,
		    size_t idx)
{
	struct frame *f = top(st);

	st->depth--;
	finish_pass(ck, st, f, e, idx);
	if (!st->depth && !cs_grow(&ck->pool, &ck->cap_pool, ck->nr_pool + 1,
				   sizeof(*ck->pool))) {
		/* nothing open: lend the frames to the next stack */
		ck->pool[ck->nr_pool++] = (struct fpool){ st->f, st->cap };
		st->f = NULL;
		st->cap = 0;
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
		end_top(ck, st, e, idx);
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

/*
 * No task (st->anon): the open pass e belongs to, wherever it is on the
 * stack, brought to the top (the frames above it move down one: their
 * order says no nesting here), or NULL. in_flight: e is a return (of the
 * callback in flight, nb) or not; nb: the last callback's block must be
 * e's (return, stop); type: a call_end's, or -1. A pass open across a
 * loss gap whose callback is in flight takes what comes after that
 * callback: its return was lost (its rules are suspended).
 */
static struct frame *anon_frame(struct stack *st, const struct cs_rec_event *e, bool in_flight,
				bool nb, int type)
{
	struct frame tmp, *f;
	size_t d;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		for (d = st->depth; d > 0; d--) {
			f = &st->f[d - 1];
			if (!frame_is(f, e) || (nb && (!f->nr_runs || f->last.nb != e->nb)) ||
			    (type >= 0 && f->type != type))
				continue;
			if (f->in_flight == in_flight ||
			    (pass && !in_flight && f->in_flight && f->gapped))
				break;
		}
		if (d)
			break;
	}
	if (!d)
		return NULL;
	tmp = st->f[d - 1];
	tmp.in_flight = in_flight;
	memmove(&st->f[d - 1], &st->f[d], (st->depth - d) * sizeof(*f));
	st->f[st->depth - 1] = tmp;
	return top(st);
}

/* an event with no task: see the top of this file */
static int anon_event(struct checker *ck, struct stack *st, const struct cs_rec_event *e,
		      size_t idx)
{
	struct frame *f;
	size_t d;

	ck->s->anon_events++;
	switch (e->type) {
	case CS_REC_RUN:
		f = anon_frame(st, e, false, false, -1);
		if (f)
			return run_in(ck, f, e, idx);
		orphan(ck, st, &ck->s->orphan_runs);
		break;
	case CS_REC_RETURN:
		f = anon_frame(st, e, true, true, -1);
		if (f)
			return_in(ck, f, e, idx);
		else
			orphan(ck, st, &ck->s->orphan_returns);
		break;
	case CS_REC_STOP:
		f = anon_frame(st, e, false, true, -1);
		if (f)
			stop_in(ck, f, e, idx);
		else
			orphan(ck, st, &ck->s->orphan_stops);
		break;
	case CS_REC_CALL_BEGIN:
		f = push_frame(ck, st);
		if (!f)
			return -ENOMEM;
		f->head = e->head;
		f->val = e->val;
		f->begin_idx = f->after_idx = idx;
		f->type = e->call_type;
		f->nr_to_call = e->nr_to_call;
		/* another pass of its chain and val open: whose runs are whose is unknown */
		for (d = 0; d + 1 < st->depth; d++) {
			if (!frame_is(&st->f[d], e))
				continue;
			st->f[d].shared = f->shared = true;
			/* (the earlier call_begin: both surely began after it) */
			if (st->f[d].after_idx < f->after_idx)
				f->after_idx = st->f[d].after_idx;
		}
		st->resync = false;
		break;
	case CS_REC_CALL_END:
		f = anon_frame(st, e, false, false, e->call_type);
		if (f)
			end_top(ck, st, e, idx);
		else
			orphan(ck, st, &ck->s->orphan_ends);
		break;
	}
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
	if (st->anon)
		return anon_event(ck, st, e, idx);

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
