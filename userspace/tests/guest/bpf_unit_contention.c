// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * cs-bpf-unit: the contention object's cases (wait histograms, top
 * waiters, the lock-tracepoint cross-check and its lock filter) and the
 * --bench cost of that filter. See bpf_unit.c.
 */
#include <time.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "contention.h"
#include "contention.skel.h"
#include "ping.skel.h"
#include "bpf_unit.h"

/* --- contention cases ------------------------------------------------------------- */

static struct contention_bpf *cont_load(__u64 head, int units)
{
	struct contention_bpf *skel = contention_bpf__open();
	struct bpf_program *p;

	if (!skel) {
		failf("contention_bpf__open: %s", strerror(errno));
		return NULL;
	}
	skel->rodata->targ_head = head;
	skel->rodata->targ_units = units;
	bpf_object__for_each_program(p, skel->obj)
		bpf_program__set_autoload(p, bpf_program__type(p) ==
					  BPF_PROG_TYPE_RAW_TRACEPOINT);
	if (contention_bpf__load(skel)) {
		failf("contention_bpf__load: %s (run with -v)", strerror(errno));
		contention_bpf__destroy(skel);
		return NULL;
	}
	return skel;
}

/* notifier_lock_wait(head, lock, kind, op, wait_ns) */
static int wait_event(struct contention_bpf *s, __u64 head, __u64 lock, int op,
		      __u64 ns)
{
	__u64 a[5] = { head, lock, KIND_BLOCKING, (__u64)op, ns };

	return run(s->progs.lock_wait_raw, a, 5);
}

static int lt_begin(struct contention_bpf *s, __u64 lock, unsigned int flags)
{
	__u64 a[2] = { lock, flags };

	return run(s->progs.contention_begin_raw, a, 2);
}

static int lt_end(struct contention_bpf *s, __u64 lock)
{
	__u64 a[2] = { lock, 0 };

	return run(s->progs.contention_end_raw, a, 2);
}

static bool get_wait(struct contention_bpf *s, __u64 head, int op, struct cs_cont_val *v)
{
	struct cs_cont_key k = { .head = head, .op = op };

	return !bpf_map_lookup_elem(bpf_map__fd(s->maps.waits_0), &k, v);
}

bool t_cont_waits(void)
{
	struct contention_bpf *s = cont_load(0, CS_UNITS_NS);
	struct cs_waiter_key wk = { .head = HEAD_A, .pid = (__u32)gettid() };
	struct cs_waiter_val w;
	struct cs_cont_val v;
	char comm[16] = {};
	bool ok = true;

	if (!s)
		return false;
	CHECK(wait_event(s, HEAD_A, LOCK_A, 0, 0) == 0, "test run failed");
	wait_event(s, HEAD_A, LOCK_A, 0, 5000);
	wait_event(s, HEAD_A, LOCK_A, 0, 7000);
	wait_event(s, HEAD_A, LOCK_A, 1, 100);
	CHECK(get_wait(s, HEAD_A, 0, &v), "no read entry");
	CHECK_EQ(v.count, 3, "read count");
	CHECK_EQ(v.contended, 2, "read contended");
	CHECK_EQ(v.max_ns, 7000, "read max");
	CHECK_EQ(v.sum_ns, 12000, "read sum");
	CHECK_EQ(v.slots[0], 1, "slot of an uncontended wait");
	CHECK_EQ(v.slots[12], 2, "slot of 5000/7000 ns");
	CHECK_EQ(v.lock, LOCK_A, "lock");
	CHECK_EQ(v.kind, KIND_BLOCKING, "kind");
	CHECK(get_wait(s, HEAD_A, 1, &v) && v.count == 1 && v.contended == 1,
	      "write entry");
	CHECK(!bpf_map_lookup_elem(bpf_map__fd(s->maps.waiters_0), &wk, &w),
	      "no top-waiter entry for this thread");
	CHECK_EQ(w.total_ns, 12100, "waiter total");
	CHECK_EQ(w.count, 3, "waiter count (contended waits only)");
	CHECK_EQ(w.tgid, getpid(), "waiter tgid");
	FILE *f = fopen("/proc/self/comm", "r");
	if (f) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	CHECK(!strncmp(w.comm, comm, sizeof(w.comm)), "waiter comm '%.16s', want '%s'",
	      w.comm, comm);
out:
	contention_bpf__destroy(s);
	return ok;
}

bool t_cont_lock_crosscheck(void)
{
	struct contention_bpf *s = cont_load(0, CS_UNITS_NS);
	struct cs_cont_val v;
	bool ok = true;

	if (!s)
		return false;
	/* the chain is seen once: from then on its lock is watched */
	wait_event(s, HEAD_A, LOCK_A, 0, 0);
	/* rwsem read slow path: begin, wait, end, then our acquisition event */
	lt_begin(s, LOCK_A, 1U << 1 /* LCB_F_READ */);
	usleep(2000);
	lt_end(s, LOCK_A);
	wait_event(s, HEAD_A, LOCK_A, 0, 2100000);
	CHECK(get_wait(s, HEAD_A, 0, &v), "no entry");
	CHECK_EQ(v.count, 2, "acquisitions");
	CHECK_EQ(v.lt_count, 1, "lock tracepoint count");
	CHECK(v.lt_sum_ns >= 2000000 && v.lt_max_ns == v.lt_sum_ns,
	      "lock tracepoint time %llu ns", (unsigned long long)v.lt_sum_ns);
	/* an uncontended acquisition right after: no stale pairing */
	wait_event(s, HEAD_A, LOCK_A, 0, 0);
	CHECK(get_wait(s, HEAD_A, 0, &v) && v.lt_count == 1, "stale pairing");
	/* a spinlock's contention is ignored */
	lt_begin(s, LOCK_A, 1U << 0 /* LCB_F_SPIN */);
	lt_end(s, LOCK_A);
	wait_event(s, HEAD_A, LOCK_A, 0, 0);
	CHECK(get_wait(s, HEAD_A, 0, &v) && v.lt_count == 1, "spinlock counted");
	/* mutex: begin (spin), begin (sleep), end: timed from the first */
	lt_begin(s, LOCK_A, (1U << 5) | (1U << 0) /* MUTEX | SPIN */);
	usleep(3000);
	lt_begin(s, LOCK_A, 1U << 5 /* MUTEX */);
	lt_end(s, LOCK_A);
	wait_event(s, HEAD_A, LOCK_A, 1, 3100000);
	CHECK(get_wait(s, HEAD_A, 1, &v) && v.lt_count == 1, "mutex wait not counted");
	CHECK(v.lt_sum_ns >= 3000000, "mutex wait not timed from its first begin: %llu ns",
	      (unsigned long long)v.lt_sum_ns);
	/* another lock's contention does not pair with this chain's lock */
	lt_begin(s, LOCK_A + 0x1000, 1U << 1);
	lt_end(s, LOCK_A + 0x1000);
	wait_event(s, HEAD_A, LOCK_A, 0, 0);
	CHECK(get_wait(s, HEAD_A, 0, &v) && v.lt_count == 1, "other lock paired");
out:
	contention_bpf__destroy(s);
	return ok;
}

bool t_cont_filter(void)
{
	struct contention_bpf *s = cont_load(HEAD_B, CS_UNITS_US);
	struct cs_cont_val v;
	bool ok = true;

	if (!s)
		return false;
	wait_event(s, HEAD_A, LOCK_A, 0, 5000000);
	wait_event(s, HEAD_B, HEAD_B, 0, 5000000);
	CHECK(!get_wait(s, HEAD_A, 0, &v), "filtered chain counted");
	CHECK(get_wait(s, HEAD_B, 0, &v) && v.count == 1, "wanted chain not counted");
	CHECK_EQ(v.slots[12], 1, "5000 us in 4096..8191");
out:
	contention_bpf__destroy(s);
	return ok;
}

/* lock:contention_* keep nothing for a lock no watched chain owns */
bool t_cont_unwatched_lock(void)
{
	struct contention_bpf *s = cont_load(0, CS_UNITS_NS);
	int begins;
	bool ok = true;

	if (!s)
		return false;
	begins = bpf_map__fd(s->maps.lt_begin);
	lt_begin(s, LOCK_A, 1U << 1 /* LCB_F_READ */);
	CHECK_EQ(map_count(begins, sizeof(struct cs_lt_key)), 0,
		 "begins kept for a lock of no chain seen");
	wait_event(s, HEAD_A, LOCK_A, 0, 0);	/* now it is a chain's lock */
	lt_begin(s, LOCK_A, 1U << 1);
	CHECK_EQ(map_count(begins, sizeof(struct cs_lt_key)), 1, "begin of a watched lock");
	lt_begin(s, LOCK_A + 0x40, 1U << 1);
	CHECK_EQ(map_count(begins, sizeof(struct cs_lt_key)), 1, "begin of another lock");
	lt_end(s, LOCK_A + 0x40);
	lt_end(s, LOCK_A);
	CHECK_EQ(map_count(begins, sizeof(struct cs_lt_key)), 0, "end of the watched lock");
	CHECK_EQ(map_count(bpf_map__fd(s->maps.lt_done), sizeof(struct cs_lt_key)), 1,
		 "finished waits");
out:
	contention_bpf__destroy(s);
	return ok;
}

/* -c: the watched lock is the one inside that head, before any event */
bool t_cont_filter_lock(void)
{
	struct contention_bpf *s = cont_load(HEAD_B, CS_UNITS_NS);
	int begins;
	bool ok = true;

	if (!s)
		return false;
	begins = bpf_map__fd(s->maps.lt_begin);
	lt_begin(s, LOCK_A, 1U << 1);
	CHECK_EQ(map_count(begins, sizeof(struct cs_lt_key)), 0, "other chain's lock kept");
	/* rwsem and mutex are the first members of their heads on 6.1 */
	lt_begin(s, HEAD_B, 1U << 2 /* LCB_F_WRITE */);
	CHECK_EQ(map_count(begins, sizeof(struct cs_lt_key)), 1, "-c chain's lock not kept");
out:
	contention_bpf__destroy(s);
	return ok;
}

/* --- benchmark ----------------------------------------------------------------- */

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

#define BENCH_RUNS 20000

/* ns per contention_begin + contention_end pair on locks of no chain */
static double bench_pairs(struct contention_bpf *s)
{
	double t0 = now_ns();
	int i;

	for (i = 0; i < BENCH_RUNS; i++) {
		__u64 lock = 0xffff888004000000ULL + (__u64)(i % 256) * 64;

		lt_begin(s, lock, 1U << 2 /* LCB_F_WRITE */);
		lt_end(s, lock);
	}
	return (now_ns() - t0) / BENCH_RUNS;
}

/*
 * BPF_PROG_TEST_RUN cannot time a raw_tp program on 6.1 (no repeat, no
 * duration), so this times the system calls and subtracts two runs of
 * the empty `ping` program. Under QEMU -icount, guest time counts
 * instructions, which makes the numbers reproducible.
 */
int bench(void)
{
	struct contention_bpf *all = cont_load(0, CS_UNITS_NS);
	struct contention_bpf *one = cont_load(HEAD_B, CS_UNITS_NS);
	struct ping_bpf *p = ping_bpf__open_and_load();
	double t0, base, pa, po;
	int i, err = 1;

	if (!all || !one || !p) {
		fprintf(stderr, "cs-bpf-unit: error: bench: cannot load: %s\n",
			why[0] ? why : strerror(errno));
		goto out;
	}
	/* one watched chain, so the map lookup has something to miss against */
	wait_event(all, HEAD_A, LOCK_A, 0, 0);
	t0 = now_ns();
	for (i = 0; i < BENCH_RUNS; i++)
		run(p->progs.ping, NULL, 0);
	base = (now_ns() - t0) / BENCH_RUNS;
	pa = bench_pairs(all);
	po = bench_pairs(one);
	printf("bench: contention_begin+end on a lock of no chain: %.0f ns per pair "
	       "(no -c), %.0f ns (-c); empty program run: %.0f ns; %d pairs\n",
	       pa - 2 * base, po - 2 * base, base, BENCH_RUNS);
	printf("bench: lt_begin entries %d, lt_done entries %d after the runs (no -c)\n",
	       map_count(bpf_map__fd(all->maps.lt_begin), sizeof(struct cs_lt_key)),
	       map_count(bpf_map__fd(all->maps.lt_done), sizeof(struct cs_lt_key)));
	err = 0;
out:
	contention_bpf__destroy(all);
	contention_bpf__destroy(one);
	ping_bpf__destroy(p);
	return err;
}
