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

struct cs_cont_run {
	struct cs_common *c;	/* parsed; c->mode is set to the mode chosen */
	const char *chain;	/* -c, NULL: every watched chain */
	/*
	 * Beside a collection already started (serve, with latency's): its
	 * symbols, which must outlive this collection, and its one -c head
	 * (0: every watched chain); then there are no start-up probes,
	 * kallsyms or -c here.
	 */
	const struct ksyms *ks;
	__u64 head;
};

/* The shape of latency's collection (lat_collect.h): start, wait, drain, stop. */
struct cs_cont;

/*
 * Start-up probes and the mode (unless run->ks), then loading and
 * attaching contention.bpf.c. CS_EXIT_OK with *out set, or with *out NULL
 * when CHAINSCOPE_PROBE_ONLY stopped it; else an exit code, said.
 */
int cs_cont_start(struct cs_cont_run *run, struct cs_cont **out);
/*
 * After the start-up probes: the kernel's BTF has lock:contention_begin/end
 * (Linux 5.19+), the source of the lock waits in both modes
 */
bool cs_cont_has_lock_tps(void);
/*
 * Fill the watched_heads map fd of contention.bpf.c or record.bpf.c
 * (bpf/chain_lock.bpf.h): the nr heads given, of kinds[i] (CS_KIND_ANY:
 * whichever lock it has; raw and atomic ones are left out), or with none
 * given the blocking and SRCU heads of the curated table. How many, or
 * -1 (said).
 */
struct ksyms;
int cs_cont_watch_heads(int fd, const char *cmd, const struct ksyms *ks, const __u64 *heads,
			const int *kinds, int nr);
/* "mode tracepoints: tp_btf programs, ...", for the banner */
const char *cs_cont_how(const struct cs_cont *ct);
const struct ksyms *cs_cont_ksyms(const struct cs_cont *ct);
/* Sleep one interval */
void cs_cont_wait(struct cs_cont *ct);
/* Swap and drain both map generations into s; 0 or -EIO, said. Free with cs_cont_sample_free(). */
int cs_cont_drain(struct cs_cont *ct, struct cs_cont_sample *s);
void cs_cont_sample_free(struct cs_cont_sample *s);
void cs_cont_stop(struct cs_cont *ct);

#endif /* CHAINSCOPE_CONT_COLLECT_H */
