// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * benchattach: funclatency-style reference tracer for the tracing-cost
 * benchmark (qemu/bench.sh, extension tracing_cost; docs/bench.md).
 *
 *   benchattach -f FUNCTION [-m fentry|kprobe] [-v]
 *
 * Attaches an entry/exit program pair to FUNCTION (fentry/fexit or
 * kprobe/kretprobe, bpf/benchattach.bpf.c), prints "Tracing ..." on stderr
 * once attached, and on Ctrl-C (SIGINT/SIGTERM) detaches and prints the
 * log2 histogram of FUNCTION's duration in nsecs and the counters:
 *   benchattach: mode=M function=F count=N entries=E no_start=S update_failed=U
 * Exit: 0 ok, 1 BPF/open/load/attach failure, 2 usage.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "benchattach.h"
#include "benchattach.skel.h"

static volatile sig_atomic_t exiting;
static bool verbose;

static void on_signal(int sig)
{
	(void)sig;
	exiting = 1;
}

static int print_libbpf(enum libbpf_print_level level, const char *fmt,
			va_list args)
{
	if (level == LIBBPF_DEBUG && !verbose)
		return 0;
	return vfprintf(stderr, fmt, args);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: benchattach -f FUNCTION [-m fentry|kprobe] [-v]\n");
}

static __u64 read_u64(int fd, __u32 key)
{
	__u64 v = 0;

	if (bpf_map_lookup_elem(fd, &key, &v))
		return 0;
	return v;
}

int main(int argc, char **argv)
{
	const char *func = NULL, *mode = "fentry";
	struct benchattach_bpf *skel = NULL;
	struct sigaction sa = { .sa_handler = on_signal };
	bool fentry;
	__u64 total = 0, hist[BA_MAX_SLOTS];
	int opt, err, i, last = -1;

	while ((opt = getopt(argc, argv, "f:m:vh")) != -1) {
		switch (opt) {
		case 'f':
			func = optarg;
			break;
		case 'm':
			mode = optarg;
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!func || optind != argc) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(mode, "fentry")) {
		fentry = true;
	} else if (!strcmp(mode, "kprobe")) {
		fentry = false;
	} else {
		fprintf(stderr, "benchattach: unknown mode '%s' (fentry, kprobe)\n", mode);
		return 2;
	}

	libbpf_set_print(print_libbpf);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	skel = benchattach_bpf__open();
	if (!skel) {
		fprintf(stderr, "benchattach: cannot open BPF object: %s\n", strerror(errno));
		return 1;
	}
	bpf_program__set_autoload(skel->progs.ba_fentry, fentry);
	bpf_program__set_autoload(skel->progs.ba_fexit, fentry);
	bpf_program__set_autoload(skel->progs.ba_kprobe, !fentry);
	bpf_program__set_autoload(skel->progs.ba_kretprobe, !fentry);
	if (fentry) {
		err = bpf_program__set_attach_target(skel->progs.ba_fentry, 0, func);
		if (!err)
			err = bpf_program__set_attach_target(skel->progs.ba_fexit, 0, func);
		if (err) {
			fprintf(stderr, "benchattach: set attach target %s: %s\n", func,
				strerror(-err));
			goto out;
		}
	}
	err = benchattach_bpf__load(skel);
	if (err) {
		fprintf(stderr, "benchattach: cannot load BPF programs: %s\n", strerror(-err));
		goto out;
	}
	if (fentry) {
		/* exit first, so no entry is left without its exit */
		skel->links.ba_fexit = bpf_program__attach(skel->progs.ba_fexit);
		err = -errno;
		if (skel->links.ba_fexit) {
			skel->links.ba_fentry = bpf_program__attach(skel->progs.ba_fentry);
			err = -errno;
		}
		if (!skel->links.ba_fexit || !skel->links.ba_fentry) {
			fprintf(stderr, "benchattach: cannot attach fentry/fexit to %s: %s\n",
				func, strerror(-err));
			goto out;
		}
	} else {
		skel->links.ba_kretprobe = bpf_program__attach_kprobe(skel->progs.ba_kretprobe,
								      true, func);
		err = -errno;
		if (skel->links.ba_kretprobe) {
			skel->links.ba_kprobe = bpf_program__attach_kprobe(skel->progs.ba_kprobe,
									   false, func);
			err = -errno;
		}
		if (!skel->links.ba_kretprobe || !skel->links.ba_kprobe) {
			fprintf(stderr, "benchattach: cannot attach kprobe/kretprobe to %s: %s\n",
				func, strerror(-err));
			goto out;
		}
	}
	err = 0;
	fprintf(stderr, "Tracing %s with %s... Hit Ctrl-C to end.\n", func,
		fentry ? "fentry/fexit" : "kprobe/kretprobe");

	while (!exiting)
		pause();

	/* detach entry first, then exit */
	if (fentry) {
		bpf_link__destroy(skel->links.ba_fentry);
		skel->links.ba_fentry = NULL;
	} else {
		bpf_link__destroy(skel->links.ba_kprobe);
		skel->links.ba_kprobe = NULL;
	}

	for (i = 0; i < BA_MAX_SLOTS; i++) {
		hist[i] = read_u64(bpf_map__fd(skel->maps.hist), i);
		total += hist[i];
		if (hist[i])
			last = i;
	}
	printf("%-24s : %-12s\n", "nsecs", "count");
	for (i = 0; i <= last; i++)
		printf("%10llu -> %-10llu : %llu\n", i ? 1ULL << i : 0ULL,
		       (2ULL << i) - 1, (unsigned long long)hist[i]);
	printf("benchattach: mode=%s function=%s count=%llu entries=%llu no_start=%llu "
	       "update_failed=%llu\n", mode, func, (unsigned long long)total,
	       (unsigned long long)read_u64(bpf_map__fd(skel->maps.stats), BA_STAT_ENTRIES),
	       (unsigned long long)read_u64(bpf_map__fd(skel->maps.stats), BA_STAT_NO_START),
	       (unsigned long long)read_u64(bpf_map__fd(skel->maps.stats),
					    BA_STAT_UPDATE_FAILED));
out:
	benchattach_bpf__destroy(skel);
	return err ? 1 : 0;
}
