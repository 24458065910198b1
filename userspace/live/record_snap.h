/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * chainscope record: chain snapshots into the trace (record_snap.c).
 */
#ifndef CHAINSCOPE_RECORD_SNAP_H
#define CHAINSCOPE_RECORD_SNAP_H

#include <stdbool.h>
#include <linux/types.h>

#include "tracefile.h"

struct ksyms;
struct rec_snap;

struct rec_snap_stats {
	__u64 chains;		/* snapshots written */
	__u64 unstable;		/* of which the walk was not stable */
	__u64 records;		/* CS_REC_SNAPSHOT records written */
	__u64 failed;		/* heads that did not walk as a chain */
};

/*
 * Load the chain walker. NULL (after a warning) if it cannot be: record
 * then goes on without snapshots. seen(addr) is told every head, callback
 * and block a snapshot names (for the trailer's symbols).
 */
struct rec_snap *rec_snap_open(const char *cmd, const struct ksyms *ks, bool verbose,
			       void (*seen)(__u64 addr));
/*
 * Walk the heads of the recording and write their snapshots: heads[0..nr)
 * (head, kind or CS_CHAIN_KIND_UNKNOWN to infer it, name or ""), or the
 * curated table (cs_chain_known_heads()) when nr is 0. 0 or -errno
 * (writing).
 */
struct cs_chain;
int rec_snap_start(struct rec_snap *s, struct cs_trace_writer *out,
		   const struct cs_chain *heads, int nr);
/* e was just written: snapshot its head if it is the first time; 0 or -errno. */
int rec_snap_event(struct rec_snap *s, struct cs_trace_writer *out,
		   const struct cs_rec_event *e);
/* Counters, a warning naming a head that did not walk; frees s (NULL is fine). */
void rec_snap_close(struct rec_snap *s, struct rec_snap_stats *st);

#endif /* CHAINSCOPE_RECORD_SNAP_H */
