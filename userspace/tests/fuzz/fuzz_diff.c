// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer target for chainscope diff end to end: the budget parser, the
 * JSON stream reader and the verdict (diff_rules.c, diff_input.c), as
 * cmd_diff() runs them, on arbitrary bytes.
 *
 * Input: up to three parts separated by NUL bytes.
 *   BASE-AND-NEW          default budget, the same bytes as BASE and NEW
 *   BASE \0 NEW           default budget
 *   BUDGET \0 BASE \0 NEW (NUL bytes after that stay in NEW)
 *
 * Beyond "no crash, no leak, no undefined behaviour" it checks:
 *   - every error is one line that starts with the file's name (input) or
 *     names the budget, and every result is 0, 1 or 2;
 *   - feeding a file in one piece or in small pieces gives the same rows
 *     or the same error (the reader is a stream);
 *   - the verdict is printable ASCII lines, whatever the names in the
 *     input, and ends with "within budget" exactly when it returns 0.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "diff.h"

static void one_line(const char *err)
{
	if (!err[0] || strchr(err, '\n'))
		abort();
}

/* Read [p, p + n) whole or in pieces of `piece` bytes; returns 0 or -1. */
static struct cs_diff_input *read_input(const char *name, const uint8_t *p, size_t n,
					size_t piece, char *err, size_t errlen, int *rc)
{
	struct cs_diff_input *in = cs_diff_input_new(name);
	size_t i;

	if (!in)
		abort();
	*rc = 0;
	err[0] = '\0';
	for (i = 0; i < n && !*rc; i += piece)
		*rc = cs_diff_input_feed(in, (const char *)p + i, n - i < piece ? n - i : piece,
					 err, errlen);
	if (!*rc)
		*rc = cs_diff_input_end(in, err, errlen);
	if (*rc) {
		one_line(err);
		if (strncmp(err, name, strlen(name)))
			abort();
	}
	return in;
}

static bool same_rows(const struct cs_diff_input *a, const struct cs_diff_input *b)
{
	const struct cs_diff_row *r, *s;

	if (cs_diff_input_nrows(a) != cs_diff_input_nrows(b) ||
	    cs_diff_input_nobjs(a) != cs_diff_input_nobjs(b) ||
	    strcmp(cs_diff_input_units(a), cs_diff_input_units(b)))
		return false;
	for (r = cs_diff_input_rows(a), s = cs_diff_input_rows(b); r && s;
	     r = r->hh.next, s = s->hh.next)
		if (r->keylen != s->keylen || memcmp(r->key, s->key, r->keylen) ||
		    r->count != s->count || r->veto != s->veto || r->max != s->max ||
		    r->p50 != s->p50 || r->p99 != s->p99 ||
		    memcmp(r->slots, s->slots, sizeof(r->slots)))
			return false;
	return !r && !s;
}

/*
 * The same error, except that json-c may place a syntax error a byte or
 * two apart depending on the split (inside a number): for those ("line
 * L, byte B: ...") only what follows the position must agree.
 */
static bool same_error(const char *name, const char *a, const char *b)
{
	size_t n = strlen(name);
	const char *pa, *pb;

	if (strncmp(a, name, n) || strncmp(a + n, ": line ", 7) ||
	    strncmp(b, name, n) || strncmp(b + n, ": line ", 7))
		return !strcmp(a, b);
	/* NAME: line L, byte B: WHAT */
	pa = a + n + 7 + strspn(a + n + 7, "0123456789");
	pb = b + n + 7 + strspn(b + n + 7, "0123456789");
	if (strncmp(pa, ", byte ", 7) || strncmp(pb, ", byte ", 7))
		abort();
	pa += 7 + strspn(pa + 7, "0123456789");
	pb += 7 + strspn(pb + 7, "0123456789");
	return !strcmp(pa, pb);
}

/* Both ways of reading agree; returns the whole read (NULL on error). */
static struct cs_diff_input *load(const char *name, const uint8_t *p, size_t n,
				  size_t piece)
{
	char err1[512], err2[512];
	struct cs_diff_input *whole, *pieces;
	int rc1, rc2;

	whole = read_input(name, p, n, n ? n : 1, err1, sizeof(err1), &rc1);
	pieces = read_input(name, p, n, piece, err2, sizeof(err2), &rc2);
	if (rc1 != rc2 || (rc1 && !same_error(name, err1, err2)) ||
	    (!rc1 && !same_rows(whole, pieces)))
		abort();
	cs_diff_input_free(pieces);
	if (rc1) {
		cs_diff_input_free(whole);
		return NULL;
	}
	return whole;
}

static void check_verdict(const char *out, size_t len, int rc)
{
	const char *last;
	size_t i;

	if (!len || out[len - 1] != '\n')
		abort();
	for (i = 0; i < len; i++)
		if (out[i] != '\n' && (out[i] < 0x20 || out[i] > 0x7e))
			abort();
	for (last = out + len - 1; last > out && last[-1] != '\n'; last--)
		;
	if ((rc == 0) != !strcmp(last, "within budget\n"))
		abort();
	if (rc == 1 && strncmp(last, "budget exceeded:", 16))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *part[3] = { data }, *nul;
	size_t len[3] = { size }, nparts = 1, piece;
	struct cs_diff_input *base = NULL, *new = NULL;
	struct cs_diff_budget bu;
	char budget[256] = "default", err[512], *out = NULL;
	size_t outlen = 0;
	FILE *f;
	int rc;

	while (nparts < 3 && (nul = memchr(part[nparts - 1], '\0', len[nparts - 1]))) {
		part[nparts] = nul + 1;
		len[nparts] = len[nparts - 1] - (nul + 1 - part[nparts - 1]);
		len[nparts - 1] = nul - part[nparts - 1];
		nparts++;
	}
	if (nparts == 3) {
		snprintf(budget, sizeof(budget), "%.*s", (int)len[0], (const char *)part[0]);
		part[0] = part[1], len[0] = len[1];
		part[1] = part[2], len[1] = len[2];
	} else if (nparts == 1) {
		part[1] = part[0], len[1] = len[0];
	}
	/* pieces of 1..16 bytes, from the size, so a run is reproducible */
	piece = size % 16 + 1;

	if (cs_diff_parse_budget(budget, &bu, err, sizeof(err))) {
		one_line(err);
		if (!strstr(err, "budget"))
			abort();
		return 0;
	}
	cs_diff_budget_str(&bu, err, sizeof(err));
	one_line(err);

	base = load("BASE", part[0], len[0], piece);
	new = load("NEW", part[1], len[1], piece);
	if (base && new) {
		f = open_memstream(&out, &outlen);
		if (!f)
			abort();
		err[0] = '\0';
		rc = cs_diff_compare(&bu, base, new, size & 1, f, err, sizeof(err));
		fclose(f);
		if (rc == 2)
			one_line(err);
		else if (rc == 0 || rc == 1)
			check_verdict(out, outlen, rc);
		else
			abort();
		free(out);
	}
	cs_diff_input_free(base);
	cs_diff_input_free(new);
	return 0;
}
