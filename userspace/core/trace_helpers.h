/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * chainscope user-space helpers: kernel symbols, log2 histograms.
 *
 * Nothing here makes a bpf() syscall, so all of it is unit-tested on the
 * host (userspace/tests/unit/test_helpers.c).
 */
#ifndef CHAINSCOPE_TRACE_HELPERS_H
#define CHAINSCOPE_TRACE_HELPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* --- growable arrays ----------------------------------------------------- */

/*
 * Make the array at *pp (of *cap elements of size bytes) hold at least
 * need elements: its capacity doubles (from CS_GROW_FIRST) until it does,
 * and the new elements are zeroed. 0, or -ENOMEM (no memory, a size of
 * 0, or a byte count that does not fit a size_t) with *pp and *cap
 * unchanged. pp is the address of the array's pointer, of any type.
 */
#define CS_GROW_FIRST	16
int cs_grow(void *pp, size_t *cap, size_t need, size_t size);

/* --- kernel symbols ------------------------------------------------------ */

struct ksym {
	unsigned long addr;
	const char *name;
	const char *module;	/* NULL for vmlinux */
	char type;		/* kallsyms type letter */
	unsigned int seq;	/* line order in the file */
};

struct ksyms;

/*
 * An address further than this past the symbol below it is not taken to
 * belong to that symbol (gaps between regions, heap addresses, ...).
 */
#define KSYM_MAX_OFFSET (1UL << 20)

/* Default path: $CHAINSCOPE_KALLSYMS, else /proc/kallsyms. */
#define CS_SYMNAME_MAX	511	/* KSYM_NAME_LEN - 1 */
#define CS_MODNAME_MAX	63
/* a symbol as shown: name, "+0x", 16 hex digits, NUL */
#define CS_SYMSTR_LEN	(CS_SYMNAME_MAX + 3 + 16 + 1)

const char *ksyms__default_path(void);
/* Load a kallsyms-format file (path NULL: the default); NULL + errno set on error. */
struct ksyms *ksyms__load(const char *path);
void ksyms__free(struct ksyms *ksyms);
size_t ksyms__count(const struct ksyms *ksyms);
/*
 * The symbol an address lies in: the nearest one at or below @addr, if
 * @addr is below the next symbol and within KSYM_MAX_OFFSET. *off gets
 * the offset. NULL when unknown.
 */
const struct ksym *ksyms__map_addr(const struct ksyms *ksyms, unsigned long addr,
				   unsigned long *off);
/*
 * All distinct addresses of symbols named @name (module symbols included).
 * Returns the number found (may exceed @max; only @max are stored).
 */
int ksyms__find(const struct ksyms *ksyms, const char *name, unsigned long *addrs,
		int max);
/* The i-th symbol in address order (0 <= i < ksyms__count()), else NULL. */
const struct ksym *ksyms__get(const struct ksyms *ksyms, size_t i);
/*
 * Address of the first symbol above @addr: an object at @addr ends there
 * at the latest (with KALLSYMS_ALL every data object has a symbol).
 * 0 when there is none.
 */
unsigned long ksyms__next_addr(const struct ksyms *ksyms, unsigned long addr);
/*
 * How every output shows a kernel symbol, the one place that writes it:
 * "sym", "sym+0x10" (off not 0) or, without a name, "0x<addr>". Into buf
 * (CS_SYMSTR_LEN holds any); returns buf. A trace file's names already
 * carry their offset (trace/symname.h), so they come with off 0.
 */
char *cs_symstr(const char *name, unsigned long off, unsigned long long addr, char *buf,
		size_t len);
/* cs_symstr() of the symbol @addr lies in; returns buf. */
char *ksyms__format(const struct ksyms *ksyms, unsigned long addr, char *buf,
		    size_t len);

/* --- units ---------------------------------------------------------------- */

/* enum cs_units (bpf/common.h): the one table of their names and sizes */
struct cs_unit {
	const char *name;	/* "usecs": JSON "units", histogram headers */
	const char *suffix;	/* "us": text rows, diff's budgets */
	unsigned long long ns;	/* nanoseconds in one */
	double seconds;		/* seconds in one (OpenMetrics) */
};
#define CS_NR_UNITS 3
extern const struct cs_unit cs_units[CS_NR_UNITS];
/* The entry of @units; any other value gets usecs, the default. */
const struct cs_unit *cs_unit(int units);
/* The enum cs_units named @s ("usecs"; with @suffix, "us"), -1 if none. */
int cs_unit_find(const char *s, bool suffix);

/* --- log2 histograms ------------------------------------------------------ */

/* Bucket of value v: 0 for 0 and 1, else floor(log2(v)); the BPF side agrees. */
unsigned int log2_bucket(unsigned long long v);
/* The inclusive range a bucket covers, as print_log2_hist shows it. */
void log2_bucket_range(int idx, unsigned long long *low, unsigned long long *high);
/*
 * Estimate the pct-th percentile (0 < pct <= 100) from bucket counts:
 * the rank's position is interpolated linearly inside its bucket
 * [2^i, 2^(i+1)) (bucket 0: [0, 2)). Returns -1 for an empty histogram.
 */
double log2_hist_percentile(const unsigned int *slots, int nslots, double pct);
/* The same on 64-bit buckets (diff's sums of many outputs); nslots <= 64. */
double log2_hist_percentile64(const unsigned long long *slots, int nslots, double pct);
/* Count v in its bucket (log2_bucket()), the last one for any value above it. */
void log2_hist_add(unsigned int *slots, int nslots, unsigned long long v);
/* Highest non-empty bucket, -1 when all are empty. */
int log2_hist_last(const unsigned int *slots, int nslots);

/* The libbpf-tools log2 histogram layout, to a stream. */
void fprint_log2_hist(FILE *f, const unsigned int *vals, int vals_size,
		      const char *val_type);
static inline void print_log2_hist(const unsigned int *vals, int vals_size,
				   const char *val_type)
{
	fprint_log2_hist(stdout, vals, vals_size, val_type);
}

#endif /* CHAINSCOPE_TRACE_HELPERS_H */
