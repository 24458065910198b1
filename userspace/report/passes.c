// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope report --passes: every chain pass of the trace with its
 * callbacks in the order they ran, each with its start, run time and
 * return value; passes a callback called (a chain called from inside a
 * callback) inside it. The timeline's slices (timeline.h), ordered by
 * start time across tracks; stops and lock waits are left out (a stop is
 * the ret of the callback that returned it).
 *
 * Text: a "pass N:" line per top-level pass and an indented line per
 * callback ("1." is the first that ran), times in the report's units.
 * A run whose pass began before the trace (its call_begin lost) is
 * counted as unpaired, not shown.
 * JSON (-j): one object, {"type":"passes",...,"passes":[...]}, times in ns,
 * every pass an element (top-level and nested alike, in start order within
 * a top-level one), a nested one pointing at its parent pass and callback.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "callback_row.h"
#include "chainscope.h"
#include "report.h"
#include "timeline.h"
#include "trace_cli.h"
#include "trace_helpers.h"
#include "tracefile.h"

/* one top-level slice with everything inside it, as the walk gave it */
struct pv_group {
	size_t first, n;	/* in pv.items */
	__u64 ts;		/* its start, ns since the trace's start */
	size_t seq;		/* the order groups came in: ties keep it */
	struct cs_tl_track tr;
};

struct pv {
	struct cs_tl_item *items;
	size_t nr_items, cap_items;
	long *first, *next;	/* per item: its first child, its next sibling (-1) */
	size_t cap_first, cap_next;
	struct pv_group *groups;
	size_t nr_groups, cap_groups;
};

static int pv_flush(void *ctx, const struct cs_tl_track *tr, const struct cs_tl_item *items,
		    size_t n)
{
	struct pv *p = ctx;
	struct pv_group *g;
	size_t i;

	/*
	 * stops and lock waits outside any pass are not passes; a callback is
	 * only ever inside one (a run whose pass began before the trace is
	 * unpaired)
	 */
	if (!n || items[0].type != CS_TL_PASS)
		return 0;
	if (cs_grow(&p->items, &p->cap_items, p->nr_items + n, sizeof(*p->items)) ||
	    cs_grow(&p->first, &p->cap_first, p->nr_items + n, sizeof(*p->first)) ||
	    cs_grow(&p->next, &p->cap_next, p->nr_items + n, sizeof(*p->next)) ||
	    cs_grow(&p->groups, &p->cap_groups, p->nr_groups + 1, sizeof(*p->groups)))
		return -1;
	memcpy(p->items + p->nr_items, items, n * sizeof(*items));
	/* the passes and callbacks inside each item, in start order (children follow parents) */
	for (i = 0; i < n; i++)
		p->first[p->nr_items + i] = p->next[p->nr_items + i] = -1;
	for (i = n; i-- > 1;) {
		long *head;

		if (items[i].parent < 0 ||
		    (items[i].type != CS_TL_PASS && items[i].type != CS_TL_CALLBACK))
			continue;
		head = &p->first[p->nr_items + items[i].parent];
		p->next[p->nr_items + i] = *head;
		*head = (long)i;
	}
	g = &p->groups[p->nr_groups];
	g->first = p->nr_items;
	g->n = n;
	g->ts = items[0].ts;
	g->seq = p->nr_groups++;
	g->tr = *tr;
	p->nr_items += n;
	return 0;
}

static int cmp_group(const void *x, const void *y)
{
	const struct pv_group *a = x, *b = y;

	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* what the kernel prints for ret (show_notifier_ret()) */
static const char *ret_str(int ret, char *buf, size_t len)
{
	switch (ret) {
	case 0: return "DONE";
	case 1: return "OK";
	case 0x8001: return "STOP";
	case 0x8002: return "BAD";
	}
	snprintf(buf, len, "0x%x", (unsigned int)ret);
	return buf;
}

static void put_dur(FILE *f, const char *key, __u64 ns, int units)
{
	fprintf(f, " %s=%llu%s", key, cs_ns_to_units(ns, units), cs_units_suffix(units));
}

/* --- text ---------------------------------------------------------------- */

/*
 * The item at i and what lies inside it, indented by its depth; a
 * top-level pass is "pass N:" with its time in the trace's clock,
 * the rest start from base.
 */
static void text_item(FILE *f, const struct cs_trace *t, const struct pv *p, size_t g0,
		      long i, __u64 base, int units, size_t nr, const char *where)
{
	const struct cs_tl_item *x = &p->items[g0 + i];
	const struct cs_rec_event *b = x->b, *e = x->e;
	char name[CS_SYMSTR_LEN], rb[16];
	size_t k = 0;
	long j;

	fprintf(f, "%*s", 4 * x->depth, "");
	if (x->type == CS_TL_PASS) {
		if (x->depth)
			fprintf(f, "pass:");
		else
			fprintf(f, "pass %zu:", nr);
		fprintf(f, " chain %s (%s, %s) val=%llu", cs_tl_sym_name(t, b->head, name, sizeof(name)),
			cs_kind_name(b->kind), cs_tl_call_name(b->call_type),
			(unsigned long long)b->val);
		if (x->depth)
			put_dur(f, "start", x->ts - base, units);
		else
			fprintf(f, " t=%.6f", b->ts / 1e9);
		if (e) {
			put_dur(f, "dur", x->dur, units);
			fprintf(f, " callbacks=%d ret=%s", e->nr_calls,
				ret_str(e->ret, rb, sizeof(rb)));
		} else {
			fprintf(f, " unfinished");
		}
		fprintf(f, "%s\n", x->depth ? "" : where);
	} else {
		fprintf(f, "%zu. %s prio=%d", nr, cs_tl_sym_name(t, b->cb, name, sizeof(name)), b->priority);
		put_dur(f, "start", x->ts - base, units);
		if (e && e->duration_ns) {
			put_dur(f, "dur", e->duration_ns, units);
			fprintf(f, " ret=%s\n", ret_str(e->ret, rb, sizeof(rb)));
		} else if (e) {
			fprintf(f, " untimed ret=%s\n", ret_str(e->ret, rb, sizeof(rb)));
		} else {
			fprintf(f, " unfinished\n");
		}
	}
	for (j = p->first[g0 + i]; j >= 0; j = p->next[g0 + j])
		text_item(f, t, p, g0, j, base, units, ++k, where);
}

static void text_group(FILE *f, const struct cs_trace *t, const struct pv *p,
		       const struct pv_group *g, size_t nr, int units)
{
	char where[64] = "";

	if (g->tr.ctx != CS_REC_CTX_TASK)
		snprintf(where, sizeof(where), " on CPU %u (%s)", g->tr.cpu,
			 cs_tl_ctx_name(g->tr.ctx));
	else if (g->tr.pid)
		snprintf(where, sizeof(where), " on pid %u", g->tr.pid);
	text_item(f, t, p, g->first, 0, p->items[g->first].ts, units, nr, where);
}

/* --- JSON ---------------------------------------------------------------- */

/* a callback, without what it called (each pass is an element of its own) */
static json_object *json_callback(const struct cs_trace *t, const struct cs_tl_item *x,
				  __u64 base)
{
	const struct cs_rec_event *b = x->b, *e = x->e;
	json_object *o = json_object_new_object();
	struct cs_sym s;

	cs_sym_from_trace(&s, t, b->cb);
	cs_json_symbol(o, "callback", &s);
	json_object_object_add(o, "priority", json_object_new_int(b->priority));
	json_object_object_add(o, "ts_ns", json_object_new_uint64(b->ts));
	json_object_object_add(o, "start_ns", json_object_new_uint64(x->ts - base));
	if (e && e->duration_ns)
		json_object_object_add(o, "duration_ns", json_object_new_uint64(e->duration_ns));
	if (e) {
		json_object_object_add(o, "ret", json_object_new_int(e->ret));
		json_object_object_add(o, "result", json_object_new_string(cs_tl_result_name(e->ret)));
	}
	if (e && !e->duration_ns)
		json_object_object_add(o, "untimed", json_object_new_boolean(1));
	if (!e)
		json_object_object_add(o, "unfinished", json_object_new_boolean(1));
	return o;
}

/*
 * The passes of a group, each an element of the flat list (a nested JSON
 * tree would be as deep as the chains nest, deeper than readers parse):
 * num[] holds each pass' index in the list and each callback's in its pass.
 */
static void json_group(FILE *f, const struct cs_trace *t, const struct pv *p,
		       const struct pv_group *g, long *num, long *next)
{
	const struct cs_tl_item *it = p->items + g->first;
	__u64 base = it->ts;
	size_t i;

	for (i = 0; i < g->n; i++) {
		const struct cs_tl_item *x = &it[i];
		const struct cs_rec_event *b = x->b, *e = x->e;
		json_object *o, *cbs;
		struct cs_sym s;
		long j, k = 0;

		if (x->type != CS_TL_PASS)
			continue;
		num[g->first + i] = (*next)++;
		o = json_object_new_object();
		cbs = json_object_new_array();
		cs_sym_from_trace(&s, t, b->head);
		cs_json_symbol(o, "chain", &s);
		json_object_object_add(o, "kind", json_object_new_string(cs_kind_name(b->kind)));
		json_object_object_add(o, "call", json_object_new_string(cs_tl_call_name(b->call_type)));
		json_object_object_add(o, "val", json_object_new_uint64(b->val));
		json_object_object_add(o, "ts_ns", json_object_new_uint64(b->ts));
		json_object_object_add(o, "start_ns", json_object_new_uint64(x->ts - base));
		if (e) {
			json_object_object_add(o, "duration_ns", json_object_new_uint64(x->dur));
			json_object_object_add(o, "ret", json_object_new_int(e->ret));
			json_object_object_add(o, "result", json_object_new_string(cs_tl_result_name(e->ret)));
			json_object_object_add(o, "nr_calls", json_object_new_int(e->nr_calls));
		} else {
			json_object_object_add(o, "unfinished", json_object_new_boolean(1));
		}
		/* passes lie in callbacks, callbacks in passes: two slices a level */
		json_object_object_add(o, "depth", json_object_new_int(x->depth / 2));
		if (x->parent >= 0) {
			json_object_object_add(o, "parent", json_object_new_int64(
				num[g->first + it[x->parent].parent]));
			json_object_object_add(o, "parent_callback",
					       json_object_new_int64(num[g->first + x->parent]));
		}
		json_object_object_add(o, "ctx", json_object_new_string(cs_tl_ctx_name(g->tr.ctx)));
		json_object_object_add(o, g->tr.ctx == CS_REC_CTX_TASK ? "pid" : "cpu",
				       json_object_new_uint64(g->tr.ctx == CS_REC_CTX_TASK ?
							      g->tr.pid : g->tr.cpu));
		for (j = p->first[g->first + i]; j >= 0; j = p->next[g->first + j]) {
			if (it[j].type != CS_TL_CALLBACK)
				continue;
			num[g->first + j] = k++;
			json_object_array_add(cbs, json_callback(t, &it[j], base));
		}
		json_object_object_add(o, "callbacks", cbs);
		fputs(*next > 1 ? "," : "", f);
		fputs(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN), f);
		json_object_put(o);
	}
}

int cs_report_passes(FILE *f, const struct cs_trace *t, const struct cs_report_opts *o)
{
	struct pv p = { 0 };
	struct cs_tl_stats st;
	size_t i;
	int rc;

	rc = cs_timeline_walk(t, pv_flush, &p, &st);
	if (rc)
		goto out;
	if (p.nr_groups)
		qsort(p.groups, p.nr_groups, sizeof(*p.groups), cmp_group);
	if (o->json) {
		json_object *root = json_object_new_object();
		long next = 0, *num = calloc(p.nr_items + 1, sizeof(*num));
		const char *s;

		if (!num) {
			rc = -ENOMEM;
			json_object_put(root);
			goto out;
		}
		json_object_object_add(root, "type", json_object_new_string("passes"));
		json_object_object_add(root, "file", json_object_new_string(o->file));
		json_object_object_add(root, "kernel", json_object_new_string(t->hdr.release));
		json_object_object_add(root, "boot_id", json_object_new_string(t->hdr.boot_id));
		json_object_object_add(root, "lost", json_object_new_uint64(t->lost));
		json_object_object_add(root, "unpaired", json_object_new_uint64(st.unpaired));
		json_object_object_add(root, "unfinished", json_object_new_uint64(st.unfinished));
		s = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN);
		fprintf(f, "%.*s,\"passes\":[", (int)strlen(s) - 1, s);
		json_object_put(root);
		for (i = 0; i < p.nr_groups; i++)
			json_group(f, t, &p, &p.groups[i], num, &next);
		fputs("]}\n", f);
		free(num);
	} else {
		fputs("trace ", f);
		cs_report_put_path(f, o->file);
		fprintf(f, ": kernel %s, %zu top-level passes, lost %llu, unpaired %llu, unfinished %llu; "
			"callbacks in the order they ran, start from the pass' start, t in the "
			"trace's clock (s)\n", t->hdr.release, p.nr_groups,
			(unsigned long long)t->lost, (unsigned long long)st.unpaired,
			(unsigned long long)st.unfinished);
		for (i = 0; i < p.nr_groups; i++)
			text_group(f, t, &p, &p.groups[i], i + 1, o->units);
	}
out:
	free(p.items);
	free(p.first);
	free(p.next);
	free(p.groups);
	if (ferror(f))
		return -EIO;
	return rc ? -ENOMEM : 0;
}
