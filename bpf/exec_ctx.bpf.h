/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The execution context a program runs in (enum cs_exec_ctx), for the
 * BPF objects that tell them apart: latency -C's pairing stacks and the
 * recorder's events. Defines no map; include after vmlinux.h.
 */
#ifndef CHAINSCOPE_EXEC_CTX_BPF_H
#define CHAINSCOPE_EXEC_CTX_BPF_H

#include <bpf/bpf_helpers.h>

#include "common.h"

/*
 * x86 keeps preempt_count per CPU: in the variable __preempt_count up
 * to 6.1, as a member of the per-CPU struct pcpu_hot from 6.2 on (6.12
 * included). Neither is declared here as a ksym: one of the two is
 * always missing from vmlinux, and libbpf then searches the modules'
 * BTF for it, which needs CAP_SYS_ADMIN (BPF_BTF_GET_NEXT_ID), so an
 * object naming both would not load with CAP_BPF + CAP_PERFMON alone.
 * Instead user space finds the counter's per-CPU offset in the kernel's
 * BTF (the .data..percpu section's variable, plus the member's offset;
 * cs_btf_preempt_count_off()) and sets cs_preempt_count_off, and the
 * program adds this CPU's per-CPU base, which this_cpu_off holds on
 * every x86-64 kernel. 0 means unknown: every event then reads as task
 * context, so the tools that depend on the context refuse to run
 * without it (latency -C and record: exit 7).
 */
extern const unsigned long this_cpu_off __ksym;

const volatile __u64 cs_preempt_count_off = 0;

#define CS_NMI_MASK		0x00f00000
#define CS_HARDIRQ_MASK		0x000f0000
#define CS_SOFTIRQ_OFFSET	0x00000100

static __always_inline __u32 cs_exec_ctx(void)
{
	unsigned long base;
	int v = 0;

	if (!cs_preempt_count_off)
		return CS_CTX_TASK;
	base = *(const unsigned long *)bpf_this_cpu_ptr(&this_cpu_off);
	if (bpf_probe_read_kernel(&v, sizeof(v), (const void *)(base + cs_preempt_count_off)))
		return CS_CTX_TASK;
	if (v & CS_NMI_MASK)
		return CS_CTX_NMI;
	if (v & CS_HARDIRQ_MASK)
		return CS_CTX_HARDIRQ;
	if (v & CS_SOFTIRQ_OFFSET)	/* serving a softirq, not just bh-disabled */
		return CS_CTX_SOFTIRQ;
	return CS_CTX_TASK;
}

#endif /* CHAINSCOPE_EXEC_CTX_BPF_H */
