// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * cs-bpf-unit: the contention object's cases (lock:contention_* waits of
 * watched chains, top waiters, heads learned and acquisitions counted from
 * the notifier events, -c, the lock filter) and the --bench cost of that
 * filter. See bpf_unit.c.
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

#define HEAD_S 0xffffffffc0002200ULL	/* an SRCU head: the mutex is its first member */
#define HEAD_C 0xffffffffc0002300ULL	/* an atomic head */
#define LCB_F_SPIN	(1U << 0)
#define LCB_F_READ	(1U << 1)
#define LCB_F_WRITE	(1U << 2)
#define LCB_F_MUTEX	(1U << 5)
#define CALL_PLAIN	0
#define CALL_ROBUST	1
#define CALL_ROLLBACK	2

/*
 * The raw_tp programs, loaded as tracepoints mode (learn) or probes mode /
 * -c (no learning); heads[] put in watched_heads with kinds[] (before any
 * event), watched_heads at most max_heads entries (0: as built).
 */
static struct contention_bpf *cont_load_heads(bool learn, int units, const __u64 *heads,
					      const __u32 *kinds, int n, __u32 max_heads)
{
	struct contention_bpf *skel = contention_bpf__open();
	struct bpf_program *p;
	int i;

	if (!skel) {
		failf("contention_bpf__open: %s", strerror(errno));
		return NULL;
	}
	skel->rodata->targ_learn = learn;
	skel->rodata->targ_units = units;
	if (max_heads)
		bpf_map__set_max_entries(skel->maps.watched_heads, max_heads);
	bpf_object__for_each_program(p, skel->obj)
		bpf_program__set_autoload(p, bpf_program__type(p) ==
					  BPF_PROG_TYPE_RAW_TRACEPOINT);
	if (contention_bpf__load(skel)) {
		failf("contention_bpf__load: %s (run with -v)", strerror(errno));
		contention_bpf__destroy(skel);
		return NULL;
	}
	for (i = 0; i < n; i++)
		if (bpf_map_update_elem(bpf_map__fd(skel->maps.watched_heads), &heads[i],
					&kinds[i], BPF_ANY)) {
			failf("watched_heads: %s", strerror(errno));
			contention_bpf__destroy(skel);
			return NULL;
		}
	return skel;
}

static struct contention_bpf *cont_load(bool learn, int units)
{
	return cont_load_heads(learn, units, NULL, NULL, 0, 0);
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

/* notifier_register(cb, head, nb, priority, kind) and friends (_error: err) */
static int member(const struct bpf_program *prog, __u64 head, int kind, int err)
{
	__u64 a[6] = { CB_1, head, 0xffff888000001000ULL, 0, (__u64)kind, (__u64)(__s64)err };

	return run(prog, a, 6);
}

/* notifier_call_end(head, kind, val, nr_to_call, type, ret, nr_calls) */
static int call_end(struct contention_bpf *s, __u64 head, int kind, int type, int nr_calls)
{
	__u64 a[7] = { head, (__u64)kind, 0, (__u64)-1, (__u64)type, 0, (__u64)nr_calls };

	return run(s->progs.call_end_raw, a, 7);
}

static bool get_wait(struct contention_bpf *s, __u64 head, int op, struct cs_cont_val *v)
{
	struct cs_cont_key k = { .head = head, .op = op };

	return !bpf_map_lookup_elem(bpf_map__fd(s->maps.waits_0), &k, v);
}

static __u64 slots_total(const struct cs_cont_val *v)
{
	__u64 n = 0;
	int i;

	for (i = 0; i < CS_MAX_SLOTS; i++)
		n += v->slots[i];
	return n;
}

static bool watched(struct contention_bpf *s, __u64 head, __u32 *kind)
{
	return !bpf_map_lookup_elem(bpf_map__fd(s->maps.watched_heads), &head, kind);
}

/* contended waits of a watched blocking and SRCU chain: histogram, top waiters */
bool t_cont_waits(void)
{
	const __u64 heads[] = { HEAD_A, HEAD_S };
	const __u32 kinds[] = { KIND_BLOCKING, KIND_SRCU };
	struct contention_bpf *s = cont_load_heads(false, CS_UNITS_NS, heads, kinds, 2, 0);
	struct cs_waiter_key wk = { .head = HEAD_A, .pid = (__u32)gettid() };
	struct cs_waiter_val w;
	struct cs_cont_val v;
	char comm[16] = {};
	__u64 total;
	bool ok = true;

	if (!s)
		return false;
	/* rwsem read slow path: begin, wait, end */
	CHECK(lt_begin(s, LOCK_A, LCB_F_READ) == 0, "test run failed");
	usleep(2000);
	lt_end(s, LOCK_A);
	CHECK(get_wait(s, HEAD_A, 0, &v), "no read entry");
	CHECK_EQ(v.count, 1, "read count");
	CHECK(v.sum_ns >= 2000000 && v.max_ns == v.sum_ns, "read wait %llu ns",
	      (unsigned long long)v.sum_ns);
	CHECK_EQ(slots_total(&v), 1, "read histogram total");
	CHECK_EQ(v.lock, LOCK_A, "lock");
	CHECK_EQ(v.kind, KIND_BLOCKING, "kind");
	CHECK_EQ(v.acquired, 0, "acquisitions without notifier events");
	total = v.sum_ns;
	/* a writer */
	lt_begin(s, LOCK_A, LCB_F_WRITE);
	lt_end(s, LOCK_A);
	CHECK(get_wait(s, HEAD_A, 1, &v) && v.count == 1 && v.sum_ns >= 1, "write entry");
	total += v.sum_ns;
	/* the SRCU chain's mutex: begin (spin), begin (sleep), end, timed from the first */
	lt_begin(s, HEAD_S, LCB_F_MUTEX | LCB_F_SPIN);
	usleep(3000);
	lt_begin(s, HEAD_S, LCB_F_MUTEX);
	lt_end(s, HEAD_S);
	CHECK(get_wait(s, HEAD_S, 1, &v) && v.count == 1, "mutex wait not counted");
	CHECK(v.sum_ns >= 3000000, "mutex wait not timed from its first begin: %llu ns",
	      (unsigned long long)v.sum_ns);
	CHECK_EQ(v.kind, KIND_SRCU, "mutex kind");
	CHECK(!get_wait(s, HEAD_S, 0, &v), "an SRCU chain read its mutex");
	/* top waiters: this thread, both waits of the blocking chain */
	CHECK(!bpf_map_lookup_elem(bpf_map__fd(s->maps.waiters_0), &wk, &w),
	      "no top-waiter entry for this thread");
	CHECK_EQ(w.count, 2, "waiter count");
	CHECK_EQ(w.total_ns, total, "waiter total");
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

/* what is not a watched chain's lock wait is not counted */
bool t_cont_not_chain_lock(void)
{
	const __u64 heads[] = { HEAD_A, HEAD_S };
	const __u32 kinds[] = { KIND_BLOCKING, KIND_SRCU };
	struct contention_bpf *s = cont_load_heads(false, CS_UNITS_NS, heads, kinds, 2, 0);
	int begins;
	bool ok = true;

	if (!s)
		return false;
	begins = bpf_map__fd(s->maps.lt_begin);
	/* a spinning lock at a chain's address (the flags say it is no rwsem) */
	lt_begin(s, LOCK_A, LCB_F_SPIN);
	lt_begin(s, LOCK_A, LCB_F_WRITE | LCB_F_SPIN);
	/* a mutex where a blocking chain has its rwsem, an rwsem in an SRCU head */
	lt_begin(s, LOCK_A, LCB_F_MUTEX);
	lt_begin(s, HEAD_S, LCB_F_READ);
	/* another lock */
	lt_begin(s, LOCK_A + 0x1000, LCB_F_READ);
	CHECK_EQ(map_count(begins, sizeof(struct cs_lt_key)), 0, "begins kept");
	lt_end(s, LOCK_A);
	lt_end(s, HEAD_S);
	lt_end(s, LOCK_A + 0x1000);
	CHECK_EQ(map_count(bpf_map__fd(s->maps.waits_0), sizeof(struct cs_cont_key)), 0,
		 "waits counted");
	/* the watched lock: kept until its end, then gone */
	lt_begin(s, LOCK_A, LCB_F_READ);
	CHECK_EQ(map_count(begins, sizeof(struct cs_lt_key)), 1, "begin of a watched lock");
	lt_end(s, LOCK_A + 0x40);
	CHECK_EQ(map_count(begins, sizeof(struct cs_lt_key)), 1, "another lock's end took it");
	lt_end(s, LOCK_A);
	CHECK_EQ(map_count(begins, sizeof(struct cs_lt_key)), 0, "end of the watched lock");
	/* an end without its begin (attached mid-wait) */
	lt_end(s, LOCK_A);
	CHECK_EQ(map_count(bpf_map__fd(s->maps.waiters_0), sizeof(struct cs_waiter_key)), 1,
		 "waiters");
out:
	contention_bpf__destroy(s);
	return ok;
}

/* tracepoints mode: heads learned, acquisitions counted from the notifier events */
bool t_cont_acquisitions(void)
{
	struct contention_bpf *s = cont_load(true, CS_UNITS_NS);
	struct cs_cont_val v;
	__u32 kind;
	bool ok = true;

	if (!s)
		return false;
	/* before any event the lock of HEAD_B is nobody's */
	lt_begin(s, HEAD_B, LCB_F_WRITE);
	lt_end(s, HEAD_B);
	CHECK(!get_wait(s, HEAD_B, 1, &v), "unknown chain's wait counted");
	/* writes: every (un)registration, refused ones too */
	member(s->progs.notifier_register_raw, HEAD_B, KIND_BLOCKING, 0);
	CHECK(watched(s, HEAD_B, &kind) && kind == KIND_BLOCKING, "head not learned");
	member(s->progs.notifier_register_error_raw, HEAD_B, KIND_BLOCKING, -17);
	member(s->progs.notifier_unregister_raw, HEAD_B, KIND_BLOCKING, 0);
	member(s->progs.notifier_unregister_error_raw, HEAD_B, KIND_BLOCKING, -2);
	CHECK(get_wait(s, HEAD_B, 1, &v), "no write entry");
	CHECK_EQ(v.acquired, 4, "write acquisitions");
	CHECK_EQ(v.count, 0, "contended writes");
	CHECK_EQ(v.lock, HEAD_B, "lock");
	/* reads: passes that ran a callback; not an empty call, not a rollback */
	call_end(s, HEAD_B, KIND_BLOCKING, CALL_PLAIN, 3);
	call_end(s, HEAD_B, KIND_BLOCKING, CALL_PLAIN, 0);
	call_end(s, HEAD_B, KIND_BLOCKING, CALL_ROBUST, 2);
	call_end(s, HEAD_B, KIND_BLOCKING, CALL_ROLLBACK, 1);
	CHECK(get_wait(s, HEAD_B, 0, &v), "no read entry");
	CHECK_EQ(v.acquired, 2, "read acquisitions");
	/* now the chain's waits count */
	lt_begin(s, HEAD_B, LCB_F_READ);
	lt_end(s, HEAD_B);
	CHECK(get_wait(s, HEAD_B, 0, &v) && v.count == 1 && v.acquired == 2,
	      "contended read");
	/* an SRCU chain: learned from a call, its mutex then watched; calls take no lock */
	call_end(s, HEAD_S, KIND_SRCU, CALL_PLAIN, 1);
	CHECK(watched(s, HEAD_S, &kind) && kind == KIND_SRCU, "SRCU head not learned");
	CHECK(!get_wait(s, HEAD_S, 0, &v), "an SRCU call counted as a read");
	lt_begin(s, HEAD_S, LCB_F_MUTEX);
	lt_end(s, HEAD_S);
	member(s->progs.notifier_register_raw, HEAD_S, KIND_SRCU, 0);
	CHECK(get_wait(s, HEAD_S, 1, &v) && v.count == 1 && v.acquired == 1 &&
	      v.kind == KIND_SRCU, "SRCU write");
	/* raw and atomic chains have no sleeping lock */
	member(s->progs.notifier_register_raw, HEAD_C, KIND_ATOMIC, 0);
	call_end(s, HEAD_C, KIND_ATOMIC, CALL_PLAIN, 1);
	CHECK(!watched(s, HEAD_C, &kind), "atomic head watched");
	CHECK(!get_wait(s, HEAD_C, 1, &v) && !get_wait(s, HEAD_C, 0, &v), "atomic counted");
out:
	contention_bpf__destroy(s);
	return ok;
}

/* -c: that chain's lock only, whichever it is, and no learning */
bool t_cont_filter(void)
{
	const __u64 heads[] = { HEAD_B };
	const __u32 kinds[] = { CS_LOCK_KIND_ANY };
	struct contention_bpf *s = cont_load_heads(false, CS_UNITS_US, heads, kinds, 1, 0);
	struct cs_cont_val v;
	__u32 kind;
	bool ok = true;

	if (!s)
		return false;
	member(s->progs.notifier_register_raw, HEAD_A, KIND_BLOCKING, 0);
	call_end(s, HEAD_A, KIND_BLOCKING, CALL_PLAIN, 1);
	CHECK(!watched(s, HEAD_A, &kind), "-c learned another chain");
	lt_begin(s, LOCK_A, LCB_F_WRITE);
	lt_end(s, LOCK_A);
	CHECK(!get_wait(s, HEAD_A, 1, &v) && !get_wait(s, HEAD_A, 0, &v),
	      "filtered chain counted");
	member(s->progs.notifier_register_raw, HEAD_B, KIND_BLOCKING, 0);
	lt_begin(s, HEAD_B, LCB_F_WRITE);
	lt_end(s, HEAD_B);
	CHECK(get_wait(s, HEAD_B, 1, &v) && v.count == 1 && v.acquired == 1,
	      "wanted chain not counted");
	CHECK_EQ(v.kind, KIND_BLOCKING, "rwsem wait's kind");
	/* the same -c head's mutex (an SRCU head) is watched as well */
	lt_begin(s, HEAD_B, LCB_F_MUTEX);
	lt_end(s, HEAD_B);
	CHECK(get_wait(s, HEAD_B, 1, &v) && v.count == 2, "-c head's mutex not counted");
out:
	contention_bpf__destroy(s);
	return ok;
}

/* learning past watched_heads' size: counted as dropped, nothing else lost */
bool t_cont_learn_full(void)
{
	struct contention_bpf *s = cont_load_heads(true, CS_UNITS_NS, NULL, NULL, 0, 1);
	struct cs_cont_val v;
	__u32 kind;
	bool ok = true;

	if (!s)
		return false;
	member(s->progs.notifier_register_raw, HEAD_A, KIND_BLOCKING, 0);
	member(s->progs.notifier_register_raw, HEAD_B, KIND_BLOCKING, 0);
	member(s->progs.notifier_register_raw, HEAD_A, KIND_BLOCKING, 0);
	CHECK(watched(s, HEAD_A, &kind) && !watched(s, HEAD_B, &kind), "watched heads");
	CHECK_EQ(stat_sum(bpf_map__fd(s->maps.stats), CS_STAT_DROPPED), 1, "dropped");
	CHECK(get_wait(s, HEAD_A, 1, &v) && v.acquired == 2, "first chain's writes");
	CHECK(!get_wait(s, HEAD_B, 1, &v), "unwatched chain counted");
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
	const __u64 heads[] = { HEAD_A, HEAD_B };
	const __u32 kinds[] = { KIND_BLOCKING, CS_LOCK_KIND_ANY };
	struct contention_bpf *all = cont_load_heads(true, CS_UNITS_NS, heads, kinds, 1, 0);
	struct contention_bpf *one = cont_load_heads(false, CS_UNITS_NS, heads + 1, kinds + 1,
						     1, 0);
	struct ping_bpf *p = ping_bpf__open_and_load();
	double t0, base, pa, po;
	int i, err = 1;

	if (!all || !one || !p) {
		fprintf(stderr, "cs-bpf-unit: error: bench: cannot load: %s\n",
			why[0] ? why : strerror(errno));
		goto out;
	}
	/* (a watched chain, so the map lookup has something to miss against) */
	t0 = now_ns();
	for (i = 0; i < BENCH_RUNS; i++)
		run(p->progs.ping, NULL, 0);
	base = (now_ns() - t0) / BENCH_RUNS;
	pa = bench_pairs(all);
	po = bench_pairs(one);
	printf("bench: contention_begin+end on a lock of no chain: %.0f ns per pair "
	       "(no -c), %.0f ns (-c); empty program run: %.0f ns; %d pairs\n",
	       pa - 2 * base, po - 2 * base, base, BENCH_RUNS);
	printf("bench: lt_begin entries %d after the runs (no -c)\n",
	       map_count(bpf_map__fd(all->maps.lt_begin), sizeof(struct cs_lt_key)));
	err = 0;
out:
	contention_bpf__destroy(all);
	contention_bpf__destroy(one);
	ping_bpf__destroy(p);
	return err;
}
