/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * A callback's entry paired with its return: the stack of the callbacks
 * running in one execution context. Both modes use it:
 *  - probes mode (probemode.bpf.h): kprobe.multi entry / kretprobe.multi
 *    return of a watched callback;
 *  - tracepoints mode: notifier_run / notifier_return of our core, which
 *    carries no run time of its own (the time between the two is it).
 *
 * Task context keeps its stack in task-local storage: a blocking chain's
 * callback may sleep and wake up on another CPU, and the lookup is a
 * pointer chase, with no hashing, insert or delete per callback. The
 * stack is created at the task's first traced callback and goes with the
 * task (or the map). Interrupt contexts (softirq, hardirq, NMI) keep theirs
 * per CPU, one per context: an interrupt does not migrate, nests strictly
 * inside what it interrupts, and its callbacks have returned when it
 * ends; bpf_get_current_task() there would name the interrupted task, and
 * task storage is not used from NMI. (Softirqs threaded by PREEMPT_RT
 * could migrate: the kernels chainscope runs on are not RT.)
 *
 * Per stack level, the callbacks that returned since a pass last began
 * at that level (cs_cb_pass_begin(), tracepoints mode: notifier_call_begin)
 * give a stopping return the number of callbacks of its pass that ran.
 * Include after vmlinux.h, the libbpf headers, chainscope.bpf.h and
 * exec_ctx.bpf.h.
 */
#ifndef CHAINSCOPE_CB_PAIR_BPF_H
#define CHAINSCOPE_CB_PAIR_BPF_H

#include "common.h"
#include "probemode.h"

struct cs_pm_cb {
	__u64 cb;
	__u64 nb;
	__u64 head;
	__u64 val;
	__u64 ts;		/* when the callback was entered */
	__s32 kind;
	__s32 priority;
	__u32 skip;		/* entry was not an event: its exit is not either */
	__u32 __pad;
};

struct cs_pm_cbs {
	__u32 depth;		/* may exceed CS_MAX_DEPTH */
	__u32 __pad;
	struct cs_pm_cb frames[CS_MAX_DEPTH];
	__s32 ran[CS_MAX_DEPTH];	/* returns at each level since its pass began */
};

/* Not named cs_pm_*: user space keeps them at full size in both modes. */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct cs_pm_cbs);
} cs_cb_stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, CS_CTX_NMI + 1);	/* by enum cs_exec_ctx; task unused */
	__type(key, __u32);
	__type(value, struct cs_pm_cbs);
} cs_cb_irq_stacks SEC(".maps");

/* cs_cb_pop() results */
enum {
	CS_CB_PAIRED,
	CS_CB_NONE,		/* no entry on this stack: entered before we attached */
	CS_CB_DEEP,		/* entered past CS_MAX_DEPTH: no frame */
	CS_CB_OTHER,		/* the top frame is another callback's */
};

/*
 * This context's stack, or NULL (a task's is created when @create; NULL
 * also when task storage is busy on this CPU, e.g. another program of
 * the same task is using it).
 */
static __always_inline struct cs_pm_cbs *cs_cb_stack(bool create)
{
	__u32 ctx = cs_exec_ctx();

	if (ctx != CS_CTX_TASK)
		return bpf_map_lookup_elem(&cs_cb_irq_stacks, &ctx);
	return bpf_task_storage_get(&cs_cb_stacks, bpf_get_current_task_btf(), NULL,
				    create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
}

/*
 * A callback is entered: its frame, to be filled in (ts last), or NULL
 * (no stack; or past CS_MAX_DEPTH, then *deep is set). The depth counts
 * it either way, so that its return pops what it pushed.
 */
static __always_inline struct cs_pm_cb *cs_cb_push(bool *deep)
{
	struct cs_pm_cbs *st = cs_cb_stack(true);
	__u32 d;

	*deep = false;
	if (!st)
		return NULL;
	d = st->depth;
	st->depth = d + 1;
	if (d >= CS_MAX_DEPTH) {
		*deep = true;
		return NULL;
	}
	return &st->frames[d & (CS_MAX_DEPTH - 1)];
}

/*
 * A callback returned: pop its frame into *f. *ran is the number of
 * callbacks that returned at this level since its pass began, this one
 * included (tracepoints mode; 0 without a frame). CS_CB_*.
 */
static __always_inline int cs_cb_pop(__u64 cb, struct cs_pm_cb *f, int *ran)
{
	struct cs_pm_cbs *st = cs_cb_stack(false);
	__u32 d;

	*ran = 0;
	if (!st || !st->depth)
		return CS_CB_NONE;
	d = st->depth - 1;
	st->depth = d;
	if (d >= CS_MAX_DEPTH)
		return CS_CB_DEEP;
	*f = st->frames[d & (CS_MAX_DEPTH - 1)];
	*ran = ++st->ran[d & (CS_MAX_DEPTH - 1)];
	return f->cb == cb ? CS_CB_PAIRED : CS_CB_OTHER;
}

/* A pass begins at the current level (tracepoints mode: notifier_call_begin). */
static __always_inline void cs_cb_pass_begin(void)
{
	struct cs_pm_cbs *st = cs_cb_stack(true);
	__u32 d;

	if (!st)
		return;
	d = st->depth;
	if (d < CS_MAX_DEPTH)
		st->ran[d & (CS_MAX_DEPTH - 1)] = 0;
}

/* --- tracepoints mode ------------------------------------------------------- */

/* notifier_run, after its program's own work: the callback starts now. */
static __always_inline void cs_cb_run(void *cb)
{
	struct cs_pm_cb *f;
	bool deep;

	f = cs_cb_push(&deep);
	if (!f)
		return;
	f->cb = (__u64)cb;
	f->skip = 0;
	f->ts = bpf_ktime_get_ns();
}

/*
 * notifier_return at @now: how long the callback ran, at least 1 ns; 0
 * if its notifier_run was not seen (this program attached during the
 * call, or that one skipped). *ran as cs_cb_pop().
 */
static __always_inline __u64 cs_cb_return(void *cb, __u64 now, int *ran)
{
	struct cs_pm_cb f;
	__u64 d;

	if (cs_cb_pop((__u64)cb, &f, ran) != CS_CB_PAIRED)
		return 0;
	d = now - f.ts;
	return d ? d : 1;
}

#endif /* CHAINSCOPE_CB_PAIR_BPF_H */
