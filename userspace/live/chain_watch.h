/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * chainscope chains -w: the chain heads notifier events name during a
 * window (bpf/chainseen.bpf.c), with the kind each event gave.
 */
#ifndef CHAINSCOPE_CHAINSEEN_USER_H
#define CHAINSCOPE_CHAINSEEN_USER_H

#include <stdbool.h>
#include <linux/types.h>

#include "trace_helpers.h"

struct cs_seen_head {
	__u64 head;
	int kind;		/* CS_CHAIN_*, or CS_CHAIN_KIND_UNKNOWN when the
				 * events gave several kinds (see kinds) */
	__u32 kinds;		/* bit per kind the events gave */
	__u64 events;		/* events that named it */
};

struct cs_seen_result {
	struct cs_seen_head *heads;	/* malloc'ed, by address */
	int nr;
	__u64 dropped;		/* heads not remembered (map full) */
};

/*
 * Attach the programs of mode (CS_MODE_TRACEPOINTS or CS_MODE_PROBES,
 * after cs_mode_startup()), print "Tracing ..." on stderr, wait seconds
 * (SIGINT/SIGTERM end the window early), detach and read what was seen.
 * CS_EXIT_OK, or the exit code after a one-line message.
 */
int cs_chains_watch(const char *cmd, int mode, long seconds, const struct ksyms *ks,
		    struct cs_seen_result *res);

#endif /* CHAINSCOPE_CHAINSEEN_USER_H */
