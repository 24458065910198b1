// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * chainscope latency: how long notifier callbacks (and with -C whole
 * chain passes) take, from the chainscope notifier tracepoints.
 *
 * Every program exists twice: tp_btf (typed, preferred) and raw_tp (the
 * fallback, also the one BPF_PROG_TEST_RUN can run on 6.1). User space
 * keeps one of each pair via bpf_program__set_autoload().
 *
 * Interval output: the statistics maps come in two generations behind a
 * one-slot map-in-map. Programs write to the map in slot 0; user space
 * puts the other generation there (the update waits for an RCU grace
 * period, so no program still writes to the old one) and then drains the
 * old one undisturbed: nothing is lost or torn between intervals.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "latency.h"
#include "chainscope.bpf.h"
#include "exec_ctx.bpf.h"
#include "cb_pair.bpf.h"

/* Settings, filled in by user space before load. */
const volatile __u64 targ_head = 0;	/* only this chain head (0: all) */
const volatile __u64 targ_cb = 0;	/* only this callback (0: all) */
const volatile int targ_kind = CS_KIND_ANY;	/* only this chain kind */
const volatile int targ_units = CS_UNITS_US;
const volatile bool targ_per_val = false;	/* -a: key by event value too */

struct lat_hists {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CS_MAP_ENTRIES);
	__type(key, struct cs_lat_key);
	__type(value, struct cs_lat_hist);
} hists_0 SEC(".maps"), hists_1 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, __u32);
	__array(values, struct lat_hists);
} hists SEC(".maps") = {
	.values = { &hists_0 },
};

struct chain_hists {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CS_MAP_ENTRIES);
	__type(key, struct cs_chain_key);
	__type(value, struct cs_chain_hist);
} chain_hists_0 SEC(".maps"), chain_hists_1 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, __u32);
	__array(values, struct chain_hists);
} chain_hists SEC(".maps") = {
	.values = { &chain_hists_0 },
};

/* -C: open passes per (task, execution context); see latency.h */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CS_MAP_ENTRIES);
	__type(key, struct cs_stack_key);
	__type(value, struct cs_chain_stack);
} stacks SEC(".maps");

/*
 * -C: set while call_begin_* or call_end_* runs on this CPU. The kernel
 * skips a program that fires again on a CPU where it already runs (an
 * interrupt arriving in the middle of it), per program: an interrupt
 * could lose its call_end and keep its call_begin, leaving a stale frame.
 * This flag is shared by both programs, and within one interrupt it
 * cannot change, so an interrupt's begin and end are skipped together.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} in_chain_prog SEC(".maps");

/* An interrupt-context pass never lasts this long: such a frame is stale. */
#define CS_IRQ_STALE_NS 1000000000ULL

/* zero values to create map entries from */
static struct cs_lat_hist zero_lat;
static struct cs_chain_hist zero_chain;
static struct cs_chain_stack zero_stack;

/*
 * Set by user space once every program is attached. Before that, a
 * call_end without its begin is a pass that was already running when we
 * attached: not worth a warning.
 */
__u32 chain_armed = 0;

static __always_inline bool chain_wanted(void *head, int kind)
{
	if (targ_head && (__u64)head != targ_head)
		return false;
	if (targ_kind != CS_KIND_ANY && kind != targ_kind)
		return false;
	return true;
}

static __always_inline int handle_return(void *cb, void *head, void *nb, int kind,
					 unsigned long val, int ret, __u64 ns)
{
	struct cs_lat_key key = {};
	struct cs_lat_hist *h;
	__u32 zero = 0;
	void *map;

	if (!chain_wanted(head, kind))
		return 0;
	if (targ_cb && (__u64)cb != targ_cb)
		return 0;
	map = bpf_map_lookup_elem(&hists, &zero);
	if (!map)
		return 0;
	key.head = (__u64)head;
	key.cb = (__u64)cb;
	key.nb = (__u64)nb;
	key.val = targ_per_val ? val : 0;
	h = cs_lookup_or_init(map, &key, &zero_lat);
	if (!h)
		return 0;
	h->kind = kind;
	if (ns) {
		CS_HIST_ADD(h, ns, targ_units);
	} else {
		__sync_fetch_and_add(&h->count, 1);
		__sync_fetch_and_add(&h->untimed, 1);
	}
	if (ret & CS_NOTIFY_STOP_MASK) {
		int plain = ret & ~CS_NOTIFY_STOP_MASK;

		/* notifier_to_errno(): plain > NOTIFY_OK encodes an errno */
		if (ret == CS_NOTIFY_BAD)
			__sync_fetch_and_add(&h->bad, 1);
		else if (plain > CS_NOTIFY_OK)
			__sync_fetch_and_add(&h->err, 1);
		else
			__sync_fetch_and_add(&h->stop, 1);
	}
	return 0;
}

static __always_inline void do_call_begin(void *head, unsigned long val, int type)
{
	struct cs_stack_key key = {};
	struct cs_chain_stack *st;
	__u64 now = bpf_ktime_get_ns();
	__u32 d;

	key.task = (__u64)bpf_get_current_task();
	key.ctx = cs_exec_ctx();
	st = cs_lookup_or_init(&stacks, &key, &zero_stack);
	if (!st)
		return;
	d = st->depth;
	/*
	 * Safety net: in an interrupt context, a top frame this old cannot
	 * belong to a pass still running; it and all below it are stale.
	 */
	if (key.ctx != CS_CTX_TASK && d && d <= CS_MAX_DEPTH &&
	    now - st->frames[(d - 1) & (CS_MAX_DEPTH - 1)].ts > CS_IRQ_STALE_NS) {
		cs_stat_add(CS_STAT_STALE, d);
		d = 0;
	}
	if (d < CS_MAX_DEPTH) {
		struct cs_stack_frame *f = &st->frames[d & (CS_MAX_DEPTH - 1)];

		f->head = (__u64)head;
		f->val = val;
		f->type = type;
		f->ts = now;
	} else {
		cs_stat_inc(CS_STAT_TOO_DEEP);
	}
	st->depth = d + 1;
}

static __always_inline bool frame_is(const struct cs_stack_frame *f, void *head,
				     unsigned long val, int type)
{
	return f->head == (__u64)head && f->val == val && f->type == (__u32)type;
}

static __always_inline void do_call_end(void *head, int kind, unsigned long val,
					int type, int ret, int nr_calls)
{
	struct cs_stack_key key = {};
	struct cs_chain_key ckey = {};
	struct cs_chain_stack *st;
	struct cs_chain_hist *h;
	__u64 now = bpf_ktime_get_ns(), ts;
	__u32 d, i, zero = 0;
	void *map;

	key.task = (__u64)bpf_get_current_task();
	key.ctx = cs_exec_ctx();
	st = bpf_map_lookup_elem(&stacks, &key);
	if (!st || !st->depth) {
		/* began before we attached, or its call_begin was missed */
		if (chain_armed)
			cs_stat_inc(CS_STAT_UNPAIRED);
		return;
	}
	d = st->depth - 1;
	if (d >= CS_MAX_DEPTH) {
		/* its begin was past the stack: nothing to time */
		st->depth = d;
		return;
	}
	/*
	 * Normally the top frame is this pass. If a call_end was missed
	 * (e.g. BPF recursion protection skipped it) look down for the
	 * nearest frame of this very pass and drop the ones above it. A
	 * call_end whose call_begin was missed matches no frame: it is
	 * counted and pops nothing, so it cannot end an outer pass of the
	 * same chain early.
	 */
	if (!frame_is(&st->frames[d & (CS_MAX_DEPTH - 1)], head, val, type)) {
		bool found = false;

		for (i = 1; i < CS_MAX_DEPTH; i++) {
			if (i > d)
				break;
			if (frame_is(&st->frames[(d - i) & (CS_MAX_DEPTH - 1)], head, val,
				     type)) {
				found = true;
				break;
			}
		}
		if (chain_armed)
			cs_stat_inc(CS_STAT_UNPAIRED);
		if (!found)
			return;
		d -= i;
	}
	ts = st->frames[d & (CS_MAX_DEPTH - 1)].ts;
	st->depth = d;
	if (!d)
		bpf_map_delete_elem(&stacks, &key);

	map = bpf_map_lookup_elem(&chain_hists, &zero);
	if (!map)
		return;
	ckey.head = (__u64)head;
	ckey.val = targ_per_val ? val : 0;
	h = cs_lookup_or_init(map, &ckey, &zero_chain);
	if (!h)
		return;
	h->kind = kind;
	CS_HIST_ADD(h, now - ts, targ_units);
	if (ret & CS_NOTIFY_STOP_MASK)
		__sync_fetch_and_add(&h->stopped, 1);
	if (type == NOTIFIER_CALL_ROLLBACK)
		__sync_fetch_and_add(&h->rollbacks, 1);
	if (nr_calls > 0)
		__sync_fetch_and_add(&h->nr_calls, nr_calls);
}

/* The per-CPU guard around both (see in_chain_prog); NULL: skip. */
static __always_inline __u32 *chain_guard_enter(void)
{
	__u32 zero = 0, *busy = bpf_map_lookup_elem(&in_chain_prog, &zero);

	if (!busy)
		return NULL;
	if (*busy) {
		cs_stat_inc(CS_STAT_NESTED);
		return NULL;
	}
	*busy = 1;
	return busy;
}

static __always_inline int handle_call_begin(void *head, int kind, unsigned long val,
					     int type)
{
	__u32 *busy;

	if (!chain_wanted(head, kind))
		return 0;
	busy = chain_guard_enter();
	if (!busy)
		return 0;
	do_call_begin(head, val, type);
	*busy = 0;
	return 0;
}

static __always_inline int handle_call_end(void *head, int kind, unsigned long val,
					   int type, int ret, int nr_calls)
{
	__u32 *busy;

	if (!chain_wanted(head, kind))
		return 0;
	busy = chain_guard_enter();
	if (!busy)
		return 0;
	do_call_end(head, kind, val, type, ret, nr_calls);
	*busy = 0;
	return 0;
}

/*
 * Tracepoints mode: a callback's run time is the time between its
 * notifier_run and its notifier_return, paired per (task, context) by
 * cb_pair.bpf.h (included by probemode.bpf.h, below), as probes mode
 * pairs its entry and return probes.
 */
static __always_inline bool cb_wanted(void *cb, void *head, int kind)
{
	return chain_wanted(head, kind) && (!targ_cb || (__u64)cb == targ_cb);
}

static __always_inline int handle_run(void *cb, void *head, int kind)
{
	if (cb_wanted(cb, head, kind))
		cs_cb_run(cb);
	return 0;
}

static __always_inline int handle_tp_return(void *cb, void *head, void *nb, int kind,
					    unsigned long val, int ret)
{
	__u64 now = bpf_ktime_get_ns();
	int ran;

	if (!cb_wanted(cb, head, kind))
		return 0;
	return handle_return(cb, head, nb, kind, val, ret, cs_cb_return(cb, now, &ran));
}

SEC("tp_btf/notifier_run")
int BPF_PROG(notifier_run_btf, void *cb, void *head, struct notifier_block *nb,
	     int priority, enum notifier_chain_kind kind)
{
	return handle_run(cb, head, kind);
}

SEC("raw_tp/notifier_run")
int BPF_PROG(notifier_run_raw, void *cb, void *head, struct notifier_block *nb,
	     int priority, enum notifier_chain_kind kind)
{
	return handle_run(cb, head, kind);
}

SEC("tp_btf/notifier_return")
int BPF_PROG(notifier_return_btf, void *cb, void *head, struct notifier_block *nb,
	     int priority, enum notifier_chain_kind kind, unsigned long val, int ret)
{
	return handle_tp_return(cb, head, nb, kind, val, ret);
}

SEC("raw_tp/notifier_return")
int BPF_PROG(notifier_return_raw, void *cb, void *head, struct notifier_block *nb,
	     int priority, enum notifier_chain_kind kind, unsigned long val, int ret)
{
	return handle_tp_return(cb, head, nb, kind, val, ret);
}

/*
 * cs-bpf-unit only (userspace/tests/guest/bpf_unit_latency.c): a return
 * with the run time that the pairing above would compute given, so that
 * the histograms can be tested with exact values. No target: the CLI
 * never loads it (pick_programs()).
 */
SEC("raw_tp")
int BPF_PROG(test_return_ns, void *cb, void *head, struct notifier_block *nb,
	     int priority, enum notifier_chain_kind kind, unsigned long val, int ret,
	     __u64 ns)
{
	return handle_return(cb, head, nb, kind, val, ret, ns);
}

SEC("tp_btf/notifier_call_begin")
int BPF_PROG(call_begin_btf, void *head, enum notifier_chain_kind kind,
	     unsigned long val, int nr_to_call, enum notifier_call_type type)
{
	return handle_call_begin(head, kind, val, type);
}

SEC("raw_tp/notifier_call_begin")
int BPF_PROG(call_begin_raw, void *head, enum notifier_chain_kind kind,
	     unsigned long val, int nr_to_call, enum notifier_call_type type)
{
	return handle_call_begin(head, kind, val, type);
}

SEC("tp_btf/notifier_call_end")
int BPF_PROG(call_end_btf, void *head, enum notifier_chain_kind kind,
	     unsigned long val, int nr_to_call, enum notifier_call_type type, int ret,
	     int nr_calls)
{
	return handle_call_end(head, kind, val, type, ret, nr_calls);
}

SEC("raw_tp/notifier_call_end")
int BPF_PROG(call_end_raw, void *head, enum notifier_chain_kind kind,
	     unsigned long val, int nr_to_call, enum notifier_call_type type, int ret,
	     int nr_calls)
{
	return handle_call_end(head, kind, val, type, ret, nr_calls);
}

/*
 * probes mode (bpf/probemode.bpf.h): the same handlers, fed by fentry/fexit
 * on the exported chain API and kprobe.multi/kretprobe.multi on the
 * watched callbacks. A callback's duration is measured as in
 * tracepoints mode, from the end of its entry program to the start of its
 * return program: it includes the fprobe entry/return trampolines (in
 * tracepoints mode, the tracepoints' dispatch), not the programs.
 */
static __always_inline void cs_pm_call_begin(void *head, int kind, unsigned long val,
					     int nr_to_call, int type)
{
	handle_call_begin(head, kind, val, type);
}

static __always_inline void cs_pm_call_end(void *head, int kind, unsigned long val,
					   int nr_to_call, int type, int ret, int nr_calls)
{
	handle_call_end(head, kind, val, type, ret, nr_calls);
}

static __always_inline void cs_pm_run(void *cb, void *head, void *nb, int kind,
				      unsigned long val, int priority)
{
}

static __always_inline void cs_pm_return(void *cb, void *head, void *nb, int kind,
					 unsigned long val, int priority, int ret,
					 __u64 duration_ns, int nr_calls)
{
	handle_return(cb, head, nb, kind, val, ret, duration_ns);
}

static __always_inline void cs_pm_membership(int rec_type, void *cb, void *head, void *nb,
					     int priority, int err, int kind)
{
}

#include "probemode.bpf.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";
