/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The execution context a program runs in (enum cs_exec_ctx), for the
 * BPF objects that tell them apart: latency -C's pairing stacks and the
 * recorder's events. Defines no map; include after vmlinux.h.
 */
#ifndef CHAINSCOPE_EXEC_CTX_BPF_H
#define CHAINSCOPE_EXEC_CTX_BPF_H

#include <bpf/bpf_core_read.h>

#include "common.h"

/*
 * Where x86 keeps preempt_count: the per-CPU variable __preempt_count
 * up to 6.1, the preempt_count member of the per-CPU struct pcpu_hot
 * from 6.2 on (6.12 included). Both are weak, so an object loads with
 * either; with neither every event would read as task context, so a user
 * that depends on the context must check the kernel BTF first and refuse
 * to run without them (latency -C and record: cs_btf_has_preempt_count(),
 * exit 7). The local flavor of struct pcpu_hot makes the member's offset
 * a CO-RE relocation, and the type-exists check keeps the access out of
 * objects loaded on kernels without it.
 */
extern const int __preempt_count __ksym __weak;

struct pcpu_hot___cs {
	int preempt_count;
} __attribute__((preserve_access_index));

extern const struct pcpu_hot___cs pcpu_hot __ksym __weak;

#define CS_NMI_MASK		0x00f00000
#define CS_HARDIRQ_MASK		0x000f0000
#define CS_SOFTIRQ_OFFSET	0x00000100

static __always_inline __u32 cs_exec_ctx(void)
{
	const struct pcpu_hot___cs *hot;
	int v;

	if (&__preempt_count)
		v = *(const int *)bpf_this_cpu_ptr(&__preempt_count);
	else if (bpf_core_type_exists(struct pcpu_hot___cs) && &pcpu_hot) {
		hot = bpf_this_cpu_ptr(&pcpu_hot);
		v = hot->preempt_count;
	} else {
		return CS_CTX_TASK;
	}
	if (v & CS_NMI_MASK)
		return CS_CTX_NMI;
	if (v & CS_HARDIRQ_MASK)
		return CS_CTX_HARDIRQ;
	if (v & CS_SOFTIRQ_OFFSET)	/* serving a softirq, not just bh-disabled */
		return CS_CTX_SOFTIRQ;
	return CS_CTX_TASK;
}

#endif /* CHAINSCOPE_EXEC_CTX_BPF_H */
