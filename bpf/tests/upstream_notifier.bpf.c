// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * Test-only BPF object: programs written for UPSTREAM's (Linux 6.4+)
 * notifier_run tracepoint, whose prototype is TP_PROTO(void *cb), exactly
 * as a tool written for upstream would write them.  They know nothing of
 * chainscope's extra arguments: chainscope keeps cb as the first argument,
 * so these must load and count the right callbacks on its kernels too
 * (qemu/guest/tests/upstream-events.sh).  vmlinux.h only for the base
 * types, as libbpf-tools do; nothing from chainscope's header.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u64);	/* the callback's address */
	__type(value, __u64);	/* notifier_run hits */
} runs SEC(".maps");

static __always_inline void count(void *cb)
{
	__u64 key = (__u64)cb, one = 1, *n;

	n = bpf_map_lookup_elem(&runs, &key);
	if (n)
		__sync_fetch_and_add(n, 1);
	else
		bpf_map_update_elem(&runs, &key, &one, BPF_NOEXIST);
}

SEC("tp_btf/notifier_run")
int BPF_PROG(upstream_tp_btf, void *cb)
{
	count(cb);
	return 0;
}

SEC("raw_tp/notifier_run")
int BPF_PROG(upstream_raw_tp, void *cb)
{
	count(cb);
	return 0;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
