/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
#ifndef CHAINSCOPE_BTF_PREEMPT_H
#define CHAINSCOPE_BTF_PREEMPT_H

#include <linux/types.h>

struct btf;

/*
 * The per-CPU offset of x86's preempt_count (__preempt_count up to 6.1,
 * pcpu_hot.preempt_count from 6.2) in kernel BTF @btf, for
 * bpf/exec_ctx.bpf.h's cs_preempt_count_off; 0 if it cannot be told.
 */
__u64 btf_preempt_count_off(const struct btf *btf);

#endif /* CHAINSCOPE_BTF_PREEMPT_H */
