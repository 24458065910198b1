// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope diff: the input reader. A file is a stream of JSON objects,
 * each the output of one `latency -j` interval or one `report -j`, with
 * any whitespace around and inside them (one object per line, or
 * pretty-printed by e.g. `python3 -m json.tool`). json-c's json_tokener
 * reads it incrementally, so bytes may arrive in any split. Several
 * objects are summed per row (diff.h): counts and histogram buckets
 * added, max the largest; p50/p99 are estimated again from the summed
 * histogram, as the live tools do. Loss counters are summed too.
 *
 * Everything diff relies on is validated, with the file, the object and
 * the JSON path in the error: required fields, types, non-negative
 * integers below 2^63, known units, log2 bucket bounds, printable names,
 * the same units and type in every object, no trailing garbage.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "diff.h"

#define MAX_NAME 512	/* longest chain or callback name accepted */

struct cs_diff_input {
	char *name;
	json_tokener *tok;
	struct cs_json_keys *keys;	/* duplicate keys in the bytes fed */
	struct cs_diff_row *rows;	/* uthash head; iteration is file order */
	size_t nrows, nobjs;
	char units[8];
	unsigned long long unit_ns;
	char type[16];			/* "" when the objects carry none */
	struct cs_diff_loss loss[CS_DIFF_MAX_LOSS];
	int nloss;
	unsigned long long off, line;	/* bytes consumed, line of off (1-based) */
	unsigned long long val_off, val_line;	/* where the current value began */
	bool in_value, failed, ended;
	char *carry;			/* the held-back end of the last feed */
	size_t ncarry, carry_cap;
};

static const struct {
	const char *name;
	unsigned long long ns;
} units[] = {
	{ "nsecs", 1 }, { "usecs", 1000 }, { "msecs", 1000000 },
};

struct cs_diff_input *cs_diff_input_new(const char *name)
{
	struct cs_diff_input *in = calloc(1, sizeof(*in));

	if (!in)
		return NULL;
	in->name = strdup(name);
	in->tok = json_tokener_new();
	in->keys = cs_json_keys_new();
	if (!in->name || !in->tok || !in->keys) {
		cs_diff_input_free(in);
		return NULL;
	}
	/*
	 * Strict JSON; a value ends where it ends. Not VALIDATE_UTF8: it
	 * judges the byte after a value before the value is complete, so the
	 * error would depend on how the input was split. Strings diff uses
	 * are checked against their own (ASCII) sets instead.
	 */
	json_tokener_set_flags(in->tok, JSON_TOKENER_STRICT |
			       JSON_TOKENER_ALLOW_TRAILING_CHARS);
	in->line = 1;
	return in;
}

void cs_diff_input_free(struct cs_diff_input *in)
{
	struct cs_diff_row *r, *tmp;

	if (!in)
		return;
	HASH_ITER(hh, in->rows, r, tmp) {
		HASH_DEL(in->rows, r);
		free(r->key);
		free(r->nb);
		free(r);
	}
	if (in->tok)
		json_tokener_free(in->tok);
	cs_json_keys_free(in->keys);
	free(in->carry);
	free(in->name);
	free(in);
}

/* "NAME: line L, byte B: ..." for errors in the byte stream */
__attribute__((format(printf, 5, 6)))
static int stream_err(struct cs_diff_input *in, char *err, size_t errlen,
		      unsigned long long at, const char *fmt, ...)
{
	int n = snprintf(err, errlen, "%s: line %llu, byte %llu: ", in->name, in->line, at);
	va_list ap;

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < errlen)
		vsnprintf(err + n, errlen - n, fmt, ap);
	va_end(ap);
	in->failed = true;
	return -1;
}

/* Errors in an object's content: "NAME: object N (line L): PATH: ..." */
struct ctx {
	struct cs_diff_input *in;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 3, 4)))
static int obj_err(const struct ctx *c, const char *path, const char *fmt, ...)
{
	int n = snprintf(c->err, c->errlen, "%s: object %zu (line %llu): %s: ",
			 c->in->name, c->in->nobjs + 1, c->in->val_line, path);
	va_list ap;

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < c->errlen)
		vsnprintf(c->err + n, c->errlen - n, fmt, ap);
	va_end(ap);
	c->in->failed = true;
	return -1;
}

/* s for an error message: at most 20 bytes, printable ASCII ('?' else) */
static const char *quote(const char *s, char buf[24])
{
	size_t i;

	for (i = 0; s[i] && i < 20; i++)
		buf[i] = s[i] >= 0x20 && s[i] <= 0x7e ? s[i] : '?';
	buf[i] = '\0';
	return buf;
}

static const char *type_name(json_object *v)
{
	switch (json_object_get_type(v)) {
	case json_type_null: return "null";
	case json_type_boolean: return "a boolean";
	case json_type_double: return "a fraction";
	case json_type_int: return "an integer";
	case json_type_object: return "an object";
	case json_type_array: return "an array";
	case json_type_string: return "a string";
	}
	return "?";
}

/*
 * A count, a bound, a duration: an integer in 0..2^63-1 (json-c clamps
 * anything larger to UINT64_MAX, so that is refused as out of range
 * rather than read wrong).
 */
static int as_u63(const struct ctx *c, const char *path, const char *key,
		  json_object *v, unsigned long long *out)
{
	const char *why = NULL;
	char p[160];

	if (!json_object_is_type(v, json_type_int))
		why = "not an integer";
	else if (json_object_get_int64(v) < 0)
		why = "negative";
	else if ((*out = json_object_get_uint64(v)) > INT64_MAX)
		why = "out of range";
	if (!why)
		return 0;
	/* the path only now: this runs for every number of the input */
	snprintf(p, sizeof(p), "%s%s%s", path, key ? "." : "", key ? key : "");
	if (!json_object_is_type(v, json_type_int))
		return obj_err(c, p, "%s, not an integer", type_name(v));
	if (json_object_get_int64(v) < 0)
		return obj_err(c, p, "negative (%lld)", (long long)json_object_get_int64(v));
	return obj_err(c, p, "out of range (above %llu)", (unsigned long long)INT64_MAX);
}

/* A field of object o at path; *out is 0 if optional and absent. */
static int get_u63(const struct ctx *c, json_object *o, const char *path,
		   const char *key, bool required, unsigned long long *out)
{
	char p[160];
	json_object *v;

	*out = 0;
	if (json_object_object_get_ex(o, key, &v))
		return as_u63(c, path, key, v, out);
	if (!required)
		return 0;
	snprintf(p, sizeof(p), "%s.%s", path, key);
	return obj_err(c, p, "missing");
}

/* *sum += v, or an error naming path.key */
static int add_u64(const struct ctx *c, const char *path, const char *key,
		   unsigned long long *sum, unsigned long long v)
{
	char p[160];

	if (*sum <= ULLONG_MAX - v) {
		*sum += v;
		return 0;
	}
	snprintf(p, sizeof(p), "%s%s%s", path, key ? "." : "", key ? key : "");
	return obj_err(c, p, "a sum with it overflows 64 bits");
}

/* A chain or callback name: printable ASCII, as kernel symbols are. */
static int get_name(const struct ctx *c, json_object *o, const char *path,
		    const char *key, const char **out, size_t *len)
{
	json_object *v = NULL;
	char p[96];
	size_t i = 0;

	if (json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string)) {
		*out = json_object_get_string(v);
		*len = json_object_get_string_len(v);
		for (i = 0; i < *len; i++)
			if ((unsigned char)(*out)[i] < 0x20 || (unsigned char)(*out)[i] > 0x7e)
				break;
		if (i == *len && *len && *len <= MAX_NAME)
			return 0;
	}
	snprintf(p, sizeof(p), "%s.%s", path, key);
	if (!v)
		return obj_err(c, p, "missing");
	if (!json_object_is_type(v, json_type_string))
		return obj_err(c, p, "%s, not a string", type_name(v));
	if (!*len || *len > MAX_NAME)
		return obj_err(c, p, "length %zu, not 1..%d", *len, MAX_NAME);
	return obj_err(c, p, "byte 0x%02x at %zu: names are printable ASCII",
		       (unsigned char)(*out)[i], i);
}

static int get_str(const struct ctx *c, json_object *o, const char *key,
		   bool required, const char **out)
{
	char p[32];
	json_object *v;

	*out = NULL;
	snprintf(p, sizeof(p), "$.%s", key);
	if (!json_object_object_get_ex(o, key, &v))
		return required ? obj_err(c, p, "missing") : 0;
	if (!json_object_is_type(v, json_type_string))
		return obj_err(c, p, "%s, not a string", type_name(v));
	*out = json_object_get_string(v);
	return 0;
}

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
static int get_addr(const struct ctx *c, json_object *o, const char *path,
		    const char *key, const char **out, size_t *len)
{
	char p[96];
	size_t i;

	*out = NULL;
	*len = 0;
	if (!json_object_object_get_ex(o, key, NULL))
		return 0;
	if (get_name(c, o, path, key, out, len))
		return -1;
	for (i = 2; i < *len && strchr("0123456789abcdef", (*out)[i]); i++)
		;
	if (*len >= 3 && *len <= 18 && !strncmp(*out, "0x", 2) && i == *len)
		return 0;
	snprintf(p, sizeof(p), "%s.%s", path, key);
	return obj_err(c, p, "not an address (0x and 1-16 lower-case hex digits)");
}

static int get_id(const struct ctx *c, json_object *o, const char *path, struct row_id *id)
{
	static const char *const addrs[] = { "chain_addr", "callback_addr", "nb_addr" };
	bool has_nb = json_object_object_get_ex(o, "nb", NULL);
	unsigned long long val;
	size_t len, i;
	char p[96];

	memset(id, 0, sizeof(*id));
	if (get_name(c, o, path, "chain", &id->part[0], &id->len[0]) ||
	    get_name(c, o, path, "callback", &id->part[1], &id->len[1]))
		return -1;
	if (json_object_object_get_ex(o, "val", NULL)) {
		if (get_u63(c, o, path, "val", true, &val))
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
		snprintf(p, sizeof(p), "%s.%s", path, has_nb ? "nb_addr" : "nb");
		return obj_err(c, p, "missing (nb and nb_addr name the block together)");
	}
	if (has_nb && get_name(c, o, path, "nb", &id->nb, &len))
		return -1;
	return 0;
}

/*
 * The log2 estimate of a percentile (cs_summarize()) lies in the bucket
 * that holds its rank, rounded to at most the bucket's end, and never
 * above the largest sample: [2^b, min(2^(b+1), max)] (b 0: [0, 2]).
 */
static int check_pct(const struct ctx *c, json_object *o, const char *path,
		     const char *key, double pct, const unsigned long long *slots,
		     unsigned long long total, unsigned long long max)
{
	unsigned long long v, lo = 0, hi = 0, cum = 0, rank;
	char p[96];
	int i;

	if (!json_object_object_get_ex(o, key, NULL))
		return 0;
	if (get_u63(c, o, path, key, false, &v))
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
		return obj_err(c, p, "%llu with an empty histogram (want 0)", v);
	return obj_err(c, p, "%llu does not fit the histogram (%llu..%llu: its bucket "
		       "%d, at most max)", v, lo, hi, i);
}

static int read_callback(const struct ctx *c, json_object *o, size_t idx)
{
	struct cs_diff_input *in = c->in;
	unsigned long long count, max, max_ns = 0, untimed, v, veto = 0, total = 0;
	unsigned long long slots[CS_DIFF_SLOTS] = { 0 };
	static const char *const vetoes[] = { "stop", "bad", "errno" };
	struct row_id id;
	size_t j, n;
	struct cs_diff_row *r;
	json_object *hist;
	bool has_max_ns;
	char path[64], p[96];
	int top = -1;

	snprintf(path, sizeof(path), "$.callbacks[%zu]", idx);
	if (!json_object_is_type(o, json_type_object))
		return obj_err(c, path, "%s, not an object", type_name(o));
	has_max_ns = json_object_object_get_ex(o, "max_ns", NULL);
	if (get_id(c, o, path, &id) ||
	    get_u63(c, o, path, "count", true, &count) ||
	    get_u63(c, o, path, "max", true, &max) ||
	    get_u63(c, o, path, "max_ns", false, &max_ns) ||
	    get_u63(c, o, path, "untimed", false, &untimed))
		return -1;
	for (j = 0; j < 3; j++)
		if (get_u63(c, o, path, vetoes[j], true, &v) ||
		    add_u64(c, path, vetoes[j], &veto, v))
			return -1;
	snprintf(p, sizeof(p), "%s.histogram", path);
	if (!json_object_object_get_ex(o, "histogram", &hist))
		return obj_err(c, p, "missing");
	if (!json_object_is_type(hist, json_type_array))
		return obj_err(c, p, "%s, not an array", type_name(hist));

	n = json_object_array_length(hist);
	for (j = 0; j < n; j++) {
		json_object *b = json_object_array_get_idx(hist, j);
		unsigned long long lo, hi, want_lo, want_hi, bcount;
		unsigned int slot;

		snprintf(p, sizeof(p), "%s.histogram[%zu]", path, j);
		if (!json_object_is_type(b, json_type_object))
			return obj_err(c, p, "%s, not an object", type_name(b));
		if (get_u63(c, b, p, "min", true, &lo) ||
		    get_u63(c, b, p, "max", true, &hi) ||
		    get_u63(c, b, p, "count", true, &bcount))
			return -1;
		/* the live tools' buckets: [0, 1], [2, 3], [4, 7], ... */
		slot = lo > 1 ? 63 - __builtin_clzll(lo) : 0;
		want_lo = slot ? 1ULL << slot : 0;
		want_hi = (1ULL << (slot + 1)) - 1;
		if (lo != want_lo || hi != want_hi)
			return obj_err(c, p, "min %llu, max %llu is not a log2 bucket "
				       "(0-1, 2-3, 4-7, ...)", lo, hi);
		if (add_u64(c, p, "count", &slots[slot], bcount) ||
		    add_u64(c, p, "count", &total, bcount))
			return -1;
		if (bcount && (int)slot > top)
			top = slot;
	}

	/*
	 * The fields must agree with the histogram (cbrow.c, latency.bpf.c):
	 * count is the timed calls, one in a bucket each, plus the untimed
	 * ones, which have no bucket and no duration; max is max_ns in the
	 * units, rounded down, and falls in the highest bucket or above it
	 * (the last bucket takes everything longer).
	 */
	if (total > ULLONG_MAX - untimed || count != total + untimed) {
		snprintf(p, sizeof(p), "%s.count", path);
		if (untimed)
			return obj_err(c, p, "%llu, but the histogram holds %llu calls and "
				       "untimed %llu more", count, total, untimed);
		return obj_err(c, p, "%llu, but the histogram holds %llu calls", count, total);
	}
	if (has_max_ns && max != max_ns / in->unit_ns) {
		snprintf(p, sizeof(p), "%s.max", path);
		return obj_err(c, p, "%llu, but max_ns %llu is %llu %s", max, max_ns,
			       max_ns / in->unit_ns, in->units);
	}
	snprintf(p, sizeof(p), "%s.%s", path, has_max_ns ? "max_ns" : "max");
	if (top < 0 && (max || max_ns))
		return obj_err(c, p, "%llu with an empty histogram (no timed call)",
			       has_max_ns ? max_ns : max);
	if (top >= 0 && max < (top ? 1ULL << top : 0))
		return obj_err(c, p, "%llu, below the histogram's highest non-empty bucket "
			       "(%llu-%llu %s)", has_max_ns ? max_ns : max, 1ULL << top,
			       (1ULL << (top + 1)) - 1, in->units);
	if (check_pct(c, o, path, "p50", 50, slots, total, max) ||
	    check_pct(c, o, path, "p99", 99, slots, total, max))
		return -1;

	r = row_get(in, &id);
	if (!r)
		return obj_err(c, path, "out of memory");
	if (r->obj == in->nobjs + 1) {
		char q1[24], q2[24];

		return obj_err(c, path, "a second row for chain \"%s\", callback \"%s\"%s%s "
			       "with the same addresses (rows are unique per object)",
			       quote(r->chain, q1), quote(r->callback, q2),
			       r->val ? ", val " : "", r->val ? r->val : "");
	}
	r->obj = in->nobjs + 1;
	if (add_u64(c, path, "count", &r->count, count) ||
	    add_u64(c, path, "stop", &r->veto, veto))
		return -1;
	if (max > r->max)
		r->max = max;
	for (j = 0; j < CS_DIFF_SLOTS; j++)
		if (add_u64(c, path, "histogram", &r->slots[j], slots[j]))
			return -1;
	return 0;
}

/* lost*, missed*, dropped* (lower case, digits, '_') and failed */
static bool is_loss_key(const char *k)
{
	size_t n;

	if (!strcmp(k, "failed"))
		return true;
	if (!strncmp(k, "lost", 4))
		n = 4;
	else if (!strncmp(k, "missed", 6))
		n = 6;
	else if (!strncmp(k, "dropped", 7))
		n = 7;
	else
		return false;
	return strspn(k + n, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(k + n);
}

/*
 * The counters each producer always writes (maps.c cs_report_health(),
 * report.c): without them a file cannot say it lost nothing.
 */
static const char *const latency_loss[] = { "dropped", "failed", "missed", NULL };
static const char *const report_loss[] = { "lost", "missed", NULL };

static const char *missing_loss(json_object *root, const char *const *need)
{
	for (; *need; need++)
		if (!json_object_object_get_ex(root, *need, NULL))
			return *need;
	return NULL;
}

static int read_loss(const struct ctx *c, json_object *root, const char *type)
{
	struct cs_diff_input *in = c->in;
	const char *miss;
	char p[64];

	if (!type) {
		/* no type (hand-made): either producer's set will do */
		if (missing_loss(root, latency_loss) && missing_loss(root, report_loss))
			return obj_err(c, "$", "no loss counters (want dropped, failed and "
				       "missed as latency -j writes them, or lost and missed "
				       "as report -j does)");
	} else if ((miss = missing_loss(root, strcmp(type, "latency") ? report_loss :
					latency_loss))) {
		snprintf(p, sizeof(p), "$.%s", miss);
		return obj_err(c, p, "missing (%s -j writes %s): without it the file "
			       "cannot show it lost nothing", type,
			       strcmp(type, "latency") ? "lost and missed" :
			       "dropped, failed and missed");
	}
	json_object_object_foreach(root, key, val) {
		unsigned long long n;
		int i;

		if (!is_loss_key(key))
			continue;
		/* latency -C: whether the two counters below differ */
		if (!strcmp(key, "missed_begin_end_differ") &&
		    json_object_is_type(val, json_type_boolean))
			continue;
		if (strlen(key) >= sizeof(in->loss[0].name))
			return obj_err(c, "$", "loss counter name '%.40s...' is too long", key);
		snprintf(p, sizeof(p), "$.%s", key);
		if (as_u63(c, "$", key, val, &n))
			return -1;
		for (i = 0; i < in->nloss; i++)
			if (!strcmp(in->loss[i].name, key))
				break;
		if (i == in->nloss) {
			if (in->nloss == CS_DIFF_MAX_LOSS)
				return obj_err(c, p, "more than %d loss counters", CS_DIFF_MAX_LOSS);
			snprintf(in->loss[in->nloss++].name, sizeof(in->loss[0].name), "%s", key);
		}
		if (add_u64(c, "$", key, &in->loss[i].n, n))
			return -1;
	}
	return 0;
}

static int read_object(struct cs_diff_input *in, json_object *root, char *err,
		       size_t errlen)
{
	const struct ctx c = { in, err, errlen };
	const char *type, *u;
	json_object *arr;
	char q[24];
	size_t i, n;

	if (!json_object_is_type(root, json_type_object))
		return obj_err(&c, "$", "%s, not a JSON object (want latency -j or "
			       "report -j output)", type_name(root));
	if (get_str(&c, root, "type", false, &type) || get_str(&c, root, "units", true, &u))
		return -1;
	if (type && strcmp(type, "latency") && strcmp(type, "report"))
		return obj_err(&c, "$.type", "\"%s\": diff compares latency -j or "
			       "report -j output", quote(type, q));
	if (in->nobjs && strcmp(type ? type : "", in->type))
		return obj_err(&c, "$.type", "\"%s\", the objects before are \"%s\"",
			       type ? type : "", in->type);
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(u, units[i].name))
			break;
	if (i == sizeof(units) / sizeof(units[0]))
		return obj_err(&c, "$.units", "unknown units \"%s\" (nsecs, usecs, msecs)",
			       quote(u, q));
	if (in->nobjs && strcmp(u, in->units))
		return obj_err(&c, "$.units", "%s, the objects before are in %s", u, in->units);
	snprintf(in->type, sizeof(in->type), "%s", type ? type : "");
	snprintf(in->units, sizeof(in->units), "%s", u);
	in->unit_ns = units[i].ns;

	if (!json_object_object_get_ex(root, "callbacks", &arr))
		return obj_err(&c, "$.callbacks", "missing");
	if (!json_object_is_type(arr, json_type_array))
		return obj_err(&c, "$.callbacks", "%s, not an array", type_name(arr));
	if (read_loss(&c, root, type))
		return -1;
	n = json_object_array_length(arr);
	for (i = 0; i < n; i++)
		if (read_callback(&c, json_object_array_get_idx(arr, i), i))
			return -1;
	in->nobjs++;
	return 0;
}

static bool is_ws(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

static void advance(struct cs_diff_input *in, const char *buf, size_t n)
{
	const char *p = buf, *end = buf + n;

	while ((p = memchr(p, '\n', end - p))) {
		in->line++;
		p++;
	}
	in->off += n;
}

static int feed_tokener(struct cs_diff_input *in, const char *buf, size_t len,
			char *err, size_t errlen)
{
	size_t i = 0;

	while (i < len) {
		enum json_tokener_error jerr;
		json_object *obj;
		const char *nul;
		size_t chunk, used, n;
		int rc;

		if (!in->in_value) {
			while (i < len && is_ws(buf[i]))
				advance(in, buf + i++, 1);
			if (i == len)
				break;
			in->in_value = true;
			in->val_off = in->off;
			in->val_line = in->line;
		}
		chunk = len - i < INT32_MAX ? len - i : INT32_MAX;
		/* the tokener takes '\0' for the end of input */
		nul = memchr(buf + i, '\0', chunk);
		if (nul == buf + i) {
			return stream_err(in, err, errlen, in->off,
					  "invalid JSON: NUL byte");
		}
		if (nul)
			chunk = nul - (buf + i);
		obj = json_tokener_parse_ex(in->tok, buf + i, (int)chunk);
		jerr = json_tokener_get_error(in->tok);
		used = json_tokener_get_parse_end(in->tok);
		if (used > chunk)
			used = chunk;
		/* the bytes json-c took, in order, once: a key repeated in them? */
		n = cs_json_keys_scan(in->keys, buf + i, used, &rc);
		if (rc) {
			json_object_put(obj);
			advance(in, buf + i, n);
			if (rc < 0)
				return stream_err(in, err, errlen, in->off, "out of memory");
			return stream_err(in, err, errlen, in->off, "key \"%s\" twice in one "
					  "object (which one counts is ambiguous)",
					  cs_json_keys_dup(in->keys));
		}
		advance(in, buf + i, used);
		i += used;
		if (jerr == json_tokener_continue)
			continue;
		if (jerr != json_tokener_success || !obj) {
			json_object_put(obj);
			return stream_err(in, err, errlen, in->off, "invalid JSON: %s",
					  json_tokener_error_desc(jerr));
		}
		json_tokener_reset(in->tok);
		rc = read_object(in, obj, err, errlen);
		json_object_put(obj);
		in->in_value = false;
		if (rc)
			return -1;
	}
	return 0;
}

/*
 * As log2_hist_percentile() (trace_helpers.c), on 64-bit buckets; doubles
 * because the buckets' total may exceed 2^64. Rounded like cs_summarize().
 */
/* Characters a number, a literal (true, null) or an escape may go on with */
static bool is_word(char ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') ||
	       (ch >= 'A' && ch <= 'Z') || ch == '.' || ch == '+' || ch == '-' ||
	       ch == '\\';
}

/*
 * json-c fed a number in pieces accepts some malformed ones that it
 * refuses whole ("0-" split after the "0"), so a feed never ends inside
 * a word: its trailing word characters wait for the next feed (or the
 * end), and the tokener sees every word with the byte after it.
 */
static int reserve(struct cs_diff_input *in, size_t size)
{
	char *p;

	if (size <= in->carry_cap)
		return 0;
	p = realloc(in->carry, size * 2);
	if (!p)
		return -1;
	in->carry = p;
	in->carry_cap = size * 2;
	return 0;
}

int cs_diff_input_feed(struct cs_diff_input *in, const char *buf, size_t len,
		       char *err, size_t errlen)
{
	const char *work = buf;
	size_t n = len, keep;

	if (in->failed || in->ended) {
		snprintf(err, errlen, "%s: read after %s", in->name,
			 in->failed ? "an error" : "the end");
		return -1;
	}
	if (in->ncarry) {
		if (reserve(in, in->ncarry + len))
			return stream_err(in, err, errlen, in->off, "out of memory");
		memcpy(in->carry + in->ncarry, buf, len);
		work = in->carry;
		n = in->ncarry + len;
	}
	for (keep = 0; keep < n && is_word(work[n - keep - 1]); keep++)
		;
	if (feed_tokener(in, work, n - keep, err, errlen))
		return -1;
	if (keep && work != in->carry && reserve(in, keep))
		return stream_err(in, err, errlen, in->off, "out of memory");
	if (keep)
		memmove(in->carry, work + n - keep, keep);
	in->ncarry = keep;
	return 0;
}

static unsigned long long percentile(const unsigned long long *slots, double pct)
{
	double total = 0, cum = 0, rank, v;
	int i;

	for (i = 0; i < CS_DIFF_SLOTS; i++)
		total += (double)slots[i];
	if (!total)
		return 0;
	rank = floor(pct / 100.0 * total + 0.999999);
	if (rank < 1)
		rank = 1;
	if (rank > total)
		rank = total;
	for (i = 0; i < CS_DIFF_SLOTS; i++) {
		if (!slots[i] || cum + (double)slots[i] < rank) {
			cum += (double)slots[i];
			continue;
		}
		v = (i ? ldexp(1, i) : 0.0) +
		    (i ? ldexp(1, i) : 2.0) * (rank - cum - 0.5) / (double)slots[i];
		return v >= 9.2e18 ? INT64_MAX : (unsigned long long)(v + 0.5);
	}
	return 0;
}

int cs_diff_input_end(struct cs_diff_input *in, char *err, size_t errlen)
{
	struct cs_diff_row *r;

	if (in->failed || in->ended) {
		snprintf(err, errlen, "%s: end after %s", in->name,
			 in->failed ? "an error" : "the end");
		return -1;
	}
	if (in->ncarry) {
		size_t n = in->ncarry;

		in->ncarry = 0;
		if (feed_tokener(in, in->carry, n, err, errlen))
			return -1;
	}
	if (in->in_value) {
		/* a value with no end of its own (a number) ends at the '\0' */
		json_object *obj = json_tokener_parse_ex(in->tok, "", 1);

		if (obj) {
			int rc = read_object(in, obj, err, errlen);

			json_object_put(obj);
			if (rc)
				return -1;
		} else {
			return stream_err(in, err, errlen, in->off,
					  "truncated: the JSON value from line %llu, byte "
					  "%llu has no end", in->val_line, in->val_off);
		}
	}
	in->ended = true;
	if (!in->nobjs) {
		snprintf(err, errlen, "%s: no JSON object (want latency -j or report -j "
			 "output)", in->name);
		in->failed = true;
		return -1;
	}
	for (r = in->rows; r; r = r->hh.next) {
		/* log2 estimates, never above the largest sample */
		r->p50 = percentile(r->slots, 50);
		r->p99 = percentile(r->slots, 99);
		if (r->p50 > r->max)
			r->p50 = r->max;
		if (r->p99 > r->max)
			r->p99 = r->max;
	}
	return 0;
}

int cs_diff_input_read(struct cs_diff_input *in, FILE *f, char *err, size_t errlen)
{
	char buf[65536];
	size_t n;

	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (cs_diff_input_feed(in, buf, n, err, errlen))
			return -1;
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read error: %s", in->name, strerror(errno));
		return -1;
	}
	return cs_diff_input_end(in, err, errlen);
}

const char *cs_diff_input_name(const struct cs_diff_input *in)
{
	return in->name;
}

const char *cs_diff_input_units(const struct cs_diff_input *in)
{
	return in->units;
}

const struct cs_diff_row *cs_diff_input_rows(const struct cs_diff_input *in)
{
	return in->rows;
}

size_t cs_diff_input_nrows(const struct cs_diff_input *in)
{
	return in->nrows;
}

size_t cs_diff_input_nobjs(const struct cs_diff_input *in)
{
	return in->nobjs;
}

const struct cs_diff_row *cs_diff_input_find(const struct cs_diff_input *in,
					     const struct cs_diff_row *like)
{
	struct cs_diff_row *r;

	HASH_FIND(hh, in->rows, like->key, like->keylen, r);
	return r;
}

int cs_diff_input_loss(const struct cs_diff_input *in, const struct cs_diff_loss **loss)
{
	*loss = in->loss;
	return in->nloss;
}
