// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope trace files: the reader's rules for CS_REC_SNAPSHOT records
 * (version 3, bpf/record.h): each record's own fields, then the snapshots
 * as a whole (tracefile.h, "Snapshots").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HASH_NONFATAL_OOM 1
#define uthash_nonfatal_oom(obj) (oom = true)
#include <uthash.h>

#include "tracefile.h"

#define FOFF(f) (off + offsetof(struct cs_rec_event, f))

int cs_trace_check_snap_record(const struct cs_rec_event *e, __u64 off,
			       char *err, size_t errlen)
{
	struct cs_rec_event rest = *e;
	const unsigned char *b = (const unsigned char *)&rest;
	size_t i;

	if (!e->head)
		return cs_trace_bad(err, errlen, "corrupted", FOFF(head), "snapshot of head 0");
	if (e->ret < 0 || e->ret >= CS_REC_SNAP_MAX)
		return cs_trace_bad(err, errlen, "corrupted", FOFF(ret),
				    "snapshot state %d (0 stable, 1 unstable)", e->ret);
	if (e->nr_to_call < 0)
		return cs_trace_bad(err, errlen, "corrupted", FOFF(nr_to_call),
				    "snapshot of a chain of length %d", e->nr_to_call);
	if (!e->nr_to_call) {
		if (e->nr_calls || e->cb || e->nb || e->priority)
			return cs_trace_bad(err, errlen, "corrupted", FOFF(nr_calls),
					    "snapshot of an empty chain with a block in it "
					    "(position %d, nb 0x%llx)", e->nr_calls,
					    (unsigned long long)e->nb);
	} else {
		if (e->nr_calls < 0 || e->nr_calls >= e->nr_to_call)
			return cs_trace_bad(err, errlen, "corrupted", FOFF(nr_calls),
					    "snapshot position %d outside the chain's length %d",
					    e->nr_calls, e->nr_to_call);
		if (!e->nb || !e->cb)
			return cs_trace_bad(err, errlen, "corrupted", FOFF(cb),
					    "snapshot block at position %d without %s", e->nr_calls,
					    e->nb ? "a callback" : "a notifier_block");
	}
	/* what only events have */
	rest.ts = rest.head = rest.cb = rest.nb = 0;
	rest.priority = rest.ret = rest.nr_calls = rest.nr_to_call = 0;
	rest.type = 0;
	rest.kind = 0;
	for (i = 0; i < sizeof(rest); i++)
		if (b[i])
			return cs_trace_bad(err, errlen, "corrupted", off + i,
					    "snapshot record with a field set that only events have "
					    "(byte %zu of the record)", i);
	return 0;
}

struct seen {
	__u64 key;
	size_t idx;		/* the record that has it */
	UT_hash_handle hh;
};

static bool oom;

static void seen_free(struct seen **tab)
{
	struct seen *s, *tmp;

	HASH_ITER(hh, *tab, s, tmp) {
		HASH_DELETE(hh, *tab, s);
		free(s);
	}
}

/* Add key to *tab; the entry that had it already, or NULL (oom: set). */
static struct seen *seen_add(struct seen **tab, __u64 key, size_t idx)
{
	struct seen *s;

	HASH_FIND(hh, *tab, &key, sizeof(key), s);
	if (s)
		return s;
	s = malloc(sizeof(*s));
	if (!s) {
		oom = true;
		return NULL;
	}
	s->key = key;
	s->idx = idx;
	HASH_ADD(hh, *tab, key, sizeof(s->key), s);
	if (oom)
		free(s);
	return NULL;
}

int cs_trace_check_snapshots(const struct cs_trace *t, size_t *nr, bool salvage,
			     char *err, size_t errlen)
{
	const struct cs_trace_header *h = &t->hdr;
	struct seen *heads = NULL, *blocks = NULL, *dup;
	const struct cs_rec_event *first = NULL;	/* of the open snapshot */
	size_t i, start = 0;
	int rc = -1;

	if (h->version < 3)
		return 0;	/* (no snapshot records: check_record) */
	oom = false;
	for (i = 0; i < *nr; i++) {
		const struct cs_rec_event *e = &t->events[i];
		__u64 off = h->header_size + (__u64)i * h->record_size;

		if (first && e->type == CS_REC_SNAPSHOT && e->head == first->head &&
		    e->nr_calls != (int)(i - start)) {
			cs_trace_bad(err, errlen, "corrupted", FOFF(nr_calls),
				     "snapshot of head 0x%llx: position %d where position %zu is "
				     "due (out of order)", (unsigned long long)e->head, e->nr_calls,
				     i - start);
			goto out;
		}
		if (first && (e->type != CS_REC_SNAPSHOT || e->head != first->head)) {
			cs_trace_bad(err, errlen, "corrupted", FOFF(type),
				     "snapshot of head 0x%llx (from byte offset %llu) cut short: "
				     "position %zu of %d is due, this is %s%s",
				     (unsigned long long)first->head,
				     (unsigned long long)(h->header_size +
				     (__u64)start * h->record_size),
				     i - start, first->nr_to_call, cs_rec_type_name(e->type),
				     e->type == CS_REC_SNAPSHOT ? " of another head" : "");
			goto out;
		}
		if (e->type != CS_REC_SNAPSHOT)
			continue;
		if (!first) {
			/* record walks after cs_trace_begin() stamped start_ns */
			if (e->ts < h->start_ns) {
				cs_trace_bad(err, errlen, "corrupted", FOFF(ts),
					     "snapshot of head 0x%llx walked at %llu ns, before the "
					     "recording started (%llu ns)", (unsigned long long)e->head,
					     (unsigned long long)e->ts,
					     (unsigned long long)h->start_ns);
				goto out;
			}
			if (e->nr_calls) {
				cs_trace_bad(err, errlen, "corrupted", FOFF(nr_calls),
					     "snapshot of head 0x%llx starts at position %d, not 0",
					     (unsigned long long)e->head, e->nr_calls);
				goto out;
			}
			dup = seen_add(&heads, e->head, i);
			if (dup) {
				cs_trace_bad(err, errlen, "corrupted", FOFF(head),
					     "head 0x%llx has a snapshot already (byte offset %llu)",
					     (unsigned long long)e->head,
					     (unsigned long long)(h->header_size +
					     (__u64)dup->idx * h->record_size));
				goto out;
			}
			first = e;
			start = i;
			seen_free(&blocks);
		} else if (e->nr_to_call != first->nr_to_call || e->kind != first->kind ||
			   e->ts != first->ts || e->ret != first->ret) {
			cs_trace_bad(err, errlen, "corrupted", e->nr_to_call != first->nr_to_call ?
				     FOFF(nr_to_call) : e->kind != first->kind ? FOFF(kind) :
				     e->ts != first->ts ? FOFF(ts) : FOFF(ret),
				     "snapshot of head 0x%llx, position %d: its %s disagrees with "
				     "position 0's", (unsigned long long)e->head, e->nr_calls,
				     e->nr_to_call != first->nr_to_call ? "length" :
				     e->kind != first->kind ? "chain kind" :
				     e->ts != first->ts ? "time" : "stability");
			goto out;
		} else if (e->priority > e[-1].priority) {
			cs_trace_bad(err, errlen, "corrupted", FOFF(priority),
				     "snapshot of head 0x%llx, position %d: priority %d after "
				     "priority %d (a chain is sorted, highest first)",
				     (unsigned long long)e->head, e->nr_calls, e->priority,
				     e[-1].priority);
			goto out;
		}
		if (e->nb) {
			dup = seen_add(&blocks, e->nb, i);
			if (dup) {
				cs_trace_bad(err, errlen, "corrupted", FOFF(nb),
					     "snapshot of head 0x%llx lists block 0x%llx twice "
					     "(positions %d and %d)", (unsigned long long)e->head,
					     (unsigned long long)e->nb, t->events[dup->idx].nr_calls,
					     e->nr_calls);
				goto out;
			}
		}
		if (oom) {
			cs_trace_bad(err, errlen, "out of memory", off, "snapshot of head 0x%llx",
				     (unsigned long long)e->head);
			goto out;
		}
		if ((size_t)e->nr_calls + 1 >= (size_t)e->nr_to_call)
			first = NULL;	/* complete (an empty chain: at once) */
	}
	if (first && salvage) {
		*nr = start;	/* cut short with the file: dropped */
	} else if (first) {
		cs_trace_bad(err, errlen, "corrupted", h->header_size + (__u64)*nr * h->record_size,
			     "snapshot of head 0x%llx (from byte offset %llu) cut short: the "
			     "records end at position %zu of %d", (unsigned long long)first->head,
			     (unsigned long long)(h->header_size + (__u64)start * h->record_size),
			     *nr - start, first->nr_to_call);
		goto out;
	}
	rc = 0;
out:
	seen_free(&heads);
	seen_free(&blocks);
	return rc;
}
