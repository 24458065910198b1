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
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "diff.h"
#include "diff_int.h"
#include "json_keys.h"
#include "trace_helpers.h"

#define MAX_NAME 512	/* longest chain or callback name accepted */



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
int cs_diff_obj_err(const struct cs_diff_ctx *c, const char *path, const char *fmt, ...)
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
const char *cs_diff_quote(const char *s, char buf[24])
{
	size_t i;

	for (i = 0; s[i] && i < 20; i++)
		buf[i] = s[i] >= 0x20 && s[i] <= 0x7e ? s[i] : '?';
	buf[i] = '\0';
	return buf;
}

const char *cs_diff_type_name(json_object *v)
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
static int as_u63(const struct cs_diff_ctx *c, const char *path, const char *key,
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
		return cs_diff_obj_err(c, p, "%s, not an integer", cs_diff_type_name(v));
	if (json_object_get_int64(v) < 0)
		return cs_diff_obj_err(c, p, "negative (%lld)", (long long)json_object_get_int64(v));
	return cs_diff_obj_err(c, p, "out of range (above %llu)", (unsigned long long)INT64_MAX);
}

/* A field of object o at path; *out is 0 if optional and absent. */
int cs_diff_get_u63(const struct cs_diff_ctx *c, json_object *o, const char *path,
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
	return cs_diff_obj_err(c, p, "missing");
}

/* *sum += v, or an error naming path.key */
int cs_diff_add_u64(const struct cs_diff_ctx *c, const char *path, const char *key,
		   unsigned long long *sum, unsigned long long v)
{
	char p[160];

	if (*sum <= ULLONG_MAX - v) {
		*sum += v;
		return 0;
	}
	snprintf(p, sizeof(p), "%s%s%s", path, key ? "." : "", key ? key : "");
	return cs_diff_obj_err(c, p, "a sum with it overflows 64 bits");
}

/* A chain or callback name: printable ASCII, as kernel symbols are. */
int cs_diff_get_name(const struct cs_diff_ctx *c, json_object *o, const char *path,
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
		return cs_diff_obj_err(c, p, "missing");
	if (!json_object_is_type(v, json_type_string))
		return cs_diff_obj_err(c, p, "%s, not a string", cs_diff_type_name(v));
	if (!*len || *len > MAX_NAME)
		return cs_diff_obj_err(c, p, "length %zu, not 1..%d", *len, MAX_NAME);
	return cs_diff_obj_err(c, p, "byte 0x%02x at %zu: names are printable ASCII",
		       (unsigned char)(*out)[i], i);
}

static int get_str(const struct cs_diff_ctx *c, json_object *o, const char *key,
		   bool required, const char **out)
{
	char p[32];
	json_object *v;

	*out = NULL;
	snprintf(p, sizeof(p), "$.%s", key);
	if (!json_object_object_get_ex(o, key, &v))
		return required ? cs_diff_obj_err(c, p, "missing") : 0;
	if (!json_object_is_type(v, json_type_string))
		return cs_diff_obj_err(c, p, "%s, not a string", cs_diff_type_name(v));
	*out = json_object_get_string(v);
	return 0;
}

/* lost*, missed*, dropped* (lower case, digits, '_') and failed */
static bool is_loss_key(const char *k)
{
	size_t n;

	if (!strcmp(k, CS_JK_FAILED))
		return true;
	if (!strncmp(k, CS_JK_LOST, strlen(CS_JK_LOST)))
		n = strlen(CS_JK_LOST);
	else if (!strncmp(k, CS_JK_MISSED, strlen(CS_JK_MISSED)))
		n = strlen(CS_JK_MISSED);
	else if (!strncmp(k, CS_JK_DROPPED, strlen(CS_JK_DROPPED)))
		n = strlen(CS_JK_DROPPED);
	else
		return false;
	return strspn(k + n, "abcdefghijklmnopqrstuvwxyz0123456789_") == strlen(k + n);
}

/*
 * The counters each producer always writes (maps.c cs_report_health(),
 * report.c): without them a file cannot say it lost nothing.
 */
static const char *const latency_loss[] = { CS_JK_DROPPED, CS_JK_FAILED, CS_JK_MISSED, NULL };
static const char *const report_loss[] = { CS_JK_LOST, CS_JK_MISSED, NULL };

static const char *missing_loss(json_object *root, const char *const *need)
{
	for (; *need; need++)
		if (!json_object_object_get_ex(root, *need, NULL))
			return *need;
	return NULL;
}

static int read_loss(const struct cs_diff_ctx *c, json_object *root, const char *type)
{
	struct cs_diff_input *in = c->in;
	const char *miss;
	char p[64];

	if (!type) {
		/* no type (hand-made): either producer's set will do */
		if (missing_loss(root, latency_loss) && missing_loss(root, report_loss))
			return cs_diff_obj_err(c, "$", "no loss counters (want dropped, failed and "
				       "missed as latency -j writes them, or lost and missed "
				       "as report -j does)");
	} else if ((miss = missing_loss(root, strcmp(type, CS_JT_LATENCY) ? report_loss :
					latency_loss))) {
		snprintf(p, sizeof(p), "$.%s", miss);
		return cs_diff_obj_err(c, p, "missing (%s -j writes %s): without it the file "
			       "cannot show it lost nothing", type,
			       strcmp(type, CS_JT_LATENCY) ? "lost and missed" :
			       "dropped, failed and missed");
	}
	json_object_object_foreach(root, key, val) {
		unsigned long long n;
		int i;

		if (!is_loss_key(key))
			continue;
		/* latency -C: whether the two counters below differ */
		if (!strcmp(key, CS_JK_MISSED_DIFFER) &&
		    json_object_is_type(val, json_type_boolean))
			continue;
		if (strlen(key) >= sizeof(in->loss[0].name))
			return cs_diff_obj_err(c, "$", "loss counter name '%.40s...' is too long", key);
		snprintf(p, sizeof(p), "$.%s", key);
		if (as_u63(c, "$", key, val, &n))
			return -1;
		for (i = 0; i < in->nloss; i++)
			if (!strcmp(in->loss[i].name, key))
				break;
		if (i == in->nloss) {
			if (in->nloss == CS_DIFF_MAX_LOSS)
				return cs_diff_obj_err(c, p, "more than %d loss counters", CS_DIFF_MAX_LOSS);
			snprintf(in->loss[in->nloss++].name, sizeof(in->loss[0].name), "%s", key);
		}
		if (cs_diff_add_u64(c, "$", key, &in->loss[i].n, n))
			return -1;
	}
	return 0;
}

static int read_object(struct cs_diff_input *in, json_object *root, char *err,
		       size_t errlen)
{
	const struct cs_diff_ctx c = { in, err, errlen };
	const char *type, *u, *mode;
	json_object *arr;
	char q[24];
	size_t i, n;
	int unit;

	if (!json_object_is_type(root, json_type_object))
		return cs_diff_obj_err(&c, "$", "%s, not a JSON object (want latency -j or "
			       "report -j output)", cs_diff_type_name(root));
	if (get_str(&c, root, CS_JK_TYPE, false, &type) ||
	    get_str(&c, root, CS_JK_UNITS, true, &u) ||
	    get_str(&c, root, CS_JK_MODE, false, &mode))
		return -1;
	/* the event source (latency, report): the objects of a file share it */
	if (mode && strcmp(mode, "tracepoints") && strcmp(mode, "probes"))
		return cs_diff_obj_err(&c, "$." CS_JK_MODE,
			       "unknown mode \"%s\" (tracepoints, probes)",
			       cs_diff_quote(mode, q));
	if (in->nobjs && strcmp(mode ? mode : "", in->mode))
		return cs_diff_obj_err(&c, "$." CS_JK_MODE, "\"%s\", the objects before are \"%s\"",
			       mode ? mode : "", in->mode);
	snprintf(in->mode, sizeof(in->mode), "%s", mode ? mode : "");
	if (type && strcmp(type, CS_JT_LATENCY) && strcmp(type, CS_JT_REPORT))
		return cs_diff_obj_err(&c, "$." CS_JK_TYPE, "\"%s\": diff compares latency -j or "
			       "report -j output", cs_diff_quote(type, q));
	if (in->nobjs && strcmp(type ? type : "", in->type))
		return cs_diff_obj_err(&c, "$." CS_JK_TYPE, "\"%s\", the objects before are \"%s\"",
			       type ? type : "", in->type);
	unit = cs_unit_find(u, false);
	if (unit < 0)
		return cs_diff_obj_err(&c, "$." CS_JK_UNITS,
			       "unknown units \"%s\" (nsecs, usecs, msecs)",
			       cs_diff_quote(u, q));
	if (in->nobjs && strcmp(u, in->units))
		return cs_diff_obj_err(&c, "$." CS_JK_UNITS, "%s, the objects before are in %s",
			       u, in->units);
	snprintf(in->type, sizeof(in->type), "%s", type ? type : "");
	snprintf(in->units, sizeof(in->units), "%s", u);
	in->unit_ns = cs_units[unit].ns;

	if (!json_object_object_get_ex(root, CS_JK_CALLBACKS, &arr))
		return cs_diff_obj_err(&c, "$." CS_JK_CALLBACKS, "missing");
	if (!json_object_is_type(arr, json_type_array))
		return cs_diff_obj_err(&c, "$." CS_JK_CALLBACKS, "%s, not an array",
			       cs_diff_type_name(arr));
	if (read_loss(&c, root, type))
		return -1;
	n = json_object_array_length(arr);
	for (i = 0; i < n; i++)
		if (cs_diff_read_callback(&c, json_object_array_get_idx(arr, i), i))
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
		/* a success with no object is a null: read_object() says so */
		if (jerr != json_tokener_success) {
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
 * end), and the tokener sees every word with the byte after it. The
 * held-back bytes are all word characters: a feed looks only at its own
 * bytes, and a word that goes on is appended (the buffer doubles), so a
 * long word costs what its length costs, however it is split.
 */
static int reserve(struct cs_diff_input *in, size_t size)
{
	return cs_grow(&in->carry, &in->carry_cap, size, 1);
}

int cs_diff_input_feed(struct cs_diff_input *in, const char *buf, size_t len,
		       char *err, size_t errlen)
{
	const char *work = buf;
	size_t n, keep;

	if (in->failed || in->ended) {
		snprintf(err, errlen, "%s: read after %s", in->name,
			 in->failed ? "an error" : "the end");
		return -1;
	}
	for (keep = 0; keep < len && is_word(buf[len - keep - 1]); keep++)
		;
	n = len - keep;		/* what goes to the tokener now, of buf */
	if (in->ncarry) {
		/* the held-back word goes on into buf (or through all of it) */
		if (in->ncarry > SIZE_MAX - len || reserve(in, in->ncarry + (n ? n : len)))
			return stream_err(in, err, errlen, in->off, "out of memory");
		if (!n) {
			memcpy(in->carry + in->ncarry, buf, len);
			in->ncarry += len;
			return 0;
		}
		memcpy(in->carry + in->ncarry, buf, n);
		work = in->carry;
		n += in->ncarry;
		in->ncarry = 0;
	}
	if (n && feed_tokener(in, work, n, err, errlen))
		return -1;
	if (keep && reserve(in, keep))
		return stream_err(in, err, errlen, in->off, "out of memory");
	if (keep)
		memcpy(in->carry, buf + len - keep, keep);
	in->ncarry = keep;
	return 0;
}

/* log2_hist_percentile64(), rounded like cs_summarize(); 0 for no samples */
static unsigned long long percentile(const unsigned long long *slots, double pct)
{
	double v = log2_hist_percentile64(slots, CS_DIFF_SLOTS, pct);

	if (v < 0)
		return 0;
	return v >= 9.2e18 ? INT64_MAX : (unsigned long long)(v + 0.5);
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

		/* NULL and success: the value was a null */
		if (obj || json_tokener_get_error(in->tok) == json_tokener_success) {
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

const char *cs_diff_input_mode(const struct cs_diff_input *in)
{
	return in->mode;
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
