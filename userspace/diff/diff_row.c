// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope diff: one callback's row of an object, validated: its names
 * and addresses (what the row is), its counters, and that they agree
 * with its histogram. Rows are summed over the objects of a file.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diff_int.h"
#include "json_keys.h"

/*
 * What tells a row apart: the names (chain, callback, val with latency
 * -a), stable across boots, and the addresses the producer keyed it by
 * (chain_addr, callback_addr, nb_addr), which are not.
 */
struct row_id {
	const char *part[6];	/* chain, callback, val, chain_addr, callback_addr, nb_addr */
	size_t len[6];
	const char *nb;		/* the block's printed name */
	char val[24];
};
#define ID_NAMES 3		/* the parts that name the row: its group */

/* The row of id, new or not; NULL if out of memory. */
static struct cs_diff_row *row_get(struct cs_diff_input *in, const struct row_id *id)
{
	size_t keylen = 0, at[6], i;
	struct cs_diff_row *r;
	char *key;

	for (i = 0; i < 6; i++) {
		at[i] = keylen;
		keylen += id->len[i] + (i < 5);
	}
	key = malloc(keylen + 1);
	if (!key)
		return NULL;
	for (i = 0; i < 6; i++) {
		memcpy(key + at[i], id->part[i] ? id->part[i] : "", id->len[i]);
		key[at[i] + id->len[i]] = '\0';
	}
	HASH_FIND(hh, in->rows, key, keylen, r);
	if (r) {
		free(key);
		return r;
	}
	r = calloc(1, sizeof(*r));
	if (!r || (id->nb && !(r->nb = strdup(id->nb)))) {
		free(r);
		free(key);
		return NULL;
	}
	r->key = key;
	r->keylen = keylen;
	r->grouplen = at[ID_NAMES] - 1;
	r->chain = key;
	r->callback = key + at[1];
	r->val = id->part[2] ? key + at[2] : NULL;
	r->callback_addr = id->part[4] ? key + at[4] : NULL;
	r->nb_addr = id->part[5] ? key + at[5] : NULL;
	r->idx = in->nrows++;
	HASH_ADD_KEYPTR(hh, in->rows, r->key, r->keylen, r);
	return r;
}

/* An optional address field: "0x" and 1-16 lower-case hex digits */
static int get_addr(const struct cs_diff_ctx *c, json_object *o, const char *path,
		    const char *key, const char **out, size_t *len)
{
	char p[96];
	size_t i;

	*out = NULL;
	*len = 0;
	if (!json_object_object_get_ex(o, key, NULL))
		return 0;
	if (cs_diff_get_name(c, o, path, key, out, len))
		return -1;
	for (i = 2; i < *len && strchr("0123456789abcdef", (*out)[i]); i++)
		;
	if (*len >= 3 && *len <= 18 && !strncmp(*out, "0x", 2) && i == *len)
		return 0;
	snprintf(p, sizeof(p), "%s.%s", path, key);
	return cs_diff_obj_err(c, p, "not an address (0x and 1-16 lower-case hex digits)");
}

static int get_id(const struct cs_diff_ctx *c, json_object *o, const char *path, struct row_id *id)
{
	static const char *const addrs[] = {
		CS_JK_CHAIN CS_JK_ADDR_SUFFIX, CS_JK_CALLBACK CS_JK_ADDR_SUFFIX,
		CS_JK_NB CS_JK_ADDR_SUFFIX,
	};
	bool has_nb = json_object_object_get_ex(o, CS_JK_NB, NULL);
	unsigned long long val;
	size_t len, i;
	char p[96];

	memset(id, 0, sizeof(*id));
	if (cs_diff_get_name(c, o, path, CS_JK_CHAIN, &id->part[0], &id->len[0]) ||
	    cs_diff_get_name(c, o, path, CS_JK_CALLBACK, &id->part[1], &id->len[1]))
		return -1;
	if (json_object_object_get_ex(o, CS_JK_VAL, NULL)) {
		if (cs_diff_get_u63(c, o, path, CS_JK_VAL, true, &val))
			return -1;
		snprintf(id->val, sizeof(id->val), "%llu", val);
		id->part[2] = id->val;
		id->len[2] = strlen(id->val);
	}
	for (i = 0; i < 3; i++)
		if (get_addr(c, o, path, addrs[i], &id->part[3 + i], &id->len[3 + i]))
			return -1;
	/* nb and nb_addr name the block together (cs_json_symbol()) */
	if (has_nb != !!id->part[5]) {
		snprintf(p, sizeof(p), "%s.%s", path,
			 has_nb ? CS_JK_NB CS_JK_ADDR_SUFFIX : CS_JK_NB);
		return cs_diff_obj_err(c, p, "missing (nb and nb_addr name the block together)");
	}
	if (has_nb && cs_diff_get_name(c, o, path, CS_JK_NB, &id->nb, &len))
		return -1;
	return 0;
}

/*
 * The log2 estimate of a percentile (cs_summarize()) lies in the bucket
 * that holds its rank, rounded to at most the bucket's end, and never
 * above the largest sample: [2^b, min(2^(b+1), max)] (b 0: [0, 2]).
 */
static int check_pct(const struct cs_diff_ctx *c, json_object *o, const char *path,
		     const char *key, double pct, const unsigned long long *slots,
		     unsigned long long total, unsigned long long max)
{
	unsigned long long v, lo = 0, hi = 0, cum = 0, rank;
	char p[96];
	int i;

	if (!json_object_object_get_ex(o, key, NULL))
		return 0;
	if (cs_diff_get_u63(c, o, path, key, false, &v))
		return -1;
	if (total) {
		rank = (unsigned long long)(pct / 100.0 * (double)total + 0.999999);
		rank = rank < 1 ? 1 : rank > total ? total : rank;
		for (i = 0; i < CS_DIFF_SLOTS; i++) {
			if (slots[i] && cum + slots[i] >= rank)
				break;
			cum += slots[i];
		}
		lo = i ? 1ULL << i : 0;
		hi = i < 63 ? 1ULL << (i + 1) : INT64_MAX;
		hi = hi < max ? hi : max;
	}
	if (v >= lo && v <= hi)
		return 0;
	snprintf(p, sizeof(p), "%s.%s", path, key);
	if (!total)
		return cs_diff_obj_err(c, p, "%llu with an empty histogram (want 0)", v);
	return cs_diff_obj_err(c, p, "%llu does not fit the histogram (%llu..%llu: its bucket "
		       "%d, at most max)", v, lo, hi, i);
}

int cs_diff_read_callback(const struct cs_diff_ctx *c, json_object *o, size_t idx)
{
	struct cs_diff_input *in = c->in;
	unsigned long long count, max, max_ns = 0, untimed, v, veto = 0, total = 0;
	unsigned long long slots[CS_DIFF_SLOTS] = { 0 };
	static const char *const vetoes[] = { CS_JK_STOP, CS_JK_BAD, CS_JK_ERRNO };
	struct row_id id;
	size_t j, n;
	struct cs_diff_row *r;
	json_object *hist;
	bool has_max_ns;
	char path[64], p[96];
	int top = -1, prev;

	snprintf(path, sizeof(path), "$.callbacks[%zu]", idx);
	if (!json_object_is_type(o, json_type_object))
		return cs_diff_obj_err(c, path, "%s, not an object", cs_diff_type_name(o));
	has_max_ns = json_object_object_get_ex(o, CS_JK_MAX_NS, NULL);
	if (get_id(c, o, path, &id) ||
	    cs_diff_get_u63(c, o, path, CS_JK_COUNT, true, &count) ||
	    cs_diff_get_u63(c, o, path, CS_JK_MAX, true, &max) ||
	    cs_diff_get_u63(c, o, path, CS_JK_MAX_NS, false, &max_ns) ||
	    cs_diff_get_u63(c, o, path, CS_JK_UNTIMED, false, &untimed))
		return -1;
	for (j = 0; j < 3; j++)
		if (cs_diff_get_u63(c, o, path, vetoes[j], true, &v) ||
		    cs_diff_add_u64(c, path, vetoes[j], &veto, v))
			return -1;
	snprintf(p, sizeof(p), "%s.histogram", path);
	if (!json_object_object_get_ex(o, CS_JK_HISTOGRAM, &hist))
		return cs_diff_obj_err(c, p, "missing");
	if (!json_object_is_type(hist, json_type_array))
		return cs_diff_obj_err(c, p, "%s, not an array", cs_diff_type_name(hist));

	n = json_object_array_length(hist);
	for (j = 0, prev = -1; j < n; j++) {
		json_object *b = json_object_array_get_idx(hist, j);
		unsigned long long lo, hi, want_lo, want_hi, bcount;
		unsigned int slot;

		snprintf(p, sizeof(p), "%s.histogram[%zu]", path, j);
		if (!json_object_is_type(b, json_type_object))
			return cs_diff_obj_err(c, p, "%s, not an object", cs_diff_type_name(b));
		if (cs_diff_get_u63(c, b, p, CS_JK_MIN, true, &lo) ||
		    cs_diff_get_u63(c, b, p, CS_JK_MAX, true, &hi) ||
		    cs_diff_get_u63(c, b, p, CS_JK_COUNT, true, &bcount))
			return -1;
		/* the live tools' buckets: [0, 1], [2, 3], [4, 7], ... */
		slot = lo > 1 ? 63 - __builtin_clzll(lo) : 0;
		want_lo = slot ? 1ULL << slot : 0;
		want_hi = (1ULL << (slot + 1)) - 1;
		if (lo != want_lo || hi != want_hi)
			return cs_diff_obj_err(c, p, "min %llu, max %llu is not a log2 bucket "
				       "(0-1, 2-3, 4-7, ...)", lo, hi);
		/* as the writers put them: each bucket once, rising */
		if ((int)slot <= prev)
			return cs_diff_obj_err(c, p, "bucket %llu-%llu after bucket %llu-%llu: "
				       "the buckets must rise, each once", lo, hi,
				       prev ? 1ULL << prev : 0, (1ULL << (prev + 1)) - 1);
		prev = slot;
		if (cs_diff_add_u64(c, p, "count", &slots[slot], bcount) ||
		    cs_diff_add_u64(c, p, "count", &total, bcount))
			return -1;
		if (bcount && (int)slot > top)
			top = slot;
	}

	/*
	 * The fields must agree with the histogram (callback_row.c, latency.bpf.c):
	 * count is the timed calls, one in a bucket each, plus the untimed
	 * ones, which have no bucket and no duration; max is max_ns in the
	 * units, rounded down, and falls in the highest bucket or above it
	 * (the last bucket takes everything longer).
	 */
	if (total > ULLONG_MAX - untimed || count != total + untimed) {
		snprintf(p, sizeof(p), "%s.count", path);
		if (untimed)
			return cs_diff_obj_err(c, p, "%llu, but the histogram holds %llu calls and "
				       "untimed %llu more", count, total, untimed);
		return cs_diff_obj_err(c, p, "%llu, but the histogram holds %llu calls", count, total);
	}
	if (has_max_ns && max != max_ns / in->unit_ns) {
		snprintf(p, sizeof(p), "%s.max", path);
		return cs_diff_obj_err(c, p, "%llu, but max_ns %llu is %llu %s", max, max_ns,
			       max_ns / in->unit_ns, in->units);
	}
	snprintf(p, sizeof(p), "%s.%s", path, has_max_ns ? "max_ns" : "max");
	if (top < 0 && (max || max_ns))
		return cs_diff_obj_err(c, p, "%llu with an empty histogram (no timed call)",
			       has_max_ns ? max_ns : max);
	if (top >= 0 && max < (top ? 1ULL << top : 0))
		return cs_diff_obj_err(c, p, "%llu, below the histogram's highest non-empty bucket "
			       "(%llu-%llu %s)", has_max_ns ? max_ns : max, 1ULL << top,
			       (1ULL << (top + 1)) - 1, in->units);
	if (check_pct(c, o, path, CS_JK_P50, 50, slots, total, max) ||
	    check_pct(c, o, path, CS_JK_P99, 99, slots, total, max))
		return -1;

	r = row_get(in, &id);
	if (!r)
		return cs_diff_obj_err(c, path, "out of memory");
	if (r->obj == in->nobjs + 1) {
		char q1[24], q2[24];

		return cs_diff_obj_err(c, path, "a second row for chain \"%s\", callback \"%s\"%s%s "
			       "with the same addresses (rows are unique per object)",
			       cs_diff_quote(r->chain, q1), cs_diff_quote(r->callback, q2),
			       r->val ? ", val " : "", r->val ? r->val : "");
	}
	r->obj = in->nobjs + 1;
	if (cs_diff_add_u64(c, path, "count", &r->count, count) ||
	    cs_diff_add_u64(c, path, "stop", &r->veto, veto))
		return -1;
	if (max > r->max)
		r->max = max;
	for (j = 0; j < CS_DIFF_SLOTS; j++)
		if (cs_diff_add_u64(c, path, "histogram", &r->slots[j], slots[j]))
			return -1;
	return 0;
}
