// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * cs-gencheck bench N FILE: a clean trace of about N events for the
 * offline benchmark (tests/sh/bench_offline.sh).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gencheck.h"

/* --- bench ------------------------------------------------------------------ */

#define BENCH_CPUS 8
#define BENCH_BLOCKS 6		/* per chain */
#define BENCH_HEAD(c) (0xffffffffc1000000ULL + (__u64)(c) * 0x40)
#define BENCH_CB(c, i) (0xffffffffc8000000ULL + ((__u64)(c) * BENCH_BLOCKS + (i)) * 0x20)
#define BENCH_NB(c, i) (0xffff888100000000ULL + ((__u64)(c) * BENCH_BLOCKS + (i)) * 0x40)
#define BENCH_TASK(t) (0xffff888200000000ULL + (__u64)(t) * 0x2000)

static const int bench_prio[BENCH_BLOCKS] = { 10, 5, 0, 0, 0, -5 };
static __u64 rng = 0x9e3779b97f4a7c15ULL;

static __u32 rnd(__u32 n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (__u32)((rng >> 11) % n);
}

/* events of one CPU, written round-robin with the other CPUs' */
struct queue {
	struct cs_rec_event *e;
	size_t n, pos, cap;
};

static struct queue queues[BENCH_CPUS];
static __u32 nr_chains, nr_tasks;

static void q_put(struct queue *q, const struct cs_rec_event *e)
{
	if (q->n == q->cap) {
		q->cap = q->cap ? q->cap * 2 : 256;
		q->e = realloc(q->e, q->cap * sizeof(*q->e));
		if (!q->e) {
			perror("cs-gencheck");
			exit(1);
		}
	}
	q->e[q->n++] = *e;
}

static void q_ev(struct queue *q, const struct cs_rec_event *tmpl, int type,
		 __u32 c, int i, int r, int nr)
{
	struct cs_rec_event e = *tmpl;

	e.type = type;
	e.head = BENCH_HEAD(c);
	if (i >= 0) {
		e.cb = BENCH_CB(c, i);
		e.nb = BENCH_NB(c, i);
		e.priority = bench_prio[i];
	}
	if (type == CS_REC_RETURN) {
		e.ret = r;
		e.duration_ns = 200 + rnd(100000);
	} else if (type == CS_REC_STOP || type == CS_REC_CALL_END) {
		e.ret = r;
		e.nr_calls = nr;
	}
	q_put(q, &e);
}

/* One pass over chain c (maybe with a pass nested in its first callback). */
static void q_pass(struct queue *q, const struct cs_rec_event *tmpl0, __u32 c,
		   int type, int nr_to_call, int stop_at, int depth)
{
	struct cs_rec_event t = *tmpl0;
	int i, ran = 0, last = NOTIFY_DONE;

	t.val = type == ROLLBACK ? VAL_DOWN : VAL;
	t.call_type = type;
	t.nr_to_call = nr_to_call;
	q_ev(q, &t, CS_REC_CALL_BEGIN, c, -1, 0, 0);
	for (i = 0; i < BENCH_BLOCKS; i++) {
		if (nr_to_call >= 0 && ran == nr_to_call)
			break;
		ran++;
		last = i == stop_at ? NOTIFY_BAD : NOTIFY_OK;
		q_ev(q, &t, CS_REC_RUN, c, i, 0, 0);
		if (i == 0 && depth == 0 && rnd(20) == 0)
			q_pass(q, tmpl0, rnd(nr_chains), PLAIN, -1, -1, 1);
		q_ev(q, &t, CS_REC_RETURN, c, i, last, 0);
		if (last & 0x8000) {
			q_ev(q, &t, CS_REC_STOP, c, i, last, ran);
			break;
		}
	}
	q_ev(q, &t, CS_REC_CALL_END, c, -1, last, ran);
	if (type == ROBUST && (last & 0x8000))
		q_pass(q, tmpl0, c, ROLLBACK, ran - 1, -1, depth);
}

int bench(unsigned long long n, const char *path)
{
	unsigned long long written = 0;
	struct cs_trace_sym *bsyms;
	char (*names)[32];
	size_t nsyms, k;
	__u32 c, i, cpu;
	int err;

	nr_chains = n / 100 > 4 ? n / 100 : 4;
	nr_tasks = n / 10 > 8 ? n / 10 : 8;
	now = 1000000;
	w = cs_trace_create(path, "6.1.0-bench", "00000000-1111-2222-3333-444444444444",
			    now);
	if (!w) {
		fprintf(stderr, "cs-gencheck: %s: %s\n", path, strerror(errno));
		return 1;
	}
	for (c = 0; c < nr_chains; c++) {
		for (i = 0; i < BENCH_BLOCKS; i++) {
			struct cs_rec_event e = {
				.type = CS_REC_REGISTER, .ts = now++, .task = BENCH_TASK(0),
				.pid = 1, .head = BENCH_HEAD(c), .cb = BENCH_CB(c, i),
				.nb = BENCH_NB(c, i), .priority = bench_prio[i],
				.kind = BLOCKING,
			};

			emit(&e);
			written++;
		}
	}
	while (written < n) {
		/* one pass per CPU, then their events interleaved */
		for (cpu = 0; cpu < BENCH_CPUS; cpu++) {
			/* a task runs on one CPU at a time */
			__u32 task = rnd(nr_tasks / BENCH_CPUS) * BENCH_CPUS + cpu;
			struct cs_rec_event tmpl = {
				.task = BENCH_TASK(task), .pid = 1000 + task, .cpu = cpu,
				.kind = BLOCKING,
			};
			struct queue *q = &queues[cpu];

			q->n = q->pos = 0;
			if (rnd(4) == 0) {
				struct cs_rec_event lw = tmpl;

				lw.type = CS_REC_LOCK_WAIT;
				lw.head = BENCH_HEAD(rnd(nr_chains));
				lw.lock = lw.head + 8;
				lw.duration_ns = rnd(3000);
				q_put(q, &lw);
			}
			if (rnd(10) == 0)
				q_pass(q, &tmpl, rnd(nr_chains), ROBUST, -1,
				       rnd(3) ? -1 : (int)rnd(BENCH_BLOCKS), 0);
			else
				q_pass(q, &tmpl, rnd(nr_chains), PLAIN, -1, -1, 0);
		}
		for (k = 0; ; k++) {
			bool any = false;

			for (cpu = 0; cpu < BENCH_CPUS; cpu++) {
				struct queue *q = &queues[cpu];

				if (q->pos == q->n)
					continue;
				any = true;
				q->e[q->pos].ts = now++;
				emit(&q->e[q->pos++]);
				written++;
			}
			if (!any)
				break;
		}
	}
	for (cpu = 0; cpu < BENCH_CPUS; cpu++)
		free(queues[cpu].e);

	nsyms = (size_t)nr_chains * (BENCH_BLOCKS + 1);
	bsyms = calloc(nsyms, sizeof(*bsyms));
	names = calloc(nsyms, sizeof(*names));
	if (!bsyms || !names) {
		perror("cs-gencheck");
		return 1;
	}
	for (c = 0, k = 0; c < nr_chains; c++) {
		snprintf(names[k], sizeof(names[k]), "bench_chain_%u", c);
		bsyms[k] = (struct cs_trace_sym){ BENCH_HEAD(c), names[k], "benchmod" };
		k++;
		for (i = 0; i < BENCH_BLOCKS; i++, k++) {
			snprintf(names[k], sizeof(names[k]), "bench_cb_%u_%u", c, i);
			bsyms[k] = (struct cs_trace_sym){ BENCH_CB(c, i), names[k], "benchmod" };
		}
	}
	err = cs_trace_finish(w, 0, 0, now, bsyms, nsyms);
	free(bsyms);
	free(names);
	if (err) {
		fprintf(stderr, "cs-gencheck: %s: %s\n", path, strerror(-err));
		return 1;
	}
	return 0;
}

