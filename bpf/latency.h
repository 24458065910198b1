/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Types shared by bpf/latency.bpf.c and userspace/cmd/latency.c.
 * Include after vmlinux.h (BPF) or <linux/types.h> (user space).
 */
#ifndef CHAINSCOPE_LATENCY_H
#define CHAINSCOPE_LATENCY_H

#include "common.h"

/* Per (chain head, callback[, val]): notifier_return statistics. */
struct cs_lat_key {
	__u64 head;
	__u64 cb;
	__u64 nb;		/* the block: one callback may sit on a chain twice */
	__u64 val;		/* the event value with -a, else 0 */
};

struct cs_lat_hist {
	__u32 slots[CS_MAX_SLOTS];	/* log2 buckets of duration, in targ_units */
	__u64 count;
	__u64 sum_ns;
	__u64 max_ns;
	__u64 stop;		/* NOTIFY_STOP_MASK set, no errno encoded */
	__u64 bad;		/* NOTIFY_BAD */
	__u64 err;		/* notifier_from_errno(-E...) other than NOTIFY_BAD */
	/*
	 * Returns without a run time: no notifier_run paired with this
	 * notifier_return (the programs were attached while the callback
	 * ran, or its notifier_run program was skipped). Counted in count,
	 * not in the histogram, sum or max.
	 */
	__u64 untimed;
	__u32 kind;		/* enum notifier_chain_kind */
	__u32 __pad;
};

/* -C: per (chain head[, val]) whole-pass statistics, call_begin -> call_end. */
struct cs_chain_key {
	__u64 head;
	__u64 val;
};

struct cs_chain_hist {
	__u32 slots[CS_MAX_SLOTS];
	__u64 count;
	__u64 sum_ns;
	__u64 max_ns;
	__u64 stopped;		/* passes whose return had NOTIFY_STOP_MASK */
	__u64 rollbacks;	/* NOTIFIER_CALL_ROLLBACK passes */
	__u64 nr_calls;		/* callbacks run, summed over passes */
	__u32 kind;
	__u32 __pad;
};

/*
 * Open passes of one task in one execution context. Interrupts nest
 * strictly inside what they interrupt, but bpf_get_current_task() in an
 * interrupt returns the interrupted task, so each (task, context) pair
 * gets a stack of its own: a pass an interrupt opens can never be
 * closed by the task's own call_end, nor the other way round.
 */
struct cs_stack_key {
	__u64 task;		/* task_struct address */
	__u32 ctx;		/* enum cs_exec_ctx (common.h) */
	__u32 __pad;
};

/*
 * A pass is (head, val, call type): a call_end pops only the frame its
 * call_begin pushed, never that of another pass of the same chain (a
 * rollback pass inside a robust one, or a nested call with another val).
 */
struct cs_stack_frame {
	__u64 head;
	__u64 val;
	__u64 ts;
	__u32 type;		/* enum notifier_call_type */
	__u32 __pad;
};

struct cs_chain_stack {
	__u32 depth;		/* open passes, may exceed CS_MAX_DEPTH */
	__u32 __pad;
	struct cs_stack_frame frames[CS_MAX_DEPTH];
};

#endif /* CHAINSCOPE_LATENCY_H */
