/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* chainscope CLI: what the subcommands share (userspace/main.c). */
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
	"     CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN)\n"		\
	"  4  no kernel BTF (/sys/kernel/btf/vmlinux, or $CHAINSCOPE_BTF)\n" \
	"  5  the kernel has no chainscope notifier tracepoints\n"	\
	"  6  record: the output file cannot be created (checked first)\n" \
	"  7  latency -C, record: the kernel BTF does not locate the per-CPU\n" \
	"     preempt count, so interrupt context cannot be told from task context\n" \
	"  9  no event source works here: --mode probes on a kernel without\n" \
	"     BPF trampolines and kprobe.multi (the message says which)\n" \
	"  10 chains: a -c head does not validate as a chain\n" \
	"  11 serve: cannot listen on the --listen address (in use, not local)\n" \
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
extern volatile sig_atomic_t cs_exiting;

void cs_common_init(struct cs_common *c, const char *cmd);
/* cs_usage_error(): one line on stderr, then exit(CS_EXIT_USAGE) (safestr.h) */
/* argp_parse with one-line errors: returns 0 or exits CS_EXIT_USAGE. */
int cs_parse_args(const struct argp *argp, int argc, char **argv, void *input);

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

/* A tracepoint a subcommand needs, with its number of arguments. */
struct cs_tp {
	const char *name;	/* e.g. "notifier_return" */
	int nr_args;
};
/*
 * Capabilities (capget(2), not the uid), BTF, tracepoints; returns
 * CS_EXIT_OK or the exit code to use.
 */
int cs_startup_probes(const char *cmd, const struct cs_tp *tps, int nr_tps);
/* CAP_BPF + CAP_PERFMON or CAP_SYS_ADMIN effective: CS_EXIT_OK / _NO_PRIV */
int cs_check_privileges(const char *cmd);
/* After cs_startup_probes(): does the kernel BTF have this variable? */
bool cs_btf_has_var(const char *name);
bool cs_btf_has_preempt_count(void);
__u64 cs_btf_preempt_count_off(void);
/* After cs_startup_probes(): the parsed kernel BTF (NULL before) */
struct btf;
const struct btf *cs_kernel_btf(void);
/* After the probes: is CHAINSCOPE_PROBE_ONLY set? (then exit 0) */
bool cs_probe_only(const char *cmd);
/* The same, naming the mode start-up chose (enum cs_mode, not AUTO). */
/* CHAINSCOPE_PROBE_ONLY is set (nothing printed) */
bool cs_probe_only_set(void);
bool cs_probe_only_mode(const char *cmd, int mode);
/* Whether a tracepoint's BTF type exists in the kernel BTF (a file read). */
bool cs_btf_has_tp(const char *name, int nr_args);
/* tp_btf works for this tracepoint: BTF type + a 2-insn test load (bpf()). */
bool cs_tp_btf_usable(const char *tp);

/* $CHAINSCOPE_MAP_ENTRIES (testing: shrink the hash maps), 0 if unset */
__u32 cs_map_entries(void);

void cs_setup_libbpf(bool verbose);
/* Hide libbpf's warnings (not -v's debug output) around an expected failure */
void cs_libbpf_quiet(bool quiet);
/* signals.c: SIGINT/SIGTERM set cs_exiting */
void cs_setup_signals(void);
/*
 * Sleep one interval (or until a signal when interval is 0). A signal
 * arriving at any time, even just before the wait, ends it (sigsuspend).
 */
void cs_wait_interval(const struct cs_common *c);
/* After printing interval ++*n: was it the last (COUNT reached, no INTERVAL)? */
bool cs_last_interval(const struct cs_common *c, long *n);

/* Resolve -c/-f: "0xADDR" or a symbol; CS_EXIT_OK or CS_EXIT_USAGE. */
int cs_resolve(const char *cmd, const struct ksyms *ks, const char *what,
	       const char *arg, __u64 *addr);
struct ksyms *cs_load_ksyms(const char *cmd);

const char *cs_units_name(int units);	/* "usecs" */
const char *cs_units_suffix(int units);	/* "us" */
unsigned long long cs_ns_to_units(__u64 ns, int units);
const char *cs_kind_name(int kind);
int cs_kind_parse(const char *s);	/* -1 if unknown */

/* Sum of one per-CPU counter of a `stats` (or `rec_stats`) map; 0 on error. */
__u64 cs_read_stat(int map_fd, __u32 idx);
struct bpf_object;
struct bpf_program;
struct bpf_map;
/* The kernel's recursion_misses, summed over the object's loaded programs. */
__u64 cs_read_missed(struct bpf_object *obj);
/* One program's recursion_misses (0 if not loaded). */
__u64 cs_prog_missed(const struct bpf_program *prog);

/*
 * Events not counted, cumulative since load: the BPF side's `stats`
 * counters plus the kernel's recursion_misses of every loaded program (a
 * tracepoint that fired while its program already ran on that CPU, e.g.
 * in an interrupt).
 */
struct cs_health {
	__u64 dropped;		/* map full */
	__u64 failed;		/* map update failed otherwise */
	__u64 last_err;		/* the last such failure's error (negative) */
	__u64 missed;		/* BPF recursion protection */
	__u64 unpaired;		/* latency -C */
	__u64 too_deep;		/* latency -C */
	__u64 nested;		/* latency -C: interrupt events skipped */
	__u64 stale;		/* latency -C: stale frames aged out */
};
void cs_read_health(struct bpf_object *obj, int stats_fd, struct cs_health *h);
/*
 * Report what is new since *prev: WARNING lines on stdout (json NULL) or
 * fields of the JSON object. Then *prev = *now.
 */
void cs_report_health(const struct cs_health *now, struct cs_health *prev,
		      bool chain_mode, json_object *json);

/*
 * A statistics map in two generations: BPF programs write to the inner
 * map in slot 0 of a one-slot ARRAY_OF_MAPS (`outer`); the other one is
 * empty and waits its turn.
 */
struct cs_gen_map {
	int outer_fd;
	int fd[2];
	int active;		/* index into fd[] of the map in the slot */
};
/* Set up from the skeleton's maps after load; gen 0 is in the slot. */
void cs_gen_init(struct cs_gen_map *g, const struct bpf_map *outer,
		 const struct bpf_map *gen0, const struct bpf_map *gen1);
/*
 * Put the idle generation in the slot and return the fd of the one taken
 * out (or -errno). The update returns only after an RCU grace period
 * (the kernel waits for running programs on map-in-map updates), so no
 * program writes to the returned map any more: drain it at leisure.
 */
int cs_gen_swap(struct cs_gen_map *g);

/* Drain a hash map into malloc'ed (key, value) entries; count or -errno. */
int cs_drain_map(int fd, size_t key_sz, size_t val_off, size_t entry_sz,
		 void **out);

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

int cmd_latency(int argc, char **argv);
int cmd_contention(int argc, char **argv);
int cmd_record(int argc, char **argv);	/* record.c */
int cmd_report(int argc, char **argv);	/* report.c */
int cmd_check(int argc, char **argv);	/* check.c */
int cmd_diff(int argc, char **argv);	/* diff.c */
int cmd_chains(int argc, char **argv);	/* chains.c */
int cmd_serve(int argc, char **argv);	/* serve.c */

#endif /* CHAINSCOPE_H */
