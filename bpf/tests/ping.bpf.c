// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * Test-only BPF object (never shipped in a production object): a raw_tp
 * program that reads no context, so `bpftool prog run pinned PATH
 * repeat 0` can run it on 6.1 (qemu/guest/tests/cli-bpf-unit.sh). Never
 * attached.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

__u64 ping_count = 0;

SEC("raw_tp")
int ping(void *ctx)
{
	__sync_fetch_and_add(&ping_count, 1);
	return 42;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
