/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * benchattach: the funclatency-style reference tracer of the tracing-cost
 * benchmark (qemu/bench.sh, extension tracing_cost). Shared by
 * bpf/benchattach.bpf.c and userspace/bench/benchattach.c.
 */
#ifndef CS_BENCHATTACH_H
#define CS_BENCHATTACH_H

#define BA_MAX_SLOTS	64	/* log2 buckets of nanoseconds */
#define BA_MAP_ENTRIES	10240	/* tasks in flight */

/* Counters, slot index in the "stats" array */
enum ba_stat {
	BA_STAT_ENTRIES,	/* entry programs run */
	BA_STAT_NO_START,	/* exit without its entry timestamp */
	BA_STAT_UPDATE_FAILED,	/* start map update failed (map full) */
	BA_NR_STATS,
};

#endif /* CS_BENCHATTACH_H */
