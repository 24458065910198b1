// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * cs-mkreport: trace files for the report tests (tests/sh/report.sh), written
 * through tracefile.c's writer, which stores any name it is given: the
 * reader is what must refuse the crafted ones.
 *
 *   cs-mkreport names FILE CHAIN CB [MODULE [RELEASE [BOOT_ID]]]
 *       chain CHAIN with callback CB (module MODULE) and cb_ok
 *   cs-mkreport dupname FILE
 *       module_notify_list: two functions named trace_module_notify
 *       (blocks trace_module_nb, trace_event_module_nb), one function
 *       registered through two blocks without a symbol, and two functions
 *       named no_block whose returns carry no block (nb 0, as latency's)
 *   cs-mkreport dupheads FILE
 *       two chain heads named dup_chain and two without a symbol, each
 *       with a pass, a callback cb_x and lock waits (read, write)
 *   cs-mkreport chains FILE NAME...
 *       one chain per NAME (the first at the lowest address), each with
 *       one callback: SVG file names
 *   cs-mkreport bench FILE EVENTS CALLBACKS
 *       EVENTS notifier_return records spread over CALLBACKS callbacks
 *   cs-mkreport passes FILE PASSES CALLBACKS
 *       PASSES whole passes (call_begin, a run and return per callback,
 *       call_end) of one chain with CALLBACKS callbacks: the timeline's
 *       benchmark
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracefile.h"

#define HEAD	0xffffffffc0001000ULL
#define LOCK	0xffffffffc0001010ULL
#define CB0	0xffffffffc0100000ULL
#define NB0	0xffff888000100000ULL	/* heap: no symbol */
#define TASK	0xffff888000200000ULL
#define BLOCKING 2

static struct cs_trace_writer *w;
static __u64 now = 1000000;
static __u64 head = HEAD;	/* of the events put */

static void put_event(int type, __u64 cb, __u64 nb, __u64 ns, int ret)
{
	struct cs_rec_event e = {
		.ts = now, .task = TASK, .head = head, .cb = cb, .nb = nb,
		.duration_ns = ns, .pid = 100, .ret = ret, .type = type,
		.kind = BLOCKING, .nr_to_call = type == CS_REC_CALL_BEGIN ? -1 : 0,
	};

	now += 1000;
	if (cs_trace_write(w, &e, 1)) {
		perror("cs-mkreport: write");
		exit(1);
	}
}

static void put_return(__u64 cb, __u64 nb, __u64 ns, int ret)
{
	put_event(CS_REC_RETURN, cb, nb, ns, ret);
}

static void put_lock_wait(__u64 ns, int op)
{
	struct cs_rec_event e = {
		.ts = now, .task = TASK, .head = head, .lock = LOCK, .duration_ns = ns,
		.pid = 100, .type = CS_REC_LOCK_WAIT, .kind = BLOCKING, .lock_op = op,
	};

	now += 1000;
	if (cs_trace_write(w, &e, 1)) {
		perror("cs-mkreport: write");
		exit(1);
	}
}

static int finish(const struct cs_trace_sym *syms, size_t n)
{
	int err = cs_trace_finish(w, 0, 0, now, syms, n);

	if (err)
		fprintf(stderr, "cs-mkreport: %s\n", strerror(-err));
	return err ? 1 : 0;
}

static int create(const char *path, const char *release, const char *boot_id)
{
	w = cs_trace_create(path, release, boot_id, now - 500);
	if (!w)
		fprintf(stderr, "cs-mkreport: %s: %s\n", path, strerror(errno));
	return w ? 0 : 1;
}

/*
 * CB returns NOTIFY_DONE, NOTIFY_OK, NOTIFY_STOP, NOTIFY_STOP_MASK,
 * NOTIFY_BAD, notifier_from_errno(-ENOMEM), notifier_from_errno(-EINVAL):
 * stop=2 bad=1 errno=2
 */
static const int rets[] = { 0, 1, 0x8001, 0x8000, 0x8002, 0x8000 | (1 + 12),
			    0x8000 | (1 + 22) };

static int names(int argc, char **argv)
{
	struct cs_trace_sym syms[] = {
		{ HEAD, argv[3], NULL },
		{ CB0, argv[4], argc > 5 ? argv[5] : NULL },
		{ CB0 + 0x100, "cb_ok", NULL },
	};
	size_t i;

	if (create(argv[2], argc > 6 ? argv[6] : "6.1.0-test",
		   argc > 7 ? argv[7] : "00000000-1111-2222-3333-444444444444"))
		return 1;
	for (i = 0; i < sizeof(rets) / sizeof(rets[0]); i++) {
		put_return(CB0, NB0, 1500 + i * 1000, rets[i]);
		put_return(CB0 + 0x100, NB0 + 0x100, 200000, 0);
	}
	put_lock_wait(0, 0);
	put_lock_wait(5000, 1);
	return finish(syms, sizeof(syms) / sizeof(syms[0]));
}

static int dupname(const char *path)
{
	static const struct cs_trace_sym syms[] = {
		{ HEAD, "module_notify_list", NULL },
		{ CB0, "trace_module_notify", NULL },
		{ CB0 + 0x1000, "trace_module_notify", NULL },
		{ CB0 + 0x2000, "cpu_cb", NULL },
		{ CB0 + 0x8000, "trace_module_nb", NULL },
		{ CB0 + 0x9000, "trace_event_module_nb", NULL },
		{ CB0 + 0x3000, "no_block", NULL },
		{ CB0 + 0x4000, "no_block", NULL },
	};
	int i;

	if (create(path, "6.1.0-test", "00000000-1111-2222-3333-444444444444"))
		return 1;
	for (i = 0; i < 3; i++) {
		put_return(CB0, CB0 + 0x8000, 1000, 0);
		put_return(CB0 + 0x1000, CB0 + 0x9000, 3000, 0);
		put_return(CB0 + 0x2000, NB0, 8000, 0);
		put_return(CB0 + 0x2000, NB0 + 0x40, 16000, 0);
		/* no block known, as in latency's rows: told apart by address */
		put_return(CB0 + 0x3000, 0, 1000, 0);
		put_return(CB0 + 0x4000, 0, 1000, 0);
	}
	return finish(syms, sizeof(syms) / sizeof(syms[0]));
}

/* two heads of one name and one without a symbol: passes and lock waits */
static int dupheads(const char *path)
{
	static const struct cs_trace_sym syms[] = {
		{ HEAD, "dup_chain", NULL },
		{ HEAD + 0x100, "dup_chain", NULL },
		{ CB0, "cb_x", NULL },
	};
	static const __u64 heads[] = { HEAD, HEAD + 0x100, NB0 + 0x10000, NB0 + 0x20000 };
	size_t i;

	if (create(path, "6.1.0-test", "00000000-1111-2222-3333-444444444444"))
		return 1;
	for (i = 0; i < sizeof(heads) / sizeof(heads[0]); i++) {
		head = heads[i];
		put_event(CS_REC_CALL_BEGIN, 0, 0, 0, 0);
		put_event(CS_REC_RUN, CB0, NB0 + i * 0x40, 0, 0);
		put_return(CB0, NB0 + i * 0x40, 1000 * (i + 1), 0);
		put_event(CS_REC_CALL_END, 0, 0, 0, 0);
		put_lock_wait(2000, 0);
		put_lock_wait(3000, 1);
	}
	return finish(syms, sizeof(syms) / sizeof(syms[0]));
}

static int chains(int argc, char **argv)
{
	struct cs_trace_sym syms[64];
	int i, n = argc - 3;

	if (n > 32 || create(argv[2], "6.1.0-test", "00000000-1111-2222-3333-444444444444"))
		return 1;
	for (i = 0; i < n; i++) {
		struct cs_rec_event e = {
			.ts = now, .task = TASK, .head = HEAD + i * 0x1000,
			.cb = CB0 + i * 0x100, .nb = NB0, .duration_ns = 1000,
			.pid = 100, .type = CS_REC_RETURN, .kind = BLOCKING,
		};

		now += 1000;
		if (cs_trace_write(w, &e, 1)) {
			perror("cs-mkreport: write");
			return 1;
		}
		syms[2 * i] = (struct cs_trace_sym){ e.head, argv[3 + i], NULL };
		syms[2 * i + 1] = (struct cs_trace_sym){ e.cb, "cb_ok", NULL };
	}
	return finish(syms, 2 * n);
}

/* events returns over cbs callbacks; passes: events passes over all cbs */
static int bench(const char *path, unsigned long events, unsigned long cbs, bool passes)
{
	struct cs_trace_sym *syms;
	unsigned long i;
	char name[32];
	int rc;

	if (!cbs || create(path, "6.1.0-test", "00000000-1111-2222-3333-444444444444"))
		return 1;
	syms = calloc(cbs + 1, sizeof(*syms));
	if (!syms)
		return 1;
	syms[0] = (struct cs_trace_sym){ HEAD, "bench_chain", NULL };
	for (i = 0; i < cbs; i++) {
		snprintf(name, sizeof(name), "bench_cb_%lu", i);
		syms[i + 1].addr = CB0 + i * 0x100;
		syms[i + 1].name = strdup(name);
		if (!syms[i + 1].name)
			return 1;
	}
	for (i = 0; i < events && !passes; i++)
		put_return(CB0 + (i % cbs) * 0x100, NB0 + (i % cbs) * 0x40,
			   1000 + (i * 7919) % 100000, (i % 97) ? 0 : 0x8001);
	for (i = 0; i < events && passes; i++) {
		unsigned long k;

		put_event(CS_REC_CALL_BEGIN, 0, 0, 0, 0);
		for (k = 0; k < cbs; k++) {
			put_event(CS_REC_RUN, CB0 + k * 0x100, NB0 + k * 0x40, 0, 0);
			put_return(CB0 + k * 0x100, NB0 + k * 0x40, 900, 1);
		}
		put_event(CS_REC_CALL_END, 0, 0, 0, 1);
	}
	rc = finish(syms, cbs + 1);
	for (i = 0; i < cbs; i++)
		free((char *)syms[i + 1].name);
	free(syms);
	return rc;
}

int main(int argc, char **argv)
{
	cs_trace_write_refused_strings(true);	/* crafted files, for the reader */

	if (argc >= 5 && !strcmp(argv[1], "names"))
		return names(argc, argv);
	if (argc >= 4 && !strcmp(argv[1], "chains"))
		return chains(argc, argv);
	if (argc == 3 && !strcmp(argv[1], "dupname"))
		return dupname(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "dupheads"))
		return dupheads(argv[2]);
	if (argc == 5 && (!strcmp(argv[1], "bench") || !strcmp(argv[1], "passes")))
		return bench(argv[2], strtoul(argv[3], NULL, 0), strtoul(argv[4], NULL, 0),
			     !strcmp(argv[1], "passes"));
	fprintf(stderr, "usage: cs-mkreport names FILE CHAIN CB [MODULE [RELEASE [BOOT_ID]]]\n"
		"       cs-mkreport dupname FILE\n"
		"       cs-mkreport dupheads FILE\n"
		"       cs-mkreport bench FILE EVENTS CALLBACKS\n"
		"       cs-mkreport passes FILE PASSES CALLBACKS\n");
	return 2;
}
