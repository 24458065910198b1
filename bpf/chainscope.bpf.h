/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Helpers for chainscope's BPF objects. Include once per object, after
 * vmlinux.h and the libbpf headers: it defines the `stats` map.
 */
#ifndef CHAINSCOPE_BPF_H
#define CHAINSCOPE_BPF_H

#include "common.h"

/* errno values; vmlinux.h has no macros */
#define CS_E2BIG 7
#define CS_ENOMEM 12
#define CS_EEXIST 17


/* enum cs_stat counters, summed over CPUs by user space */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, CS_STAT_MAX);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");

static __always_inline void cs_stat_add(__u32 idx, __u64 n)
{
	__u64 *v = bpf_map_lookup_elem(&stats, &idx);

	if (v)
		*v += n;	/* per-CPU slot: no atomics needed */
}

static __always_inline void cs_stat_inc(__u32 idx)
{
	cs_stat_add(idx, 1);
}

/* floor(log2(v)); 0 and 1 both give 0 (user space: log2_bucket()) */
static __always_inline __u32 cs_log2(__u64 v)
{
	__u32 r = 0;

	if (v >> 32) { v >>= 32; r += 32; }
	if (v >> 16) { v >>= 16; r += 16; }
	if (v >> 8) { v >>= 8; r += 8; }
	if (v >> 4) { v >>= 4; r += 4; }
	if (v >> 2) { v >>= 2; r += 2; }
	if (v >> 1)
		r += 1;
	return r;
}

/* Histogram slot of a duration in the unit user space asked for. */
static __always_inline __u32 cs_slot(__u64 ns, int units)
{
	__u32 slot;

	if (units == CS_UNITS_US)
		ns /= 1000;
	else if (units == CS_UNITS_MS)
		ns /= 1000000;
	slot = cs_log2(ns);
	return slot < CS_MAX_SLOTS ? slot : CS_MAX_SLOTS - 1;
}

/*
 * The value for key, created from init if missing. A failed creation
 * other than a lost race is counted so user space can report it: a full
 * map (-E2BIG, or -ENOMEM) in stats[CS_STAT_DROPPED], anything else
 * (-EBUSY: the map's bucket lock is taken on this CPU by an update we
 * interrupted) in stats[CS_STAT_FAILED].
 */
static __always_inline void *cs_lookup_or_init(void *map, const void *key,
					       const void *init)
{
	void *val;
	int err;

	val = bpf_map_lookup_elem(map, key);
	if (val)
		return val;
	/*
	 * Only the low 32 bits of the result are meaningful: before 6.4
	 * (d7ba4cc900bf "bpf: return long from bpf_map_ops funcs") the JIT
	 * turns this helper into a direct call of the map's
	 * int-returning ->map_update_elem(), leaving R0's upper half to the
	 * kernel's code generation. On a lockdep/KASAN 6.1 build -E2BIG
	 * arrives as 0x00000000fffffff9, so a 64-bit compare against -7
	 * missed every full map. Truncate to int (sign-extends) first.
	 */
	err = (int)bpf_map_update_elem(map, key, init, BPF_NOEXIST);
	if (err && err != -CS_EEXIST) {
		if (err == -CS_E2BIG || err == -CS_ENOMEM) {
			cs_stat_inc(CS_STAT_DROPPED);
		} else {
			__u32 idx = CS_STAT_LAST_ERR;
			__u64 *last = bpf_map_lookup_elem(&stats, &idx);

			if (last)
				*last = (__u64)(__s64)err;	/* for the report */
			cs_stat_inc(CS_STAT_FAILED);
		}
		return NULL;
	}
	val = bpf_map_lookup_elem(map, key);
	if (!val)
		cs_stat_inc(CS_STAT_FAILED);	/* deleted under us */
	return val;
}

/* *p = max(*p, v), safe against other CPUs updating the same value */
static __always_inline void cs_update_max(__u64 *p, __u64 v)
{
	__u64 old = *p, seen;
	int i;

	for (i = 0; i < 16 && v > old; i++) {
		seen = __sync_val_compare_and_swap(p, old, v);
		if (seen == old)
			break;
		old = seen;
	}
}

/* Record one duration into a histogram value's common fields. */
#define CS_HIST_ADD(h, ns, units) do {					\
	__u32 __slot = cs_slot((ns), (units));				\
	__sync_fetch_and_add(&(h)->slots[__slot], 1);			\
	__sync_fetch_and_add(&(h)->count, 1);				\
	__sync_fetch_and_add(&(h)->sum_ns, (ns));			\
	cs_update_max(&(h)->max_ns, (ns));				\
} while (0)

#endif /* CHAINSCOPE_BPF_H */
