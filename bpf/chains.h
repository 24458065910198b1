/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Types shared by bpf/chains.bpf.c (the chain walker) and
 * userspace/live/chain_walk.c. Include after vmlinux.h (BPF) or <linux/types.h>
 * (user space).
 *
 * The walker is a raw_tp program that is never attached: it is run with
 * BPF_PROG_TEST_RUN. It reads no context (6.1's raw_tp test run cannot
 * hand a context back, and bpftool always asks for one when given
 * ctx_in): its input is the global `chains_in` (section .data.in, its own
 * small array map), its output the global `chains_out` (.bss).
 */
#ifndef CHAINSCOPE_CHAINS_H
#define CHAINSCOPE_CHAINS_H

/* At most this many blocks are read from one chain (the loop bound). */
#define CS_WALK_MAX_BLOCKS	256

/* enum notifier_chain_kind values (<linux/notifier.h> of our kernels) */
#define CS_WALK_RAW		0
#define CS_WALK_ATOMIC		1
#define CS_WALK_BLOCKING	2
#define CS_WALK_SRCU		3

/* chains_out.status; the same values as enum cs_chain_status (chain_walk.h) */
#define CS_WALK_OK		0
#define CS_WALK_BAD_POINTER	1	/* a pointer outside the kernel's range */
#define CS_WALK_FAULT		2	/* bpf_probe_read_kernel() failed */
#define CS_WALK_TOO_LONG	3	/* more than CS_WALK_MAX_BLOCKS blocks */
#define CS_WALK_BAD_LOCK	6	/* the head's lock does not look like one */
#define CS_WALK_BAD_KIND	7	/* chains_in.kind is not a chain kind */

/* chains_out.flags */
#define CS_WALK_LOCK_STRONG	0x1	/* the lock check is conclusive: a
					 * list_head that points to itself or
					 * back to it, or a spinlock magic */

/*
 * A pointer the walker follows must lie in the kernel half of the
 * address space (x86-64, 4- or 5-level paging) and be 8-byte aligned.
 */
#define CS_WALK_KERNEL_MIN	0xff00000000000000ULL

struct cs_walk_in {
	__u64 head;		/* address of the *_notifier_head */
	__u32 kind;		/* CS_WALK_RAW.. */
	__u32 seq;		/* copied to chains_out.seq */
};

struct cs_walk_block {
	__u64 nb;		/* struct notifier_block address */
	__u64 cb;		/* nb->notifier_call */
	__s64 priority;		/* nb->priority */
};

struct cs_walk_out {
	__u64 head;		/* chains_in.head, as walked */
	__u32 kind;
	__u32 seq;		/* chains_in.seq: this output belongs to that run */
	__u32 status;		/* CS_WALK_OK.. */
	__u32 flags;		/* CS_WALK_LOCK_* */
	__u32 nr;		/* blocks read, in call order */
	__u32 head_size;	/* sizeof the head struct of this kind (CO-RE) */
	__u64 bad_addr;		/* the pointer that failed (status != OK) */
	struct cs_walk_block blocks[CS_WALK_MAX_BLOCKS];
};

#endif /* CHAINSCOPE_CHAINS_H */
