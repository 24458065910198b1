// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope record: the chains' membership as CS_REC_SNAPSHOT records
 * (bpf/record.h, trace version 3), read with the chain walker
 * (chain_walk.h). At start, after the programs are attached and before the
 * first event is written, every head of the curated table is walked; a
 * head first seen in an event is walked when record reads that event, and
 * its snapshot follows the event in the file. `check` knows a chain's
 * membership from its snapshot's time on (check_snap.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define HASH_NONFATAL_OOM 1	/* a failed add leaves the item's hh.tbl NULL */
#include <uthash.h>

#include "chainscope.h"
#include "chain_walk.h"
#include "record_snap.h"
#include "safestr.h"

struct walked {
	__u64 head;
	UT_hash_handle hh;
};

struct rec_snap {
	const char *cmd;
	struct cs_chainwalk *w;
	const struct ksyms *ks;
	struct walked *heads;		/* walked (or tried) already */
	struct cs_chain *c;		/* one walk's result (large: 6 KiB) */
	struct rec_snap_stats st;
	char failed_name[160];		/* the first head that did not walk */
	void (*seen)(__u64 addr);
};

struct rec_snap *rec_snap_open(const char *cmd, const struct ksyms *ks, bool verbose,
			       void (*seen)(__u64 addr))
{
	struct rec_snap *s = calloc(1, sizeof(*s));

	if (!s || !(s->c = malloc(sizeof(*s->c)))) {
		free(s);
		warn("%s: warning: out of memory: recording without chain snapshots\n", cmd);
		return NULL;
	}
	s->cmd = cmd;
	s->ks = ks;
	s->seen = seen;
	s->w = cs_chainwalk_open(cmd, verbose);
	if (!s->w) {
		/* (cs_chainwalk_open said why) */
		warn("%s: warning: recording without chain snapshots: check judges "
		     "membership from the events alone\n", cmd);
		free(s->c);
		free(s);
		return NULL;
	}
	return s;
}

/* true the first time head is asked for */
static bool first_sight(struct rec_snap *s, __u64 head)
{
	struct walked *h;

	HASH_FIND(hh, s->heads, &head, sizeof(head), h);
	if (h)
		return false;
	h = malloc(sizeof(*h));
	if (!h)
		return true;	/* walked again if seen again: harmless but for dups */
	h->head = head;
	HASH_ADD(hh, s->heads, head, sizeof(h->head), h);
	if (!h->hh.tbl) {
		free(h);
		return true;
	}
	return true;
}

/* Walk one head and write its snapshot; 0, or a write error (-errno). */
static int snap_one(struct rec_snap *s, struct cs_trace_writer *out, __u64 head,
		    int kind, const char *name)
{
	struct cs_chain *c = s->c;
	struct cs_rec_event e;
	int i, n, err;

	memset(c, 0, offsetof(struct cs_chain, blocks));
	if (name)
		snprintf(c->name, sizeof(c->name), "%s", name);
	if (kind == CS_CHAIN_KIND_UNKNOWN)	/* a head named without -k */
		err = cs_chain_infer(s->w, s->ks, head, c, NULL);
	else
		err = cs_chain_walk(s->w, s->ks, head, kind, c);
	kind = c->kind;
	if (err || c->status != CS_CHAIN_OK) {
		if (!s->st.failed++)
			snprintf(s->failed_name, sizeof(s->failed_name), "%s: %s",
				 c->name[0] ? c->name : "?",
				 err ? strerror(-err) : cs_chain_status_doc(c->status));
		return 0;
	}
	s->st.chains++;
	s->st.unstable += !c->stable;
	n = c->nr > 0 ? c->nr : 1;
	for (i = 0; i < n; i++) {
		memset(&e, 0, sizeof(e));
		e.type = CS_REC_SNAPSHOT;
		e.ts = c->walked_ns;
		e.head = head;
		e.kind = kind;
		e.nr_to_call = c->nr;
		e.ret = c->stable ? CS_REC_SNAP_STABLE : CS_REC_SNAP_UNSTABLE;
		if (c->nr) {
			e.nr_calls = i;
			e.cb = c->blocks[i].cb;
			e.nb = c->blocks[i].nb;
			e.priority = c->blocks[i].priority;
			s->seen(e.cb);
			s->seen(e.nb);
		}
		err = cs_trace_write(out, &e, 1);
		if (err)
			return err;
		s->st.records++;
	}
	s->seen(head);
	return 0;
}

int rec_snap_start(struct rec_snap *s, struct cs_trace_writer *out,
		   const struct cs_chain *heads, int nr)
{
	struct cs_chain *known = NULL;
	int i, err = 0;

	if (!s)
		return 0;
	if (!heads || nr <= 0) {
		nr = cs_chain_known_heads(s->ks, &known);
		heads = known;
	}
	for (i = 0; i < nr && !err; i++)
		if (first_sight(s, heads[i].head))
			err = snap_one(s, out, heads[i].head, heads[i].kind,
				       heads[i].name[0] ? heads[i].name : NULL);
	free(known);
	return err;
}

int rec_snap_event(struct rec_snap *s, struct cs_trace_writer *out,
		   const struct cs_rec_event *e)
{
	if (!s || !e->head || e->type == CS_REC_LOSS || e->type == CS_REC_SNAPSHOT ||
	    e->kind > CS_CHAIN_SRCU || !first_sight(s, e->head))
		return 0;
	return snap_one(s, out, e->head, e->kind, NULL);
}

void rec_snap_close(struct rec_snap *s, struct rec_snap_stats *st)
{
	struct walked *h, *tmp;

	memset(st, 0, sizeof(*st));
	if (!s)
		return;
	*st = s->st;
	if (s->st.failed) {
		char esc[CS_SAFE_STR_LEN(sizeof(s->failed_name))];

		warn("%s: warning: %llu chain%s not walked, no snapshot (first: %s)\n",
		     s->cmd, (unsigned long long)s->st.failed, s->st.failed == 1 ? "" : "s",
		     cs_safe_str(s->failed_name, esc, sizeof(esc)));
	}
	HASH_ITER(hh, s->heads, h, tmp) {
		HASH_DEL(s->heads, h);
		free(h);
	}
	cs_chainwalk_close(s->w);
	free(s->c);
	free(s);
}
