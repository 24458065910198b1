// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * cs-bpf-unit: the latency object's cases (per-callback histograms,
 * -C pass pairing, interval generations). See bpf_unit.c.
 */
#include <pthread.h>
#include <sched.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "btf_preempt.h"
#include "latency.h"
#include "latency.skel.h"
#include "trace_helpers.h"
#include "bpf_unit.h"

/* --- latency skeleton ---------------------------------------------------- */

struct lat_opts {
	__u64 head, cb;
	int kind;
	int units;
	bool per_val;
	__u32 hist_entries;	/* 0: default */
};

/* As the CLI sets it (bpf/exec_ctx.bpf.h), from the kernel's BTF */
static __u64 preempt_count_off(void)
{
	static __u64 off;
	static bool done;
	struct btf *btf;

	if (!done) {
		btf = btf__load_vmlinux_btf();
		off = btf ? btf_preempt_count_off(btf) : 0;
		btf__free(btf);
		done = true;
	}
	return off;
}

static struct latency_bpf *lat_load(const struct lat_opts *o)
{
	struct latency_bpf *skel = latency_bpf__open();
	struct bpf_program *p;

	if (!skel) {
		failf("latency_bpf__open: %s", strerror(errno));
		return NULL;
	}
	skel->rodata->targ_head = o->head;
	skel->rodata->targ_cb = o->cb;
	skel->rodata->targ_kind = o->kind;
	skel->rodata->targ_units = o->units;
	skel->rodata->targ_per_val = o->per_val;
	skel->rodata->cs_preempt_count_off = preempt_count_off();
	bpf_object__for_each_program(p, skel->obj)
		bpf_program__set_autoload(p, bpf_program__type(p) ==
					  BPF_PROG_TYPE_RAW_TRACEPOINT);
	if (o->hist_entries) {
		bpf_map__set_max_entries(skel->maps.hists_0, o->hist_entries);
		bpf_map__set_max_entries(skel->maps.hists_1, o->hist_entries);
	}
	if (latency_bpf__load(skel)) {
		failf("latency_bpf__load: %s (run with -v)", strerror(errno));
		latency_bpf__destroy(skel);
		return NULL;
	}
	skel->bss->chain_armed = 1;	/* as the CLI does once attached */
	return skel;
}

/*
 * A return with its run time given: test_return_ns(cb, head, nb, priority,
 * kind, val, ret, ns), the handler notifier_return's program feeds with
 * the time since the paired notifier_run (t_lat_run_return_pairing).
 */
#define NB_1 0xffff888000001000ULL
#define NB_2 0xffff888000002000ULL

static int ret_event_nb(struct latency_bpf *s, __u64 head, __u64 cb, __u64 nb,
			int kind, __u64 val, int ret, __u64 ns)
{
	__u64 a[8] = { cb, head, nb, 0, (__u64)kind, val, (__u64)(__s64)ret, ns };

	return run(s->progs.test_return_ns, a, 8);
}

/* notifier_run / notifier_return(cb, head, nb, priority, kind, val, ret) */
static int cb_event(const struct bpf_program *prog, __u64 head, __u64 cb, int kind,
		    int ret)
{
	__u64 a[7] = { cb, head, NB_1, 0, (__u64)kind, 0, (__u64)(__s64)ret };

	return run(prog, a, 7);
}

static int ret_event(struct latency_bpf *s, __u64 head, __u64 cb, int kind,
		     __u64 val, int ret, __u64 ns)
{
	return ret_event_nb(s, head, cb, NB_1, kind, val, ret, ns);
}

/* notifier_call_begin(head, kind, val, nr_to_call, type) */
static int begin_event_vt(struct latency_bpf *s, __u64 head, int kind, __u64 val,
			  int type, int cpu)
{
	__u64 a[5] = { head, (__u64)kind, val, (__u64)-1, (__u64)type };

	return run_on(s->progs.call_begin_raw, a, 5, cpu);
}

static int begin_event_on(struct latency_bpf *s, __u64 head, int kind, int cpu)
{
	return begin_event_vt(s, head, kind, 0, 0, cpu);
}

static int begin_event(struct latency_bpf *s, __u64 head, int kind)
{
	return begin_event_on(s, head, kind, -1);
}

/* notifier_call_end(head, kind, val, nr_to_call, type, ret, nr_calls) */
static int end_event_vt(struct latency_bpf *s, __u64 head, int kind, __u64 val,
			int type, int ret, int nr_calls, int cpu)
{
	__u64 a[7] = { head, (__u64)kind, val, (__u64)-1, (__u64)type,
		       (__u64)(__s64)ret, (__u64)nr_calls };

	return run_on(s->progs.call_end_raw, a, 7, cpu);
}

static int end_event_full(struct latency_bpf *s, __u64 head, int kind, int type,
			  int ret, int nr_calls, int cpu)
{
	return end_event_vt(s, head, kind, 0, type, ret, nr_calls, cpu);
}

static int end_event(struct latency_bpf *s, __u64 head, int kind)
{
	return end_event_full(s, head, kind, 0, 1, 1, -1);
}

static bool get_lat_nb(struct latency_bpf *s, __u64 head, __u64 cb, __u64 nb,
		       __u64 val, struct cs_lat_hist *h)
{
	struct cs_lat_key k = { .head = head, .cb = cb, .nb = nb, .val = val };

	/* the generation in use until user space switches (hists_0) */
	return !bpf_map_lookup_elem(bpf_map__fd(s->maps.hists_0), &k, h);
}

static bool get_lat(struct latency_bpf *s, __u64 head, __u64 cb, __u64 val,
		    struct cs_lat_hist *h)
{
	return get_lat_nb(s, head, cb, NB_1, val, h);
}

static bool get_chain(struct latency_bpf *s, __u64 head, struct cs_chain_hist *h)
{
	struct cs_chain_key k = { .head = head };

	return !bpf_map_lookup_elem(bpf_map__fd(s->maps.chain_hists_0), &k, h);
}

static const struct lat_opts lat_ns = { .kind = -1, .units = CS_UNITS_NS };

/* --- latency cases ---------------------------------------------------------- */

bool t_lat_histogram_ns(void)
{
	struct latency_bpf *s = lat_load(&lat_ns);
	struct cs_lat_hist h;
	bool ok = true;
	int i;

	if (!s)
		return false;
	CHECK(ret_event(s, HEAD_A, CB_1, KIND_BLOCKING, 0, 1, 3000) == 0, "test run failed");
	for (i = 0; i < 5; i++)
		ret_event(s, HEAD_A, CB_1, KIND_BLOCKING, 0, 1, 100);
	CHECK(get_lat(s, HEAD_A, CB_1, 0, &h), "no entry for (head, cb)");
	CHECK_EQ(h.count, 6, "count");
	CHECK_EQ(h.slots[log2_bucket(3000)], 1, "slot of 3000ns");
	CHECK_EQ(h.slots[log2_bucket(100)], 5, "slot of 100ns");
	CHECK_EQ(log2_bucket(3000), 11, "user/BPF bucket agreement");
	CHECK_EQ(h.sum_ns, 3500, "sum_ns");
	CHECK_EQ(h.max_ns, 3000, "max_ns");
	CHECK_EQ(h.kind, KIND_BLOCKING, "kind");
	CHECK_EQ(h.stop + h.bad + h.err, 0, "return-code counters");
	/* run time 0: no notifier_run paired with it; counted, not binned */
	ret_event(s, HEAD_A, CB_1, KIND_BLOCKING, 0, 0x8001, 0);
	CHECK(get_lat(s, HEAD_A, CB_1, 0, &h), "entry gone");
	CHECK_EQ(h.count, 7, "count with an untimed call");
	CHECK_EQ(h.untimed, 1, "untimed");
	CHECK_EQ(h.slots[0], 0, "an untimed call in bucket 0");
	CHECK_EQ(h.stop, 1, "an untimed call's return code");
out:
	latency_bpf__destroy(s);
	return ok;
}

/*
 * Tracepoints mode: notifier_run and notifier_return pair per (task,
 * context) into a run time; a return without its run is counted untimed,
 * and nested callbacks pair innermost first.
 */
bool t_lat_run_return_pairing(void)
{
	struct latency_bpf *s = lat_load(&lat_ns);
	struct cs_lat_hist h;
	bool ok = true;

	if (!s)
		return false;
	CHECK(cb_event(s->progs.notifier_run_raw, HEAD_A, CB_1, KIND_RAW, 0) == 0,
	      "test run failed");
	CHECK(cb_event(s->progs.notifier_return_raw, HEAD_A, CB_1, KIND_RAW, 1) == 0,
	      "test run failed");
	CHECK(get_lat(s, HEAD_A, CB_1, 0, &h), "no entry for (head, cb)");
	CHECK_EQ(h.count, 1, "count");
	CHECK_EQ(h.untimed, 0, "a paired return is timed");
	CHECK(h.sum_ns >= 1 && h.max_ns == h.sum_ns, "run time %llu ns",
	      (unsigned long long)h.sum_ns);
	/* no run seen: untimed */
	cb_event(s->progs.notifier_return_raw, HEAD_A, CB_1, KIND_RAW, 1);
	CHECK(get_lat(s, HEAD_A, CB_1, 0, &h), "entry gone");
	CHECK_EQ(h.count, 2, "count with an unpaired return");
	CHECK_EQ(h.untimed, 1, "an unpaired return is untimed");
	/* nested: CB_2 runs inside CB_1 */
	cb_event(s->progs.notifier_run_raw, HEAD_A, CB_1, KIND_RAW, 0);
	cb_event(s->progs.notifier_run_raw, HEAD_B, CB_2, KIND_RAW, 0);
	cb_event(s->progs.notifier_return_raw, HEAD_B, CB_2, KIND_RAW, 0x8001);
	cb_event(s->progs.notifier_return_raw, HEAD_A, CB_1, KIND_RAW, 1);
	CHECK(get_lat(s, HEAD_B, CB_2, 0, &h), "no entry for the inner callback");
	CHECK_EQ(h.count, 1, "inner count");
	CHECK_EQ(h.untimed, 0, "inner timed");
	CHECK_EQ(h.stop, 1, "inner stop");
	CHECK(get_lat(s, HEAD_A, CB_1, 0, &h), "entry gone");
	CHECK_EQ(h.count, 3, "outer count");
	CHECK_EQ(h.untimed, 1, "outer timed");
out:
	latency_bpf__destroy(s);
	return ok;
}

/*
 * The pairing stack of task context is this task's local storage
 * (cb_pair.bpf.h): a run leaves one frame on it, the return takes it
 * off, and the stack stays for the task's next callback instead of
 * being created and deleted per callback.
 */
static long task_stack_depth(struct latency_bpf *s)
{
	int fd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	__u32 *v = calloc(1, bpf_map__value_size(s->maps.cs_cb_stacks));
	long depth = -1;

	if (fd >= 0 && v && !bpf_map_lookup_elem(bpf_map__fd(s->maps.cs_cb_stacks), &fd, v))
		depth = v[0];	/* struct cs_pm_cbs: depth first */
	free(v);
	if (fd >= 0)
		close(fd);
	return depth;
}

bool t_lat_pair_task_storage(void)
{
	struct latency_bpf *s = lat_load(&lat_ns);
	bool ok = true;

	if (!s)
		return false;
	CHECK_EQ(task_stack_depth(s), -1, "a stack before this task's first run");
	CHECK(cb_event(s->progs.notifier_run_raw, HEAD_A, CB_1, KIND_RAW, 0) == 0,
	      "test run failed");
	CHECK_EQ(task_stack_depth(s), 1, "depth after a run");
	CHECK(cb_event(s->progs.notifier_return_raw, HEAD_A, CB_1, KIND_RAW, 1) == 0,
	      "test run failed");
	CHECK_EQ(task_stack_depth(s), 0, "depth after its return (the stack stays)");
out:
	latency_bpf__destroy(s);
	return ok;
}

bool t_lat_buckets_match_user_space(void)
{
	static const __u64 samples[] = { 1, 2, 3, 4, 1023, 1024, 65535, 65536,
					 1ULL << 33, (1ULL << 40) + 5 };
	struct latency_bpf *s = lat_load(&lat_ns);
	struct cs_lat_hist h;
	unsigned int want[CS_MAX_SLOTS] = {};
	bool ok = true;
	size_t i;

	if (!s)
		return false;
	for (i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		unsigned int b = log2_bucket(samples[i]);

		ret_event(s, HEAD_A, CB_1, KIND_ATOMIC, 0, 0, samples[i]);
		want[b < CS_MAX_SLOTS ? b : CS_MAX_SLOTS - 1]++;
	}
	CHECK(get_lat(s, HEAD_A, CB_1, 0, &h), "no entry");
	for (i = 0; i < CS_MAX_SLOTS; i++)
		CHECK(h.slots[i] == want[i], "slot %zu: BPF %u, log2_bucket() %u", i,
		      h.slots[i], want[i]);
out:
	latency_bpf__destroy(s);
	return ok;
}

bool t_lat_units(void)
{
	struct lat_opts o = lat_ns;
	struct latency_bpf *s;
	struct cs_lat_hist h;
	bool ok = true;

	o.units = CS_UNITS_US;
	s = lat_load(&o);
	if (!s)
		return false;
	ret_event(s, HEAD_A, CB_1, KIND_BLOCKING, 0, 1, 3000000);	/* 3 ms */
	ret_event(s, HEAD_A, CB_1, KIND_BLOCKING, 0, 1, 20000000);	/* 20 ms */
	ret_event(s, HEAD_A, CB_1, KIND_BLOCKING, 0, 1, 999);	/* < 1 us */
	CHECK(get_lat(s, HEAD_A, CB_1, 0, &h), "no entry");
	CHECK_EQ(h.slots[11], 1, "usecs: 3000us in 2048..4095");
	CHECK_EQ(h.slots[14], 1, "usecs: 20000us in 16384..32767");
	CHECK_EQ(h.slots[0], 1, "usecs: 999ns in 0..1");
	CHECK_EQ(h.max_ns, 20000000, "max stays in ns");
	latency_bpf__destroy(s);

	o.units = CS_UNITS_MS;
	s = lat_load(&o);
	if (!s)
		return false;
	ret_event(s, HEAD_A, CB_1, KIND_BLOCKING, 0, 1, 20000000);
	CHECK(get_lat(s, HEAD_A, CB_1, 0, &h), "no entry");
	CHECK_EQ(h.slots[4], 1, "msecs: 20ms in 16..31");
out:
	latency_bpf__destroy(s);
	return ok;
}

bool t_lat_return_codes(void)
{
	static const struct {
		int ret;
		int stop, bad, err;
	} cases[] = {
		{ 0x0000, 0, 0, 0 },	/* NOTIFY_DONE */
		{ 0x0001, 0, 0, 0 },	/* NOTIFY_OK */
		{ 0x8001, 1, 0, 0 },	/* NOTIFY_STOP */
		{ 0x8000, 1, 0, 0 },	/* STOP_MASK | DONE: stops, no errno */
		{ 0x8002, 0, 1, 0 },	/* NOTIFY_BAD (= errno -EPERM, counted as bad) */
		{ 0x8017, 0, 0, 1 },	/* notifier_from_errno(-EINVAL) */
		{ 0x8011, 0, 0, 1 },	/* notifier_from_errno(-EBUSY) */
		{ 0x0017, 0, 0, 0 },	/* no STOP_MASK: the chain goes on */
	};
	struct latency_bpf *s = lat_load(&lat_ns);
	struct cs_lat_hist h;
	int stop = 0, bad = 0, err = 0;
	bool ok = true;
	size_t i;

	if (!s)
		return false;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ret_event(s, HEAD_A, CB_1, KIND_ATOMIC, 0, cases[i].ret, 10);
		stop += cases[i].stop;
		bad += cases[i].bad;
		err += cases[i].err;
		CHECK(get_lat(s, HEAD_A, CB_1, 0, &h), "no entry");
		CHECK(h.stop == (__u64)stop && h.bad == (__u64)bad && h.err == (__u64)err,
		      "after ret=0x%x: stop=%llu bad=%llu errno=%llu, want %d/%d/%d",
		      cases[i].ret, (unsigned long long)h.stop, (unsigned long long)h.bad,
		      (unsigned long long)h.err, stop, bad, err);
	}
out:
	latency_bpf__destroy(s);
	return ok;
}

bool t_lat_filters(void)
{
	struct lat_opts o = lat_ns;
	struct latency_bpf *s;
	struct cs_lat_hist h;
	bool ok = true;

	o.head = HEAD_A;
	o.cb = CB_2;
	o.kind = KIND_SRCU;
	s = lat_load(&o);
	if (!s)
		return false;
	ret_event(s, HEAD_A, CB_2, KIND_SRCU, 0, 1, 10);	/* wanted */
	ret_event(s, HEAD_B, CB_2, KIND_SRCU, 0, 1, 10);	/* other head */
	ret_event(s, HEAD_A, CB_1, KIND_SRCU, 0, 1, 10);	/* other cb */
	ret_event(s, HEAD_A, CB_2, KIND_ATOMIC, 0, 1, 10);	/* other kind */
	CHECK(get_lat(s, HEAD_A, CB_2, 0, &h), "wanted event not counted");
	CHECK_EQ(h.count, 1, "count");
	CHECK_EQ(map_count(bpf_map__fd(s->maps.hists_0), sizeof(struct cs_lat_key)), 1,
		 "entries in hists");
out:
	latency_bpf__destroy(s);
	return ok;
}

/* One callback through two blocks on one chain: a row per block. */
bool t_lat_per_block(void)
{
	struct latency_bpf *s;
	struct cs_lat_hist h;
	bool ok = true;

	s = lat_load(&lat_ns);
	if (!s)
		return false;
	ret_event_nb(s, HEAD_A, CB_1, NB_1, KIND_RAW, 0, 1, 10);
	ret_event_nb(s, HEAD_A, CB_1, NB_2, KIND_RAW, 0, 1, 10);
	ret_event_nb(s, HEAD_A, CB_1, NB_2, KIND_RAW, 0, 1, 10);
	CHECK(get_lat_nb(s, HEAD_A, CB_1, NB_1, 0, &h) && h.count == 1, "first block's entry");
	CHECK(get_lat_nb(s, HEAD_A, CB_1, NB_2, 0, &h) && h.count == 2, "second block's entry");
out:
	latency_bpf__destroy(s);
	return ok;
}

bool t_lat_per_val(void)
{
	struct lat_opts o = lat_ns;
	struct latency_bpf *s;
	struct cs_lat_hist h;
	bool ok = true;

	s = lat_load(&o);
	if (!s)
		return false;
	ret_event(s, HEAD_A, CB_1, KIND_RAW, 3, 1, 10);
	ret_event(s, HEAD_A, CB_1, KIND_RAW, 4, 1, 10);
	CHECK(get_lat(s, HEAD_A, CB_1, 0, &h), "without -a values share key val=0");
	CHECK_EQ(h.count, 2, "count without -a");
	latency_bpf__destroy(s);

	o.per_val = true;
	s = lat_load(&o);
	if (!s)
		return false;
	ret_event(s, HEAD_A, CB_1, KIND_RAW, 3, 1, 10);
	ret_event(s, HEAD_A, CB_1, KIND_RAW, 4, 1, 10);
	ret_event(s, HEAD_A, CB_1, KIND_RAW, 4, 1, 10);
	CHECK(get_lat(s, HEAD_A, CB_1, 3, &h) && h.count == 1, "val=3 entry");
	CHECK(get_lat(s, HEAD_A, CB_1, 4, &h) && h.count == 2, "val=4 entry");
out:
	latency_bpf__destroy(s);
	return ok;
}

bool t_lat_map_full(void)
{
	struct lat_opts o = lat_ns;
	struct latency_bpf *s;
	bool ok = true;

	o.hist_entries = 2;
	s = lat_load(&o);
	if (!s)
		return false;
	ret_event(s, HEAD_A, CB_1, KIND_RAW, 0, 1, 10);
	ret_event(s, HEAD_A, CB_2, KIND_RAW, 0, 1, 10);
	ret_event(s, HEAD_A, CB_3, KIND_RAW, 0, 1, 10);	/* no room */
	ret_event(s, HEAD_A, CB_3, KIND_RAW, 0, 1, 10);	/* no room */
	ret_event(s, HEAD_A, CB_1, KIND_RAW, 0, 1, 10);	/* existing key: fine */
	CHECK_EQ(stat_sum(bpf_map__fd(s->maps.stats), CS_STAT_DROPPED), 2,
		 "dropped counter");
	/* -E2BIG must be recognised as such, not counted as another failure */
	CHECK_EQ(stat_sum(bpf_map__fd(s->maps.stats), CS_STAT_FAILED), 0,
		 "failed counter");
	CHECK_EQ(map_count(bpf_map__fd(s->maps.hists_0), sizeof(struct cs_lat_key)), 2,
		 "entries in hists");
out:
	latency_bpf__destroy(s);
	return ok;
}

/* --- chain mode (-C) cases ------------------------------------------------------ */

static bool stacks_empty(struct latency_bpf *s)
{
	return map_count(bpf_map__fd(s->maps.stacks), sizeof(struct cs_stack_key)) == 0;
}

bool t_chain_pair(void)
{
	struct latency_bpf *s = lat_load(&lat_ns);
	struct cs_chain_hist h;
	bool ok = true;

	if (!s)
		return false;
	begin_event_vt(s, HEAD_A, KIND_BLOCKING, 0, 2 /* rollback */, -1);
	usleep(5000);
	end_event_full(s, HEAD_A, KIND_BLOCKING, 2 /* rollback */, 0x8002, 3, -1);
	CHECK(get_chain(s, HEAD_A, &h), "no chain entry");
	CHECK_EQ(h.count, 1, "count");
	CHECK(h.max_ns >= 5000000 && h.max_ns < 600000000000ULL, /* < 10 min: garbage, not load */
	      "5 ms between begin and end measured as %llu ns",
	      (unsigned long long)h.max_ns);
	CHECK_EQ(h.slots[log2_bucket(h.max_ns)], 1, "slot");
	CHECK_EQ(h.stopped, 1, "stopped");
	CHECK_EQ(h.rollbacks, 1, "rollbacks");
	CHECK_EQ(h.nr_calls, 3, "nr_calls");
	CHECK_EQ(h.kind, KIND_BLOCKING, "kind");
	CHECK(stacks_empty(s), "stack entry left behind");
	CHECK_EQ(stat_sum(bpf_map__fd(s->maps.stats), CS_STAT_UNPAIRED), 0, "unpaired");
out:
	latency_bpf__destroy(s);
	return ok;
}

bool t_chain_nested_same_head(void)
{
	struct latency_bpf *s = lat_load(&lat_ns);
	struct cs_chain_hist h;
	bool ok = true;

	if (!s)
		return false;
	begin_event(s, HEAD_A, KIND_ATOMIC);
	usleep(3000);
	begin_event(s, HEAD_A, KIND_ATOMIC);	/* nested pass of the same chain */
	end_event(s, HEAD_A, KIND_ATOMIC);
	end_event(s, HEAD_A, KIND_ATOMIC);
	CHECK(get_chain(s, HEAD_A, &h), "no chain entry");
	CHECK_EQ(h.count, 2, "count");
	/* the outer pass includes the 3 ms and the inner pass */
	CHECK(h.max_ns >= 3000000, "outer pass %llu ns", (unsigned long long)h.max_ns);
	CHECK(h.sum_ns - h.max_ns <= h.max_ns, "inner pass %llu ns > outer",
	      (unsigned long long)(h.sum_ns - h.max_ns));
	CHECK(stacks_empty(s), "stack entry left behind");
	CHECK_EQ(stat_sum(bpf_map__fd(s->maps.stats), CS_STAT_UNPAIRED), 0, "unpaired");
out:
	latency_bpf__destroy(s);
	return ok;
}

bool t_chain_nested_other_head(void)
{
	struct latency_bpf *s = lat_load(&lat_ns);
	struct cs_chain_hist a, b;
	bool ok = true;

	if (!s)
		return false;
	begin_event(s, HEAD_A, KIND_ATOMIC);
	begin_event(s, HEAD_B, KIND_RAW);
	usleep(2000);
	end_event(s, HEAD_B, KIND_RAW);
	end_event(s, HEAD_A, KIND_ATOMIC);
	CHECK(get_chain(s, HEAD_A, &a) && get_chain(s, HEAD_B, &b), "missing entries");
	CHECK(a.count == 1 && b.count == 1, "counts %llu/%llu",
	      (unsigned long long)a.count, (unsigned long long)b.count);
	CHECK(a.max_ns >= b.max_ns, "outer %llu < inner %llu",
	      (unsigned long long)a.max_ns, (unsigned long long)b.max_ns);
	CHECK(stacks_empty(s), "stack entry left behind");
out:
	latency_bpf__destroy(s);
	return ok;
}

bool t_chain_unpaired(void)
{
	struct latency_bpf *s = lat_load(&lat_ns);
	int stats = -1;
	struct cs_chain_hist h;
	bool ok = true;

	if (!s)
		return false;
	stats = bpf_map__fd(s->maps.stats);
	/* before user space arms it, a lone end is a pass already running */
	s->bss->chain_armed = 0;
	end_event(s, HEAD_A, KIND_ATOMIC);
	CHECK_EQ(stat_sum(stats, CS_STAT_UNPAIRED), 0, "unpaired before arming");
	s->bss->chain_armed = 1;
	/* an end whose begin we never saw (e.g. it began before attach) */
	end_event(s, HEAD_A, KIND_ATOMIC);
	CHECK_EQ(stat_sum(stats, CS_STAT_UNPAIRED), 1, "unpaired after a lone end");
	CHECK(!get_chain(s, HEAD_A, &h), "a lone end was timed");
	/* a missed inner end: A's end still closes A, B's frame goes */
	begin_event(s, HEAD_A, KIND_ATOMIC);
	begin_event(s, HEAD_B, KIND_ATOMIC);
	end_event(s, HEAD_A, KIND_ATOMIC);
	CHECK(get_chain(s, HEAD_A, &h) && h.count == 1, "A not timed after a missed end");
	CHECK_EQ(stat_sum(stats, CS_STAT_UNPAIRED), 2, "unpaired after a missed end");
	CHECK(stacks_empty(s), "stack entry left behind");
	/* a missed inner begin: B's end is dropped, A stays open and pairs */
	begin_event(s, HEAD_A, KIND_ATOMIC);
	end_event(s, HEAD_B, KIND_ATOMIC);
	end_event(s, HEAD_A, KIND_ATOMIC);
	CHECK(get_chain(s, HEAD_A, &h) && h.count == 2, "A not timed after a missed begin");
	CHECK(!get_chain(s, HEAD_B, &h), "B timed without its begin");
	CHECK_EQ(stat_sum(stats, CS_STAT_UNPAIRED), 3, "unpaired after a missed begin");
	CHECK(stacks_empty(s), "stack entry left behind");
out:
	latency_bpf__destroy(s);
	return ok;
}

bool t_chain_too_deep(void)
{
	struct latency_bpf *s = lat_load(&lat_ns);
	struct cs_chain_hist h;
	bool ok = true;
	int i, depth = CS_MAX_DEPTH + 3;

	if (!s)
		return false;
	for (i = 0; i < depth; i++)
		begin_event(s, HEAD_A, KIND_RAW);
	for (i = 0; i < depth; i++)
		end_event(s, HEAD_A, KIND_RAW);
	CHECK(get_chain(s, HEAD_A, &h), "no entry");
	CHECK_EQ(h.count, CS_MAX_DEPTH, "timed passes");
	CHECK_EQ(stat_sum(bpf_map__fd(s->maps.stats), CS_STAT_TOO_DEEP), 3, "too_deep");
	CHECK_EQ(stat_sum(bpf_map__fd(s->maps.stats), CS_STAT_UNPAIRED), 0, "unpaired");
	CHECK(stacks_empty(s), "stack entry left behind");
out:
	latency_bpf__destroy(s);
	return ok;
}

bool t_chain_filters(void)
{
	struct lat_opts o = lat_ns;
	struct latency_bpf *s;
	struct cs_chain_hist h;
	bool ok = true;

	o.head = HEAD_A;
	s = lat_load(&o);
	if (!s)
		return false;
	begin_event(s, HEAD_A, KIND_ATOMIC);
	begin_event(s, HEAD_B, KIND_ATOMIC);	/* filtered: no frame */
	end_event(s, HEAD_B, KIND_ATOMIC);	/* filtered: not unpaired */
	end_event(s, HEAD_A, KIND_ATOMIC);
	CHECK(get_chain(s, HEAD_A, &h) && h.count == 1, "wanted chain not timed");
	CHECK(!get_chain(s, HEAD_B, &h), "filtered chain timed");
	CHECK_EQ(stat_sum(bpf_map__fd(s->maps.stats), CS_STAT_UNPAIRED), 0, "unpaired");
out:
	latency_bpf__destroy(s);
	return ok;
}

/*
 * An interrupt runs with the interrupted task as `current`: its passes
 * must go on a stack of their own. BPF_F_TEST_RUN_ON_CPU on another CPU
 * runs the program from an IPI, i.e. in hardirq context, with whatever
 * task runs there as `current`; a spinning thread pinned to that CPU
 * keeps that task the same between the IPIs (usually: if the scheduler
 * switches anyway, the IPI's end is counted unpaired, never mispaired).
 */
static volatile int spin_stop;

static void *spinner(void *arg)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(*(int *)arg, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	while (!spin_stop)
		;
	return NULL;
}

bool t_chain_irq_context(void)
{
	struct latency_bpf *s = lat_load(&lat_ns);
	struct cs_stack_key k = {}, next, irq_key = {};
	int fd, ncpu = libbpf_num_possible_cpus(), here = -1, other = -1, n = 0;
	bool ok = true, task = false, irq = false, spinning = false;
	struct cs_chain_hist h = {};
	pthread_t spin;
	cpu_set_t set;
	__u64 unpaired;

	if (!s)
		return false;
	fd = bpf_map__fd(s->maps.stacks);
	if (ncpu < 2 || sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		printf("# chain-irq-context: needs 2 CPUs, checking task context only\n");
	} else {
		/* stay on one CPU so "another CPU" stays another one */
		here = sched_getcpu();
		CPU_ZERO(&set);
		CPU_SET(here, &set);
		sched_setaffinity(0, sizeof(set), &set);
		other = here == 0 ? 1 : 0;
		spin_stop = 0;
		spinning = !pthread_create(&spin, NULL, spinner, &other);
		usleep(20000);
	}
	CHECK(begin_event(s, HEAD_A, KIND_ATOMIC) == 0, "begin in task context failed");
	if (other >= 0)
		CHECK(begin_event_on(s, HEAD_A, KIND_ATOMIC, other) == 0,
		      "begin from an IPI failed: %s", strerror(errno));
	while (!bpf_map_get_next_key(fd, n ? &k : NULL, &next)) {
		k = next;
		n++;
		if (k.ctx == CS_CTX_TASK)
			task = true;
		if (k.ctx == CS_CTX_HARDIRQ) {
			irq = true;
			irq_key = k;
		}
	}
	CHECK(task, "no stack keyed as task context");
	if (other >= 0) {
		CHECK(irq, "the IPI's pass is not keyed as hardirq context (%d stacks)", n);
		CHECK(end_event_full(s, HEAD_A, KIND_ATOMIC, 0, 1, 1, other) == 0,
		      "end from an IPI failed");
		unpaired = stat_sum(bpf_map__fd(s->maps.stats), CS_STAT_UNPAIRED);
		get_chain(s, HEAD_A, &h);
		/* the IPI's end closed the IPI's pass, or (other task) nothing */
		CHECK(h.count + unpaired == 1, "IPI end: %llu timed + %llu unpaired",
		      (unsigned long long)h.count, (unsigned long long)unpaired);
		if (unpaired)
			printf("# chain-irq-context: the other CPU switched tasks between the IPIs\n");
		bpf_map_delete_elem(fd, &irq_key);
	}
	/* the task's own pass is still open and still pairs */
	CHECK(end_event(s, HEAD_A, KIND_ATOMIC) == 0, "end in task context failed");
	CHECK(get_chain(s, HEAD_A, &h) && h.count >= 1, "task pass not timed");
	CHECK(stacks_empty(s), "stack entry left behind");
out:
	if (spinning) {
		spin_stop = 1;
		pthread_join(spin, NULL);
	}
	CPU_ZERO(&set);
	for (n = 0; n < ncpu && n < CPU_SETSIZE; n++)
		CPU_SET(n, &set);
	sched_setaffinity(0, sizeof(set), &set);
	latency_bpf__destroy(s);
	return ok;
}

/*
 * A pass is (head, val, call type). Same chain, two passes: the inner
 * one's end was missed. The outer end must close the outer pass (found
 * below the inner frame), not the inner one on top.
 */
bool t_chain_pass_identity(void)
{
	struct latency_bpf *s = lat_load(&lat_ns);
	int stats;
	struct cs_chain_hist h;
	bool ok = true;

	if (!s)
		return false;
	stats = bpf_map__fd(s->maps.stats);
	begin_event_vt(s, HEAD_A, KIND_BLOCKING, 1, 0, -1);	/* outer, val 1 */
	usleep(4000);
	begin_event_vt(s, HEAD_A, KIND_BLOCKING, 2, 0, -1);	/* inner, val 2: end lost */
	end_event_vt(s, HEAD_A, KIND_BLOCKING, 1, 0, 1, 1, -1);
	CHECK(get_chain(s, HEAD_A, &h), "no chain entry");
	CHECK_EQ(h.count, 1, "count");
	CHECK(h.max_ns >= 4000000, "outer pass timed from the inner begin: %llu ns",
	      (unsigned long long)h.max_ns);
	CHECK(stacks_empty(s), "outer frame left open");
	CHECK_EQ(stat_sum(stats, CS_STAT_UNPAIRED), 1, "unpaired");
	/* a robust pass and its rollback, same val: the type tells them apart */
	begin_event_vt(s, HEAD_A, KIND_BLOCKING, 1, 1 /* robust */, -1);
	usleep(4000);
	begin_event_vt(s, HEAD_A, KIND_BLOCKING, 1, 2 /* rollback */, -1);
	/* the rollback's end lost: the robust end must not close it */
	end_event_vt(s, HEAD_A, KIND_BLOCKING, 1, 1, 0x8002, 2, -1);
	CHECK(get_chain(s, HEAD_A, &h) && h.count == 2, "robust pass not timed");
	CHECK(h.max_ns >= 4000000 && h.sum_ns - h.max_ns >= 4000000,
	      "robust pass timed from its rollback's begin (sum %llu, max %llu)",
	      (unsigned long long)h.sum_ns, (unsigned long long)h.max_ns);
	CHECK_EQ(h.rollbacks, 0, "rollbacks");
	CHECK(stacks_empty(s), "robust frame left open");
	/* an end whose begin was lost pops nothing */
	begin_event_vt(s, HEAD_A, KIND_BLOCKING, 1, 0, -1);
	end_event_vt(s, HEAD_A, KIND_BLOCKING, 7, 0, 1, 1, -1);
	CHECK(!stacks_empty(s), "an end of another pass closed the open one");
	end_event_vt(s, HEAD_A, KIND_BLOCKING, 1, 0, 1, 1, -1);
	CHECK(stacks_empty(s), "open pass not closed by its own end");
	/* one per missed end above, one for the end without a frame */
	CHECK_EQ(stat_sum(stats, CS_STAT_UNPAIRED), 3, "unpaired");
out:
	latency_bpf__destroy(s);
	return ok;
}

/*
 * Interval generations: after user space puts hists_1 in the slot, events
 * land there and hists_0 is left alone for draining.
 */
bool t_lat_generations(void)
{
	struct latency_bpf *s = lat_load(&lat_ns);
	int outer, g0, g1;
	__u32 zero = 0;
	bool ok = true;

	if (!s)
		return false;
	outer = bpf_map__fd(s->maps.hists);
	g0 = bpf_map__fd(s->maps.hists_0);
	g1 = bpf_map__fd(s->maps.hists_1);
	ret_event(s, HEAD_A, CB_1, KIND_ATOMIC, 0, 0, 100);
	CHECK_EQ(map_count(g0, sizeof(struct cs_lat_key)), 1, "entries in hists_0");
	CHECK(!bpf_map_update_elem(outer, &zero, &g1, BPF_ANY), "switch: %s",
	      strerror(errno));
	ret_event(s, HEAD_A, CB_2, KIND_ATOMIC, 0, 0, 100);
	ret_event(s, HEAD_A, CB_3, KIND_ATOMIC, 0, 0, 100);
	CHECK_EQ(map_count(g0, sizeof(struct cs_lat_key)), 1, "entries in the retired hists_0");
	CHECK_EQ(map_count(g1, sizeof(struct cs_lat_key)), 2, "entries in hists_1");
out:
	latency_bpf__destroy(s);
	return ok;
}
