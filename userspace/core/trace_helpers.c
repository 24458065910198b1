// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* chainscope user-space helpers: kernel symbols, log2 histograms. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"	/* enum cs_units */
#include "trace_helpers.h"

struct ksyms {
	struct ksym *syms;
	size_t nr;
	size_t cap;
	char **modules;		/* interned module names */
	size_t nr_modules;
	size_t cap_modules;
};

int cs_grow(void *pp, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : CS_GROW_FIRST;
	char *old, *q;

	if (need <= *cap)
		return 0;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return -ENOMEM;
		n *= 2;
	}
	if (!size || n > SIZE_MAX / size)
		return -ENOMEM;
	/* pp points to a pointer of the caller's type: copied, not cast */
	memcpy(&old, pp, sizeof(old));
	q = realloc(old, n * size);
	if (!q)
		return -ENOMEM;
	/* callers count on zeroed elements, as calloc() would give */
	memset(q + *cap * size, 0, (n - *cap) * size);
	memcpy(pp, &q, sizeof(q));
	*cap = n;
	return 0;
}

const char *ksyms__default_path(void)
{
	const char *p = secure_getenv("CHAINSCOPE_KALLSYMS");

	return p && *p ? p : "/proc/kallsyms";
}

static const char *intern_module(struct ksyms *ks, const char *name)
{
	size_t i;

	for (i = 0; i < ks->nr_modules; i++)
		if (!strcmp(ks->modules[i], name))
			return ks->modules[i];
	if (cs_grow(&ks->modules, &ks->cap_modules, ks->nr_modules + 1, sizeof(*ks->modules)))
		return NULL;
	ks->modules[ks->nr_modules] = strdup(name);
	if (!ks->modules[ks->nr_modules])
		return NULL;
	return ks->modules[ks->nr_modules++];
}

/*
 * When several symbols share an address, the one to show: a real
 * text/data symbol over anything else, then a name without a leading
 * '_' or '.', then the first one listed.
 */
static int sym_rank(const struct ksym *s)
{
	int rank = 0;

	if (!strchr("tTdDbBrRwWvV", s->type))
		rank += 2;
	if (s->name[0] == '_' || s->name[0] == '.')
		rank += 1;
	return rank;
}

static int sym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (sym_rank(x) != sym_rank(y))
		return sym_rank(x) - sym_rank(y);
	/* qsort is not stable: fall back to the order in the file */
	return x->seq < y->seq ? -1 : (x->seq > y->seq);
}

/* sscanf's width for a name: one more than a kernel name may have */
#define KSYM_SCAN_WIDTH "512"
_Static_assert(CS_SYMNAME_MAX + 1 == 512, "KSYM_SCAN_WIDTH is CS_SYMNAME_MAX + 1");

struct ksyms *ksyms__load(const char *path)
{
	char name[CS_SYMNAME_MAX + 2], mod[128], type, *line = NULL;
	size_t line_cap = 0;
	struct ksyms *ks;
	unsigned long addr;
	FILE *f;
	int err = 0;

	if (!path)
		path = ksyms__default_path();
	f = fopen(path, "r");
	if (!f)
		return NULL;
	ks = calloc(1, sizeof(*ks));
	if (!ks) {
		fclose(f);
		errno = ENOMEM;
		return NULL;
	}
	/* whole lines, however long: a cut line's tail must not read as a symbol */
	for (;;) {
		struct ksym *s;
		int n;

		errno = 0;
		if (getline(&line, &line_cap, f) < 0) {
			err = errno;	/* 0 at the end: ENOMEM is not the end of the table */
			break;
		}
		mod[0] = '\0';
		n = sscanf(line, "%lx %c %" KSYM_SCAN_WIDTH "s [%127[^]]]", &addr, &type, name, mod);
		/* KSYM_NAME_LEN: a longer name is not the kernel's */
		if (n < 3 || strlen(name) > CS_SYMNAME_MAX)
			continue;
		/*
		 * Absolute symbols ('A', which includes the per-CPU section's
		 * offsets) and unset addresses (no root) say nothing about
		 * where an object lives.
		 */
		if (!addr || type == 'a' || type == 'A' || type == 'U')
			continue;
		if (cs_grow(&ks->syms, &ks->cap, ks->nr + 1, sizeof(*ks->syms))) {
			err = ENOMEM;
			break;
		}
		s = &ks->syms[ks->nr];
		s->addr = addr;
		s->type = type;
		s->seq = (unsigned int)ks->nr;
		s->module = NULL;
		s->name = strdup(name);
		if (!s->name) {
			err = ENOMEM;
			break;
		}
		if (n == 4 && mod[0]) {
			s->module = intern_module(ks, mod);
			if (!s->module) {
				free((char *)s->name);
				err = ENOMEM;
				break;
			}
		}
		ks->nr++;
	}
	if (!err && ferror(f))
		err = EIO;
	free(line);
	fclose(f);
	if (err) {
		ksyms__free(ks);
		errno = err;
		return NULL;
	}
	qsort(ks->syms, ks->nr, sizeof(*ks->syms), sym_cmp);
	return ks;
}

void ksyms__free(struct ksyms *ks)
{
	size_t i;

	if (!ks)
		return;
	for (i = 0; i < ks->nr; i++)
		free((char *)ks->syms[i].name);
	for (i = 0; i < ks->nr_modules; i++)
		free(ks->modules[i]);
	free(ks->modules);
	free(ks->syms);
	free(ks);
}

size_t ksyms__count(const struct ksyms *ks)
{
	return ks ? ks->nr : 0;
}

const struct ksym *ksyms__map_addr(const struct ksyms *ks, unsigned long addr,
				   unsigned long *off)
{
	size_t lo = 0, hi, best;
	const struct ksym *s;

	if (!ks || !ks->nr || addr < ks->syms[0].addr)
		return NULL;
	/* last symbol with s->addr <= addr */
	hi = ks->nr;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	best = lo;
	/* among equal addresses the sort put the preferred name first */
	while (best > 0 && ks->syms[best - 1].addr == ks->syms[best].addr)
		best--;
	s = &ks->syms[best];
	if (addr - s->addr >= KSYM_MAX_OFFSET)
		return NULL;
	if (off)
		*off = addr - s->addr;
	return s;
}

int ksyms__find(const struct ksyms *ks, const char *name, unsigned long *addrs,
		int max)
{
	int found = 0, j;
	size_t i;

	if (!ks)
		return 0;
	for (i = 0; i < ks->nr; i++) {
		bool dup = false;

		if (strcmp(ks->syms[i].name, name))
			continue;
		for (j = 0; j < found && j < max; j++)
			if (addrs[j] == ks->syms[i].addr)
				dup = true;
		if (dup)
			continue;
		if (found < max)
			addrs[found] = ks->syms[i].addr;
		found++;
	}
	return found;
}

const struct ksym *ksyms__get(const struct ksyms *ks, size_t i)
{
	return ks && i < ks->nr ? &ks->syms[i] : NULL;
}

unsigned long ksyms__next_addr(const struct ksyms *ks, unsigned long addr)
{
	size_t lo = 0, hi;

	if (!ks || !ks->nr || ks->syms[ks->nr - 1].addr <= addr)
		return 0;
	/* first symbol with s->addr > addr */
	hi = ks->nr - 1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->syms[mid].addr > addr)
			hi = mid;
		else
			lo = mid + 1;
	}
	return ks->syms[lo].addr;
}

char *cs_symstr(const char *name, unsigned long off, unsigned long long addr, char *buf,
		size_t len)
{
	if (!name)
		snprintf(buf, len, "0x%llx", addr);
	else if (off)
		snprintf(buf, len, "%s+0x%lx", name, off);
	else
		snprintf(buf, len, "%s", name);
	return buf;
}

char *ksyms__format(const struct ksyms *ks, unsigned long addr, char *buf,
		    size_t len)
{
	const struct ksym *s;
	unsigned long off = 0;

	s = ksyms__map_addr(ks, addr, &off);
	return cs_symstr(s ? s->name : NULL, off, addr, buf, len);
}

const struct cs_unit cs_units[CS_NR_UNITS] = {
	[CS_UNITS_NS] = { "nsecs", "ns", 1, 1e-9 },
	[CS_UNITS_US] = { "usecs", "us", 1000, 1e-6 },
	[CS_UNITS_MS] = { "msecs", "ms", 1000000, 1e-3 },
};

const struct cs_unit *cs_unit(int units)
{
	return &cs_units[units >= 0 && units < CS_NR_UNITS ? units : CS_UNITS_US];
}

int cs_unit_find(const char *s, bool suffix)
{
	int i;

	for (i = 0; i < CS_NR_UNITS; i++)
		if (!strcmp(s, suffix ? cs_units[i].suffix : cs_units[i].name))
			return i;
	return -1;
}

unsigned int log2_bucket(unsigned long long v)
{
	unsigned int r = 0;

	while (v > 1) {
		v >>= 1;
		r++;
	}
	return r;
}

void log2_bucket_range(int idx, unsigned long long *low, unsigned long long *high)
{
	*low = idx ? 1ULL << idx : 0;
	*high = idx >= 63 ? ~0ULL : (1ULL << (idx + 1)) - 1;
}

int log2_hist_last(const unsigned int *slots, int nslots)
{
	int i, last = -1;

	for (i = 0; i < nslots; i++)
		if (slots[i])
			last = i;
	return last;
}

void log2_hist_add(unsigned int *slots, int nslots, unsigned long long v)
{
	unsigned int slot = log2_bucket(v);

	/* the last bucket takes everything above it, as on the BPF side */
	slots[slot < (unsigned int)nslots ? slot : (unsigned int)nslots - 1]++;
}

/*
 * One estimate for both bucket widths (s32 or s64 is NULL). Doubles,
 * because 64-bit buckets may add up past 2^64; a 32-bit histogram's
 * sums stay far below 2^53, where they are exact.
 */
static double percentile(const unsigned int *s32, const unsigned long long *s64, int nslots,
			 double pct)
{
	double total = 0, cum = 0, rank, n;
	int i;

#define SLOT(i) ((double)(s32 ? s32[i] : s64[i]))
	for (i = 0; i < nslots; i++)
		total += SLOT(i);
	if (!total || pct <= 0)
		return -1;
	if (pct > 100)
		pct = 100;
	/* the rank-th smallest sample, 1-based: floor() without libm (at 2^52 a double is whole) */
	rank = pct / 100.0 * total + 0.999999;
	if (rank < 0x1p52)
		rank = (double)(unsigned long long)rank;
	if (rank < 1)
		rank = 1;
	if (rank > total)
		rank = total;
	for (i = 0; i < nslots; i++) {
		double lo, width;

		n = SLOT(i);
		if (!n || cum + n < rank) {
			cum += n;
			continue;
		}
		lo = i ? (double)(1ULL << i) : 0.0;
		width = i ? (double)(1ULL << i) : 2.0;
		return lo + width * (rank - cum - 0.5) / n;
	}
#undef SLOT
	return -1; /* not reached */
}

double log2_hist_percentile(const unsigned int *slots, int nslots, double pct)
{
	return percentile(slots, NULL, nslots, pct);
}

double log2_hist_percentile64(const unsigned long long *slots, int nslots, double pct)
{
	return percentile(NULL, slots, nslots, pct);
}

/* The bar of a histogram row: width cells, val / val_max of them stars. */
static int bar_stars(unsigned int val, unsigned int val_max, int width)
{
	return val_max ? (int)((unsigned long long)val * width / val_max) : 0;
}

void fprint_log2_hist(FILE *f, const unsigned int *vals, int vals_size,
		      const char *val_type)
{
	static const char stars[] = "****************************************";
	static const char blank[] = "                                        ";
	unsigned int val_max = 0;
	int i, last, wide, width;

	last = log2_hist_last(vals, vals_size);
	if (last < 0)
		return;
	for (i = 0; i <= last; i++)
		if (vals[i] > val_max)
			val_max = vals[i];
	/* past bucket 32 the bounds need twice the room and half the bar */
	wide = last > 32;
	width = wide ? 20 : 10;
	fprintf(f, "%*s%-*s : count    distribution\n", wide ? 15 : 5, "",
		wide ? 29 : 19, val_type);
	for (i = 0; i <= last; i++) {
		unsigned long long low, high;
		int bar = wide ? 20 : 40, n = bar_stars(vals[i], val_max, bar);

		log2_bucket_range(i, &low, &high);
		fprintf(f, "%*llu -> %-*llu : %-8u |%.*s%.*s|\n", width, low, width, high,
			vals[i], n, stars, bar - n, blank);
	}
}
