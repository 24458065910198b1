// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * chainscope contention: waits for the lock of blocking (rwsem) and SRCU
 * (mutex) notifier chains, in both modes from one source:
 * lock:contention_begin -> contention_end on the locks of the heads in
 * watched_heads (bpf/chain_lock.bpf.h). Only contended acquisitions wait,
 * so only they are seen there: the histogram, count, sum and max are
 * theirs, and so are the top waiters.
 *
 * Tracepoints mode (our kernel) adds the notifier events, which never
 * touch the lock: they name the blocking and SRCU heads user space did
 * not know (chain_lock_learn(), without -c), and they count every
 * acquisition (cs_cont_val.acquired):
 *  - write: each notifier_register, _unregister, _register_error and
 *    _unregister_error (after boot every (un)registration of a blocking
 *    or SRCU chain takes its lock for writing once, refused ones too);
 *  - read: each notifier_call_end of a plain or robust pass over a
 *    blocking chain that ran a callback. A call that finds the chain
 *    empty (unlocked peek) skips the rwsem, and a robust call's rollback
 *    pass runs under the read hold of its val_up pass. The one miss: a
 *    caller that saw a block unlocked, then found the chain empty under
 *    the rwsem (its last block unregistered in between), took the lock
 *    and ran no callback: no event tells that pass from an empty call.
 *
 * As in latency.bpf.c each program comes as a tp_btf/raw_tp pair, and
 * the statistics maps come in two generations (see latency.bpf.c).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "contention.h"
#include "chainscope.bpf.h"
#include "chain_lock.bpf.h"

const volatile int targ_units = CS_UNITS_US;

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

static struct cs_cont_val zero_cont;
static struct cs_waiter_val zero_waiter;

/* The (head, op) entry of the current generation, kind and lock set. */
static __always_inline struct cs_cont_val *cont_entry(__u64 head, __u32 kind, __u32 op)
{
	struct cs_cont_key key = {};
	struct cs_cont_val *v;
	__u32 zero = 0;
	void *map;

	map = bpf_map_lookup_elem(&waits, &zero);
	if (!map)
		return NULL;
	key.head = head;
	key.op = op;
	v = cs_lookup_or_init(map, &key, &zero_cont);
	if (!v)
		return NULL;
	v->kind = kind;
	v->lock = chain_lock_of(head, kind);
	return v;
}

/* One contended acquisition's wait into waits and waiters. */
static __always_inline void record_wait(const struct cs_lt_val *lt)
{
	struct cs_waiter_key wkey = {};
	struct cs_waiter_val *w;
	struct cs_cont_val *v;
	__u64 id, ns = lt->ts;
	__u32 zero = 0;
	void *map;

	v = cont_entry(lt->head, lt->kind, lt->op);
	if (!v)
		return;
	CS_HIST_ADD(v, ns, targ_units);

	id = bpf_get_current_pid_tgid();
	wkey.head = lt->head;
	wkey.pid = (__u32)id;
	map = bpf_map_lookup_elem(&waiters, &zero);
	if (!map)
		return;
	w = cs_lookup_or_init(map, &wkey, &zero_waiter);
	if (!w)
		return;
	if (!w->count) {
		w->tgid = id >> 32;
		bpf_get_current_comm(w->comm, sizeof(w->comm));
	}
	__sync_fetch_and_add(&w->count, 1);
	__sync_fetch_and_add(&w->total_ns, ns);
	cs_update_max(&w->max_ns, ns);
}

/* tracepoints mode: one acquisition of a (learned or watched) chain's lock */
static __always_inline int count_acquired(void *head, int kind, __u32 op)
{
	struct cs_cont_val *v;

	if (!chain_lock_learn((__u64)head, kind))
		return 0;
	v = cont_entry((__u64)head, kind, op);
	if (v)
		__sync_fetch_and_add(&v->acquired, 1);
	return 0;
}

static __always_inline int handle_member(void *head, int kind)
{
	return count_acquired(head, kind, CS_LOCK_WRITE);
}

static __always_inline int handle_call_end(void *head, int kind, int type, int nr_calls)
{
	/* enum notifier_call_type: 2 is the rollback pass of a robust call */
	if (kind != CS_KIND_BLOCKING || type == 2 || nr_calls <= 0) {
		chain_lock_learn((__u64)head, kind);	/* an SRCU chain: its mutex */
		return 0;
	}
	return count_acquired(head, kind, CS_LOCK_READ);
}

static __always_inline int handle_contention_end(void *lock)
{
	struct cs_lt_val lt;

	if (chain_lock_end(lock, &lt))
		record_wait(&lt);
	return 0;
}

/* the membership events; the _error ones' err is not needed */
#define CS_MEMBER_PROGS(ev)							\
SEC("tp_btf/" #ev)								\
int BPF_PROG(ev##_btf, void *cb, void *head, struct notifier_block *nb,	\
	     int priority, enum notifier_chain_kind kind)			\
{										\
	return handle_member(head, kind);					\
}										\
										\
SEC("raw_tp/" #ev)								\
int BPF_PROG(ev##_raw, void *cb, void *head, struct notifier_block *nb,	\
	     int priority, enum notifier_chain_kind kind)			\
{										\
	return handle_member(head, kind);					\
}

CS_MEMBER_PROGS(notifier_register)
CS_MEMBER_PROGS(notifier_unregister)
CS_MEMBER_PROGS(notifier_register_error)
CS_MEMBER_PROGS(notifier_unregister_error)

SEC("tp_btf/notifier_call_end")
int BPF_PROG(call_end_btf, void *head, enum notifier_chain_kind kind, unsigned long val,
	     int nr_to_call, enum notifier_call_type type, int ret, int nr_calls)
{
	return handle_call_end(head, kind, type, nr_calls);
}

SEC("raw_tp/notifier_call_end")
int BPF_PROG(call_end_raw, void *head, enum notifier_chain_kind kind, unsigned long val,
	     int nr_to_call, enum notifier_call_type type, int ret, int nr_calls)
{
	return handle_call_end(head, kind, type, nr_calls);
}

SEC("tp_btf/contention_begin")
int BPF_PROG(contention_begin_btf, void *lock, unsigned int flags)
{
	return chain_lock_begin(lock, flags);
}

SEC("raw_tp/contention_begin")
int BPF_PROG(contention_begin_raw, void *lock, unsigned int flags)
{
	return chain_lock_begin(lock, flags);
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
