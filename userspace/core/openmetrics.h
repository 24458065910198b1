/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The Prometheus text exposition (format 0.0.4, which OpenMetrics
 * scrapers read too) of chainscope's aggregate rows: the callback rows
 * latency and report print (callback_row.h), per-chain passes and lock waits,
 * and chainscope's own health. One writer for every source: `report
 * --openmetrics` (a trace file), `latency --openmetrics` and `serve`
 * (live BPF, or a trace file with serve --trace).
 *
 * Families (every one with HELP and TYPE, even when it has no series):
 *   chainscope_callback_duration_seconds   histogram  chain callback module kind block
 *   chainscope_callback_returns_total      counter    ... outcome=ok|stop|bad|errno
 *   chainscope_callback_untimed_total      counter    calls the kernel did not time
 *   chainscope_chain_passes_total          counter    chain module kind [head]
 *   chainscope_chain_stopped_passes_total  counter
 *   chainscope_chain_rollbacks_total       counter
 *   chainscope_lock_wait_seconds           histogram  chain module kind [head] op=read|write
 *   chainscope_events_lost_total           counter    (no labels)
 *   chainscope_events_missed_total         counter
 *   chainscope_map_full_drops_total        counter
 *   chainscope_rows_overflow_total         counter    (serve, latency: rows not kept)
 *   chainscope_mode_info                   gauge      mode (value 1)
 *
 * The exposition ends with "# EOF" (a comment in format 0.0.4), where
 * `latency --openmetrics` starts the next one.
 *
 * No two series alike: callback rows that print alike get a block label
 * (cs_cbrows_disambiguate), chain rows (passes, lock waits) of heads that
 * print alike a head label (the head's address); rows that print apart
 * have no head label. Addresses print as cs_addr_str() does: "addr#N"
 * unless the command was asked to show them (--show-addresses).
 *
 * Histogram buckets are the log2 buckets of the rows (bucket i holds
 * durations below 2^(i+1) units), as seconds, up to 128 s, then +Inf.
 */
#ifndef CHAINSCOPE_OPENMETRICS_H
#define CHAINSCOPE_OPENMETRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>

#include "callback_row.h"

/* The content type the exposition is served with (serve.c) */
#define CS_OM_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

/* One chain's passes (latency -C's chain_hists, report's call_end records) */
struct cs_om_pass {
	struct cs_sym chain;
	int kind;		/* enum notifier_chain_kind */
	__u64 passes, stopped, rollbacks;
};

/* One chain's lock waits of one op (0 read, 1 write) */
struct cs_om_lock {
	struct cs_sym chain;
	int kind;
	unsigned int op;
	__u32 slots[CS_MAX_SLOTS];	/* log2 buckets in the set's units */
	__u64 sum_ns;
};

struct cs_om_set {
	int units;		/* enum cs_units of every slots[] */
	const struct cs_cbrow *cbs;	/* disambiguated (cs_cbrows_disambiguate) */
	size_t nr_cbs;
	const struct cs_om_pass *passes;
	size_t nr_passes;
	const struct cs_om_lock *locks;
	size_t nr_locks;
	__u64 lost;		/* events lost (ring buffer full, ...) */
	__u64 missed;		/* BPF recursion protection */
	__u64 dropped;		/* statistics map full */
	__u64 overflow;		/* entries of rows not kept (om_counters.h's maximum) */
	const char *mode;	/* "tracepoints", "probes" */
};

/* Write the whole exposition; 0, or -1 if writing to f failed. */
int cs_om_write(FILE *f, const struct cs_om_set *s);
/* One label value, escaped (backslash, double quote, newline), unquoted */
void cs_om_escape(FILE *f, const char *value);

#endif /* CHAINSCOPE_OPENMETRICS_H */
