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
#include "exec_ctx.bpf.h"

/* e->ctx is cs_exec_ctx()'s value: the file format must not drift from it */
_Static_assert(CS_REC_CTX_TASK == CS_CTX_TASK && CS_REC_CTX_SOFTIRQ == CS_CTX_SOFTIRQ &&
	       CS_REC_CTX_HARDIRQ == CS_CTX_HARDIRQ && CS_REC_CTX_NMI == CS_CTX_NMI,
	       "enum cs_rec_ctx differs from enum cs_exec_ctx");

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
	e->ctx = cs_exec_ctx();
	e->type = type;
	e->head = (__u64)head;
	e->kind = kind;
	return e;
}

/* rec_start() for the events of one callback, register .. stop */
static __always_inline struct cs_rec_event *rec_cb_start(__u16 type, void *cb,
							  void *head,
							  struct notifier_block *nb,
							  int priority, int kind)
{
	struct cs_rec_event *e = rec_start(type, head, kind);

	if (e) {
		e->cb = (__u64)cb;
		e->nb = (__u64)nb;	/* may be freed already: never dereferenced */
		e->priority = priority;
	}
	return e;
}

static __always_inline int rec_member(__u16 type, void *cb, void *head,
				      struct notifier_block *nb, int priority,
				      int kind, int err)
{
	struct cs_rec_event *e = rec_cb_start(type, cb, head, nb, priority, kind);

	if (!e)
		return 0;
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
	struct cs_rec_event *e = rec_cb_start(CS_REC_RUN, cb, head, nb, priority, kind);

	if (!e)
		return 0;
	e->val = val;
	bpf_ringbuf_submit(e, 0);
	return 0;
}

SEC("tp_btf/notifier_return")
int BPF_PROG(rec_return, void *cb, void *head, struct notifier_block *nb,
	     int priority, enum notifier_chain_kind kind, unsigned long val, int ret,
	     u64 duration_ns)
{
	struct cs_rec_event *e = rec_cb_start(CS_REC_RETURN, cb, head, nb, priority, kind);

	if (!e)
		return 0;
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
	struct cs_rec_event *e = rec_cb_start(CS_REC_STOP, cb, head, nb, priority, kind);

	if (!e)
		return 0;
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
