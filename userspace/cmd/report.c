// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope report: latency and lock-wait histograms from a trace file
 * (chainscope record), in the layout of the live tools; -j JSON, --svg
 * one SVG bar chart per chain (svg.c).
 *
 * cmd_report() reads the command line, the file and opens the outputs;
 * cs_report_run() (report/run.c) does the rest on a parsed trace, without
 * exiting, for the CLI, serve and the fuzz targets alike.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "callback_row.h"
#include "chainscope.h"
#include "outfile.h"
#include "report.h"
#include "trace_cli.h"
#include "tracedat.h"
#include "tracefile.h"

static struct env {
	const char *cmd;
	const char *file;
	const char *svg_dir;
	const char *perfetto;
	const char *folded;
	bool folded_calls;
	bool force;		/* --force: outputs through links, other users' files */
	bool json;
	bool openmetrics;
	bool passes;
	bool boot;
	bool show_addresses;
	int units;
	char units_flag;
} env;

enum { OPT_SVG = 0x100, OPT_OPENMETRICS, OPT_PERFETTO, OPT_FOLDED, OPT_FOLDED_CALLS,
       OPT_SHOW_ADDRESSES, OPT_FORCE, OPT_PASSES, OPT_BOOT };

static const struct argp_option opts[] = {
	{ "json", 'j', NULL, 0, "One JSON object (the live tools' keys)", 0 },
	{ "openmetrics", OPT_OPENMETRICS, NULL, 0, "The Prometheus text exposition "
	  "(what 'chainscope serve' serves; see chainscope-serve(8)); kernel "
	  "addresses no symbol names show as addr#N", 0 },
	{ "show-addresses", OPT_SHOW_ADDRESSES, NULL, 0, "With --openmetrics: kernel "
	  "addresses as they are (a KASLR leak to whoever reads the exposition)", 0 },
	{ "passes", OPT_PASSES, NULL, 0, "Instead of the histograms: every chain pass "
	  "in time order, its callbacks in the order they ran, each with its start, run "
	  "time and return value, the passes a callback called inside it (-j: JSON, "
	  "times in ns)", 0 },
	{ "boot", OPT_BOOT, NULL, 0, "A boot-time buffer (trace_event=notifier:... on "
	  "the kernel command line) as an answer: instead of the histograms, the "
	  "slowest callbacks with their chains and, per chain, what registered in "
	  "what order at what priority, the call order that built, each callback's "
	  "count and total time, and 'early history missing' where blocks ran "
	  "whose registration is not in the buffer (-j: a \"boot\" member; the "
	  "exports as ever). Needs notifier_register events (exit 17)", 0 },
	{ "svg", OPT_SVG, "DIR", 0, "Also one SVG histogram per chain into DIR: "
	  "CHAIN.svg, bytes other than [A-Za-z0-9_] as -HH; CHAIN--0xHEAD.svg "
	  "when chains share a name; and a timeline per chain that had passes, "
	  "CHAIN.timeline.svg", 0 },
	{ "perfetto", OPT_PERFETTO, "FILE", 0, "Also the passes, callbacks, stops and "
	  "lock waits as Chrome trace-event JSON (Perfetto UI, chrome://tracing) "
	  "into FILE ('-': stdout, instead of the report)", 0 },
	{ "folded", OPT_FOLDED, "FILE", 0, "Also folded stacks, 'chain;callback NS' "
	  "lines (flamegraph.pl, speedscope) into FILE ('-': stdout, instead of "
	  "the report)", 0 },
	{ "folded-calls", OPT_FOLDED_CALLS, NULL, 0, "Folded values count the "
	  "stack's passes or calls instead of its own ns", 0 },
	{ "force", OPT_FORCE, NULL, 0, "Write the --svg, --perfetto and --folded outputs "
	  "even through a symbolic link, into another user's file or directory, or into "
	  "a file with other hard links", 0 },
	CS_UNITS_OPTIONS,
	CS_SALVAGE_OPTION,
	CS_CONSOLE_OPTION,
	CS_TRACEFS_OPTION,
	{},
};

static const char doc[] =
"Latency histograms per chain and callback (notifier_run to notifier_return)\n"
"and lock-wait histograms per chain (lock:contention_* on its lock), from\n"
"a trace file or the live ftrace ring buffer. No BPF; no root needed for\n"
"a file.\n"
"\v"
"Inputs (FILE, told apart by their first bytes, not their name):\n"
"  .cstrace   written by 'chainscope record'\n"
"  trace.dat  written by trace-cmd (trace-cmd record -e notifier ...),\n"
"             read with libtracecmd: the notifier:* events by field name;\n"
"             notifier_return - notifier_run is the latency where\n"
"             duration_ns is not in the file; a file of upstream's three\n"
"             cb-only events (Linux 6.4+) gives run counts, no latency\n"
"  --console  text: a console log of our events (boot with\n"
"             trace_event=notifier:* tp_printk) or a tracefs trace file;\n"
"             only lines exactly in the events' format are taken, times\n"
"             have microsecond resolution, upstream's cb-only lines give\n"
"             run counts as a stock trace.dat does\n"
"  --tracefs [DIR]  the live ring buffer of DIR (/sys/kernel/tracing, or\n"
"             an instance under it), read and consumed with libtracefs as\n"
"             'trace-cmd extract' does, after 'echo 1 >\n"
"             DIR/events/notifier/enable' (or trace-cmd start -e notifier);\n"
"             decoded as a trace.dat is, its missed events as loss\n"
"             markers; needs root\n"
"\n"
"Boot (--boot): what the chains did before any tool could run. Boot with\n"
"our events on the kernel command line, e.g. (one word, no spaces)\n"
"  trace_event=notifier:notifier_register,notifier:notifier_unregister,\n"
"  notifier:notifier_run,notifier:notifier_return,notifier:notifier_call_begin,\n"
"  notifier:notifier_call_end trace_buf_size=8M trace_clock=local\n"
"(or trace_event=notifier:*), then read the buffer with 'chainscope\n"
"report --tracefs --boot' (or a trace-cmd extract of it, or the console\n"
"with tp_printk). Blocks registered before tracing was up have no\n"
"notifier_register: a chain where such a block ran is marked 'early\n"
"history missing' (JSON: early_history_missing), the block placed before\n"
"the traced ones of its priority, '(registered before tracing)'; 'check'\n"
"does not count what only that history could decide as a violation. Of\n"
"upstream's three cb-only events (stock 6.4+) --boot gives the\n"
"registration order over all chains and run counts, and says once that\n"
"times need our core.\n"
"\n"
"Exit status: 0 success, 1 error (e.g. an SVG file could not be written),\n"
"2 usage error or an unreadable/invalid trace file; a trace.dat: 12 one\n"
"that cannot be read or is cut short (truncated), or with notifier\n"
"events in two buffers (-B), 13 a trace clock that is not in nanoseconds\n"
"and has no conversion in the file (counter, uptime, x86-tsc; tsc2nsec is\n"
"read) or a buffer instance's that is not the top buffer's, 14 a name\n"
"outside the kernel symbol alphabet, 15 the parser process died on it;\n"
"--console text: 12 one that is refused (not text: NUL bytes, a line over\n"
"64 KiB; no event of ours, unreadable), 13 trace file times of a clock\n"
"not in seconds; --tracefs: 2 DIR is not a tracefs directory or\n"
"instance, 3 no permission to read it (root), 5 the kernel has no\n"
"notifier:* events, 16 none of them is enabled in DIR, 12 and 13 as for\n"
"a trace.dat; --boot: 17 the input has no notifier_register event.\n"
"\n"
"Outputs: new files are made 0600 and a new --svg directory 0700. An\n"
"existing one is written only if it is a regular file (a directory) of\n"
"this user that is not a symbolic link and has no other hard link;\n"
"--force lifts all but the file-type rule.\n"
"\n"
"Examples:\n"
"  chainscope report n.cstrace\n"
"  chainscope report trace.dat             # trace-cmd record -e notifier\n"
"  chainscope report --console serial.log  # trace_event=notifier:* tp_printk\n"
"  chainscope report --tracefs             # events/notifier/enable was 1\n"
"  chainscope report --tracefs --boot      # trace_event=notifier:... at boot\n"
"  chainscope report --boot -j boot.dat    # trace-cmd extract after boot\n"
"  chainscope report --passes n.cstrace    # each pass, callbacks in run order\n"
"  chainscope report -j n.cstrace > n.json   # input for 'chainscope diff'\n"
"  chainscope report --svg svg n.cstrace\n"
"  chainscope report --openmetrics n.cstrace | promtool check metrics\n"
"  chainscope report --perfetto n.trace.json n.cstrace   # ui.perfetto.dev\n"
"  chainscope report --folded - n.cstrace | flamegraph.pl > n-flame.svg\n"
"  chainscope report --folded n.folded --folded-calls n.cstrace\n";

/*
 * A trace.dat of upstream's cb-only events has no return to time: what
 * it gives is each callback's runs, in the order the callbacks were
 * registered (then first run).
 */
static void print_runs(FILE *out, const struct cs_trace *t)
{
	struct {
		__u64 cb, runs, regs;
	} *r = NULL;
	size_t i, j, n = 0;

	for (i = 0; i < t->nr_events; i++) {
		const struct cs_rec_event *e = &t->events[i];
		void *p;

		if (e->type != CS_REC_RUN && e->type != CS_REC_REGISTER)
			continue;
		for (j = 0; j < n && r[j].cb != e->cb; j++)
			;
		if (j == n) {
			p = realloc(r, (n + 1) * sizeof(*r));
			if (!p)
				break;
			r = p;
			r[n].cb = e->cb;
			r[n].runs = r[n].regs = 0;
			n++;
		}
		if (e->type == CS_REC_RUN)
			r[j].runs++;
		else
			r[j].regs++;
	}
	for (j = 0; j < n; j++) {
		const struct cs_trace_sym *s = cs_trace_sym_find(t, r[j].cb);

		fprintf(out, "runs: callback ");
		if (s)
			fprintf(out, "%s", s->name);
		else
			fprintf(out, "0x%llx", (unsigned long long)r[j].cb);
		fprintf(out, " count=%llu registrations=%llu\n", (unsigned long long)r[j].runs,
			(unsigned long long)r[j].regs);
	}
	free(r);
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'j':
		env.json = true;
		return 0;
	case OPT_OPENMETRICS:
		env.openmetrics = true;
		return 0;
	case OPT_SHOW_ADDRESSES:
		env.show_addresses = true;
		return 0;
	case OPT_SVG:
		if (!*arg)
			cs_usage_error(state, "empty --svg directory");
		env.svg_dir = arg;
		return 0;
	case OPT_PERFETTO:
	case OPT_FOLDED:
		if (!*arg)
			cs_usage_error(state, "empty --%s file",
				       key == OPT_PERFETTO ? "perfetto" : "folded");
		*(key == OPT_PERFETTO ? &env.perfetto : &env.folded) = arg;
		if (env.perfetto && env.folded && !strcmp(env.perfetto, "-") &&
		    !strcmp(env.folded, "-"))
			cs_usage_error(state, "--perfetto and --folded cannot both be '-'");
		return 0;
	case OPT_FOLDED_CALLS:
		env.folded_calls = true;
		return 0;
	case OPT_FORCE:
		env.force = true;
		return 0;
	case OPT_PASSES:
		env.passes = true;
		return 0;
	case OPT_BOOT:
		env.boot = true;
		return 0;
	case ARGP_KEY_END:
		if (env.boot && (env.passes || env.openmetrics))
			cs_usage_error(state, "--boot and --%s exclude each other",
				       env.passes ? "passes" : "openmetrics");
		if (env.passes && env.openmetrics)
			cs_usage_error(state, "--passes and --openmetrics exclude each other");
		if (env.passes && ((env.perfetto && !strcmp(env.perfetto, "-")) ||
				   (env.folded && !strcmp(env.folded, "-"))))
			cs_usage_error(state, "--passes and an export to '-' both want stdout");
		if (env.folded_calls && !env.folded)
			cs_usage_error(state, "--folded-calls needs --folded");
		if ((env.json || env.openmetrics) &&
		    ((env.perfetto && !strcmp(env.perfetto, "-")) ||
		     (env.folded && !strcmp(env.folded, "-"))))
			cs_usage_error(state, env.json ?
				       "-j and an export to '-' both want stdout" :
				       "--openmetrics and an export to '-' both want stdout");
		return cs_parse_file_arg(key, arg, state, &env.file);
	case 'n':
	case 'u':
	case 'm':
		env.units = cs_parse_units(state, key, &env.units_flag);
		return 0;
	default:
		return cs_parse_file_arg(key, arg, state, &env.file);
	}
}

static const struct argp argp = {
	.options = opts,
	.parser = parse_arg,
	.args_doc = "FILE\n--tracefs [DIR]",
	.doc = doc,
};

/* an export's file ('-': stdout), by outfile.h's rules; 0, or -1 after a message */
static int open_export(const char *path, FILE **f)
{
	const char *why = NULL;
	bool created;
	int fd;

	*f = NULL;
	if (!strcmp(path, "-")) {
		*f = stdout;
		return 0;
	}
	/* the path goes to open() only */
	fd = cs_out_open(AT_FDCWD, path, (env.force ? CS_OUT_FORCE : 0) | CS_OUT_STREAM |
			 CS_OUT_TRUNCATE, &created, &why);
	if (fd >= 0 && !(*f = fdopen(fd, "w")))
		why = strerror(errno);
	if (*f)
		return 0;
	fprintf(stderr, "%s: error: cannot create ", env.cmd);
	cs_report_put_path(stderr, path);
	fprintf(stderr, ": %s\n", why);
	if (fd >= 0)
		close(fd);
	return -1;
}

/* -1 if closing (writing the rest) failed, after a message unless quiet */
static int close_export(const char *path, FILE *f, bool quiet)
{
	if (!f || f == stdout)
		return 0;
	if (!fclose(f))
		return 0;
	if (quiet)
		return -1;
	fprintf(stderr, "%s: error: cannot write ", env.cmd);
	cs_report_put_path(stderr, path);
	fprintf(stderr, ": %s\n", strerror(errno));
	return -1;
}

int cmd_report(int argc, char **argv)
{
	struct cs_report_opts o = { .svg_dirfd = -1 };
	struct cs_trace t;
	unsigned int dat_flags;
	bool tracedat;
	char err[512];
	int rc;

	memset(&env, 0, sizeof(env));
	env.cmd = argv[0];
	env.units = CS_UNITS_US;
	cs_parse_args(&argp, argc, argv, &env);
	o.out_flags = env.force ? CS_OUT_FORCE : 0;
	if (env.json && env.openmetrics) {
		warn("%s: error: -j and --openmetrics exclude each other\n", env.cmd);
		return CS_EXIT_USAGE;
	}
	if (env.show_addresses && !env.openmetrics) {
		warn("%s: error: --show-addresses applies to --openmetrics only\n", env.cmd);
		return CS_EXIT_USAGE;
	}
	/* the exposition is for others to read: no kernel address unless asked */
	cs_addrs_hide(env.openmetrics && !env.show_addresses);

	/* report has no quiet flag: its input's notes always go to stderr */
	rc = cs_trace_read_input(env.cmd, env.file, false, &t, &tracedat, &dat_flags, err,
				 sizeof(err));
	if (rc) {
		fprintf(stderr, "%s: error: ", env.cmd);
		cs_report_put_path(stderr, env.file);
		fprintf(stderr, ": %s\n", err);
		return rc;
	}
	if (env.boot && !cs_report_boot_registrations(&t)) {
		fprintf(stderr, "%s: error: ", env.cmd);
		cs_report_put_path(stderr, env.file);
		fprintf(stderr, ": --boot: no notifier_register event in it (%zu events): "
			"boot with trace_event=notifier:notifier_register,... "
			"(chainscope report --help)\n", t.nr_events);
		cs_trace_free(&t);
		return CS_EXIT_BOOT_NO_REG;
	}
	if (env.svg_dir) {
		const char *why;

		/* the path goes to system calls only; files are opened under the fd */
		o.svg_dirfd = cs_out_dir(env.svg_dir, o.out_flags, &why);
		if (o.svg_dirfd < 0) {
			fprintf(stderr, "%s: error: cannot create directory ", env.cmd);
			cs_report_put_path(stderr, env.svg_dir);
			fprintf(stderr, ": %s\n", why);
			cs_trace_free(&t);
			return CS_EXIT_ERROR;
		}
	}
	if ((env.perfetto && open_export(env.perfetto, &o.perfetto)) ||
	    (env.folded && open_export(env.folded, &o.folded))) {
		rc = CS_EXIT_ERROR;
		goto done;
	}
	o.perfetto_path = env.perfetto;
	o.folded_path = env.folded;
	o.folded_calls = env.folded_calls;
	o.quiet = (env.perfetto && !strcmp(env.perfetto, "-")) ||
		  (env.folded && !strcmp(env.folded, "-"));
	o.cmd = env.cmd;
	o.file = env.file;
	o.units = env.units;
	o.json = env.json;
	o.openmetrics = env.openmetrics;
	o.passes = env.passes;
	o.boot = env.boot;
	o.stock = tracedat && (dat_flags & CS_TRACEDAT_STOCK);
	o.svg_dir = env.svg_dir;
	/* a report can be 10^5 lines: write it in 1 MiB blocks, not BUFSIZ */
	setvbuf(stdout, NULL, _IOFBF, 1 << 20);
	rc = cs_report_run(&t, &o, stdout, stderr);
	if (!rc && tracedat && (dat_flags & CS_TRACEDAT_STOCK) && !env.json &&
	    !env.openmetrics && !env.passes && !env.boot && !o.quiet)
		print_runs(stdout, &t);
	if (fflush(stdout) || ferror(stdout)) {
		warn("%s: error: writing the report: %s\n", env.cmd, strerror(errno));
		rc = CS_EXIT_ERROR;
	}
done:
	if (close_export(env.perfetto, o.perfetto, rc != CS_EXIT_OK))
		rc = CS_EXIT_ERROR;
	if (close_export(env.folded, o.folded, rc != CS_EXIT_OK))
		rc = CS_EXIT_ERROR;
	if (o.svg_dirfd >= 0)
		close(o.svg_dirfd);
	cs_trace_free(&t);
	return rc;
}
