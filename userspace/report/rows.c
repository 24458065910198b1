// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope report's rows: every event of a trace hashed into its
 * callback's, lock operation's or chain's row, then the rows sorted by
 * chain (what print.c and svg_files.c show).
 */
#include <errno.h>
#include <stdlib.h>

#include "chainscope.h"
#include "report_int.h"
#include "trace_cli.h"
#include "tracefile.h"

static struct cb_ent *cb_get(struct report *r, const struct cs_rec_event *e)
{
	struct cb_key key = { e->head, e->cb, e->nb };
	struct cb_ent *c;

	HASH_FIND(hh, r->cbs, &key, sizeof(key), c);
	if (c)
		return c;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->key = key;
	c->kind = e->kind;
	HASH_ADD(hh, r->cbs, key, sizeof(key), c);
	if (!c->hh.tbl) {
		free(c);
		return NULL;
	}
	return c;
}

static struct lock_ent *lock_get(struct report *r, const struct cs_rec_event *e)
{
	struct lock_key key = { e->head, e->lock_op };
	struct lock_ent *l;

	HASH_FIND(hh, r->locks, &key, sizeof(key), l);
	if (l)
		return l;
	l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	l->key = key;
	l->kind = e->kind;
	HASH_ADD(hh, r->locks, key, sizeof(key), l);
	if (!l->hh.tbl) {
		free(l);
		return NULL;
	}
	return l;
}

static int pass_add(struct report *r, const struct cs_rec_event *e)
{
	struct pass_ent *p;

	HASH_FIND(hh, r->passes, &e->head, sizeof(e->head), p);
	if (!p) {
		p = calloc(1, sizeof(*p));
		if (!p)
			return -ENOMEM;
		p->head = e->head;
		p->kind = e->kind;
		HASH_ADD(hh, r->passes, head, sizeof(p->head), p);
		if (!p->hh.tbl) {
			free(p);
			return -ENOMEM;
		}
	}
	if (e->call_type == CS_CALL_ROLLBACK) {
		p->rollbacks++;
	} else {
		p->passes++;
		p->robust += e->call_type == CS_CALL_ROBUST;
		p->stopped += !!(e->ret & CS_NOTIFY_STOP_MASK);
	}
	p->callbacks += e->nr_calls > 0 ? (__u64)e->nr_calls : 0;
	return 0;
}

static int cmp_pass_row(const void *a, const void *b)
{
	const struct pass_row *x = a, *y = b;
	int r = cs_sym_cmp(&x->chain, &y->chain);

	if (r)
		return r;
	return x->e->kind < y->e->kind ? -1 : x->e->kind > y->e->kind;
}

static void lock_add(struct lock_ent *l, __u64 ns, int units)
{
	log2_hist_add(l->slots, CS_MAX_SLOTS, cs_ns_to_units(ns, units));
	l->count++;
	l->sum_ns += ns;
	if (ns > l->max_ns)
		l->max_ns = ns;
	if (ns)
		l->contended++;
}

static int cmp_lock_row(const void *a, const void *b)
{
	const struct lock_row *x = a, *y = b;
	int r = cs_sym_cmp(&x->chain, &y->chain);

	if (r)
		return r;
	if (x->e->kind != y->e->kind)
		return x->e->kind < y->e->kind ? -1 : 1;
	return x->e->key.op < y->e->key.op ? -1 : x->e->key.op > y->e->key.op;
}

int cs_report_aggregate(struct report *r)
{
	const struct cs_trace *t = r->t;
	struct cb_ent *c, *ctmp;
	struct lock_ent *l, *ltmp;
	struct pass_ent *p, *ptmp;
	size_t i;

	for (i = 0; i < t->nr_events; i++) {
		const struct cs_rec_event *e = &t->events[i];

		if (e->type == CS_REC_RETURN) {
			c = cb_get(r, e);
			if (!c)
				return -ENOMEM;
			cs_cbstats_add(&c->st, e->duration_ns, e->ret, r->o->units);
		} else if (e->type == CS_REC_LOCK_WAIT) {
			l = lock_get(r, e);
			if (!l)
				return -ENOMEM;
			lock_add(l, e->duration_ns, r->o->units);
		} else if (e->type == CS_REC_CALL_END && pass_add(r, e)) {
			return -ENOMEM;
		}
	}

	r->rows = calloc(HASH_COUNT(r->cbs) + 1, sizeof(*r->rows));
	r->lrows = calloc(HASH_COUNT(r->locks) + 1, sizeof(*r->lrows));
	r->prows = calloc(HASH_COUNT(r->passes) + 1, sizeof(*r->prows));
	if (!r->rows || !r->lrows || !r->prows)
		return -ENOMEM;
	HASH_ITER(hh, r->passes, p, ptmp) {
		struct pass_row *row = &r->prows[r->nr_prows++];

		cs_sym_from_trace(&row->chain, t, p->head);
		row->e = p;
	}
	qsort(r->prows, r->nr_prows, sizeof(*r->prows), cmp_pass_row);
	HASH_ITER(hh, r->cbs, c, ctmp) {
		struct cs_cbrow *row = &r->rows[r->nr_rows++];

		cs_sym_from_trace(&row->chain, t, c->key.head);
		cs_sym_from_trace(&row->cb, t, c->key.cb);
		cs_sym_from_trace(&row->nb, t, c->key.nb);
		row->kind = c->kind;
		row->st = c->st;
	}
	HASH_ITER(hh, r->locks, l, ltmp) {
		struct lock_row *row = &r->lrows[r->nr_lrows++];

		cs_sym_from_trace(&row->chain, t, l->key.head);
		row->e = l;
	}
	if (cs_cbrows_disambiguate(r->rows, r->nr_rows))
		return -ENOMEM;
	qsort(r->rows, r->nr_rows, sizeof(*r->rows), cs_cbrow_cmp);
	qsort(r->lrows, r->nr_lrows, sizeof(*r->lrows), cmp_lock_row);
	return 0;
}

void cs_report_rows_free(struct report *r)
{
	struct cb_ent *c, *ctmp;
	struct lock_ent *l, *ltmp;
	struct pass_ent *p, *ptmp;

	HASH_ITER(hh, r->cbs, c, ctmp) {
		HASH_DEL(r->cbs, c);
		free(c);
	}
	HASH_ITER(hh, r->locks, l, ltmp) {
		HASH_DEL(r->locks, l);
		free(l);
	}
	HASH_ITER(hh, r->passes, p, ptmp) {
		HASH_DEL(r->passes, p);
		free(p);
	}
	free(r->rows);
	free(r->lrows);
	free(r->prows);
}
