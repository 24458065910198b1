// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * chainscope chains: read one notifier chain from kernel memory.
 *
 * Never attached: user space (userspace/live/chain_walk.c) or `bpftool prog
 * run` runs it with BPF_PROG_TEST_RUN after writing the head's address
 * and kind to `chains_in`; it fills `chains_out` and returns its status.
 *
 * Every read is bpf_probe_read_kernel() (a fault is a status, never an
 * oops), every pointer followed is checked first (kernel half, 8-byte
 * aligned), and the walk stops after CS_WALK_MAX_BLOCKS blocks, so a
 * cycle or a list torn by a writer ends the walk with a status. The
 * layout of the four head types comes from the running kernel's BTF
 * (CO-RE), so the same object reads 6.1 and 6.12 heads. The head's lock
 * is checked too, so that a wrong guess of the kind is rejected rather
 * than read as a list.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "chains.h"

struct cs_walk_in chains_in SEC(".data.in") = {};
struct cs_walk_out chains_out = {};

/* CONFIG_DEBUG_SPINLOCK's fields (absent on a non-debug kernel) */
struct raw_spinlock___dbg {
	unsigned int magic;
} __attribute__((preserve_access_index));

#define CS_SPINLOCK_MAGIC	0xdead4ead

static __always_inline bool kptr_ok(__u64 p)
{
	return p >= CS_WALK_KERNEL_MIN && !(p & 7);
}

static __always_inline int walk_fail(struct cs_walk_out *o, __u32 status, __u64 addr)
{
	o->status = status;
	o->bad_addr = addr;
	return status;
}

/*
 * The wait_list of an rwsem or mutex at @wl: empty (points to itself
 * both ways) or a list whose first entry points back to it.
 */
static __always_inline int check_wait_list(struct cs_walk_out *o, __u64 wl)
{
	struct list_head l, first;

	if (bpf_probe_read_kernel(&l, sizeof(l), (void *)wl))
		return walk_fail(o, CS_WALK_FAULT, wl);
	if ((__u64)l.next == wl) {
		if ((__u64)l.prev != wl)
			return walk_fail(o, CS_WALK_BAD_LOCK, wl);
		o->flags |= CS_WALK_LOCK_STRONG;
		return 0;
	}
	if (!kptr_ok((__u64)l.next) || !kptr_ok((__u64)l.prev))
		return walk_fail(o, CS_WALK_BAD_LOCK, wl);
	if (bpf_probe_read_kernel(&first, sizeof(first), l.next))
		return walk_fail(o, CS_WALK_BAD_LOCK, (__u64)l.next);
	if ((__u64)first.prev != wl)
		return walk_fail(o, CS_WALK_BAD_LOCK, wl);
	o->flags |= CS_WALK_LOCK_STRONG;
	return 0;
}

/* An atomic head's spinlock: its magic, or a plausible qspinlock word. */
static __always_inline int check_spinlock(struct cs_walk_out *o, __u64 lock)
{
	__u32 v;

	if (bpf_core_field_exists(struct raw_spinlock___dbg, magic)) {
		__u64 at = lock + bpf_core_field_offset(struct raw_spinlock___dbg, magic);

		if (bpf_probe_read_kernel(&v, sizeof(v), (void *)at))
			return walk_fail(o, CS_WALK_FAULT, at);
		if (v != CS_SPINLOCK_MAGIC)
			return walk_fail(o, CS_WALK_BAD_LOCK, lock);
		o->flags |= CS_WALK_LOCK_STRONG;
		return 0;
	}
	/* qspinlock: locked byte 0 or _Q_LOCKED_VAL (1), pending byte 0 or 1 */
	if (bpf_probe_read_kernel(&v, sizeof(v), (void *)lock))
		return walk_fail(o, CS_WALK_FAULT, lock);
	if ((v & 0xff) > 1 || ((v >> 8) & 0xff) > 1)
		return walk_fail(o, CS_WALK_BAD_LOCK, lock);
	return 0;
}

SEC("raw_tp")
int walk_chain(void *ctx)
{
	struct cs_walk_out *o = &chains_out;
	__u64 head = chains_in.head, p = 0, at;
	__u32 kind = chains_in.kind;
	int i, err;

	o->head = head;
	o->kind = kind;
	o->seq = chains_in.seq;
	o->status = CS_WALK_OK;
	o->flags = 0;
	o->nr = 0;
	o->head_size = 0;
	o->bad_addr = 0;

	if (!kptr_ok(head))
		return walk_fail(o, CS_WALK_BAD_POINTER, head);

	switch (kind) {
	case CS_WALK_RAW:
		o->head_size = bpf_core_type_size(struct raw_notifier_head);
		at = head + bpf_core_field_offset(struct raw_notifier_head, head);
		break;
	case CS_WALK_ATOMIC:
		o->head_size = bpf_core_type_size(struct atomic_notifier_head);
		err = check_spinlock(o, head + bpf_core_field_offset(struct atomic_notifier_head,
								   lock));
		if (err)
			return err;
		at = head + bpf_core_field_offset(struct atomic_notifier_head, head);
		break;
	case CS_WALK_BLOCKING:
		o->head_size = bpf_core_type_size(struct blocking_notifier_head);
		err = check_wait_list(o, head +
				      bpf_core_field_offset(struct blocking_notifier_head, rwsem) +
				      bpf_core_field_offset(struct rw_semaphore, wait_list));
		if (err)
			return err;
		at = head + bpf_core_field_offset(struct blocking_notifier_head, head);
		break;
	case CS_WALK_SRCU:
		o->head_size = bpf_core_type_size(struct srcu_notifier_head);
		err = check_wait_list(o, head +
				      bpf_core_field_offset(struct srcu_notifier_head, mutex) +
				      bpf_core_field_offset(struct mutex, wait_list));
		if (err)
			return err;
		at = head + bpf_core_field_offset(struct srcu_notifier_head, head);
		break;
	default:
		return walk_fail(o, CS_WALK_BAD_KIND, kind);
	}

	if (bpf_probe_read_kernel(&p, sizeof(p), (void *)at))
		return walk_fail(o, CS_WALK_FAULT, at);

	for (i = 0; i < CS_WALK_MAX_BLOCKS; i++) {
		struct notifier_block *nb = (void *)p;
		struct cs_walk_block *b = &o->blocks[i];
		int prio = 0;

		if (!p)
			return CS_WALK_OK;
		if (!kptr_ok(p))
			return walk_fail(o, CS_WALK_BAD_POINTER, p);
		b->nb = p;
		b->cb = 0;
		if (bpf_core_read(&b->cb, sizeof(b->cb), &nb->notifier_call) ||
		    bpf_core_read(&prio, sizeof(prio), &nb->priority) ||
		    bpf_core_read(&p, sizeof(p), &nb->next))
			return walk_fail(o, CS_WALK_FAULT, b->nb);
		b->priority = prio;
		o->nr = i + 1;
	}
	if (p)
		return walk_fail(o, CS_WALK_TOO_LONG, p);
	return CS_WALK_OK;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
