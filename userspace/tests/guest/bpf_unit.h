/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * cs-bpf-unit (userspace/tests/bpf_unit*.c): what the case files share.
 * bpf_unit.c runs the cases; bpf_unit_latency.c and bpf_unit_contention.c
 * hold them.
 */
#ifndef CS_BPF_UNIT_H
#define CS_BPF_UNIT_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include <bpf/libbpf.h>

#define HEAD_A 0xffffffffc0002000ULL
#define HEAD_B 0xffffffffc0002100ULL
#define LOCK_A 0xffffffffc0002000ULL	/* the rwsem is the head's first member */
#define CB_1 0xffffffffc0000000ULL
#define CB_2 0xffffffffc0000100ULL
#define CB_3 0xffffffffc0000200ULL

enum { KIND_RAW, KIND_ATOMIC, KIND_BLOCKING, KIND_SRCU };

extern char why[512];	/* the failing case's reason */

bool failf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define CHECK(cond, ...) do { if (!(cond)) { ok = failf(__VA_ARGS__); goto out; } } while (0)
#define CHECK_EQ(a, b, what) \
	CHECK((unsigned long long)(a) == (unsigned long long)(b), \
	      "%s: got %llu, want %llu", what, (unsigned long long)(a), \
	      (unsigned long long)(b))

/* Run a raw_tp program once on this CPU (cpu < 0) or on another one. */
int run_on(const struct bpf_program *prog, const __u64 *args, int nargs, int cpu);
int run(const struct bpf_program *prog, const __u64 *args, int nargs);
/* Entries in a map; a per-CPU counter summed over CPUs (~0 on error). */
int map_count(int fd, size_t key_sz);
__u64 stat_sum(int fd, __u32 idx);

/* bpf_unit_latency.c */
bool t_lat_histogram_ns(void);
bool t_lat_run_return_pairing(void);
bool t_lat_pair_task_storage(void);
bool t_lat_buckets_match_user_space(void);
bool t_lat_units(void);
bool t_lat_return_codes(void);
bool t_lat_filters(void);
bool t_lat_per_val(void);
bool t_lat_per_block(void);
bool t_lat_map_full(void);
bool t_chain_pair(void);
bool t_chain_nested_same_head(void);
bool t_chain_nested_other_head(void);
bool t_chain_unpaired(void);
bool t_chain_too_deep(void);
bool t_chain_filters(void);
bool t_chain_irq_context(void);
bool t_chain_pass_identity(void);
bool t_lat_generations(void);

/* bpf_unit_contention.c */
bool t_cont_waits(void);
bool t_cont_not_chain_lock(void);
bool t_cont_acquisitions(void);
bool t_cont_filter(void);
bool t_cont_learn_full(void);
/* --bench: "bench:" lines on stdout; 0 or 1 */
int bench(void);

#endif /* CS_BPF_UNIT_H */
