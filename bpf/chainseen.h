/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Types shared by bpf/chainseen.bpf.c (`chains -w`: which chain heads
 * notifier events name) and userspace/live/chain_watch.c. Include after
 * vmlinux.h (BPF) or <linux/types.h> (user space).
 */
#ifndef CHAINSCOPE_CHAINSEEN_H
#define CHAINSCOPE_CHAINSEEN_H

/* Heads remembered; one more is counted in seen_dropped. */
#define CS_SEEN_MAX_HEADS	4096

/* seen: head address -> what the events said about it */
struct cs_seen {
	__u32 kinds;		/* bit (1 << enum notifier_chain_kind) per kind
				 * an event gave this head: one bit, or the
				 * events disagree */
	__u32 __pad;
	__u64 events;		/* events that named this head */
};

#endif /* CHAINSCOPE_CHAINSEEN_H */
