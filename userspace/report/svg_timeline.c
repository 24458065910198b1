// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope report --svg: the data of every chain's timeline SVG
 * (cs_svg_timeline(), svg.c), from one walk of the trace's
 * timeline (timeline.h). Per chain only the columns some pass began in
 * are kept, each with the longest such pass: memory grows with the
 * passes, at most CS_SVG_TL_COLS columns per chain.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define HASH_NONFATAL_OOM 1
#include <uthash.h>

#include "callback_row.h"
#include "report.h"
#include "timeline.h"
#include "trace_cli.h"
#include "trace_helpers.h"
#include "tracefile.h"

struct tl_chain {
	UT_hash_handle hh;
	__u64 head;
	struct cs_svg_tl_col *cols;	/* sorted by col */
	size_t nr, cap;
	__u64 series[CS_SVG_MAX_SERIES];	/* callbacks with a colour, first seen first */
	size_t nr_series;
	__u64 passes;
};

struct cs_tl_chains {
	const struct cs_trace *t;
	struct tl_chain *chains;
	__u64 span;
	long *first, *next;	/* per item of a flush: its first child, next sibling */
	size_t cap;
};

static struct tl_chain *chain_get(struct cs_tl_chains *c, __u64 head)
{
	struct tl_chain *ch;

	HASH_FIND(hh, c->chains, &head, sizeof(head), ch);
	if (ch)
		return ch;
	ch = calloc(1, sizeof(*ch));
	if (!ch)
		return NULL;
	ch->head = head;
	HASH_ADD(hh, c->chains, head, sizeof(ch->head), ch);
	if (!ch->hh.tbl) {
		free(ch);
		return NULL;
	}
	return ch;
}

/* the column's entry, made (empty, dur 0) if new; NULL: no memory */
static struct cs_svg_tl_col *col_get(struct tl_chain *ch, unsigned int col)
{
	size_t lo = 0, hi = ch->nr, mid;

	/* passes come mostly in time order: the last column first */
	if (ch->nr && ch->cols[ch->nr - 1].col <= col)
		lo = ch->nr - 1;
	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (ch->cols[mid].col < col)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < ch->nr && ch->cols[lo].col == col)
		return &ch->cols[lo];
	if (cs_grow(&ch->cols, &ch->cap, ch->nr + 1, sizeof(*ch->cols)))
		return NULL;
	memmove(&ch->cols[lo + 1], &ch->cols[lo], (ch->nr - lo) * sizeof(*ch->cols));
	ch->nr++;
	memset(&ch->cols[lo], 0, sizeof(ch->cols[lo]));
	ch->cols[lo].col = col;
	return &ch->cols[lo];
}

static int series_of(struct tl_chain *ch, __u64 cb)
{
	size_t i;

	for (i = 0; i < ch->nr_series; i++)
		if (ch->series[i] == cb)
			return i;
	if (ch->nr_series == CS_SVG_MAX_SERIES)
		return -1;
	ch->series[ch->nr_series] = cb;
	return ch->nr_series++;
}

/* the pass items[i] and its callbacks (its children) into its column */
static int add_pass(struct cs_tl_chains *c, const struct cs_tl_item *items, size_t i)
{
	const struct cs_tl_item *p = &items[i];
	struct cs_svg_tl_col *col;
	struct tl_chain *ch;
	long j;

	ch = chain_get(c, p->b->head);
	if (!ch)
		return -ENOMEM;
	ch->passes++;
	col = col_get(ch, p->ts >= c->span ? CS_SVG_TL_COLS - 1 :
		      (unsigned int)((double)p->ts / c->span * CS_SVG_TL_COLS));
	if (!col)
		return -ENOMEM;
	if (col->passes++ && col->dur >= p->dur)
		return 0;	/* a longer pass began in this column */
	col->ts = p->ts;
	col->dur = p->dur;
	col->unfinished = !p->e;
	col->nseg = 0;
	/* its children only, not all that lies inside it: linear in all */
	for (j = c->first[i]; j >= 0; j = c->next[j]) {
		struct cs_svg_tl_seg *sg;
		int s;

		if (items[j].type != CS_TL_CALLBACK)
			continue;
		s = series_of(ch, items[j].b->cb);
		if (col->nseg == CS_SVG_TL_SEGS) {
			sg = &col->seg[CS_SVG_TL_SEGS - 1];	/* the rest, as one */
			sg->series = -1;
			sg->ns += items[j].dur;
			continue;
		}
		sg = &col->seg[col->nseg++];
		sg->series = s;
		sg->ns = items[j].dur;
	}
	return 0;
}

static int collect(void *ctx, const struct cs_tl_track *tr, const struct cs_tl_item *items,
		   size_t n)
{
	struct cs_tl_chains *c = ctx;
	size_t i, cap = c->cap;

	(void)tr;
	/* the two arrays have cap elements each: grown alike */
	if (cs_grow(&c->first, &cap, n, sizeof(*c->first)))
		return -1;
	cap = c->cap;
	if (cs_grow(&c->next, &cap, n, sizeof(*c->next)))
		return -1;
	c->cap = cap;
	/* children lists in start order: built from the end */
	for (i = 0; i < n; i++)
		c->first[i] = -1;
	for (i = n; i-- > 0;) {
		long p = items[i].parent;

		c->next[i] = p >= 0 ? c->first[p] : -1;
		if (p >= 0)
			c->first[p] = i;
	}
	for (i = 0; i < n; i++)
		if (items[i].type == CS_TL_PASS && add_pass(c, items, i))
			return -1;
	return 0;
}

void cs_tl_chains_free(struct cs_tl_chains *c)
{
	struct tl_chain *ch, *tmp;

	if (!c)
		return;
	HASH_ITER(hh, c->chains, ch, tmp) {
		HASH_DEL(c->chains, ch);
		free(ch->cols);
		free(ch);
	}
	free(c->first);
	free(c->next);
	free(c);
}

struct cs_tl_chains *cs_tl_chains_collect(const struct cs_trace *t)
{
	struct cs_tl_chains *c = calloc(1, sizeof(*c));
	struct cs_tl_stats st;

	if (!c)
		return NULL;
	c->t = t;
	c->span = t->end_ns > t->hdr.start_ns ? t->end_ns - t->hdr.start_ns : 1;
	if (cs_timeline_walk(t, collect, c, &st)) {
		cs_tl_chains_free(c);
		return NULL;
	}
	return c;
}

int cs_tl_chain_svg(FILE *f, const struct cs_tl_chains *c, __u64 head, const char *title)
{
	char names[CS_SVG_MAX_SERIES][CS_SYMSTR_LEN], buf[CS_SYMSTR_LEN];
	const char *np[CS_SVG_MAX_SERIES];
	struct cs_svg_timeline tl = { .span_ns = c->span };
	struct tl_chain *ch;
	char note[96] = "";
	struct cs_sym s;
	size_t i;

	HASH_FIND(hh, c->chains, &head, sizeof(head), ch);
	if (ch) {
		tl.cols = ch->cols;
		tl.nr_cols = ch->nr;
		for (i = 0; i < ch->nr_series; i++) {
			cs_sym_from_trace(&s, c->t, ch->series[i]);
			snprintf(names[i], sizeof(names[i]), "%s", cs_sym_str(&s, buf, sizeof(buf)));
			np[i] = names[i];
		}
		tl.names = np;
		tl.nr_names = ch->nr_series;
		snprintf(note, sizeof(note), "%llu passes, the longest of each of %zu columns drawn",
			 (unsigned long long)ch->passes, ch->nr);
	}
	return cs_svg_timeline(f, title, note, &tl);
}
