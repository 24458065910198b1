/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Monotonic counters from latency's samples (lat_collect.h), for the live
 * exposition of `latency --openmetrics` and `chainscope serve`: every
 * (chain, callback, block) and chain ever seen keeps its values, added
 * to at each interval, until the process ends.
 */
#ifndef CHAINSCOPE_OM_COUNTERS_H
#define CHAINSCOPE_OM_COUNTERS_H

#include <stdio.h>
#include <linux/types.h>

#include "chainscope.h"
#include "cont_collect.h"
#include "lat_collect.h"

struct cs_om_live;

/*
 * c: the run's options (units, and the mode once start-up chose it);
 * heads[0..nr_heads): only these chains (nr_heads 0: all). NULL if out
 * of memory.
 */
struct cs_om_live *cs_om_live_new(const struct cs_common *c, const __u64 *heads,
				  int nr_heads);
/*
 * At most max rows (callbacks, chains and lock waits together; default
 * CS_OM_LIVE_MAX_ROWS): a sample's entry for a new row beyond that is
 * counted in chainscope_rows_overflow_total instead. Heads and blocks in
 * per-netns or per-device memory (which unprivileged users can create
 * with user namespaces) would otherwise make new rows without end.
 */
#define CS_OM_LIVE_MAX_ROWS 10000
void cs_om_live_set_max_rows(struct cs_om_live *om, size_t max);
/* Add one interval's sample; 0 or -ENOMEM. */
int cs_om_live_add(struct cs_om_live *om, const struct cs_lat_sample *smp);
/* Add one interval of contention's lock waits (serve); 0 or -ENOMEM. */
int cs_om_live_add_locks(struct cs_om_live *om, const struct cs_cont_sample *smp);
/* The exposition of everything added so far; 0 or -ENOMEM (or -EIO). */
int cs_om_live_write(struct cs_om_live *om, FILE *f, const struct ksyms *ks);
void cs_om_live_free(struct cs_om_live *om);

#endif /* CHAINSCOPE_OM_COUNTERS_H */
