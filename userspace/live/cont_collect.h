/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * contention's BPF collection, apart from what is done with each
 * interval: `chainscope contention` prints it, `chainscope serve` adds
 * the lock waits up into its counters (om_counters.c).
 */
#ifndef CHAINSCOPE_CONT_COLLECT_H
#define CHAINSCOPE_CONT_COLLECT_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "chainscope.h"
#include "live.h"
#include "contention.h"

struct cs_cont_entry {
	struct cs_cont_key key;
	struct cs_cont_val val;
};

struct cs_waiter_entry {
	struct cs_waiter_key key;
	struct cs_waiter_val val;
};

/* What one interval collected: only what waited since the last one. */
struct cs_cont_sample {
	struct cs_cont_entry *ce;	/* sorted by head, op */
	int nc;
	struct cs_waiter_entry *we;	/* by head, most total wait first */
	int nw;
	struct cs_health health;	/* cumulative since load */
};

struct cs_cont;

/*
 * After cs_mode_startup() (c->mode chosen) and the symbols: open, load
 * and attach contention.bpf.c for chain head (0: every watched chain);
 * lock_tps: lock:contention_begin/end exist. Writes the mode line into
 * how. NULL after a one-line error.
 */
struct cs_cont *cs_cont_start(const struct cs_common *c, const struct ksyms *ks,
			      __u64 head, bool lock_tps, char *how, size_t how_len);
/* Swap and drain both map generations into s (caller frees ce, we); 0 or -EIO */
int cs_cont_drain(struct cs_cont *ct, struct cs_cont_sample *s);
void cs_cont_stop(struct cs_cont *ct);

#endif /* CHAINSCOPE_CONT_COLLECT_H */
