/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * chainscope CLI: what the commands share without libbpf: exit codes,
 * modes, the common options, signals and intervals, symbols, units,
 * summaries and JSON. With libbpf: live.h; the commands: cmd.h.
 */
#ifndef CHAINSCOPE_H
#define CHAINSCOPE_H

#include <argp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>
#include <json-c/json.h>

#include "safestr.h"
#include "trace_helpers.h"

/* Exit codes; the start-up probes run in this order, before any bpf(). */
enum cs_exit {
	CS_EXIT_OK = 0,
	CS_EXIT_ERROR = 1,	/* anything else (load/attach failure, ...) */
	CS_EXIT_USAGE = 2,	/* bad command line, unknown -c/-f symbol */
	CS_EXIT_NO_PRIV = 3,	/* neither CAP_BPF + CAP_PERFMON nor CAP_SYS_ADMIN */
	CS_EXIT_NO_BTF = 4,	/* no readable kernel BTF */
	CS_EXIT_NO_TP = 5,	/* the kernel lacks the chainscope tracepoints */
	CS_EXIT_OUTPUT = 6,	/* record: cannot create the output file (before all) */
	CS_EXIT_NO_CTX = 7,	/* latency -C: no per-CPU preempt count in BTF */
	CS_EXIT_OOM = 8,	/* check: out of memory */
	CS_EXIT_NO_MODE = 9,	/* no event source works on this kernel */
	CS_EXIT_NOT_A_CHAIN = 10, /* chains -c: the head does not validate */
	CS_EXIT_LISTEN = 11,	/* serve: cannot listen on the --listen address */
};

/*
 * Where the events come from (--mode). tracepoints: our core's notifier
 * tracepoints. probes: fentry/fexit on the exported notifier API and
 * kprobe.multi on the callbacks of the watched chains, on any kernel
 * with BTF and BPF trampolines or kprobe.multi.
 */
enum cs_mode {
	CS_MODE_AUTO,		/* tracepoints if present, else probes */
	CS_MODE_TRACEPOINTS,
	CS_MODE_PROBES,
};
const char *cs_mode_name(int mode);	/* "probes" */
int cs_mode_parse(const char *s);	/* -1 if unknown */

#define CS_EXIT_DOC							\
	"Exit status:\n"						\
	"  0  success\n"						\
	"  1  other errors (loading or attaching BPF, ...)\n"		\
	"  2  usage error, or a -c/-f symbol not in /proc/kallsyms\n"	\
	"  3  insufficient privileges: the effective capabilities lack\n" \
	"     CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN); report, check\n" \
	"     --tracefs: the ring buffer cannot be read (root)\n"	\
	"  4  no kernel BTF (/sys/kernel/btf/vmlinux, or $CHAINSCOPE_BTF)\n" \
	"  5  the kernel has no chainscope notifier tracepoints (report,\n" \
	"     check --tracefs: no notifier:* events at all)\n"	\
	"  6  record: the output file cannot be created (checked first)\n" \
	"  7  latency -C, record: the kernel BTF does not locate the per-CPU\n" \
	"     preempt count, so interrupt context cannot be told from task context\n" \
	"  8  check: out of memory\n"					\
	"  9  no event source works here: --mode probes on a kernel without\n" \
	"     BPF trampolines and kprobe.multi (the message says which)\n" \
	"  10 chains: a -c head does not validate as a chain\n" \
	"  11 serve: cannot listen on the --listen address (in use, not local)\n" \
	"  12-15 report, check: a trace.dat refused (their --help says which);\n" \
	"        12, 13 also a --console text log or --tracefs\n" \
	"  16 report, check --tracefs: no notifier:* event enabled in DIR\n" \
	"  17 report --boot: the input has no notifier_register event\n" \
	"\n"								\
	"Environment:\n"						\
	"  CHAINSCOPE_BTF=PATH        kernel BTF for the start-up probes\n" \
	"  CHAINSCOPE_KALLSYMS=PATH   symbol table instead of /proc/kallsyms\n" \
	"  CHAINSCOPE_PROBE_ONLY=1    stop after the start-up probes (exit 0),\n" \
	"                             before any bpf() system call\n" \
	"  CHAINSCOPE_MAP_ENTRIES=N   size of the statistics hash maps (testing)\n"

#define warn(...) fprintf(stderr, __VA_ARGS__)

/* Options every subcommand takes (cs_common_argp, an argp child). */
struct cs_common {
	const char *cmd;	/* "chainscope latency", for messages */
	bool verbose;
	bool json;
	bool raw_tp;		/* --raw-tp: skip tp_btf */
	int mode;		/* enum cs_mode: --mode, then what start-up chose */
	int units;		/* enum cs_units */
	char units_flag;	/* the flag that set units, 0 if none */
	long interval;		/* seconds, 0: until Ctrl-C */
	long count;		/* intervals to print, 0: no limit */
	int nr_args;
};

extern const struct argp cs_common_argp;
/* .children of a command's argp: the common options, under their heading */
extern const struct argp_child cs_common_children[];
/*
 * .children of a command that takes only -v and --mode of them (record),
 * listed among its own options; its child_inputs[0] is a struct cs_common.
 */
extern const struct argp_child cs_startup_children[];
extern volatile sig_atomic_t cs_exiting;

void cs_common_init(struct cs_common *c, const char *cmd);
/* cs_usage_error(): one line on stderr, then exit(CS_EXIT_USAGE) (safestr.h) */
/* argp_parse with one-line errors: returns 0 or exits CS_EXIT_USAGE. */
int cs_parse_args(const struct argp *argp, int argc, char **argv, void *input);

/*
 * The one integer parser of the command lines: @arg as a decimal (strtol's
 * syntax) in 1..@max into *v. 0; -EINVAL: not a number (nothing, or more
 * than the number); -EOVERFLOW: beyond a long; -ERANGE: outside 1..@max.
 * Each caller words its own usage error.
 */
int cs_parse_num(const char *arg, long max, long *v);

/* -n/-u/-m, for an argp_option table (the common options, report) */
#define CS_UNITS_OPTIONS						\
	{ "nanoseconds", 'n', NULL, 0, "Durations in nsecs", 0 },	\
	{ "microseconds", 'u', NULL, 0, "Durations in usecs (default)", 0 }, \
	{ "milliseconds", 'm', NULL, 0, "Durations in msecs", 0 }
/*
 * key is 'n', 'u' or 'm': returns its enum cs_units and records the flag
 * in *units_flag; a usage error if another of the three came before.
 */
int cs_parse_units(const struct argp_state *state, int key, char *units_flag);

/* signals.c: SIGINT/SIGTERM set cs_exiting */
void cs_setup_signals(void);
/*
 * Sleep one interval (or until a signal when interval is 0). A signal
 * arriving at any time, even just before the wait, ends it (sigsuspend).
 */
void cs_wait_interval(const struct cs_common *c);
/* After printing interval ++*n: was it the last (COUNT reached, no INTERVAL)? */
bool cs_last_interval(const struct cs_common *c, long *n);
/*
 * The interval loop of every live command: wait(ctx) (NULL:
 * cs_wait_interval()), then one(ctx), until Ctrl-C or the last interval;
 * a Ctrl-C during one() gets one more at once. CS_EXIT_OK, or
 * CS_EXIT_ERROR when one() returned non-zero (it said why).
 */
int cs_run_intervals(const struct cs_common *c, void (*wait)(void *ctx),
		     int (*one)(void *ctx), void *ctx);

/* Resolve -c/-f: "0xADDR" or a symbol; CS_EXIT_OK or CS_EXIT_USAGE. */
int cs_resolve(const char *cmd, const struct ksyms *ks, const char *what,
	       const char *arg, __u64 *addr);
struct ksyms *cs_load_ksyms(const char *cmd);

const char *cs_units_name(int units);	/* "usecs" */
const char *cs_units_suffix(int units);	/* "us" */
unsigned long long cs_ns_to_units(__u64 ns, int units);
const char *cs_kind_name(int kind);
int cs_kind_parse(const char *s);	/* -1 if unknown */

/* count, max (in units) and log2-estimated p50/p99 (clamped to max) */
struct cs_summary {
	unsigned long long count, max, p50, p99;
};
void cs_summarize(const __u32 *slots, __u64 count, __u64 max_ns, int units,
		  struct cs_summary *s);

/* JSON helpers */
/* A live tool's interval object: "type", "time" and "units" set. */
json_object *cs_json_root(const char *type, int units);
void cs_json_summary(json_object *o, const struct cs_summary *s, __u64 sum_ns,
		     __u64 max_ns, int units);
/* field: name ("sym+0x10"), field_addr: "0x...", field_module if any */
void cs_json_sym(json_object *o, const char *field, const struct ksyms *ks,
		 __u64 addr);
json_object *cs_json_hist(const __u32 *slots, int nslots);
json_object *cs_json_addr(__u64 addr);
void cs_json_print(json_object *obj);	/* one line, then frees it */
void cs_print_time_header(void);
double cs_now(void);

#endif /* CHAINSCOPE_H */
