/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * chainscope record: the event that bpf/record.bpf.c puts in the ring
 * buffer, which is also the fixed-size record of a trace file
 * (userspace/trace/tracefile.h). Include after vmlinux.h (BPF) or
 * <linux/types.h> (user space). Fields appended to this struct keep the
 * trace file version and grow the header's record_size (readers ignore a
 * record's tail); any other change means a new version (CS_TRACE_VERSION).
 * Version 2 added CS_REC_LOSS and the `reason` byte (a pad byte in
 * version 1, whose files stay readable); version 3 added CS_REC_SNAPSHOT.
 */
#ifndef CHAINSCOPE_RECORD_H
#define CHAINSCOPE_RECORD_H

#include "common.h"

/* One per notifier tracepoint; the values are part of the file format. */
enum cs_rec_type {
	CS_REC_REGISTER,		/* notifier_register */
	CS_REC_UNREGISTER,		/* notifier_unregister */
	CS_REC_REGISTER_ERROR,		/* notifier_register_error */
	CS_REC_UNREGISTER_ERROR,	/* notifier_unregister_error */
	CS_REC_RUN,			/* notifier_run */
	CS_REC_RETURN,			/* notifier_return */
	CS_REC_STOP,			/* after a return with NOTIFY_STOP_MASK (written by
					 * the recorder: no event of its own) */
	CS_REC_CALL_BEGIN,		/* notifier_call_begin */
	CS_REC_CALL_END,		/* notifier_call_end */
	CS_REC_LOCK_WAIT,		/* a contended chain lock (lock:contention_*) */
	CS_REC_LOSS,			/* in-stream loss marker (version 2) */
	CS_REC_SNAPSHOT,		/* a chain's membership, walked (version 3) */
	CS_REC_MAX,
};

/*
 * CS_REC_LOSS: events were lost between the previous record of `cpu` and
 * this one (like perf's PERF_RECORD_LOST). `val` counts them, `reason`
 * says why. CS_REC_LOSS_MISSED comes from the kernel's per-program
 * recursion_misses, which are not per CPU: its `cpu` is CS_REC_CPU_ANY and
 * it locates the loss only to the recorder's polling interval (`ts` is
 * when the recorder saw it). All other fields are 0.
 */
enum cs_rec_loss_reason {
	CS_REC_LOSS_RING_FULL,		/* bpf_ringbuf_reserve() failed, not in NMI */
	CS_REC_LOSS_NMI,		/* reserve failed in NMI (lock busy, not full) */
	CS_REC_LOSS_MISSED,		/* BPF recursion protection skipped a program */
	CS_REC_LOSS_MAX,
};
#define CS_REC_CPU_ANY 0xffffffffu

/*
 * CS_REC_SNAPSHOT: what was on chain `head` (of `kind`) when user space
 * walked it (userspace/live/chain_walk.h), written by the recorder itself, never
 * by BPF. One record per block in call order: `cb`, `nb`, `priority`,
 * `nr_calls` = its position (0-based), `nr_to_call` = the chain's length;
 * an empty chain is one record with position 0, length 0 and cb = nb = 0.
 * `ts` is when the walk ended, `ret` says whether it was stable (two walks
 * in a row agreed). All other fields are 0. A snapshot's records are
 * consecutive in the file and a head has at most one snapshot.
 */
enum cs_rec_snap_state {
	CS_REC_SNAP_STABLE,		/* two walks in a row gave the same list */
	CS_REC_SNAP_UNSTABLE,		/* writers changed it while it was walked */
	CS_REC_SNAP_MAX,
};

/*
 * Fields a tracepoint does not have are 0. Little-endian, 96 bytes, no
 * implicit padding.
 */
struct cs_rec_event {
	__u64 ts;		/* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	__u64 task;		/* task_struct address (pairs passes) */
	__u64 head;		/* chain head */
	__u64 cb;		/* callback (membership, run, return, stop) */
	__u64 nb;		/* notifier_block (same events) */
	__u64 val;		/* event value (run, return, stop, call_*) */
	__u64 lock;		/* lock wait: the rwsem/mutex */
	__u64 duration_ns;	/* return: since its run (0: untimed); lock wait: the wait */
	__u32 pid;		/* thread id */
	__u32 cpu;
	__s32 priority;		/* membership, run, return, stop */
	__s32 ret;		/* return, stop, call_end: ret; membership: err */
	__s32 nr_calls;		/* stop, call_end */
	__s32 nr_to_call;	/* call_begin, call_end */
	__u16 type;		/* enum cs_rec_type */
	__u8 kind;		/* enum notifier_chain_kind */
	__u8 call_type;		/* call_*: enum notifier_call_type */
	__u8 lock_op;		/* lock wait: CS_LOCK_READ, CS_LOCK_WRITE */
	__u8 ctx;		/* execution context: task, softirq, hardirq, NMI */
	__u8 reason;		/* loss: enum cs_rec_loss_reason */
	__u8 __pad;
};

/* Execution contexts (the same split as latency's pairing stacks). */
enum cs_rec_ctx {
	CS_REC_CTX_TASK,
	CS_REC_CTX_SOFTIRQ,
	CS_REC_CTX_HARDIRQ,
	CS_REC_CTX_NMI,
};

/* per-CPU counters of the `rec_stats` array */
enum cs_rec_stat {
	CS_REC_STAT_LOST,	/* bpf_ringbuf_reserve() failed: ring full */
	CS_REC_STAT_LOST_NMI,	/* it failed in NMI: lock busy, a bigger -b won't help */
	CS_REC_STAT_PARTIAL,	/* probes: passes not recorded, a callback unseen */
	CS_REC_STAT_LONG,	/* probes: passes not recorded, chain too long to check */
	CS_REC_STAT_MAX,
};

/* probes mode: blocks record checks per pass (as many as `chains` shows) */
#define CS_REC_PM_MAX_WALK 256

/* default ring buffer size, bytes (a power of two, pages) */
#define CS_REC_RINGBUF_SIZE (16u << 20)

#endif /* CHAINSCOPE_RECORD_H */
