/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Types shared by bpf/contention.bpf.c and userspace/cmd/contention.c.
 * Include after vmlinux.h (BPF) or <linux/types.h> (user space).
 */
#ifndef CHAINSCOPE_CONTENTION_H
#define CHAINSCOPE_CONTENTION_H

#include "common.h"

#define CS_TASK_COMM_LEN 16

/* chains whose lock contention_begin/end watch (watched_heads) */
#define CS_WATCHED_LOCKS 1024

/* lock ops: readers (call paths) and writers ((un)registration) */
#define CS_LOCK_READ	0
#define CS_LOCK_WRITE	1
/* enum notifier_chain_kind values contention needs */
#define CS_KIND_BLOCKING	2
#define CS_KIND_SRCU		3
/* watched_heads value of a -c head: its rwsem or its mutex, as they come */
#define CS_LOCK_KIND_ANY	0xffu

/* Per (chain head, lock op): its lock's waits. */
struct cs_cont_key {
	__u64 head;
	__u32 op;		/* CS_LOCK_READ, CS_LOCK_WRITE */
	__u32 __pad;
};

struct cs_cont_val {
	/* contended acquisitions, from lock:contention_begin -> _end */
	__u32 slots[CS_MAX_SLOTS];	/* log2 buckets of the wait, in targ_units */
	__u64 count;		/* contended acquisitions (the histogram's total) */
	__u64 sum_ns;
	__u64 max_ns;
	__u64 lock;		/* the chain's rwsem or mutex */
	/*
	 * Tracepoints mode: every acquisition, from the notifier events
	 * (contention.bpf.c says which); 0 in probes mode, which cannot
	 * count them.
	 */
	__u64 acquired;
	__u32 kind;
	__u32 __pad;
};

/* Top waiters: per (chain head, thread) total contended wait. */
struct cs_waiter_key {
	__u64 head;
	__u32 pid;		/* thread id */
	__u32 __pad;
};

struct cs_waiter_val {
	__u64 total_ns;
	__u64 count;
	__u64 max_ns;
	__u32 tgid;
	char comm[CS_TASK_COMM_LEN];
};

/* lock:contention_* bookkeeping, per (task, lock) */
struct cs_lt_key {
	__u64 task;
	__u64 lock;
};

/* a contention_begin on a watched chain's lock (bpf/chain_lock.bpf.h) */
struct cs_lt_val {
	__u64 ts;		/* begin time; chain_lock_end(): the wait */
	__u64 head;
	__u32 kind;		/* CS_KIND_BLOCKING (rwsem) or CS_KIND_SRCU (mutex) */
	__u32 op;		/* CS_LOCK_READ, CS_LOCK_WRITE */
};

#endif /* CHAINSCOPE_CONTENTION_H */
