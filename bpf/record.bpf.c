// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * chainscope record: every notifier event, as one struct cs_rec_event
 * each, through a ring buffer to user space (userspace/record.c), which
 * writes the trace file. A full ring buffer loses the event and counts
 * it in rec_stats[CS_REC_STAT_LOST].
 *
 * tp_btf programs only: the recording wants the typed arguments of all
 * ten tracepoints, and every chainscope kernel has BTF for them.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "record.h"

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, CS_REC_RINGBUF_SIZE);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, CS_REC_STAT_MAX);
	__type(key, __u32);
	__type(value, __u64);
} rec_stats SEC(".maps");

/* x86 6.1 keeps preempt_count in this per-CPU variable */
extern const int __preempt_count __ksym __weak;

#define CS_NMI_MASK		0x00f00000
#define CS_HARDIRQ_MASK		0x000f0000
#define CS_SOFTIRQ_OFFSET	0x00000100

static __always_inline __u8 exec_ctx(void)
{
	const int *pc;
	int v;

	if (!&__preempt_count)
		return CS_REC_CTX_TASK;
	pc = bpf_this_cpu_ptr(&__preempt_count);
	v = *pc;
	if (v & CS_NMI_MASK)
		return CS_REC_CTX_NMI;
	if (v & CS_HARDIRQ_MASK)
		return CS_REC_CTX_HARDIRQ;
	if (v & CS_SOFTIRQ_OFFSET)
		return CS_REC_CTX_SOFTIRQ;
	return CS_REC_CTX_TASK;
}

/* A zeroed event with the common fields set, or NULL (counted as lost). */
static __always_inline struct cs_rec_event *rec_start(__u16 type, void *head,
						       int kind)
{
	struct cs_rec_event *e;

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		__u32 idx = CS_REC_STAT_LOST;
		__u64 *cnt = bpf_map_lookup_elem(&rec_stats, &idx);

		if (cnt)
			*cnt += 1;	/* per-CPU slot */
		return NULL;
	}
	__builtin_memset(e, 0, sizeof(*e));
	e->ts = bpf_ktime_get_ns();
	e->task = (__u64)bpf_get_current_task();
	e->pid = (__u32)bpf_get_current_pid_tgid();
	e->cpu = bpf_get_smp_processor_id();
	e->ctx = exec_ctx();
	e->type = type;
	e->head = (__u64)head;
	e->kind = kind;
	return e;
}

static __always_inline int rec_member(__u16 type, void *cb, void *head,
				      struct notifier_block *nb, int priority,
				      int kind, int err)
{
	struct cs_rec_event *e = rec_start(type, head, kind);

	if (!e)
		return 0;
	e->cb = (__u64)cb;
	e->nb = (__u64)nb;
	e->priority = priority;
	e->ret = err;
	bpf_ringbuf_submit(e, 0);
	return 0;
}

SEC("tp_btf/notifier_register")
int BPF_PROG(rec_register, void *cb, void *head, struct notifier_block *nb,
	     int priority, enum notifier_chain_kind kind, int err)
{
	return rec_member(CS_REC_REGISTER, cb, head, nb, priority, kind, err);
}

SEC("tp_btf/notifier_unregister")
int BPF_PROG(rec_unregister, void *cb, void *head, struct notifier_block *nb,
	     int priority, enum notifier_chain_kind kind, int err)
{
	return rec_member(CS_REC_UNREGISTER, cb, head, nb, priority, kind, err);
}

SEC("tp_btf/notifier_register_error")
int BPF_PROG(rec_register_error, void *cb, void *head, struct notifier_block *nb,
	     int priority, enum notifier_chain_kind kind, int err)
{
	return rec_member(CS_REC_REGISTER_ERROR, cb, head, nb, priority, kind, err);
}

SEC("tp_btf/notifier_unregister_error")
int BPF_PROG(rec_unregister_error, void *cb, void *head, struct notifier_block *nb,
	     int priority, enum notifier_chain_kind kind, int err)
{
	return rec_member(CS_REC_UNREGISTER_ERROR, cb, head, nb, priority, kind, err);
}

SEC("tp_btf/notifier_run")
int BPF_PROG(rec_run, void *cb, void *head, struct notifier_block *nb,
	     int priority, enum notifier_chain_kind kind, unsigned long val)
{
	struct cs_rec_event *e = rec_start(CS_REC_RUN, head, kind);

	if (!e)
		return 0;
	e->cb = (__u64)cb;
	e->nb = (__u64)nb;
	e->priority = priority;
	e->val = val;
	bpf_ringbuf_submit(e, 0);
	return 0;
}

SEC("tp_btf/notifier_return")
int BPF_PROG(rec_return, void *cb, void *head, struct notifier_block *nb,
	     int priority, enum notifier_chain_kind kind, unsigned long val, int ret,
	     u64 duration_ns)
{
	struct cs_rec_event *e = rec_start(CS_REC_RETURN, head, kind);

	if (!e)
		return 0;
	e->cb = (__u64)cb;
	e->nb = (__u64)nb;	/* may be freed already: never dereferenced */
	e->priority = priority;
	e->val = val;
	e->ret = ret;
	e->duration_ns = duration_ns;
	bpf_ringbuf_submit(e, 0);
	return 0;
}

SEC("tp_btf/notifier_stop")
int BPF_PROG(rec_stop, void *cb, void *head, struct notifier_block *nb,
	     int priority, enum notifier_chain_kind kind, unsigned long val, int ret,
	     int nr_calls)
{
	struct cs_rec_event *e = rec_start(CS_REC_STOP, head, kind);

	if (!e)
		return 0;
	e->cb = (__u64)cb;
	e->nb = (__u64)nb;
	e->priority = priority;
	e->val = val;
	e->ret = ret;
	e->nr_calls = nr_calls;
	bpf_ringbuf_submit(e, 0);
	return 0;
}

SEC("tp_btf/notifier_call_begin")
int BPF_PROG(rec_call_begin, void *head, enum notifier_chain_kind kind,
	     unsigned long val, int nr_to_call, enum notifier_call_type type)
{
	struct cs_rec_event *e = rec_start(CS_REC_CALL_BEGIN, head, kind);

	if (!e)
		return 0;
	e->val = val;
	e->nr_to_call = nr_to_call;
	e->call_type = type;
	bpf_ringbuf_submit(e, 0);
	return 0;
}

SEC("tp_btf/notifier_call_end")
int BPF_PROG(rec_call_end, void *head, enum notifier_chain_kind kind,
	     unsigned long val, int nr_to_call, enum notifier_call_type type, int ret,
	     int nr_calls)
{
	struct cs_rec_event *e = rec_start(CS_REC_CALL_END, head, kind);

	if (!e)
		return 0;
	e->val = val;
	e->nr_to_call = nr_to_call;
	e->call_type = type;
	e->ret = ret;
	e->nr_calls = nr_calls;
	bpf_ringbuf_submit(e, 0);
	return 0;
}

SEC("tp_btf/notifier_lock_wait")
int BPF_PROG(rec_lock_wait, void *head, void *lock, enum notifier_chain_kind kind,
	     enum notifier_lock_op op, u64 wait_ns)
{
	struct cs_rec_event *e = rec_start(CS_REC_LOCK_WAIT, head, kind);

	if (!e)
		return 0;
	e->lock = (__u64)lock;
	e->lock_op = op;
	e->duration_ns = wait_ns;
	bpf_ringbuf_submit(e, 0);
	return 0;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
