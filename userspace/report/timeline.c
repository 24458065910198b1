// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope report's timeline: pair a trace's events into slices per
 * track (timeline.h says how), for export.c, export.c and
 * the timeline SVGs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define HASH_NONFATAL_OOM 1	/* a failed add leaves the item's hh.tbl NULL */
#include <uthash.h>

#include "callback_row.h"
#include "timeline.h"
#include "trace_cli.h"
#include "trace_helpers.h"
#include "tracefile.h"

struct track {
	UT_hash_handle hh;
	struct tkey {
		__u64 id;	/* task pointer, or the CPU (interrupt contexts) */
		__u32 ctx, zero;
	} key;
	struct cs_tl_track pub;
	struct cs_tl_item *items;
	size_t nr, cap;
	size_t *stack;		/* indices of the open slices in items */
	size_t depth, scap;
	__u64 over;		/* slices opened above CS_TL_MAX_DEPTH, still open */
	__u64 last;		/* latest time on the track */
	__u32 last_cpu;		/* the CPU of its latest event */
};

struct walk {
	const struct cs_trace *t;
	struct track *tracks;
	cs_tl_flush_fn flush;
	void *ctx;
	struct cs_tl_stats *st;
};

const char *cs_tl_ctx_name(unsigned int ctx)
{
	static const char *const names[] = { "task", "softirq", "hardirq", "NMI" };

	return ctx < sizeof(names) / sizeof(names[0]) ? names[ctx] : "?";
}

const char *cs_tl_call_name(unsigned int type)
{
	static const char *const names[] = { "plain", "robust", "rollback" };

	return type < 3 ? names[type] : "?";
}

const char *cs_tl_result_name(int ret)
{
	static const char *const names[] = { "ok", "stop", "bad", "errno" };

	return names[cs_ret_classify(ret)];
}

const char *cs_tl_sym_name(const struct cs_trace *t, __u64 addr, char *buf, size_t len)
{
	struct cs_sym s;

	cs_sym_from_trace(&s, t, addr);
	return cs_sym_str(&s, buf, len);
}

static struct track *track_get(struct walk *w, const struct cs_rec_event *e)
{
	struct tkey k = { e->ctx == CS_REC_CTX_TASK ? e->task : e->cpu, e->ctx, 0 };
	struct track *tr;

	HASH_FIND(hh, w->tracks, &k, sizeof(k), tr);
	if (tr)
		return tr;
	tr = calloc(1, sizeof(*tr));
	if (!tr)
		return NULL;
	tr->key = k;
	tr->pub.idx = w->st->tracks++;
	tr->pub.ctx = e->ctx;
	tr->pub.cpu = e->cpu;
	tr->pub.task = e->task;
	tr->pub.pid = e->pid;
	HASH_ADD(hh, w->tracks, key, sizeof(k), tr);
	if (!tr->hh.tbl) {
		free(tr);
		return NULL;
	}
	return tr;
}

static struct cs_tl_item *top(struct track *tr)
{
	return tr->depth ? &tr->items[tr->stack[tr->depth - 1]] : NULL;
}

/* a new item at the end, inside the innermost open slice; NULL: no memory */
static struct cs_tl_item *add(struct track *tr, int type, const struct cs_rec_event *b,
			      __u64 ts)
{
	struct cs_tl_item *it;

	if (cs_grow(&tr->items, &tr->cap, tr->nr + 1, sizeof(*tr->items)))
		return NULL;
	it = &tr->items[tr->nr++];
	memset(it, 0, sizeof(*it));
	it->type = type;
	it->b = b;
	it->ts = ts;
	it->parent = tr->depth ? (long)tr->stack[tr->depth - 1] : -1;
	it->depth = tr->depth;
	return it;
}

static int push(struct track *tr, int type, const struct cs_rec_event *b, __u64 ts)
{
	if (cs_grow(&tr->stack, &tr->scap, tr->depth + 1, sizeof(*tr->stack)))
		return -ENOMEM;
	if (!add(tr, type, b, ts))
		return -ENOMEM;
	tr->stack[tr->depth++] = tr->nr - 1;
	return 0;
}

/* close the slices above stack position k as unfinished, then k with e */
static void close_to(struct walk *w, struct track *tr, size_t k,
		     const struct cs_rec_event *e)
{
	while (tr->depth > k) {
		struct cs_tl_item *it = top(tr);

		it->e = tr->depth - 1 == k ? e : NULL;
		it->dur = tr->last - it->ts;
		w->st->unfinished += !it->e;
		tr->depth--;
	}
	if (!k)
		tr->over = 0;	/* what was cut above it ends with it */
}

/*
 * A slice would open above CS_TL_MAX_DEPTH, or one that did ends: it is
 * cut, counted as unpaired, and so is its end. True if e was cut.
 */
static bool cut(struct walk *w, struct track *tr, const struct cs_rec_event *e)
{
	bool opens = e->type == CS_REC_CALL_BEGIN || e->type == CS_REC_RUN;

	if (opens ? tr->depth < CS_TL_MAX_DEPTH : !tr->over)
		return false;
	if (opens)
		tr->over++;
	else
		tr->over--;
	w->st->unpaired++;
	return true;
}

/* the innermost open slice of type that e ends, by stack position; -1 */
static long find_open(const struct track *tr, int type, const struct cs_rec_event *e)
{
	size_t k;

	for (k = tr->depth; k-- > 0;) {
		const struct cs_tl_item *it = &tr->items[tr->stack[k]];

		if (it->type != type || it->b->head != e->head)
			continue;
		if (type == CS_TL_CALLBACK && (it->b->cb != e->cb || it->b->nb != e->nb))
			continue;
		if (type == CS_TL_PASS && it->b->call_type != e->call_type)
			continue;
		return k;
	}
	return -1;
}

static int flush(struct walk *w, struct track *tr)
{
	int rc = 0;

	if (tr->nr)
		rc = w->flush(w->ctx, &tr->pub, tr->items, tr->nr);
	tr->nr = 0;
	return rc ? -1 : 0;
}

/*
 * Events were lost on cpu (CS_REC_CPU_ANY: anywhere): what is open on the
 * tracks last seen there may have lost its end; close it, unfinished.
 */
static int loss(struct walk *w, const struct cs_rec_event *e)
{
	struct track *tr, *tmp;

	HASH_ITER(hh, w->tracks, tr, tmp) {
		if (!tr->depth || (e->cpu != CS_REC_CPU_ANY && tr->last_cpu != e->cpu))
			continue;
		close_to(w, tr, 0, NULL);
		if (flush(w, tr))
			return -1;
	}
	return 0;
}

static int event(struct walk *w, const struct cs_rec_event *e)
{
	__u64 start = w->t->hdr.start_ns, ts = e->ts > start ? e->ts - start : 0, prev;
	struct cs_tl_item *it;
	struct track *tr;
	long k;

	if (e->type == CS_REC_LOSS)
		return loss(w, e);
	if (e->type == CS_REC_SNAPSHOT)
		return 0;
	tr = track_get(w, e);
	if (!tr)
		return -ENOMEM;
	tr->last_cpu = e->cpu;
	prev = tr->last;
	if (ts > tr->last)
		tr->last = ts;
	switch (e->type) {
	case CS_REC_CALL_BEGIN:
		/* nothing runs in a pass between its callbacks: its end was lost */
		it = top(tr);
		if (!tr->over && it && it->type == CS_TL_PASS)
			close_to(w, tr, tr->depth - 1, NULL);
		if (cut(w, tr, e))
			break;
		if (push(tr, CS_TL_PASS, e, tr->last))
			return -ENOMEM;
		break;
	case CS_REC_RUN:
		it = top(tr);
		if (!tr->over && it && it->type == CS_TL_CALLBACK && it->parent >= 0 &&
		    tr->items[it->parent].b->head == e->head) {
			close_to(w, tr, tr->depth - 1, NULL);	/* its return was lost */
			it = top(tr);
		}
		if (cut(w, tr, e))
			break;
		if (it && it->type == CS_TL_PASS && it->b->head == e->head) {
			if (push(tr, CS_TL_CALLBACK, e, tr->last))
				return -ENOMEM;
		} else {
			w->st->unpaired++;
		}
		break;
	case CS_REC_RETURN:
	case CS_REC_CALL_END:
		if (cut(w, tr, e))
			break;
		k = find_open(tr, e->type == CS_REC_RETURN ? CS_TL_CALLBACK : CS_TL_PASS, e);
		if (k >= 0)
			close_to(w, tr, k, e);
		else
			w->st->unpaired++;
		break;
	case CS_REC_STOP:
		if (!add(tr, CS_TL_STOP, e, tr->last))
			return -ENOMEM;
		break;
	case CS_REC_LOCK_WAIT:
		/* it waited from ts - wait_ns, but not before the track's last event */
		ts = ts > e->duration_ns ? ts - e->duration_ns : 0;
		it = add(tr, CS_TL_LOCK, e, ts > prev ? ts : prev);
		if (!it)
			return -ENOMEM;
		it->e = e;
		it->dur = tr->last - it->ts;
		break;
	default:
		return 0;
	}
	return tr->depth ? 0 : flush(w, tr);
}

int cs_timeline_walk(const struct cs_trace *t, cs_tl_flush_fn fn, void *ctx,
		     struct cs_tl_stats *st)
{
	struct walk w = { .t = t, .flush = fn, .ctx = ctx, .st = st };
	struct track *tr, *tmp;
	int rc = 0;
	size_t i;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < t->nr_events && !rc; i++)
		rc = event(&w, &t->events[i]);
	/* what is still open ends with its track's last event (insertion order) */
	HASH_ITER(hh, w.tracks, tr, tmp) {
		if (!rc && tr->depth) {
			close_to(&w, tr, 0, NULL);
			rc = flush(&w, tr);
		}
		HASH_DEL(w.tracks, tr);
		free(tr->items);
		free(tr->stack);
		free(tr);
	}
	return rc;
}
