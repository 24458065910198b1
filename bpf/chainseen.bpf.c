// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * chainscope chains -w: every notifier chain head that events name while
 * it runs, with the kind the event gives, into the hash map `seen`.
 *
 * Two sets of programs; user space loads one (bpf_program__set_autoload):
 *  - tracepoints mode (our core): tp_btf on notifier_call_begin and the
 *    membership events, which carry head and kind;
 *  - probes mode (any kernel with BPF trampolines): fentry on the
 *    exported chain API, the kind being the function's (each one whose
 *    function the kernel BTF lacks stays unloaded).
 * Nothing else is read: the chain walker (chains.bpf.c) reads the lists
 * afterwards.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "chainseen.h"

/* enum notifier_chain_kind (a stock kernel's BTF has no such enum) */
#define SEEN_RAW	0
#define SEEN_ATOMIC	1
#define SEEN_BLOCKING	2
#define SEEN_SRCU	3

/* die_chain is static: its address comes from user space (kallsyms) */
const volatile __u64 die_chain = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CS_SEEN_MAX_HEADS);
	__type(key, __u64);
	__type(value, struct cs_seen);
} seen SEC(".maps");

/* heads not remembered: `seen` was full (or the update failed) */
__u64 seen_dropped = 0;

static __always_inline void note(void *head, __u32 kind)
{
	__u64 key = (__u64)head;
	struct cs_seen *s, init = {};

	if (kind > SEEN_SRCU)
		return;
	s = bpf_map_lookup_elem(&seen, &key);
	if (!s) {
		init.kinds = 1U << kind;
		init.events = 1;
		if (!bpf_map_update_elem(&seen, &key, &init, BPF_NOEXIST))
			return;
		/* another CPU was first, or the map is full */
		s = bpf_map_lookup_elem(&seen, &key);
		if (!s) {
			__sync_fetch_and_add(&seen_dropped, 1);
			return;
		}
	}
	if (!(s->kinds & (1U << kind)))
		__sync_fetch_and_or(&s->kinds, 1U << kind);
	__sync_fetch_and_add(&s->events, 1);
}

/* --- tracepoints mode ------------------------------------------------------ */

SEC("tp_btf/notifier_call_begin")
int BPF_PROG(seen_call_begin, void *head, enum notifier_chain_kind kind)
{
	note(head, kind);
	return 0;
}

#define SEEN_MEMBERSHIP(ev)							\
SEC("tp_btf/" #ev)								\
int BPF_PROG(seen_##ev, void *cb, void *head, struct notifier_block *nb,	\
	     int priority, enum notifier_chain_kind kind)			\
{										\
	note(head, kind);							\
	return 0;								\
}

SEEN_MEMBERSHIP(notifier_register)
SEEN_MEMBERSHIP(notifier_unregister)
SEEN_MEMBERSHIP(notifier_register_error)
SEEN_MEMBERSHIP(notifier_unregister_error)

/* --- probes mode: the exported API ----------------------------------------- */

#define SEEN_API(fn, kind)							\
SEC("fentry/" #fn)								\
int BPF_PROG(seen_##fn, void *nh)						\
{										\
	note(nh, kind);								\
	return 0;								\
}

SEEN_API(atomic_notifier_call_chain, SEEN_ATOMIC)
SEEN_API(blocking_notifier_call_chain, SEEN_BLOCKING)
SEEN_API(raw_notifier_call_chain, SEEN_RAW)
SEEN_API(srcu_notifier_call_chain, SEEN_SRCU)
SEEN_API(blocking_notifier_call_chain_robust, SEEN_BLOCKING)
SEEN_API(raw_notifier_call_chain_robust, SEEN_RAW)
SEEN_API(atomic_notifier_chain_register, SEEN_ATOMIC)
SEEN_API(atomic_notifier_chain_register_unique_prio, SEEN_ATOMIC)
SEEN_API(atomic_notifier_chain_unregister, SEEN_ATOMIC)
SEEN_API(blocking_notifier_chain_register, SEEN_BLOCKING)
SEEN_API(blocking_notifier_chain_register_unique_prio, SEEN_BLOCKING)
SEEN_API(blocking_notifier_chain_unregister, SEEN_BLOCKING)
SEEN_API(raw_notifier_chain_register, SEEN_RAW)
SEEN_API(raw_notifier_chain_unregister, SEEN_RAW)
SEEN_API(srcu_notifier_chain_register, SEEN_SRCU)
SEEN_API(srcu_notifier_chain_unregister, SEEN_SRCU)

/* die_chain through its own wrappers (atomic_notifier_chain_register()
 * may be inlined into them) */
SEC("fentry/register_die_notifier")
int BPF_PROG(seen_register_die_notifier)
{
	if (die_chain)
		note((void *)die_chain, SEEN_ATOMIC);
	return 0;
}

SEC("fentry/unregister_die_notifier")
int BPF_PROG(seen_unregister_die_notifier)
{
	if (die_chain)
		note((void *)die_chain, SEEN_ATOMIC);
	return 0;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
