/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * chainscope `probes` mode: types shared by bpf/probemode.bpf.h and
 * userspace/live/probes.c. Include after vmlinux.h (BPF) or
 * <linux/types.h> (user space).
 */
#ifndef CHAINSCOPE_PROBEMODE_H
#define CHAINSCOPE_PROBEMODE_H

#include "common.h"

/* Callback slots (cookie of the kprobe.multi links = index). */
#define CS_PM_MAX_CBS		4096
/* Watched blocks (nb -> chain) and heads */
#define CS_PM_MAX_NBS		8192
#define CS_PM_MAX_HEADS		1024
/* (task, context) pairs inside a pass or a callback at the same time */
#define CS_PM_MAX_TASKS		2048

/* nb -> where it sits; from the chain walk and the register fexits */
struct cs_pm_nb {
	__u64 head;
	__u64 cb;
	__s32 kind;		/* CS_CHAIN_* (enum notifier_chain_kind) */
	__s32 priority;
};

/* cs_pm_heads values: a chain the tool has seen */
enum cs_pm_head_state {
	CS_PM_HEAD_NEW,		/* reported to user space, not walked yet */
	CS_PM_HEAD_PENDING,	/* a callback registered that is not attached */
	CS_PM_HEAD_ATTACHED,	/* every callback of the last walk attached */
	CS_PM_HEAD_IGNORED,	/* not watched (-c names another chain) */
};

struct cs_pm_head {
	__s32 kind;
	__u32 state;		/* enum cs_pm_head_state, written by user space too */
};
/* cs_pm_early (head -> passes while its state was not ATTACHED) is a map
 * of its own, so that user space's state updates never lose a count. */

/* Ring buffer messages to user space */
enum cs_pm_msg_type {
	CS_PM_MSG_HEAD,		/* a head not seen before: walk it */
	CS_PM_MSG_CB,		/* a block registered whose callback is not attached */
};

struct cs_pm_msg {
	__u64 head;
	__u64 cb;
	__u64 nb;
	__s32 kind;
	__u32 type;		/* enum cs_pm_msg_type */
};

/* per-CPU counters of what probes mode could not turn into events */
enum cs_pm_stat {
	CS_PM_STAT_UNKNOWN_NB,	/* callback ran with an nb on no watched chain */
	CS_PM_STAT_OUTSIDE,	/* watched nb, but no open pass of its chain */
	CS_PM_STAT_CB_DEEP,	/* callbacks nested deeper than CS_MAX_DEPTH */
	CS_PM_STAT_PASS_DEEP,	/* passes nested deeper than CS_MAX_DEPTH */
	CS_PM_STAT_UNPAIRED,	/* exit without its entry (attached mid-call) */
	CS_PM_STAT_MSG_LOST,	/* ring buffer full: a head/callback not reported */
	CS_PM_STAT_EARLY,	/* passes before their chain's callbacks were attached */
	CS_PM_STAT_MAX,
};

#endif /* CHAINSCOPE_PROBEMODE_H */
