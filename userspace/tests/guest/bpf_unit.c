// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * cs-bpf-unit: unit tests of chainscope's BPF aggregation, run in the
 * guest. Each case loads a fresh skeleton (raw_tp programs only: 6.1 can
 * BPF_PROG_TEST_RUN raw_tp, not tp_btf), feeds the programs synthetic
 * tracepoint arguments, then reads the maps back.
 *
 * 6.1 raw_tp test runs: ctx_in is 8 bytes per tracepoint argument,
 * repeat must be 0, and data_in/out, ctx_out and duration must be unset.
 * Nothing is attached, so the tracepoints need not exist: this also runs
 * on a stock kernel.
 *
 *   cs-bpf-unit              run every case; "PASS: bpf-unit.<case>" lines
 *   cs-bpf-unit -t GLOB      only cases matching GLOB
 *   cs-bpf-unit --pin PATH   load and pin the context-free `ping` program
 *                            (the test-only bpf/tests/ping.bpf.c) for
 *                            `bpftool prog run pinned PATH repeat 0`
 *   cs-bpf-unit --bench      "bench:" lines: the cost of lock:contention_*
 *                            programs on a lock no watched chain owns
 *   cs-bpf-unit -v           libbpf debug output
 * Exit: 0 all passed, 1 a case failed, 2 usage.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "ping.skel.h"
#include "bpf_unit.h"

static bool verbose;
static const char *filter = "*";
static int failures, passes;
char why[512];

bool failf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return false;
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG && !verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

/* Run a raw_tp program once on this CPU (cpu < 0) or on another one. */
int run_on(const struct bpf_program *prog, const __u64 *args, int nargs,
		  int cpu)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts,
		    .ctx_in = args,
		    .ctx_size_in = nargs * sizeof(__u64));
	int err;

	if (cpu >= 0) {
		opts.flags = BPF_F_TEST_RUN_ON_CPU;
		opts.cpu = cpu;
	}
	err = bpf_prog_test_run_opts(bpf_program__fd(prog), &opts);
	if (err)
		return -errno;
	return (int)opts.retval;
}

int run(const struct bpf_program *prog, const __u64 *args, int nargs)
{
	return run_on(prog, args, nargs, -1);
}

int map_count(int fd, size_t key_sz)
{
	char key[64], next[64];
	int n = 0;

	if (key_sz > sizeof(key))
		return -1;
	if (bpf_map_get_next_key(fd, NULL, next))
		return 0;
	do {
		n++;
		memcpy(key, next, key_sz);
	} while (!bpf_map_get_next_key(fd, key, next));
	return n;
}

__u64 stat_sum(int fd, __u32 idx)
{
	int ncpu = libbpf_num_possible_cpus(), i;
	__u64 vals[256] = {}, sum = 0;

	if (ncpu <= 0 || ncpu > 256 || bpf_map_lookup_elem(fd, &idx, vals))
		return ~0ULL;
	for (i = 0; i < ncpu; i++)
		sum += vals[i];
	return sum;
}

static bool t_ping(void)
{
	struct ping_bpf *s = ping_bpf__open_and_load();
	bool ok = true;
	int r;

	if (!s)
		return failf("ping_bpf__open_and_load: %s", strerror(errno));
	/* no context at all: what bpftool prog run ... repeat 0 does */
	r = run(s->progs.ping, NULL, 0);
	CHECK(r == 42, "ping returned %d, want 42", r);
	r = run(s->progs.ping, NULL, 0);
	CHECK_EQ(s->bss->ping_count, 2, "ping_count");
out:
	ping_bpf__destroy(s);
	return ok;
}

/* --- main ---------------------------------------------------------------------------- */

static const struct {
	const char *name;
	bool (*fn)(void);
} cases[] = {
	{ "lat-histogram-ns", t_lat_histogram_ns },
	{ "lat-run-return-pairing", t_lat_run_return_pairing },
	{ "lat-pair-task-storage", t_lat_pair_task_storage },
	{ "lat-buckets-match-user-space", t_lat_buckets_match_user_space },
	{ "lat-units", t_lat_units },
	{ "lat-return-codes", t_lat_return_codes },
	{ "lat-filters", t_lat_filters },
	{ "lat-per-val", t_lat_per_val },
	{ "lat-per-block", t_lat_per_block },
	{ "lat-map-full-counts-drops", t_lat_map_full },
	{ "chain-pair", t_chain_pair },
	{ "chain-nested-same-head", t_chain_nested_same_head },
	{ "chain-nested-other-head", t_chain_nested_other_head },
	{ "chain-unpaired", t_chain_unpaired },
	{ "chain-too-deep", t_chain_too_deep },
	{ "chain-filters", t_chain_filters },
	{ "chain-irq-context", t_chain_irq_context },
	{ "chain-pass-identity", t_chain_pass_identity },
	{ "lat-generations", t_lat_generations },
	{ "ping", t_ping },
	{ "cont-waits", t_cont_waits },
	{ "cont-not-chain-lock", t_cont_not_chain_lock },
	{ "cont-acquisitions", t_cont_acquisitions },
	{ "cont-filter", t_cont_filter },
	{ "cont-learn-full", t_cont_learn_full },
};

static int pin_ping(const char *path)
{
	struct ping_bpf *s = ping_bpf__open_and_load();
	int err;

	if (!s) {
		fprintf(stderr, "cs-bpf-unit: error: cannot load ping: %s\n", strerror(errno));
		return 1;
	}
	err = bpf_program__pin(s->progs.ping, path);
	if (err)
		fprintf(stderr, "cs-bpf-unit: error: cannot pin ping at %s: %s\n", path,
			strerror(-err));
	else
		printf("pinned ping at %s\n", path);
	ping_bpf__destroy(s);	/* the pin keeps the program */
	return err ? 1 : 0;
}

static void usage(FILE *f)
{
	fprintf(f, "Usage: cs-bpf-unit [-v] [-t GLOB] | --pin PATH | --bench\n");
}

int main(int argc, char **argv)
{
	const char *pin = NULL;
	bool do_bench = false;
	size_t i;
	int a;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "-v")) {
			verbose = true;
		} else if (!strcmp(argv[a], "-t") && a + 1 < argc) {
			filter = argv[++a];
		} else if (!strcmp(argv[a], "--bench")) {
			do_bench = true;
		} else if (!strcmp(argv[a], "--pin") && a + 1 < argc) {
			pin = argv[++a];
		} else if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help")) {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "cs-bpf-unit: error: bad argument '%s'\n", argv[a]);
			usage(stderr);
			return 2;
		}
	}
	libbpf_set_print(libbpf_print);
	if (pin)
		return pin_ping(pin);
	if (do_bench)
		return bench();

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (fnmatch(filter, cases[i].name, 0))
			continue;
		why[0] = '\0';
		if (cases[i].fn()) {
			printf("PASS: bpf-unit.%s\n", cases[i].name);
			passes++;
		} else {
			printf("FAIL: bpf-unit.%s: %s\n", cases[i].name, why);
			failures++;
		}
		fflush(stdout);
	}
	printf("# %d passed, %d failed\n", passes, failures);
	return failures ? 1 : 0;
}
