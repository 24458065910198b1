// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * chainscope contention: waits for the lock of blocking (rwsem) and SRCU
 * (mutex) notifier chains, from notifier:notifier_lock_wait, cross-checked
 * against lock:contention_begin/contention_end on the same lock.
 *
 * As in latency.bpf.c each program comes as a tp_btf/raw_tp pair, and
 * the statistics maps come in two generations (see latency.bpf.c).
 *
 * lock:contention_begin/end fire for every sleeping lock in the system;
 * they return at once unless the lock is a watched chain's: with -c, the
 * rwsem or mutex inside that chain's head (CO-RE offsets); without, any
 * lock notifier_lock_wait has shown to be a chain's (watched_locks).
 *
 * probes mode (targ_probes, any kernel from 5.19 on): no notifier event
 * at all. The waits come from lock:contention_begin -> contention_end
 * alone, on the locks inside the heads user space names (-c, or the
 * curated table in watched_heads); only contended acquisitions are seen.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "contention.h"
#include "chainscope.bpf.h"

const volatile __u64 targ_head = 0;	/* only this chain head (0: all) */
const volatile int targ_units = CS_UNITS_US;
const volatile bool targ_probes = false;	/* waits from lock:contention_* */

struct cont_waits {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CS_MAP_ENTRIES);
	__type(key, struct cs_cont_key);
	__type(value, struct cs_cont_val);
} waits_0 SEC(".maps"), waits_1 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, __u32);
	__array(values, struct cont_waits);
} waits SEC(".maps") = {
	.values = { &waits_0 },
};

struct cont_waiters {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CS_MAP_ENTRIES);
	__type(key, struct cs_waiter_key);
	__type(value, struct cs_waiter_val);
} waiters_0 SEC(".maps"), waiters_1 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, __u32);
	__array(values, struct cont_waiters);
} waiters SEC(".maps") = {
	.values = { &waiters_0 },
};

/* Without -c: lock address -> chain head, from notifier_lock_wait. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CS_WATCHED_LOCKS);
	__type(key, __u64);
	__type(value, __u64);
} watched_locks SEC(".maps");

/* probes mode without -c: head -> kind (blocking or srcu), from user space */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CS_WATCHED_LOCKS);
	__type(key, __u64);
	__type(value, __u32);
} watched_heads SEC(".maps");

/* probes mode: the op (read/write) of a contention_begin, per (task, lock) */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, CS_MAP_ENTRIES);
	__type(key, struct cs_lt_key);
	__type(value, __u32);
} lt_op SEC(".maps");

/*
 * lock:contention_begin timestamps and finished begin->end times, per
 * (task, lock). Entries for locks that turn out not to be a notifier
 * chain's are never consumed, so these are LRU maps: old ones just go.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, CS_MAP_ENTRIES);
	__type(key, struct cs_lt_key);
	__type(value, __u64);
} lt_begin SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, CS_MAP_ENTRIES);
	__type(key, struct cs_lt_key);
	__type(value, __u64);
} lt_done SEC(".maps");

static struct cs_cont_val zero_cont;
static struct cs_waiter_val zero_waiter;

/* include/trace/events/lock.h: LCB_F_* */
#define CS_LCB_F_SPIN	(1U << 0)
#define CS_LCB_F_READ	(1U << 1)
#define CS_LCB_F_WRITE	(1U << 2)
#define CS_LCB_F_PERCPU	(1U << 4)
#define CS_LCB_F_MUTEX	(1U << 5)

/* One acquisition's wait into waits and (if it waited) waiters. */
static __always_inline struct cs_cont_val *record_wait(void *head, void *lock, int kind,
							int op, __u64 wait_ns)
{
	struct cs_cont_key key = {};
	struct cs_cont_val *v;
	__u32 zero = 0;
	void *map;

	map = bpf_map_lookup_elem(&waits, &zero);
	if (!map)
		return NULL;
	key.head = (__u64)head;
	key.op = op;
	v = cs_lookup_or_init(map, &key, &zero_cont);
	if (!v)
		return NULL;
	v->kind = kind;
	v->lock = (__u64)lock;
	CS_HIST_ADD(v, wait_ns, targ_units);
	if (wait_ns)
		__sync_fetch_and_add(&v->contended, 1);

	if (wait_ns) {
		struct cs_waiter_key wkey = {};
		struct cs_waiter_val *w;
		__u64 id = bpf_get_current_pid_tgid();

		wkey.head = (__u64)head;
		wkey.pid = (__u32)id;
		map = bpf_map_lookup_elem(&waiters, &zero);
		if (map) {
			w = cs_lookup_or_init(map, &wkey, &zero_waiter);
			if (w) {
				if (!w->count) {
					w->tgid = id >> 32;
					bpf_get_current_comm(w->comm, sizeof(w->comm));
				}
				__sync_fetch_and_add(&w->count, 1);
				__sync_fetch_and_add(&w->total_ns, wait_ns);
				cs_update_max(&w->max_ns, wait_ns);
			}
		}
	}
	return v;
}

static __always_inline int handle_lock_wait(void *head, void *lock, int kind,
					    int op, __u64 wait_ns)
{
	struct cs_lt_key lkey = {};
	struct cs_cont_val *v;
	__u64 *lt, lock_addr = (__u64)lock;

	if (targ_head && (__u64)head != targ_head)
		return 0;
	/* from now on, lock:contention_* on this lock are this chain's */
	if (!targ_head && !bpf_map_lookup_elem(&watched_locks, &lock_addr)) {
		__u64 hd = (__u64)head;
		int err;

		/* (int): see cs_lookup_or_init() */
		err = (int)bpf_map_update_elem(&watched_locks, &lock_addr, &hd,
					       BPF_NOEXIST);
		if (err == -CS_E2BIG || err == -CS_ENOMEM)
			cs_stat_inc(CS_STAT_DROPPED);
	}
	v = record_wait(head, lock, kind, op, wait_ns);
	if (!v)
		return 0;

	/* did the lock tracepoints see this acquisition wait? */
	lkey.task = (__u64)bpf_get_current_task();
	lkey.lock = (__u64)lock;
	lt = bpf_map_lookup_elem(&lt_done, &lkey);
	if (lt) {
		__u64 ns = *lt;

		bpf_map_delete_elem(&lt_done, &lkey);
		__sync_fetch_and_add(&v->lt_count, 1);
		__sync_fetch_and_add(&v->lt_sum_ns, ns);
		cs_update_max(&v->lt_max_ns, ns);
	}
	return 0;
}

/*
 * probes mode: the chain head whose rwsem (blocking) or mutex (srcu) this
 * lock is, by the CO-RE offsets of the head structs; 0 if none.
 */
static __always_inline __u64 lock_head(void *lock, bool mutex)
{
	__u64 addr = (__u64)lock, head;
	__u32 *kind;

	if (mutex)
		head = addr - bpf_core_field_offset(struct srcu_notifier_head, mutex);
	else
		head = addr - bpf_core_field_offset(struct blocking_notifier_head, rwsem);
	if (targ_head)
		return head == targ_head ? head : 0;
	kind = bpf_map_lookup_elem(&watched_heads, &head);
	if (!kind || *kind != (mutex ? CS_KIND_SRCU : CS_KIND_BLOCKING))
		return 0;
	return head;
}

/* Is this lock the rwsem or mutex of a chain being watched? */
static __always_inline bool lock_watched(void *lock)
{
	__u64 addr = (__u64)lock;

	if (targ_head)
		return addr == targ_head +
			bpf_core_field_offset(struct blocking_notifier_head, rwsem) ||
		       addr == targ_head +
			bpf_core_field_offset(struct srcu_notifier_head, mutex);
	return bpf_map_lookup_elem(&watched_locks, &addr);
}

static __always_inline int handle_contention_begin(void *lock, unsigned int flags)
{
	struct cs_lt_key key = {};
	__u64 now;

	/* only sleeping rwsems and mutexes can be a notifier chain's lock */
	if (!(flags & CS_LCB_F_MUTEX) &&
	    (!(flags & (CS_LCB_F_READ | CS_LCB_F_WRITE)) ||
	     (flags & (CS_LCB_F_SPIN | CS_LCB_F_PERCPU))))
		return 0;
	if (targ_probes) {
		if (!lock_head(lock, flags & CS_LCB_F_MUTEX))
			return 0;
	} else if (!lock_watched(lock)) {
		return 0;
	}
	key.task = (__u64)bpf_get_current_task();
	key.lock = (__u64)lock;
	now = bpf_ktime_get_ns();
	if (targ_probes) {
		/* our core: a mutex (srcu) is only taken to (un)register: write */
		__u32 op = (flags & CS_LCB_F_MUTEX) ? CS_LOCK_WRITE | CS_LOCK_MUTEX :
			   (flags & CS_LCB_F_READ) ? CS_LOCK_READ : CS_LOCK_WRITE;

		bpf_map_update_elem(&lt_op, &key, &op, BPF_NOEXIST);
	}
	/*
	 * A mutex reports begin twice (optimistic spin, then sleep) and end
	 * once: keep the first timestamp.
	 */
	bpf_map_update_elem(&lt_begin, &key, &now, BPF_NOEXIST);
	return 0;
}

static __always_inline int handle_contention_end(void *lock)
{
	struct cs_lt_key key = {};
	__u64 *ts, ns;

	if (!targ_probes && !lock_watched(lock))
		return 0;
	key.task = (__u64)bpf_get_current_task();
	key.lock = (__u64)lock;
	ts = bpf_map_lookup_elem(&lt_begin, &key);
	if (!ts)
		return 0;	/* (probes mode: also every lock not watched) */
	ns = bpf_ktime_get_ns() - *ts;
	bpf_map_delete_elem(&lt_begin, &key);
	if (targ_probes) {
		__u32 *opp = bpf_map_lookup_elem(&lt_op, &key), op;
		bool mutex;
		__u64 head;

		if (!opp)
			return 0;
		op = *opp;
		bpf_map_delete_elem(&lt_op, &key);
		mutex = op & CS_LOCK_MUTEX;
		head = lock_head(lock, mutex);
		if (head)
			record_wait((void *)head, lock, mutex ? CS_KIND_SRCU : CS_KIND_BLOCKING,
				    op & ~CS_LOCK_MUTEX, ns ? ns : 1);
		return 0;
	}
	bpf_map_update_elem(&lt_done, &key, &ns, BPF_ANY);
	return 0;
}

SEC("tp_btf/notifier_lock_wait")
int BPF_PROG(lock_wait_btf, void *head, void *lock, enum notifier_chain_kind kind,
	     enum notifier_lock_op op, u64 wait_ns)
{
	return handle_lock_wait(head, lock, kind, op, wait_ns);
}

SEC("raw_tp/notifier_lock_wait")
int BPF_PROG(lock_wait_raw, void *head, void *lock, enum notifier_chain_kind kind,
	     enum notifier_lock_op op, u64 wait_ns)
{
	return handle_lock_wait(head, lock, kind, op, wait_ns);
}

SEC("tp_btf/contention_begin")
int BPF_PROG(contention_begin_btf, void *lock, unsigned int flags)
{
	return handle_contention_begin(lock, flags);
}

SEC("raw_tp/contention_begin")
int BPF_PROG(contention_begin_raw, void *lock, unsigned int flags)
{
	return handle_contention_begin(lock, flags);
}

SEC("tp_btf/contention_end")
int BPF_PROG(contention_end_btf, void *lock, int ret)
{
	return handle_contention_end(lock);
}

SEC("raw_tp/contention_end")
int BPF_PROG(contention_end_raw, void *lock, int ret)
{
	return handle_contention_end(lock);
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
