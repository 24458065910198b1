/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The execution context a program runs in (enum cs_exec_ctx), for the
 * BPF objects that tell them apart: latency -C's pairing stacks and the
 * recorder's events. Defines no map; include after vmlinux.h.
 */
#ifndef CHAINSCOPE_EXEC_CTX_BPF_H
#define CHAINSCOPE_EXEC_CTX_BPF_H

#include "common.h"

/*
 * x86 6.1 keeps preempt_count in this per-CPU variable. Weak, so an
 * object loads without it; but then every event would read as task
 * context, so a user that depends on the context must check the kernel
 * BTF for the variable first and refuse to run without it (latency -C:
 * cs_btf_has_var("__preempt_count"), exit 7).
 */
extern const int __preempt_count __ksym __weak;

#define CS_NMI_MASK		0x00f00000
#define CS_HARDIRQ_MASK		0x000f0000
#define CS_SOFTIRQ_OFFSET	0x00000100

static __always_inline __u32 cs_exec_ctx(void)
{
	const int *pc;
	int v;

	if (!&__preempt_count)
		return CS_CTX_TASK;
	pc = bpf_this_cpu_ptr(&__preempt_count);
	v = *pc;
	if (v & CS_NMI_MASK)
		return CS_CTX_NMI;
	if (v & CS_HARDIRQ_MASK)
		return CS_CTX_HARDIRQ;
	if (v & CS_SOFTIRQ_OFFSET)	/* serving a softirq, not just bh-disabled */
		return CS_CTX_SOFTIRQ;
	return CS_CTX_TASK;
}

#endif /* CHAINSCOPE_EXEC_CTX_BPF_H */
