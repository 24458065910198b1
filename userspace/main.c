// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope: live tools for the chainscope notifier tracepoints.
 *
 * This file only dispatches to a subcommand. What the subcommands share
 * is split by concern: options.c (common options, units, chain kinds),
 * startup.c (start-up checks, libbpf set-up), symbols.c (kallsyms, -c/-f),
 * maps.c (per-CPU counters, health, map generations, draining),
 * output.c (summaries, JSON), signals.c (waiting for intervals, signals).
 */
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "chainscope.h"
#include "cmd.h"
#include "safestr.h"

const char *argp_program_version = "chainscope 0.1";

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} cmds[] = {
	{ "latency", cmd_latency, "notifier callback (and chain) latency histograms" },
	{ "contention", cmd_contention, "notifier chain lock waits and top waiters" },
	{ "record", cmd_record, "record every notifier event into a trace file" },
	{ "report", cmd_report, "latency and lock-wait histograms from a trace file" },
	{ "check", cmd_check, "check a trace file against the notifier chain rules" },
	{ "diff", cmd_diff, "compare two JSON results against a latency budget" },
	{ "chains", cmd_chains, "the blocks on notifier chains, in call order" },
	{ "serve", cmd_serve, "Prometheus metrics over HTTP (GET /metrics)" },
};

/* The names every message lists, from cmds[] */
static const char *cmd_list(void)
{
	static char buf[256];
	size_t i, n = 0;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]) && n < sizeof(buf); i++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s%s", i ? ", " : "", cmds[i].name);
	return buf;
}

/* --version: ours, the libbpf we run with, the modes built in */
static void version(void)
{
	printf("%s\nlibbpf %u.%u\nmodes: %s %s\n", argp_program_version,
	       libbpf_major_version(), libbpf_minor_version(),
	       cs_mode_name(CS_MODE_TRACEPOINTS), cs_mode_name(CS_MODE_PROBES));
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: chainscope COMMAND [OPTION...] [INTERVAL [COUNT]]\n"
		   "Live tools for the chainscope notifier tracepoints.\n\n"
		   "Commands:\n");
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-12s %s\n", cmds[i].name, cmds[i].help);
	fprintf(f, "\n'chainscope COMMAND --help' describes a command; 'chainscope "
		   "--version' the build.\n\n%s\n"
		   "Examples:\n"
		   "  chainscope latency -C 1 10      # histograms every second, 10 times\n"
		   "  chainscope chains -c reboot_notifier_list\n"
		   "  chainscope record -o n.cstrace && chainscope report n.cstrace\n"
		   "  chainscope serve                # http://127.0.0.1:9469/metrics\n",
		CS_EXIT_DOC);
}

int main(int argc, char **argv)
{
	static char subname[64];
	size_t i;

	if (argc < 2) {
		warn("chainscope: error: no command given (%s; see 'chainscope --help')\n",
		     cmd_list());
		return CS_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return CS_EXIT_OK;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		version();
		return CS_EXIT_OK;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (strcmp(argv[1], cmds[i].name))
			continue;
		/* "chainscope latency" names the command in every message */
		snprintf(subname, sizeof(subname), "chainscope %s", cmds[i].name);
		argv[1] = subname;
		return cmds[i].fn(argc - 1, argv + 1);
	}
	warn("chainscope: error: unknown command '%s' (%s; see 'chainscope --help')\n",
	     cs_safe_str(argv[1], (char[256]){ 0 }, 256), cmd_list());
	return CS_EXIT_USAGE;
}
