/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * latency's BPF collection, apart from what is done with each interval:
 * `chainscope latency` prints it, `latency --openmetrics` and `chainscope
 * serve` add it up into monotonic counters (om_counters.c). Start-up checks,
 * exit codes, loading and attaching are the same for every caller; the
 * caller runs the intervals (cs_run_intervals()).
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
};

/*
 * The shape of both collections (cont_collect.h too): start, then per
 * interval wait and drain (cs_run_intervals()), then stop.
 */
struct cs_lat;

/*
 * Start-up probes and the mode (c->mode), run->probed, kallsyms, -c/-f,
 * run->setup, then loading and attaching. CS_EXIT_OK with *out set, or
 * with *out NULL when CHAINSCOPE_PROBE_ONLY stopped it; else an exit
 * code, said. run must outlive the collection.
 */
int cs_lat_start(struct cs_lat_run *run, struct cs_lat **out);
/* "mode tracepoints: tp_btf programs", ..., for the banner */
const char *cs_lat_how(const struct cs_lat *l);
/* the symbols it resolved with (kallsyms, read at start) */
const struct ksyms *cs_lat_ksyms(const struct cs_lat *l);
/* Sleep one interval; in probes mode the watched callbacks are kept current */
void cs_lat_wait(struct cs_lat *l);
/* What ran since the last drain; 0 or -errno, said. Free with cs_lat_sample_free(). */
int cs_lat_drain(struct cs_lat *l, struct cs_lat_sample *s);
void cs_lat_sample_free(struct cs_lat_sample *s);
void cs_lat_stop(struct cs_lat *l);

#endif /* CHAINSCOPE_LAT_COLLECT_H */
