/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * Lock waits of notifier chains from lock:contention_begin/end, shared by
 * contention.bpf.c and record.bpf.c. Include after chainscope.bpf.h.
 *
 * The lock of a blocking chain is the rwsem inside its head, that of an
 * SRCU chain the mutex inside its head (taken only to (un)register). So a
 * contended lock belongs to chain `lock - offsetof(head, rwsem|mutex)`
 * (CO-RE offsets) if that head is in watched_heads: filled by user space
 * (-c, the curated table of well-known heads) and, in tracepoints mode,
 * by the notifier events as they name new blocking and SRCU heads
 * (chain_lock_learn()). The kernel takes these locks as it always did:
 * nothing here is on the lock's path unless the lock is contended.
 *
 * lock:contention_begin/end fire for every contended sleeping lock in the
 * system: contention_begin returns after one flag test and one hash
 * lookup unless the lock is a watched chain's; contention_end after one
 * LRU lookup. Only contended acquisitions are seen.
 */
#ifndef CHAINSCOPE_CHAIN_LOCK_BPF_H
#define CHAINSCOPE_CHAIN_LOCK_BPF_H

#include "contention.h"

/* learn heads from notifier events (tracepoints mode without -c) */
const volatile bool targ_learn = false;

/* head -> kind (CS_KIND_BLOCKING, CS_KIND_SRCU, or CS_LOCK_KIND_ANY) */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CS_WATCHED_LOCKS);
	__type(key, __u64);
	__type(value, __u32);
} watched_heads SEC(".maps");

/*
 * A contention_begin on a watched chain's lock, per (task, lock), until
 * its contention_end. LRU: a begin whose end is never seen just ages out.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, CS_MAP_ENTRIES);
	__type(key, struct cs_lt_key);
	__type(value, struct cs_lt_val);
} lt_begin SEC(".maps");

/* include/trace/events/lock.h: LCB_F_* */
#define CS_LCB_F_SPIN	(1U << 0)
#define CS_LCB_F_READ	(1U << 1)
#define CS_LCB_F_WRITE	(1U << 2)
#define CS_LCB_F_PERCPU	(1U << 4)
#define CS_LCB_F_MUTEX	(1U << 5)

static __always_inline __u64 chain_lock_of(__u64 head, __u32 kind)
{
	if (kind == CS_KIND_SRCU)
		return head + bpf_core_field_offset(struct srcu_notifier_head, mutex);
	return head + bpf_core_field_offset(struct blocking_notifier_head, rwsem);
}

/*
 * A notifier event named this blocking or SRCU head: watch its lock from
 * now on (tracepoints mode without -c). Returns whether the head is
 * watched: with -c only the -c head is.
 */
static __always_inline bool chain_lock_learn(__u64 head, __u32 kind)
{
	__u32 *k;
	int err;

	if (kind != CS_KIND_BLOCKING && kind != CS_KIND_SRCU)
		return false;
	k = bpf_map_lookup_elem(&watched_heads, &head);
	if (k)
		return true;
	if (!targ_learn)
		return false;
	/* (int): see cs_lookup_or_init() */
	err = (int)bpf_map_update_elem(&watched_heads, &head, &kind, BPF_NOEXIST);
	if (err == -CS_E2BIG || err == -CS_ENOMEM)
		cs_stat_inc(CS_STAT_DROPPED);
	return !err || err == -CS_EEXIST;
}

/*
 * contention_begin: keep (time, head, kind, op) if the lock is a watched
 * chain's rwsem or mutex. A mutex reports begin twice (optimistic spin,
 * then sleep) and end once: the first timestamp stays.
 */
static __always_inline int chain_lock_begin(void *lock, unsigned int flags)
{
	struct cs_lt_key key = {};
	struct cs_lt_val val = {};
	bool mutex = flags & CS_LCB_F_MUTEX;
	__u32 *kind;
	__u64 head;

	/* only sleeping rwsems and mutexes can be a notifier chain's lock */
	if (!mutex && (!(flags & (CS_LCB_F_READ | CS_LCB_F_WRITE)) ||
		       (flags & (CS_LCB_F_SPIN | CS_LCB_F_PERCPU))))
		return 0;
	if (mutex)
		head = (__u64)lock - bpf_core_field_offset(struct srcu_notifier_head, mutex);
	else
		head = (__u64)lock - bpf_core_field_offset(struct blocking_notifier_head, rwsem);
	kind = bpf_map_lookup_elem(&watched_heads, &head);
	if (!kind)
		return 0;
	val.kind = mutex ? CS_KIND_SRCU : CS_KIND_BLOCKING;
	if (*kind != CS_LOCK_KIND_ANY && *kind != val.kind)
		return 0;
	/* our core takes an SRCU chain's mutex only to (un)register: write */
	val.op = mutex || (flags & CS_LCB_F_WRITE) ? CS_LOCK_WRITE : CS_LOCK_READ;
	val.head = head;
	val.ts = bpf_ktime_get_ns();
	key.task = (__u64)bpf_get_current_task();
	key.lock = (__u64)lock;
	bpf_map_update_elem(&lt_begin, &key, &val, BPF_NOEXIST);
	return 0;
}

/*
 * contention_end: if this task's begin on this lock was kept, take it out
 * into *out with out->ts set to the wait (at least 1 ns). false otherwise.
 */
static __always_inline bool chain_lock_end(void *lock, struct cs_lt_val *out)
{
	struct cs_lt_key key = {};
	struct cs_lt_val *v;
	__u64 ns;

	key.task = (__u64)bpf_get_current_task();
	key.lock = (__u64)lock;
	v = bpf_map_lookup_elem(&lt_begin, &key);
	if (!v)
		return false;
	ns = bpf_ktime_get_ns() - v->ts;
	*out = *v;
	out->ts = ns ? ns : 1;
	bpf_map_delete_elem(&lt_begin, &key);
	return true;
}

#endif /* CHAINSCOPE_CHAIN_LOCK_BPF_H */
