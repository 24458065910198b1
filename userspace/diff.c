// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope diff: compare two JSON results (latency -j, report -j) per
 * (chain, callback) and gate on a latency budget.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chainscope.h"
#include "common.h"

#define DEFAULT_BUDGET "p99:+20%,new-callback,new-veto"

static struct env {
	const char *cmd;
	const char *base, *new;
	const char *budget;
	bool all;
} env;

static const struct argp_option opts[] = {
	{ "budget", 'b', "RULES", 0, "Budget rules (default " DEFAULT_BUDGET ")", 0 },
	{ "all", 'a', NULL, 0, "Print every row, not only changed ones", 0 },
	{},
};

static const char doc[] =
"Compare two JSON results of 'chainscope latency -j' or 'chainscope\n"
"report -j' per (chain, callback): count, p50, p99, max. A file with\n"
"several lines (latency -j with an interval) is summed: histograms\n"
"added, p50/p99 estimated again, max the largest. Both files must use\n"
"the same units.\n"
"\n"
"RULES is a comma-separated list; a row breaks the budget if any applies:\n"
"  METRIC:+N%   METRIC in NEW is more than N percent above BASE\n"
"  METRIC:+N    METRIC in NEW is more than N (units of the files) above BASE\n"
"               (METRIC: count, p50, p99, max; a BASE of 0 and any\n"
"               increase breaks a percentage rule)\n"
"  new-callback a (chain, callback) in NEW that BASE does not have\n"
"  gone-callback a (chain, callback) in BASE that NEW does not have\n"
"  new-veto     a callback that never vetoed in BASE returned NOTIFY_STOP,\n"
"               NOTIFY_BAD or an errno in NEW (stop+bad+errno went from 0)\n"
"  min-count:N  latency rules skip rows with fewer than N calls in either\n"
"Default: " DEFAULT_BUDGET ".\n"
"\v"
"Examples:\n"
"  chainscope diff base.json new.json\n"
"  chainscope diff --budget 'p99:+10%,max:+500,new-callback,min-count:20' a b\n"
"\n"
"Exit status: 0 within budget, 1 budget exceeded (rows marked FAIL),\n"
"2 usage error or unreadable input.\n";

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case ARGP_KEY_INIT:
		state->err_stream = NULL;
		return 0;
	case 'b':
		env.budget = arg;
		return 0;
	case 'a':
		env.all = true;
		return 0;
	case ARGP_KEY_ARG:
		if (!env.base)
			env.base = arg;
		else if (!env.new)
			env.new = arg;
		else
			cs_usage_error(state, "unexpected argument '%s'", arg);
		return 0;
	case ARGP_KEY_END:
		if (!env.new)
			cs_usage_error(state, "need two files: BASE NEW");
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp argp = {
	.options = opts,
	.parser = parse_arg,
	.args_doc = "BASE NEW",
	.doc = doc,
};

/* --- budget ---------------------------------------------------------------- */

enum metric { M_COUNT, M_P50, M_P99, M_MAX, M_NR };
static const char *const metric_names[M_NR] = { "count", "p50", "p99", "max" };

struct budget {
	bool limit[M_NR];
	bool pct[M_NR];
	double amount[M_NR];
	bool new_cb, gone_cb, new_veto;
	unsigned long long min_count;
};

static int parse_budget(const char *s, struct budget *b, char *why, size_t len)
{
	char *copy = strdup(s), *tok, *save = NULL;
	int i, err = 0;

	memset(b, 0, sizeof(*b));
	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':'), *end;
		double v;

		if (!strcmp(tok, "new-callback")) {
			b->new_cb = true;
			continue;
		}
		if (!strcmp(tok, "gone-callback")) {
			b->gone_cb = true;
			continue;
		}
		if (!strcmp(tok, "new-veto")) {
			b->new_veto = true;
			continue;
		}
		if (!colon)
			goto bad;
		*colon = '\0';
		if (!strcmp(tok, "min-count")) {
			errno = 0;
			b->min_count = strtoull(colon + 1, &end, 10);
			if (errno || end == colon + 1 || *end)
				goto bad;
			continue;
		}
		for (i = 0; i < M_NR; i++)
			if (!strcmp(tok, metric_names[i]))
				break;
		if (i == M_NR || colon[1] != '+')
			goto bad_restore;
		errno = 0;
		v = strtod(colon + 2, &end);
		if (errno || end == colon + 2 || v < 0 || !isfinite(v))
			goto bad_restore;
		b->pct[i] = *end == '%';
		if (*end == '%')
			end++;
		if (*end)
			goto bad_restore;
		b->limit[i] = true;
		b->amount[i] = v;
		continue;
bad_restore:
		*colon = ':';
bad:
		snprintf(why, len, "invalid budget rule '%s' (see --help)", tok);
		err = -EINVAL;
		break;
	}
	free(copy);
	return err;
}

/* --- input ----------------------------------------------------------------- */

struct row {
	char *chain, *callback;
	__u32 slots[CS_MAX_SLOTS];
	unsigned long long count, max, veto;
	__u64 max_ns;
	struct cs_summary s;
};

struct result {
	struct row *rows;
	size_t n;
	char units[16];
};

static int units_of(const char *s)
{
	return !strcmp(s, "nsecs") ? CS_UNITS_NS : !strcmp(s, "msecs") ? CS_UNITS_MS :
	       CS_UNITS_US;
}

static unsigned long long get_u64(json_object *o, const char *k)
{
	json_object *v;

	return json_object_object_get_ex(o, k, &v) ? (unsigned long long)json_object_get_uint64(v) : 0;
}

static const char *get_str(json_object *o, const char *k)
{
	json_object *v;

	if (!json_object_object_get_ex(o, k, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static int load(const char *path, struct result *r, char *why, size_t len)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0, lineno = 0, i, j;
	ssize_t n;
	int objs = 0;

	memset(r, 0, sizeof(*r));
	if (!f) {
		snprintf(why, len, "cannot open: %s", strerror(errno));
		return -1;
	}
	while ((n = getline(&line, &cap, f)) >= 0) {
		json_object *root, *arr, *v;
		const char *units;

		lineno++;
		if (strspn(line, " \t\r\n") == (size_t)n)
			continue;
		root = json_tokener_parse(line);
		if (!root || !json_object_is_type(root, json_type_object)) {
			snprintf(why, len, "line %zu is not a JSON object", lineno);
			goto fail_root;
		}
		units = get_str(root, "units");
		if (!json_object_object_get_ex(root, "callbacks", &arr) ||
		    !json_object_is_type(arr, json_type_array) || !units) {
			snprintf(why, len, "line %zu has no \"callbacks\" array or \"units\" "
				 "(not latency -j / report -j output)", lineno);
			goto fail_root;
		}
		if (objs && strcmp(units, r->units)) {
			snprintf(why, len, "line %zu is in %s, earlier lines in %s", lineno,
				 units, r->units);
			goto fail_root;
		}
		snprintf(r->units, sizeof(r->units), "%s", units);
		objs++;
		for (i = 0; i < json_object_array_length(arr); i++) {
			json_object *o = json_object_array_get_idx(arr, i), *hist;
			const char *chain = get_str(o, "chain"), *cb = get_str(o, "callback");
			struct row *row = NULL;

			if (!chain || !cb) {
				snprintf(why, len, "line %zu: callbacks[%zu] lacks chain/callback",
					 lineno, i);
				goto fail_root;
			}
			for (j = 0; j < r->n; j++)
				if (!strcmp(r->rows[j].chain, chain) &&
				    !strcmp(r->rows[j].callback, cb))
					row = &r->rows[j];
			if (!row) {
				struct row *p = realloc(r->rows, (r->n + 1) * sizeof(*p));

				if (!p)
					goto nomem;
				r->rows = p;
				row = &r->rows[r->n++];
				memset(row, 0, sizeof(*row));
				row->chain = strdup(chain);
				row->callback = strdup(cb);
			}
			row->count += get_u64(o, "count");
			row->veto += get_u64(o, "stop") + get_u64(o, "bad") + get_u64(o, "errno");
			if (get_u64(o, "max") > row->max)
				row->max = get_u64(o, "max");
			if (get_u64(o, "max_ns") > row->max_ns)
				row->max_ns = get_u64(o, "max_ns");
			if (!json_object_object_get_ex(o, "histogram", &hist) ||
			    !json_object_is_type(hist, json_type_array)) {
				snprintf(why, len, "line %zu: callbacks[%zu] has no histogram",
					 lineno, i);
				goto fail_root;
			}
			for (j = 0; j < json_object_array_length(hist); j++) {
				json_object *b = json_object_array_get_idx(hist, j);
				unsigned int slot;

				if (!b || !json_object_object_get_ex(b, "min", &v)) {
					snprintf(why, len, "line %zu: bad histogram bucket", lineno);
					goto fail_root;
				}
				slot = log2_bucket(json_object_get_uint64(v));
				if (slot >= CS_MAX_SLOTS)
					slot = CS_MAX_SLOTS - 1;
				row->slots[slot] += get_u64(b, "count");
			}
		}
		json_object_put(root);
		continue;
fail_root:
		json_object_put(root);
		goto fail;
	}
	free(line);
	fclose(f);
	if (!objs) {
		snprintf(why, len, "no JSON object in the file");
		return -1;
	}
	for (i = 0; i < r->n; i++) {
		struct row *row = &r->rows[i];
		unsigned long long max = row->max;

		/* p50/p99 from the summed histogram, capped at the max seen */
		cs_summarize(row->slots, row->count, row->max_ns, units_of(r->units),
			     &row->s);
		if (!row->max_ns) {	/* no max_ns key: trust "max" */
			row->s.max = max;
			if (row->s.p50 > max)
				row->s.p50 = max;
			if (row->s.p99 > max)
				row->s.p99 = max;
		}
	}
	return 0;
nomem:
	snprintf(why, len, "out of memory");
fail:
	free(line);
	fclose(f);
	return -1;
}

static void free_result(struct result *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		free(r->rows[i].chain);
		free(r->rows[i].callback);
	}
	free(r->rows);
}

static unsigned long long metric(const struct row *r, int m)
{
	return m == M_COUNT ? r->s.count : m == M_P50 ? r->s.p50 :
	       m == M_P99 ? r->s.p99 : r->s.max;
}

static const struct row *find(const struct result *r, const struct row *like)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->rows[i].chain, like->chain) &&
		    !strcmp(r->rows[i].callback, like->callback))
			return &r->rows[i];
	return NULL;
}

static void cell(char *buf, size_t len, const struct row *b, const struct row *n, int m)
{
	if (!b)
		snprintf(buf, len, "- -> %llu", metric(n, m));
	else if (!n)
		snprintf(buf, len, "%llu -> -", metric(b, m));
	else if (metric(b, m))
		snprintf(buf, len, "%llu -> %llu (%+.0f%%)", metric(b, m), metric(n, m),
			 100.0 * ((double)metric(n, m) - metric(b, m)) / metric(b, m));
	else
		snprintf(buf, len, "%llu -> %llu", metric(b, m), metric(n, m));
}

static int judge(const struct budget *bu, const struct row *b, const struct row *n,
		 char *why, size_t len)
{
	size_t used = 0;
	int m, broke = 0;

#define ADD(...) do { \
	int k = snprintf(why + used, len - used, "%s", broke++ ? "," : ""); \
	if (k > 0 && (size_t)k < len - used) used += k; \
	k = snprintf(why + used, len - used, __VA_ARGS__); \
	if (k > 0 && (size_t)k < len - used) used += k; \
} while (0)
	why[0] = '\0';
	if (!b) {
		if (bu->new_cb)
			ADD("new-callback");
		if (bu->new_veto && n->veto)
			ADD("new-veto");
		return broke;
	}
	if (!n) {
		if (bu->gone_cb)
			ADD("gone-callback");
		return broke;
	}
	if (bu->new_veto && !b->veto && n->veto)
		ADD("new-veto");
	for (m = 0; m < M_NR; m++) {
		double lim, bv = metric(b, m), nv = metric(n, m);

		if (!bu->limit[m])
			continue;
		if (m != M_COUNT && (b->s.count < bu->min_count || n->s.count < bu->min_count))
			continue;
		lim = bu->pct[m] ? bv * (1 + bu->amount[m] / 100) : bv + bu->amount[m];
		if (nv > lim)
			ADD("%s:+%g%s", metric_names[m], bu->amount[m], bu->pct[m] ? "%" : "");
	}
	return broke;
#undef ADD
}

static void print_row(const char *verdict, const char *chain, const char *cb,
		      const struct row *b, const struct row *n)
{
	char c[4][64];
	int m;

	for (m = 0; m < M_NR; m++)
		cell(c[m], sizeof(c[m]), b, n, m);
	printf("%-24s %-28s %-22s %-22s %-22s %-22s %s\n", chain, cb, c[M_COUNT], c[M_P50],
	       c[M_P99], c[M_MAX], verdict);
}

int cmd_diff(int argc, char **argv)
{
	struct result base, new;
	struct budget bu;
	char why[512], verdict[600];
	size_t i, fails = 0, shown = 0;

	memset(&env, 0, sizeof(env));
	env.cmd = argv[0];
	env.budget = DEFAULT_BUDGET;
	cs_parse_args(&argp, argc, argv, &env);
	if (parse_budget(env.budget, &bu, why, sizeof(why))) {
		warn("%s: error: %s\n", env.cmd, why);
		return CS_EXIT_USAGE;
	}
	if (load(env.base, &base, why, sizeof(why))) {
		warn("%s: error: %s: %s\n", env.cmd, env.base, why);
		return CS_EXIT_USAGE;
	}
	if (load(env.new, &new, why, sizeof(why))) {
		warn("%s: error: %s: %s\n", env.cmd, env.new, why);
		free_result(&base);
		return CS_EXIT_USAGE;
	}
	if (strcmp(base.units, new.units)) {
		warn("%s: error: %s is in %s, %s in %s: use the same -n/-u/-m\n", env.cmd,
		     env.base, base.units, env.new, new.units);
		free_result(&base);
		free_result(&new);
		return CS_EXIT_USAGE;
	}
	printf("units: %s  budget: %s\n", new.units, env.budget);
	printf("%-24s %-28s %-22s %-22s %-22s %-22s %s\n", "CHAIN", "CALLBACK", "COUNT",
	       "P50", "P99", "MAX", "VERDICT");
	for (i = 0; i < new.n; i++) {
		const struct row *n = &new.rows[i], *b = find(&base, n);
		int broke = judge(&bu, b, n, why, sizeof(why));
		bool changed = !b || metric(b, M_COUNT) != metric(n, M_COUNT) ||
			       metric(b, M_P50) != metric(n, M_P50) ||
			       metric(b, M_P99) != metric(n, M_P99) ||
			       metric(b, M_MAX) != metric(n, M_MAX);

		snprintf(verdict, sizeof(verdict), broke ? "FAIL %s" : "ok", why);
		fails += broke > 0;
		if (broke || changed || env.all) {
			print_row(verdict, n->chain, n->callback, b, n);
			shown++;
		}
	}
	for (i = 0; i < base.n; i++) {
		const struct row *b = &base.rows[i];
		int broke;

		if (find(&new, b))
			continue;
		broke = judge(&bu, b, NULL, why, sizeof(why));
		snprintf(verdict, sizeof(verdict), broke ? "FAIL %s" : "gone", why);
		fails += broke > 0;
		print_row(verdict, b->chain, b->callback, b, NULL);
		shown++;
	}
	if (!shown)
		printf("(no differences in %zu rows)\n", new.n);
	if (fails)
		printf("budget exceeded: %zu row%s\n", fails, fails == 1 ? "" : "s");
	else
		printf("within budget\n");
	free_result(&base);
	free_result(&new);
	return fails ? CS_EXIT_ERROR : CS_EXIT_OK;
}
