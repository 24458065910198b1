// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * benchattach: funclatency-style reference tracer for the tracing-cost
 * benchmark (qemu/bench.sh, extension tracing_cost; docs/bench.md).
 *
 *   benchattach -f FUNCTION [-m fentry|kprobe|kprobe-multi] [-v]
 *   benchattach -a LIST [-m fentry|kprobe|kprobe-multi] [-v]   (--help)
 *
 * -f: attaches an entry/exit program pair to FUNCTION (fentry/fexit,
 * kprobe/kretprobe or kprobe.multi/kretprobe.multi,
 * bpf/benchattach.bpf.c), prints "Tracing ..." on stderr once attached,
 * and on Ctrl-C (SIGINT/SIGTERM) detaches and prints the log2 histogram
 * of FUNCTION's duration in nsecs and the counters:
 *   benchattach: mode=M function=F count=N entries=E no_start=S update_failed=U
 * -a: the attach time of every function in LIST (benchattach_time.c).
 * Exit: 0 ok, 1 BPF/open/load/attach failure, 2 usage, 3 bad LIST.
 */
#include <argp.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "benchattach.h"
#include "benchattach_time.h"
#include "safestr.h"
#include "benchattach.skel.h"

static volatile sig_atomic_t exiting;

static struct env {
	const char *func;
	const char *list;
	enum ba_mode mode;
	bool verbose;
} env = {
	.mode = BA_MODE_FENTRY,
};

static const struct argp_option opts[] = {
	{ "function", 'f', "FUNCTION", 0, "Kernel function to time (required)", 0 },
	{ "attach-time", 'a', "LIST", 0, "Time attaching to (and detaching from) "
	  "every function in the file LIST, one name per line, then exit", 0 },
	{ "mode", 'm', "MODE", 0, "fentry (fentry/fexit, default), kprobe "
	  "(kprobe/kretprobe) or kprobe-multi (kprobe.multi/kretprobe.multi)", 0 },
	{ "verbose", 'v', NULL, 0, "libbpf debug output", 0 },
	{ NULL, 'h', NULL, OPTION_HIDDEN, "Same as --help (the getopt version's -h)", 0 },
	{},
};

static const char doc[] =
"Time one kernel function with an entry/exit BPF program pair, like\n"
"libbpf-tools' funclatency: the reference tracer of the tracing-cost\n"
"benchmark (qemu/bench.sh, docs/bench.md).\n"
"\n"
"Prints \"Tracing ...\" on stderr once attached; on Ctrl-C (SIGINT or\n"
"SIGTERM) detaches and prints the log2 histogram of the function's\n"
"duration in nsecs and one line of counters:\n"
"  benchattach: mode=M function=F count=N entries=E no_start=S update_failed=U\n"
"\n"
"With -a LIST: attaches the pair to every function listed (fentry: one\n"
"program pair loaded per function; kprobe: one link pair per function;\n"
"kprobe-multi: one link pair over all, cookie = index), detaches, and\n"
"prints the time of each phase in ns:\n"
"  benchattach: attach mode=M n=N resolve_ns= load_ns= attach_ns= detach_ns=\n"
"\v"
"Examples:\n"
"  benchattach -f cs_bench_cb              # fentry/fexit\n"
"  benchattach -m kprobe -f cs_bench_cb    # kprobe/kretprobe\n"
"  benchattach -m kprobe-multi -a funcs.txt  # attach time, kprobe.multi\n"
"\n"
"Exit status: 0 success, 1 BPF open/load/attach failure or unknown\n"
"function, 2 usage error, 3 bad LIST file.\n"
"\n"
"Environment:\n"
"  CHAINSCOPE_PROBE_ONLY=1   stop after parsing the command line (exit 0),\n"
"                            before any bpf() system call\n";

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case ARGP_KEY_INIT:
		/* getopt's own line is enough: no "Try --help" second line */
		state->err_stream = NULL;
		return 0;
	case 'f':
		if (!*arg)
			cs_usage_error(state, "empty function name");
		env.func = arg;
		return 0;
	case 'a':
		if (!*arg)
			cs_usage_error(state, "empty list file name");
		env.list = arg;
		return 0;
	case 'm':
		if (!strcmp(arg, "fentry"))
			env.mode = BA_MODE_FENTRY;
		else if (!strcmp(arg, "kprobe"))
			env.mode = BA_MODE_KPROBE;
		else if (!strcmp(arg, "kprobe-multi"))
			env.mode = BA_MODE_KPROBE_MULTI;
		else
			cs_usage_error(state, "invalid mode '%s' (fentry, kprobe, "
				       "kprobe-multi)", arg);
		return 0;
	case 'v':
		env.verbose = true;
		return 0;
	case 'h':
		argp_state_help(state, stdout, ARGP_HELP_STD_HELP);
		return 0;	/* not reached: ARGP_HELP_STD_HELP exits 0 */
	case ARGP_KEY_ARG:
		cs_usage_error(state, "unexpected argument '%s'", arg);
	case ARGP_KEY_END:
		if (env.func && env.list)
			cs_usage_error(state, "-f and -a exclude each other");
		if (!env.func && !env.list)
			cs_usage_error(state, "no function given (-f FUNCTION)");
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp argp = {
	.options = opts,
	.parser = parse_arg,
	.doc = doc,
};

static void on_signal(int sig)
{
	(void)sig;
	exiting = 1;
}

static int print_libbpf(enum libbpf_print_level level, const char *fmt,
			va_list args)
{
	if (level == LIBBPF_DEBUG && !env.verbose)
		return 0;
	return vfprintf(stderr, fmt, args);
}

static __u64 read_u64(int fd, __u32 key)
{
	__u64 v = 0;

	if (bpf_map_lookup_elem(fd, &key, &v))
		return 0;
	return v;
}

/* The single-function pair of -m kprobe-multi: one address, cookie 0. */
static int attach_kpm(struct benchattach_bpf *skel, const char *func)
{
	unsigned long addr;
	LIBBPF_OPTS(bpf_kprobe_multi_opts, o, .addrs = &addr, .cnt = 1);

	if (ba_resolve_addrs(&func, 1, &addr))
		return -ENOENT;
	o.retprobe = true;
	skel->links.ba_kpm_exit =
		bpf_program__attach_kprobe_multi_opts(skel->progs.ba_kpm_exit, NULL, &o);
	if (!skel->links.ba_kpm_exit)
		return -errno;
	o.retprobe = false;
	skel->links.ba_kpm_entry =
		bpf_program__attach_kprobe_multi_opts(skel->progs.ba_kpm_entry, NULL, &o);
	if (!skel->links.ba_kpm_entry)
		return -errno;
	return 0;
}

static const char *const pair_name[] = {
	[BA_MODE_FENTRY] = "fentry/fexit",
	[BA_MODE_KPROBE] = "kprobe/kretprobe",
	[BA_MODE_KPROBE_MULTI] = "kprobe.multi/kretprobe.multi",
};

int main(int argc, char **argv)
{
	const char *func, *mode, *probe_only = secure_getenv("CHAINSCOPE_PROBE_ONLY");
	struct benchattach_bpf *skel = NULL;
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block, old;
	enum ba_mode m;
	__u64 total = 0, hist[BA_MAX_SLOTS];
	int err, i, last = -1;

	if (argp_parse(&argp, argc, argv, 0, NULL, NULL))
		return BA_EXIT_USAGE;	/* getopt printed the reason */
	func = env.func;
	m = env.mode;
	mode = ba_mode_name(m);
	libbpf_set_print(print_libbpf);
	if (env.list)
		return ba_attach_time(env.list, m);
	if (probe_only && !strcmp(probe_only, "1")) {
		fprintf(stderr, "benchattach: mode=%s function=%s: CHAINSCOPE_PROBE_ONLY=1, "
			"stopping before bpf()\n", mode, func);
		return 0;
	}

	/* blocked until sigsuspend(), so a signal cannot slip in before it */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	skel = benchattach_bpf__open();
	if (!skel) {
		fprintf(stderr, "benchattach: cannot open BPF object: %s\n", strerror(errno));
		return BA_EXIT_BPF;
	}
	bpf_program__set_autoload(skel->progs.ba_fentry, m == BA_MODE_FENTRY);
	bpf_program__set_autoload(skel->progs.ba_fexit, m == BA_MODE_FENTRY);
	bpf_program__set_autoload(skel->progs.ba_kprobe, m == BA_MODE_KPROBE);
	bpf_program__set_autoload(skel->progs.ba_kretprobe, m == BA_MODE_KPROBE);
	bpf_program__set_autoload(skel->progs.ba_kpm_entry, m == BA_MODE_KPROBE_MULTI);
	bpf_program__set_autoload(skel->progs.ba_kpm_exit, m == BA_MODE_KPROBE_MULTI);
	if (m == BA_MODE_FENTRY) {
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
	/* exit first, so no entry is left without its exit */
	switch (m) {
	case BA_MODE_FENTRY:
		skel->links.ba_fexit = bpf_program__attach(skel->progs.ba_fexit);
		err = -errno;
		if (skel->links.ba_fexit) {
			skel->links.ba_fentry = bpf_program__attach(skel->progs.ba_fentry);
			err = -errno;
		}
		if (skel->links.ba_fexit && skel->links.ba_fentry)
			err = 0;
		break;
	case BA_MODE_KPROBE:
		skel->links.ba_kretprobe = bpf_program__attach_kprobe(skel->progs.ba_kretprobe,
								      true, func);
		err = -errno;
		if (skel->links.ba_kretprobe) {
			skel->links.ba_kprobe = bpf_program__attach_kprobe(skel->progs.ba_kprobe,
									   false, func);
			err = -errno;
		}
		if (skel->links.ba_kretprobe && skel->links.ba_kprobe)
			err = 0;
		break;
	case BA_MODE_KPROBE_MULTI:
		err = attach_kpm(skel, func);
		break;
	}
	if (err) {
		fprintf(stderr, "benchattach: cannot attach %s to %s: %s\n", pair_name[m],
			func, strerror(-err));
		goto out;
	}
	fprintf(stderr, "Tracing %s with %s... Hit Ctrl-C to end.\n", func, pair_name[m]);

	while (!exiting)
		sigsuspend(&old);

	/* detach entry first, then exit */
	bpf_link__destroy(skel->links.ba_fentry);
	skel->links.ba_fentry = NULL;
	bpf_link__destroy(skel->links.ba_kprobe);
	skel->links.ba_kprobe = NULL;
	bpf_link__destroy(skel->links.ba_kpm_entry);
	skel->links.ba_kpm_entry = NULL;

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
	return err ? BA_EXIT_BPF : BA_EXIT_OK;
}
