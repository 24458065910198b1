/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Constants shared by every chainscope BPF object and the CLI. */
#ifndef CHAINSCOPE_COMMON_H
#define CHAINSCOPE_COMMON_H

/* log2 buckets: bucket i holds [2^i, 2^(i+1)), bucket 0 holds 0 and 1 */
#define CS_MAX_SLOTS 40

enum cs_units {
	CS_UNITS_NS,
	CS_UNITS_US,
	CS_UNITS_MS,
};

/* enum notifier_chain_kind; -1 in targ_kind means any */
#define CS_KIND_ANY -1

/* include/linux/notifier.h (macros, so not in vmlinux.h) */
#define CS_NOTIFY_DONE		0x0000
#define CS_NOTIFY_OK		0x0001
#define CS_NOTIFY_STOP_MASK	0x8000
#define CS_NOTIFY_BAD		(CS_NOTIFY_STOP_MASK | 0x0002)
#define CS_NOTIFY_STOP		(CS_NOTIFY_OK | CS_NOTIFY_STOP_MASK)

/* enum notifier_call_type, for user space (BPF has vmlinux.h's) */
#define CS_CALL_PLAIN		0
#define CS_CALL_ROBUST		1
#define CS_CALL_ROLLBACK	2

/* per-CPU counters in the `stats` map of each object */
enum cs_stat {
	CS_STAT_DROPPED,	/* a hash map was full (-E2BIG, -ENOMEM) */
	CS_STAT_UNPAIRED,	/* -C: call_end without its call_begin */
	CS_STAT_TOO_DEEP,	/* -C: passes nested deeper than CS_MAX_DEPTH */
	CS_STAT_FAILED,		/* a map update failed otherwise (-EBUSY, ...) */
	CS_STAT_LAST_ERR,	/* per CPU: the helper's return of the last
				 * CS_STAT_FAILED there (a negative errno) */
	CS_STAT_NESTED,		/* -C: events in an interrupt that hit our own
				 * begin/end program on that CPU: skipped */
	CS_STAT_STALE,		/* -C: interrupt-context frames aged out */
	CS_STAT_MAX,
};

#define CS_MAP_ENTRIES 10240

/* Execution contexts (bpf/exec_ctx.bpf.h: cs_exec_ctx()) */
enum cs_exec_ctx {
	CS_CTX_TASK,
	CS_CTX_SOFTIRQ,
	CS_CTX_HARDIRQ,
	CS_CTX_NMI,
};

/* latency -C: open chain passes kept per (task, context); power of two */
#define CS_MAX_DEPTH 16

#endif /* CHAINSCOPE_COMMON_H */
