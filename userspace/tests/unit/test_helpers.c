// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Host unit tests of trace_helpers.c: log2 buckets, percentile estimates,
 * growable arrays (cs_grow()), kallsyms parsing and lookup, the histogram
 * text layout. One line per case: "PASS: host.helpers.<case>" or
 * "FAIL: host.helpers.<case>: why".
 * Exit 1 if any case failed.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace_helpers.h"

static int failures;
static char why[512];

static bool failf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return false;
}

#define CHECK(cond, ...) do { if (!(cond)) return failf(__VA_ARGS__); } while (0)

static void run(const char *name, bool (*fn)(void))
{
	why[0] = '\0';
	if (fn()) {
		printf("PASS: host.helpers.%s\n", name);
	} else {
		printf("FAIL: host.helpers.%s: %s\n", name, why);
		failures++;
	}
}

/* --- log2 ------------------------------------------------------------------ */

static bool test_log2_bucket(void)
{
	static const struct {
		unsigned long long v;
		unsigned int want;
	} cases[] = {
		{ 0, 0 }, { 1, 0 }, { 2, 1 }, { 3, 1 }, { 4, 2 }, { 7, 2 },
		{ 1023, 9 }, { 1024, 10 }, { 2000, 10 }, { 2047, 10 },
		{ 2048, 11 }, { 3000, 11 }, { 4095, 11 }, { 20000, 14 },
		{ 1ULL << 40, 40 }, { ULLONG_MAX, 63 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK(log2_bucket(cases[i].v) == cases[i].want,
		      "log2_bucket(%llu) = %u, want %u", cases[i].v,
		      log2_bucket(cases[i].v), cases[i].want);
	return true;
}

static bool test_bucket_range(void)
{
	unsigned long long lo, hi;
	int i;

	log2_bucket_range(0, &lo, &hi);
	CHECK(lo == 0 && hi == 1, "bucket 0 = %llu..%llu", lo, hi);
	log2_bucket_range(1, &lo, &hi);
	CHECK(lo == 2 && hi == 3, "bucket 1 = %llu..%llu", lo, hi);
	log2_bucket_range(11, &lo, &hi);
	CHECK(lo == 2048 && hi == 4095, "bucket 11 = %llu..%llu", lo, hi);
	/* every value falls in the range of its own bucket */
	for (i = 0; i < 40; i++) {
		log2_bucket_range(i, &lo, &hi);
		CHECK(log2_bucket(lo) == (unsigned int)i && log2_bucket(hi) == (unsigned int)i,
		      "bucket %d range %llu..%llu disagrees with log2_bucket", i, lo, hi);
	}
	return true;
}

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-6;
}

static bool test_percentile_one_bucket(void)
{
	unsigned int slots[40] = {};
	double p;

	slots[11] = 50;		/* 50 samples in 2048..4095 */
	p = log2_hist_percentile(slots, 40, 50);
	CHECK(near(p, 2048 + 2048 * 24.5 / 50), "p50 = %f", p);
	p = log2_hist_percentile(slots, 40, 99);
	CHECK(near(p, 2048 + 2048 * 49.5 / 50), "p99 = %f", p);
	CHECK(p >= 2048 && p < 4096, "p99 %f outside its bucket", p);
	p = log2_hist_percentile(slots, 40, 100);
	CHECK(p < 4096, "p100 = %f", p);
	return true;
}

static bool test_percentile_two_buckets(void)
{
	unsigned int slots[40] = {};
	double p;

	slots[0] = 90;		/* 0..1 */
	slots[10] = 10;		/* 1024..2047 */
	p = log2_hist_percentile(slots, 40, 50);
	CHECK(near(p, 2.0 * 49.5 / 90), "p50 = %f", p);
	p = log2_hist_percentile(slots, 40, 90);
	CHECK(p < 2, "p90 = %f, rank 90 is the last in bucket 0", p);
	p = log2_hist_percentile(slots, 40, 91);
	CHECK(p >= 1024 && p < 2048, "p91 = %f, want bucket 10", p);
	p = log2_hist_percentile(slots, 40, 99);
	CHECK(near(p, 1024 + 1024 * 8.5 / 10), "p99 = %f", p);
	return true;
}

/* 64-bit buckets (diff): the same estimate as 32-bit ones, and sums past 2^64 */
static bool test_percentile64(void)
{
	unsigned long long s64[64] = {}, seed = 1;
	unsigned int s32[40] = {};
	static const double pcts[] = { 0.5, 1, 50, 90, 99, 99.9, 100 };
	double a, b;
	int i, k, round;

	/* pseudo-random histograms: bit-identical results (diff compares them) */
	for (round = 0; round < 200; round++) {
		for (i = 0; i < 40; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			s32[i] = (seed >> 33) % 4 ? 0 : (unsigned int)(seed >> 40);
			s64[i] = s32[i];
		}
		for (k = 0; k < (int)(sizeof(pcts) / sizeof(pcts[0])); k++) {
			a = log2_hist_percentile(s32, 40, pcts[k]);
			b = log2_hist_percentile64(s64, 40, pcts[k]);
			CHECK(memcmp(&a, &b, sizeof(a)) == 0, "round %d p%g: %.17g vs %.17g",
			      round, pcts[k], a, b);
		}
	}
	memset(s64, 0, sizeof(s64));
	s64[10] = 10;
	CHECK(near(log2_hist_percentile64(s64, 64, 99), 1024 + 1024 * 9.5 / 10), "p99 of 10");
	/* three buckets of 2^63: the total 1.5 * 2^64 does not wrap */
	s64[10] = 0;
	s64[1] = s64[2] = s64[63] = 1ULL << 63;
	a = log2_hist_percentile64(s64, 64, 50);
	CHECK(a >= 4 && a < 8, "p50 = %g, want bucket 2", a);
	a = log2_hist_percentile64(s64, 64, 100);
	CHECK(a >= 0x1p63 && a <= 0x1p64, "p100 = %g, want bucket 63", a);
	memset(s64, 0, sizeof(s64));
	CHECK(log2_hist_percentile64(s64, 64, 50) == -1, "empty histogram gave a value");
	return true;
}

static bool test_hist_add(void)
{
	unsigned int slots[40] = {};

	log2_hist_add(slots, 40, 0);
	log2_hist_add(slots, 40, 1);
	log2_hist_add(slots, 40, 1500);
	log2_hist_add(slots, 40, 1ULL << 39);
	log2_hist_add(slots, 40, 1ULL << 40);	/* past the last: counted in it */
	log2_hist_add(slots, 40, ~0ULL);
	CHECK(slots[0] == 2, "slot 0: %u", slots[0]);
	CHECK(slots[10] == 1, "slot 10: %u", slots[10]);
	CHECK(slots[39] == 3, "slot 39: %u", slots[39]);
	CHECK(log2_hist_last(slots, 40) == 39, "last %d", log2_hist_last(slots, 40));
	return true;
}

/* the units table: what JSON, text, OpenMetrics and diff's budgets say */
static bool test_units(void)
{
	CHECK(!strcmp(cs_unit(0)->name, "nsecs") && !strcmp(cs_unit(0)->suffix, "ns") &&
	      cs_unit(0)->ns == 1 && cs_unit(0)->seconds == 1e-9, "nsecs");
	CHECK(!strcmp(cs_unit(1)->name, "usecs") && !strcmp(cs_unit(1)->suffix, "us") &&
	      cs_unit(1)->ns == 1000 && cs_unit(1)->seconds == 1e-6, "usecs");
	CHECK(!strcmp(cs_unit(2)->name, "msecs") && !strcmp(cs_unit(2)->suffix, "ms") &&
	      cs_unit(2)->ns == 1000000 && cs_unit(2)->seconds == 1e-3, "msecs");
	CHECK(cs_unit(-1) == cs_unit(1) && cs_unit(3) == cs_unit(1), "default is not usecs");
	CHECK(cs_unit_find("msecs", false) == 2 && cs_unit_find("ns", true) == 0, "find");
	CHECK(cs_unit_find("ms", false) == -1 && cs_unit_find("usecs", true) == -1 &&
	      cs_unit_find("s", true) == -1, "find: a suffix is not a name");
	return true;
}

static bool test_percentile_empty(void)
{
	unsigned int slots[40] = {};

	CHECK(log2_hist_percentile(slots, 40, 50) == -1, "empty histogram gave a value");
	CHECK(log2_hist_last(slots, 40) == -1, "empty histogram has a last bucket");
	slots[3] = 1;
	CHECK(log2_hist_last(slots, 40) == 3, "last bucket %d", log2_hist_last(slots, 40));
	return true;
}

/* --- growable arrays --------------------------------------------------------- */

static bool test_grow(void)
{
	static const struct {
		size_t need, cap;	/* cs_grow(need) from the cap before: the cap after */
	} steps[] = {
		{ 0, 0 }, { 1, 16 }, { 16, 16 }, { 17, 32 }, { 20, 32 }, { 100, 128 },
		{ 1000, 1024 }, { 5, 1024 },
	};
	int *a = NULL, *was;
	size_t cap = 0, i;

	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		was = a;
		CHECK(!cs_grow(&a, &cap, steps[i].need, sizeof(*a)), "need %zu: failed",
		      steps[i].need);
		CHECK(cap == steps[i].cap, "need %zu: cap %zu, want %zu", steps[i].need, cap,
		      steps[i].cap);
		CHECK(steps[i].cap ? a != NULL : a == NULL, "need %zu: array %p", steps[i].need,
		      (void *)a);
		if (steps[i].need <= (i ? steps[i - 1].cap : 0))
			CHECK(a == was, "need %zu: moved without growing", steps[i].need);
	}
	free(a);
	return true;
}

static bool test_grow_zeroes(void)
{
	unsigned char *b = NULL;
	size_t cap = 0, i;
	bool ok = true;

	if (cs_grow(&b, &cap, 10, 3))
		return failf("first grow failed");
	for (i = 0; i < cap * 3 && ok; i++)
		ok = b[i] == 0;
	CHECK(ok, "byte %zu of a new array is %u", i - 1, b[i - 1]);
	memset(b, 0xa5, cap * 3);
	if (cs_grow(&b, &cap, 17, 3))
		return failf("second grow failed");
	CHECK(cap == 32, "cap %zu, want 32", cap);
	for (i = 0; i < 16 * 3 && ok; i++)
		ok = b[i] == 0xa5;
	CHECK(ok, "old byte %zu is 0x%02x, want 0xa5", i - 1, b[i - 1]);
	for (i = 16 * 3; i < 32 * 3 && ok; i++)
		ok = b[i] == 0;
	CHECK(ok, "new byte %zu is 0x%02x, want 0", i - 1, b[i - 1]);
	free(b);
	return true;
}

static bool test_grow_overflow(void)
{
	long *a = malloc(16 * sizeof(*a)), *was = a;
	size_t cap = 16;
	int rc;

	CHECK(a, "no memory");
	/* need * size does not fit a size_t */
	rc = cs_grow(&a, &cap, SIZE_MAX / 4, sizeof(*a));
	CHECK(rc == -ENOMEM && a == was && cap == 16, "SIZE_MAX / 4 longs: rc %d, cap %zu", rc,
	      cap);
	/* the doubling does not fit: need above SIZE_MAX / 2 */
	rc = cs_grow(&a, &cap, SIZE_MAX / 2 + 2, 1);
	CHECK(rc == -ENOMEM && a == was && cap == 16, "SIZE_MAX / 2 + 2: rc %d, cap %zu", rc,
	      cap);
	cap = SIZE_MAX / 2 + 1;
	rc = cs_grow(&a, &cap, SIZE_MAX, 1);
	CHECK(rc == -ENOMEM && a == was && cap == SIZE_MAX / 2 + 1, "cap * 2: rc %d", rc);
	cap = 16;
	rc = cs_grow(&a, &cap, 17, 0);
	CHECK(rc == -ENOMEM && a == was && cap == 16, "size 0: rc %d", rc);
	/* what fits still grows */
	rc = cs_grow(&a, &cap, 17, sizeof(*a));
	CHECK(!rc && cap == 32, "17 longs: rc %d, cap %zu", rc, cap);
	a[31] = 1;
	free(a);
	return true;
}

/* --- kallsyms ------------------------------------------------------------------ */

static char ksyms_path[64];

static const char synthetic_kallsyms[] =
	"0000000000000000 A fixed_percpu_data\n"
	"0000000000001000 A cpu_number\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T startup_64\n"
	"ffffffff81001000 t notifier_call_chain\n"
	"ffffffff81001200 T atomic_notifier_call_chain\n"
	"ffffffff82000000 D reboot_notifier_list\n"
	"ffffffff82000040 d panic_state\n"
	"ffffffff82000100 d dup_name\n"
	"ffffffff82000200 d dup_name\n"
	"ffffffff82000300 D alias_b\n"
	"ffffffff82000300 D alias_a\n"
	"ffffffff82100000 B __bss_stop\n"
	"ffffffffc0000000 t cs_loadgen_cb_fast\t[cs_loadgen]\n"
	"ffffffffc0000100 t cs_loadgen_cb_busy\t[cs_loadgen]\n"
	"ffffffffc0002000 d cs_loadgen_blocking\t[cs_loadgen]\n"
	"ffffffffc0002040 b cs_loadgen_state\t[cs_loadgen]\n"
	"not a symbol line\n"
	"ffffffffc0003000 t other_mod_fn\t[other]\n";

static struct ksyms *load_synthetic(void)
{
	return ksyms__load(ksyms_path);
}

static bool test_ksyms_load(void)
{
	struct ksyms *ks = load_synthetic();
	size_t n;

	CHECK(ks, "ksyms__load(%s) failed", ksyms_path);
	n = ksyms__count(ks);
	ksyms__free(ks);
	/* 19 lines: 2 absolute symbols and 1 malformed line skipped */
	CHECK(n == 16, "loaded %zu symbols, want 16", n);
	CHECK(!ksyms__load("/nonexistent/kallsyms"), "loading a missing file succeeded");
	return true;
}

/*
 * Names at KSYM_NAME_LEN - 1 (511) are kept whole, with their module; a
 * longer one is not the kernel's and is skipped, and the tail of its line
 * (made to look like a symbol of its own where a 512-byte line buffer
 * would have cut it) is not read as one.
 */
static bool test_ksyms_long_names(void)
{
	char path[] = "/tmp/cs-kallsyms-long-XXXXXX", n511[512], n600[601];
	const struct ksym *s;
	struct ksyms *ks;
	unsigned long a;
	FILE *f;
	int fd;

	memset(n511, 'a', 511);
	n511[511] = '\0';
	/*
	 * "ffffffff81000000 t " is 19 bytes, and fgets() into 512 bytes stops
	 * after 511: the tail "ffffffff82000000Tcut_tail..." reads as a symbol
	 */
	memset(n600, 'b', 600);
	memcpy(n600 + 511 - 19, "ffffffff82000000Tcut_tail", 25);
	n600[600] = '\0';
	fd = mkstemp(path);
	CHECK(fd >= 0, "mkstemp: %s", strerror(errno));
	f = fdopen(fd, "w");
	CHECK(f, "fdopen: %s", strerror(errno));
	fprintf(f, "ffffffffc0000000 t %s\t[mod_a]\n", n511);
	fprintf(f, "ffffffff81000000 t %s\n", n600);
	fprintf(f, "ffffffff83000000 T after_long\n");
	fclose(f);
	ks = ksyms__load(path);
	unlink(path);
	CHECK(ks, "ksyms__load failed");
	s = ksyms__map_addr(ks, 0xffffffffc0000000UL, NULL);
	CHECK(s && strlen(s->name) == 511 && s->module && !strcmp(s->module, "mod_a"),
	      "the 511-byte name: %s", s ? (s->module ? s->module : "no module") : "missing");
	CHECK(ksyms__count(ks) == 2, "%zu symbols, want 2 (the 600-byte name skipped)",
	      ksyms__count(ks));
	CHECK(ksyms__find(ks, "cut_tail", &a, 1) <= 0, "a cut line's tail read as a symbol");
	CHECK(ksyms__find(ks, "after_long", &a, 1) == 1 && a == 0xffffffff83000000UL,
	      "the line after the long one is lost");
	ksyms__free(ks);
	return true;
}

static bool test_ksyms_env_override(void)
{
	struct ksyms *ks;
	const struct ksym *s;

	setenv("CHAINSCOPE_KALLSYMS", ksyms_path, 1);
	CHECK(!strcmp(ksyms__default_path(), ksyms_path), "default path %s",
	      ksyms__default_path());
	ks = ksyms__load(NULL);
	unsetenv("CHAINSCOPE_KALLSYMS");
	CHECK(ks, "ksyms__load(NULL) with CHAINSCOPE_KALLSYMS failed");
	s = ksyms__map_addr(ks, 0xffffffffc0002000UL, NULL);
	if (!s || strcmp(s->name, "cs_loadgen_blocking")) {
		ksyms__free(ks);
		return failf("wrong file loaded");
	}
	ksyms__free(ks);
	CHECK(!strcmp(ksyms__default_path(), "/proc/kallsyms"), "default path %s",
	      ksyms__default_path());
	return true;
}

static bool test_ksyms_lookup(void)
{
	struct ksyms *ks = load_synthetic();
	const struct ksym *s;
	unsigned long off = 99;
	bool ok = true;

	CHECK(ks, "load failed");
	s = ksyms__map_addr(ks, 0xffffffff81001200UL, &off);
	if (!s || strcmp(s->name, "atomic_notifier_call_chain") || off != 0)
		ok = failf("exact: %s+%lu", s ? s->name : "NULL", off);
	s = ksyms__map_addr(ks, 0xffffffff81001010UL, &off);
	if (ok && (!s || strcmp(s->name, "notifier_call_chain") || off != 0x10))
		ok = failf("inside: %s+%lx", s ? s->name : "NULL", off);
	/* the module's data symbol, with its module */
	s = ksyms__map_addr(ks, 0xffffffffc0002008UL, &off);
	if (ok && (!s || strcmp(s->name, "cs_loadgen_blocking") || off != 8 ||
		   !s->module || strcmp(s->module, "cs_loadgen")))
		ok = failf("module: %s+%lx [%s]", s ? s->name : "NULL", off,
			   s && s->module ? s->module : "-");
	s = ksyms__map_addr(ks, 0xffffffff81000000UL, &off);
	if (ok && (!s || strcmp(s->name, "startup_64")))
		ok = failf("alias choice: %s, want startup_64 over _stext",
			   s ? s->name : "NULL");
	s = ksyms__map_addr(ks, 0xffffffff82000300UL, &off);
	if (ok && (!s || strcmp(s->name, "alias_b")))
		ok = failf("equal rank: %s, want the first listed (alias_b)",
			   s ? s->name : "NULL");
	/* below everything, and a heap address far past the last symbol below */
	if (ok && ksyms__map_addr(ks, 0x1000UL, &off))
		ok = failf("a per-CPU offset resolved");
	if (ok && ksyms__map_addr(ks, 0xffff888004000000UL, &off))
		ok = failf("a heap address resolved");
	if (ok && ksyms__map_addr(ks, 0xffffffff82100000UL + KSYM_MAX_OFFSET, &off))
		ok = failf("an address KSYM_MAX_OFFSET past __bss_stop resolved");
	ksyms__free(ks);
	return ok;
}

static bool test_ksyms_next(void)
{
	struct ksyms *ks = load_synthetic();
	const struct ksym *s;
	bool ok = true;
	size_t i;

	CHECK(ks, "load failed");
	/* the extent of reboot_notifier_list: up to panic_state */
	if (ksyms__next_addr(ks, 0xffffffff82000000UL) != 0xffffffff82000040UL)
		ok = failf("next after reboot_notifier_list: 0x%lx",
			   ksyms__next_addr(ks, 0xffffffff82000000UL));
	/* from inside an object, and over aliases at one address */
	if (ok && ksyms__next_addr(ks, 0xffffffff82000010UL) != 0xffffffff82000040UL)
		ok = failf("next from inside: wrong");
	if (ok && ksyms__next_addr(ks, 0xffffffff81000000UL) != 0xffffffff81001000UL)
		ok = failf("next over the _stext/startup_64 alias: 0x%lx",
			   ksyms__next_addr(ks, 0xffffffff81000000UL));
	if (ok && ksyms__next_addr(ks, 0x1000UL) != 0xffffffff81000000UL)
		ok = failf("next below everything: wrong");
	if (ok && ksyms__next_addr(ks, 0xffffffffc0003000UL) != 0)
		ok = failf("next after the last symbol: not 0");
	/* ksyms__get walks the table in address order */
	for (i = 1; ok && i < ksyms__count(ks); i++)
		if (ksyms__get(ks, i)->addr < ksyms__get(ks, i - 1)->addr)
			ok = failf("ksyms__get(%zu) out of order", i);
	s = ksyms__get(ks, 0);
	if (ok && (!s || strcmp(s->name, "startup_64")))
		ok = failf("ksyms__get(0): %s", s ? s->name : "NULL");
	if (ok && ksyms__get(ks, ksyms__count(ks)))
		ok = failf("ksyms__get past the end is not NULL");
	ksyms__free(ks);
	return ok;
}

static bool test_ksyms_format(void)
{
	struct ksyms *ks = load_synthetic();
	char buf[128];
	bool ok = true;

	CHECK(ks, "load failed");
	ksyms__format(ks, 0xffffffff82000000UL, buf, sizeof(buf));
	if (strcmp(buf, "reboot_notifier_list"))
		ok = failf("exact: '%s'", buf);
	ksyms__format(ks, 0xffffffffc0002010UL, buf, sizeof(buf));
	if (ok && strcmp(buf, "cs_loadgen_blocking+0x10"))
		ok = failf("offset: '%s'", buf);
	ksyms__format(ks, 0xffff888004000010UL, buf, sizeof(buf));
	if (ok && strcmp(buf, "0xffff888004000010"))
		ok = failf("unknown: '%s'", buf);
	ksyms__format(NULL, 0xffffffff82000000UL, buf, sizeof(buf));
	if (ok && strcmp(buf, "0xffffffff82000000"))
		ok = failf("no table: '%s'", buf);
	ksyms__free(ks);
	return ok;
}

/* cs_symstr(): the one text form of a symbol, for kallsyms and trace names */
static bool test_symstr(void)
{
	char name[CS_SYMNAME_MAX + 1], want[CS_SYMSTR_LEN], buf[CS_SYMSTR_LEN];

	CHECK(!strcmp(cs_symstr("panic_notifier_list", 0, 0xffffffff82001000ULL, buf,
				sizeof(buf)), "panic_notifier_list"), "no offset: '%s'", buf);
	CHECK(!strcmp(cs_symstr("cs_cb", 0x1f, 0xffffffffc000001fULL, buf, sizeof(buf)),
		      "cs_cb+0x1f"), "offset: '%s'", buf);
	CHECK(!strcmp(cs_symstr(NULL, 0x10, 0xffff888004000010ULL, buf, sizeof(buf)),
		      "0xffff888004000010"), "no name: '%s'", buf);
	CHECK(cs_symstr("x", 0, 1, buf, sizeof(buf)) == buf, "does not return buf");
	/* the longest name with the longest offset fits, uncut */
	memset(name, 'n', CS_SYMNAME_MAX);
	name[CS_SYMNAME_MAX] = '\0';
	snprintf(want, sizeof(want), "%s+0xffffffffffffffff", name);
	cs_symstr(name, ~0UL, 0, buf, sizeof(buf));
	CHECK(strlen(buf) == CS_SYMSTR_LEN - 1 && !strcmp(buf, want),
	      "longest: %zu bytes, want %d", strlen(buf), CS_SYMSTR_LEN - 1);
	/* a short buffer cuts, NUL-terminated */
	CHECK(!strcmp(cs_symstr("abcdef", 0x10, 0, buf, 5), "abcd"), "cut: '%s'", buf);
	return true;
}

static bool test_ksyms_find(void)
{
	struct ksyms *ks = load_synthetic();
	unsigned long addrs[4] = {};
	bool ok = true;
	int n;

	CHECK(ks, "load failed");
	n = ksyms__find(ks, "cs_loadgen_cb_busy", addrs, 4);
	if (n != 1 || addrs[0] != 0xffffffffc0000100UL)
		ok = failf("module symbol: n=%d addr=%lx", n, addrs[0]);
	n = ksyms__find(ks, "dup_name", addrs, 4);
	if (ok && (n != 2 || addrs[0] != 0xffffffff82000100UL ||
		   addrs[1] != 0xffffffff82000200UL))
		ok = failf("duplicate name: n=%d", n);
	n = ksyms__find(ks, "dup_name", addrs, 1);
	if (ok && n != 2)
		ok = failf("count past max: n=%d", n);
	if (ok && ksyms__find(ks, "no_such_symbol", addrs, 4) != 0)
		ok = failf("found a missing symbol");
	if (ok && ksyms__find(ks, "fixed_percpu_data", addrs, 4) != 0)
		ok = failf("found an absolute symbol");
	ksyms__free(ks);
	return ok;
}

/* --- histogram layout ----------------------------------------------------------- */

static char *capture_hist(const unsigned int *vals, int n, const char *type)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fprint_log2_hist(f, vals, n, type);
	fclose(f);
	return buf;
}

static bool test_hist_format(void)
{
	/* the layout of libbpf-tools' print_log2_hist(), column for column */
	static const char want[] =
		"     usecs               : count    distribution\n"
		"         0 -> 1          : 0        |                                        |\n"
		"         2 -> 3          : 3        |****************************************|\n"
		"         4 -> 7          : 0        |                                        |\n"
		"         8 -> 15         : 1        |*************                           |\n";
	unsigned int vals[40] = { 0, 3, 0, 1 };
	char *got = capture_hist(vals, 40, "usecs");
	bool ok = got && !strcmp(got, want);

	if (!ok)
		failf("got:\n%s", got ? got : "(null)");
	free(got);
	return ok;
}

static bool test_hist_format_buckets(void)
{
	static const char want[] =
		"     msecs               : count    distribution\n"
		"         0 -> 1          : 0        |                                        |\n"
		"         2 -> 3          : 0        |                                        |\n"
		"         4 -> 7          : 0        |                                        |\n"
		"         8 -> 15         : 0        |                                        |\n"
		"        16 -> 31         : 0        |                                        |\n"
		"        32 -> 63         : 0        |                                        |\n"
		"        64 -> 127        : 0        |                                        |\n"
		"       128 -> 255        : 0        |                                        |\n"
		"       256 -> 511        : 0        |                                        |\n"
		"       512 -> 1023       : 0        |                                        |\n"
		"      1024 -> 2047       : 2        |********************                    |\n"
		"      2048 -> 4095       : 4        |****************************************|\n";
	unsigned int vals[40] = {};
	char *got;
	bool ok;

	vals[10] = 2;
	vals[11] = 4;
	got = capture_hist(vals, 40, "msecs");
	ok = got && !strcmp(got, want);
	if (!ok)
		failf("got:\n%s", got ? got : "(null)");
	free(got);
	return ok;
}

static bool test_hist_format_wide(void)
{
	/* past bucket 32 the columns widen and the bar halves */
	static const char wide_row0[] =
		"                   0 -> 1                    : 0        |                    |\n";
	unsigned int vals[40] = {};
	char *got, *line2;
	bool ok = true;

	vals[33] = 1;
	got = capture_hist(vals, 40, "nsecs");
	CHECK(got, "no output");
	if (strncmp(got, "               nsecs                         : count    distribution\n",
		    strlen("               nsecs                         : count    distribution\n")))
		ok = failf("wide header: %.70s", got);
	line2 = strchr(got, '\n');
	if (ok && (!line2 || strncmp(line2 + 1, wide_row0, strlen(wide_row0))))
		ok = failf("wide first row: %.90s", line2 ? line2 + 1 : "");
	if (ok && !strstr(got, "          8589934592 -> 17179869183          : 1        |********************|\n"))
		ok = failf("wide last row missing:\n%s", got);
	free(got);
	return ok;
}

static bool test_hist_empty(void)
{
	unsigned int vals[40] = {};
	char *got = capture_hist(vals, 40, "usecs");
	bool ok = got && !*got;

	if (!ok)
		failf("empty histogram printed '%s'", got ? got : "(null)");
	free(got);
	return ok;
}

int main(void)
{
	int fd;

	strcpy(ksyms_path, "/tmp/cs-kallsyms-XXXXXX");
	fd = mkstemp(ksyms_path);
	if (fd < 0 || write(fd, synthetic_kallsyms, sizeof(synthetic_kallsyms) - 1) !=
		      (ssize_t)(sizeof(synthetic_kallsyms) - 1)) {
		printf("FAIL: host.helpers.setup: cannot write %s\n", ksyms_path);
		return 1;
	}
	close(fd);

	run("log2-bucket", test_log2_bucket);
	run("log2-bucket-range", test_bucket_range);
	run("percentile-one-bucket", test_percentile_one_bucket);
	run("percentile-two-buckets", test_percentile_two_buckets);
	run("percentile-empty", test_percentile_empty);
	run("percentile64", test_percentile64);
	run("hist-add", test_hist_add);
	run("units", test_units);
	run("grow", test_grow);
	run("grow-zeroes", test_grow_zeroes);
	run("grow-overflow", test_grow_overflow);
	run("ksyms-load", test_ksyms_load);
	run("ksyms-long-names", test_ksyms_long_names);
	run("ksyms-env-override", test_ksyms_env_override);
	run("ksyms-lookup", test_ksyms_lookup);
	run("ksyms-format", test_ksyms_format);
	run("symstr", test_symstr);
	run("ksyms-next", test_ksyms_next);
	run("ksyms-find", test_ksyms_find);
	run("hist-format", test_hist_format);
	run("hist-format-buckets", test_hist_format_buckets);
	run("hist-format-wide", test_hist_format_wide);
	run("hist-empty", test_hist_empty);

	unlink(ksyms_path);
	return failures ? 1 : 0;
}
