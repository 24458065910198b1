/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Types shared by bpf/contention.bpf.c and userspace/cmd/contention.c.
 * Include after vmlinux.h (BPF) or <linux/types.h> (user space).
 */
#ifndef CHAINSCOPE_CONTENTION_H
#define CHAINSCOPE_CONTENTION_H

#include "common.h"

#define CS_TASK_COMM_LEN 16

/* chains whose lock contention_begin/end watch (without -c) */
#define CS_WATCHED_LOCKS 1024

/* enum notifier_lock_op, and (BPF only) a flag: the lock is a mutex */
#define CS_LOCK_READ	0
#define CS_LOCK_WRITE	1
#define CS_LOCK_MUTEX	0x100
/* enum notifier_chain_kind values contention needs */
#define CS_KIND_BLOCKING	2
#define CS_KIND_SRCU		3

/* Per (chain head, lock op): notifier_lock_wait statistics. */
struct cs_cont_key {
	__u64 head;
	__u32 op;		/* enum notifier_lock_op: 0 read, 1 write */
	__u32 __pad;
};

struct cs_cont_val {
	__u32 slots[CS_MAX_SLOTS];	/* log2 buckets of wait_ns, in targ_units */
	__u64 count;		/* acquisitions */
	__u64 contended;	/* acquisitions with wait_ns > 0 */
	__u64 sum_ns;
	__u64 max_ns;
	__u64 lock;		/* lock address (the last one seen) */
	/*
	 * Cross-check: acquisitions for which lock:contention_begin/_end
	 * fired on the same lock in the same task just before, and their
	 * begin->end time.
	 */
	__u64 lt_count;
	__u64 lt_sum_ns;
	__u64 lt_max_ns;
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

#endif /* CHAINSCOPE_CONTENTION_H */
