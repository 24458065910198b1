/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the live commands share, with libbpf: the start-up checks
 * (startup.c), the libbpf set-up, and reading the BPF side: counters,
 * health, map generations, draining (maps.c).
 */
#ifndef CHAINSCOPE_LIVE_H
#define CHAINSCOPE_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include <json-c/json.h>

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
struct bpf_link;
struct bpf_program;
/*
 * Attach one program of a skeleton ahead of the skeleton's attach, which
 * then leaves it alone (autoattach off); its link goes to *link, so the
 * skeleton's __destroy() detaches it. CS_EXIT_OK or CS_EXIT_ERROR, said.
 */
int cs_attach_first(const char *cmd, struct bpf_program *prog, struct bpf_link **link);
/* Hide libbpf's warnings (not -v's debug output) around an expected failure */
void cs_libbpf_quiet(bool quiet);
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

#endif /* CHAINSCOPE_LIVE_H */
