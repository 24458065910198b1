/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * latency's BPF collection, apart from what is done with each interval:
 * `chainscope latency` prints it, `latency --openmetrics` and `chainscope
 * serve` add it up into monotonic counters (om_counters.c). Start-up checks,
 * exit codes, loading, attaching and the interval loop are latency's for
 * every caller.
 */
#ifndef CHAINSCOPE_LAT_COLLECT_H
#define CHAINSCOPE_LAT_COLLECT_H

#include <stdbool.h>
#include <linux/types.h>

#include "chainscope.h"
#include "live.h"
#include "latency.h"

/* One drained map entry each (bpf/latency.h) */
struct cs_lat_entry {
	struct cs_lat_key key;
	struct cs_lat_hist val;
};

struct cs_chain_entry {
	struct cs_chain_key key;
	struct cs_chain_hist val;
};

struct latency_bpf;
struct cs_pm;

#define CS_LAT_MAX_SEEDS 64	/* seed_heads at most */

/* What one interval collected: only what ran since the last one. */
struct cs_lat_sample {
	struct cs_lat_entry *lat;	/* sorted by head, cb, val */
	int nlat;
	struct cs_chain_entry *chains;	/* sorted by head, val; -C only */
	int nchain;
	const struct ksyms *ks;
	struct cs_health health;	/* cumulative since load */
	struct latency_bpf *skel;
	struct cs_pm *pm;		/* probes mode, else NULL */
};

struct cs_lat_run {
	struct cs_common *c;	/* parsed; c->mode is set to the mode chosen */
	const char *chain;	/* -c, NULL: every chain */
	/*
	 * probes mode without chain: heads to watch from the start (besides
	 * the well-known ones), e.g. serve's -c chains; set by setup()
	 */
	const __u64 *seed_heads;
	int nr_seed_heads;
	const char *callback;	/* -f */
	int kind;		/* -k, CS_KIND_ANY */
	bool per_val;		/* -a */
	bool chain_mode;	/* -C */
	/*
	 * -C only where the kernel's BTF locates the preempt count; without
	 * it, a warning and no chain passes (instead of CS_EXIT_NO_CTX).
	 */
	bool chain_mode_optional;
	void *ctx;
	/*
	 * after the start-up probes, before kallsyms is read or any bpf(), and
	 * not with CHAINSCOPE_PROBE_ONLY; exit code or 0
	 */
	int (*probed)(void *ctx);
	/* after -c/-f resolved, before CHAINSCOPE_PROBE_ONLY; exit code or 0 */
	int (*setup)(void *ctx, const struct ksyms *ks);
	/* after attaching, before the first interval; exit code or 0 */
	int (*attached)(void *ctx, const char *how);
	/* each interval; <0 ends the run with CS_EXIT_ERROR */
	int (*interval)(void *ctx, const struct cs_lat_sample *s);
};

/* The whole run, until a signal or COUNT; the exit code. */
int cs_latency_run(struct cs_lat_run *run);

#endif /* CHAINSCOPE_LAT_COLLECT_H */
