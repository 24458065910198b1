// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope diff: budget rules and the verdict. A budget string is read
 * left to right into a struct cs_diff_budget; every token must be a rule
 * this file knows, with a well-formed number, or the whole budget is
 * refused: a typo must never leave a gate that cannot fail.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "trace_helpers.h"

static const char *const metric_names[CS_DIFF_NR_METRICS] = { "count", "p50", "p99", "max" };

static const struct {
	const char *name;
	unsigned int bit;
} named[] = {
	{ "new-callback", CS_DIFF_NEW_CALLBACK },
	{ "new-veto", CS_DIFF_NEW_VETO },
	{ "gone-callback", CS_DIFF_GONE_CALLBACK },
	{ "no-callbacks", CS_DIFF_NO_CALLBACKS },
	{ "lost-events", CS_DIFF_LOST_EVENTS },
};
#define NR_NAMED (sizeof(named) / sizeof(named[0]))

#define RULES_HELP "METRIC:+N[%|ns|us|ms], min-count:N, new-callback, new-veto, " \
	"gone-callback, no-callbacks, lost-events, default, -RULE"

__attribute__((format(printf, 3, 4)))
static int rule_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* min-count:N: digits only, no sign, no blanks, fits in 64 bits */
static int parse_count(const char *rule, const char *v, unsigned long long *out,
		       char *err, size_t errlen)
{
	char *end;

	if (*v == '-')
		return rule_err(err, errlen, "invalid budget rule '%s': N must not be negative",
				rule);
	if (*v < '0' || *v > '9')
		return rule_err(err, errlen, "invalid budget rule '%s': N is not a number",
				rule);
	errno = 0;
	*out = strtoull(v, &end, 10);
	if (errno == ERANGE)
		return rule_err(err, errlen, "invalid budget rule '%s': N is out of range",
				rule);
	if (errno || *end)
		return rule_err(err, errlen, "invalid budget rule '%s': N is not a number",
				rule);
	return 0;
}

/* METRIC:+N, METRIC:+N%, METRIC:+N{ns,us,ms}; N is digits[.digits] */
static int parse_limit(const char *rule, int m, const char *v, struct cs_diff_limit *l,
		       char *err, size_t errlen)
{
	char num[32], *end;
	size_t n, i;

	if (*v != '+')
		return rule_err(err, errlen, "invalid budget rule '%s': want %s:+N, "
				"%s:+N%% or %s:+N with a unit (ns, us, ms)", rule,
				metric_names[m], metric_names[m], metric_names[m]);
	v++;
	n = strspn(v, "0123456789");
	if (n && v[n] == '.') {
		i = strspn(v + n + 1, "0123456789");
		n = i ? n + 1 + i : 0;
	}
	/* not a unit but more number: a second '.', an exponent, hex */
	if (!n || v[n] == '.' ||
	    ((v[n] == 'e' || v[n] == 'E') && v[n + 1] && strchr("0123456789+-", v[n + 1])) ||
	    ((v[n] == 'x' || v[n] == 'X') && n == 1 && v[0] == '0'))
		return rule_err(err, errlen, "invalid budget rule '%s': N is not a number "
				"(digits, optionally .digits)", rule);
	if (n >= sizeof(num))
		return rule_err(err, errlen, "invalid budget rule '%s': N is out of range", rule);
	memcpy(num, v, n);
	num[n] = '\0';
	errno = 0;
	l->amount = strtod(num, &end);
	if (errno || *end || !isfinite(l->amount))
		return rule_err(err, errlen, "invalid budget rule '%s': N is out of range", rule);
	v += n;
	l->pct = false;
	l->unit_ns = 0;
	l->unit = "";
	if (!strcmp(v, "%")) {
		l->pct = true;
		l->unit = "%";
	} else if (*v) {
		int u = cs_unit_find(v, true);

		if (u < 0)
			return rule_err(err, errlen, "invalid budget rule '%s': unknown unit "
					"'%s' (%%, ns, us, ms)", rule, v);
		if (m == CS_DIFF_COUNT)
			return rule_err(err, errlen, "invalid budget rule '%s': count is a "
					"number of calls, it takes no time unit", rule);
		l->unit_ns = cs_units[u].ns;
		l->unit = cs_units[u].suffix;
	}
	l->on = true;
	return 0;
}

static int parse_rule(char *t, struct cs_diff_budget *b, char *err, size_t errlen);

static int apply_default(struct cs_diff_budget *b, char *err, size_t errlen)
{
	char copy[] = CS_DIFF_DEFAULT, *tok, *save = NULL;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (parse_rule(tok, b, err, errlen))
			return -1;
	return 0;
}

static int parse_rule(char *t, struct cs_diff_budget *b, char *err, size_t errlen)
{
	bool off = *t == '-';
	const char *name = t + off;
	char *colon = strchr(name, ':');
	size_t i;
	int m;

	if (!strcmp(name, "default")) {
		if (off)
			return rule_err(err, errlen, "invalid budget rule '%s': turn off single "
					"rules instead, e.g. -new-veto", t);
		return apply_default(b, err, errlen);
	}
	for (i = 0; i < NR_NAMED; i++) {
		if (strcmp(name, named[i].name))
			continue;
		if (off)
			b->rules &= ~named[i].bit;
		else
			b->rules |= named[i].bit;
		return 0;
	}
	if (colon && off)
		return rule_err(err, errlen, "invalid budget rule '%s': turn a rule off by "
				"its name alone, e.g. -%.*s", t, (int)(colon - name), name);
	if (colon)
		*colon = '\0';
	for (m = 0; m < CS_DIFF_NR_METRICS; m++)
		if (!strcmp(name, metric_names[m]))
			break;
	if (m < CS_DIFF_NR_METRICS || !strcmp(name, "min-count")) {
		const char *v = colon ? colon + 1 : NULL;
		int rc = 0;

		if (colon)
			*colon = ':';
		if (off) {
			if (m < CS_DIFF_NR_METRICS)
				b->limit[m].on = false;
			else
				b->min_count = 0;
		} else if (!v) {
			rc = rule_err(err, errlen, "invalid budget rule '%s': give a limit, "
				      "e.g. %s", t, m < CS_DIFF_NR_METRICS ?
				      "p99:+20%" : "min-count:20");
		} else if (m < CS_DIFF_NR_METRICS) {
			rc = parse_limit(t, m, v, &b->limit[m], err, errlen);
		} else {
			rc = parse_count(t, v, &b->min_count, err, errlen);
		}
		return rc;
	}
	if (colon)
		*colon = ':';
	return rule_err(err, errlen, "unknown budget rule '%s' (rules: %s)", t, RULES_HELP);
}

int cs_diff_parse_budget(const char *s, struct cs_diff_budget *b, char *err,
			 size_t errlen)
{
	const char *p = s;
	bool any = false;
	size_t len;
	int m;

	memset(b, 0, sizeof(*b));
	b->rules = CS_DIFF_GUARDS;
	for (len = 0; s[len]; len++)
		if (s[len] < 0x20 || s[len] > 0x7e)
			return rule_err(err, errlen, "invalid budget: byte 0x%02x at %zu (rules "
					"are printable ASCII)", (unsigned char)s[len], len);
	for (;;) {
		size_t lead, trail;
		char t[64];

		/* blanks around a rule are allowed, an empty rule is not */
		len = strcspn(p, ",");
		lead = strspn(p, " ");
		if (lead > len)
			lead = len;
		for (trail = len; trail > lead && p[trail - 1] == ' ';)
			trail--;
		if (trail == lead && !*s)
			return rule_err(err, errlen, "empty budget: give rules, e.g. "
					"'default' (see --help)");
		if (trail == lead)
			return rule_err(err, errlen, "empty rule in budget '%.80s' (see "
					"--help)", s);
		if (trail - lead >= sizeof(t))
			return rule_err(err, errlen, "invalid budget rule '%.40s...': too long",
					p + lead);
		memcpy(t, p + lead, trail - lead);
		t[trail - lead] = '\0';
		if (parse_rule(t, b, err, errlen))
			return -1;
		if (!p[len])
			break;
		p += len + 1;
	}
	for (m = 0; m < CS_DIFF_NR_METRICS; m++)
		any |= b->limit[m].on;
	if (!any && !b->rules)
		return rule_err(err, errlen, "budget '%.80s' leaves no rule on: nothing "
				"could fail", s);
	return 0;
}

/* "p99:+20%" */
static void limit_str(const struct cs_diff_budget *b, int m, char *buf, size_t len)
{
	snprintf(buf, len, "%s:+%g%s", metric_names[m], b->limit[m].amount, b->limit[m].unit);
}

void cs_diff_budget_str(const struct cs_diff_budget *b, char *buf, size_t len)
{
	size_t used = 0, i;
	char one[64];
	int m;

#define ADD(s) do { \
	int k = snprintf(buf + used, len - used, "%s%s", used ? "," : "", (s)); \
	if (k > 0 && (size_t)k < len - used) used += k; \
} while (0)
	buf[0] = '\0';
	for (m = 0; m < CS_DIFF_NR_METRICS; m++) {
		if (!b->limit[m].on)
			continue;
		limit_str(b, m, one, sizeof(one));
		ADD(one);
	}
	if (b->min_count) {
		snprintf(one, sizeof(one), "min-count:%llu", b->min_count);
		ADD(one);
	}
	for (i = 0; i < NR_NAMED; i++) {
		if (b->rules & named[i].bit) {
			ADD(named[i].name);
		} else if (named[i].bit & CS_DIFF_GUARDS) {
			snprintf(one, sizeof(one), "-%s", named[i].name);
			ADD(one);
		}
	}
#undef ADD
}

/* --- verdict --------------------------------------------------------------- */

static unsigned long long metric(const struct cs_diff_row *r, int m)
{
	return m == CS_DIFF_COUNT ? r->count : m == CS_DIFF_P50 ? r->p50 :
	       m == CS_DIFF_P99 ? r->p99 : r->max;
}

static void cell(char *buf, size_t len, const struct cs_diff_row *b,
		 const struct cs_diff_row *n, int m)
{
	if (!b)
		snprintf(buf, len, "- -> %llu", metric(n, m));
	else if (!n)
		snprintf(buf, len, "%llu -> -", metric(b, m));
	else if (metric(b, m))
		snprintf(buf, len, "%llu -> %llu (%+.0f%%)", metric(b, m), metric(n, m),
			 100.0 * ((double)metric(n, m) - (double)metric(b, m)) /
			 (double)metric(b, m));
	else
		snprintf(buf, len, "%llu -> %llu", metric(b, m), metric(n, m));
}

/* What fired, for the summary line: bits of named rules, metrics apart. */
struct fired {
	unsigned int rules;
	bool limit[CS_DIFF_NR_METRICS];
};

/*
 * The rules a row breaks, comma-separated in why; returns how many.
 * b or n is NULL for a row only one file has.
 */
static int judge(const struct cs_diff_budget *bu, unsigned long long unit_ns,
		 const struct cs_diff_row *b, const struct cs_diff_row *n,
		 struct fired *f, char *why, size_t len)
{
	size_t used = 0;
	int m, broke = 0;
	char one[64];

#define ADD(s) do { \
	int k = snprintf(why + used, len - used, "%s%s", broke++ ? "," : "", (s)); \
	if (k > 0 && (size_t)k < len - used) used += k; \
} while (0)
#define RULE(bit, name) do { f->rules |= (bit); ADD(name); } while (0)
	why[0] = '\0';
	if (!b) {
		if (bu->rules & CS_DIFF_NEW_CALLBACK)
			RULE(CS_DIFF_NEW_CALLBACK, "new-callback");
		if ((bu->rules & CS_DIFF_NEW_VETO) && n->veto)
			RULE(CS_DIFF_NEW_VETO, "new-veto");
		return broke;
	}
	if (!n) {
		if (bu->rules & CS_DIFF_GONE_CALLBACK)
			RULE(CS_DIFF_GONE_CALLBACK, "gone-callback");
		return broke;
	}
	if ((bu->rules & CS_DIFF_NEW_VETO) && !b->veto && n->veto)
		RULE(CS_DIFF_NEW_VETO, "new-veto");
	for (m = 0; m < CS_DIFF_NR_METRICS; m++) {
		const struct cs_diff_limit *l = &bu->limit[m];
		double lim, bv = (double)metric(b, m), nv = (double)metric(n, m);

		if (!l->on)
			continue;
		if (m != CS_DIFF_COUNT && (b->count < bu->min_count || n->count < bu->min_count))
			continue;
		if (l->pct)
			lim = bv * (1 + l->amount / 100);
		else if (l->unit_ns)	/* a time: in the files' units */
			lim = bv + l->amount * (double)l->unit_ns / (double)unit_ns;
		else
			lim = bv + l->amount;
		if (nv > lim) {
			f->limit[m] = true;
			limit_str(bu, m, one, sizeof(one));
			ADD(one);
		}
	}
	return broke;
#undef RULE
#undef ADD
}

/*
 * Rows pair by key: names (chain, callback, val) and the addresses the
 * files have (chain_addr, callback_addr, nb_addr). Addresses change with
 * the boot (KASLR, the heap), so rows left without a partner pair
 *   1. by the block's symbol (nb that is a name, not 0x...), within the
 *      same (chain, callback, val);
 *   2. when exactly one row of a (chain, callback, val) is left on each
 *      side: the same callback through its one block.
 * With more left, which is which cannot be told: they stay gone and new.
 */
struct group {
	UT_hash_handle hh;
	size_t nbase, nnew;		/* rows in each file */
	size_t lbase, lnew;		/* of them without a partner yet */
	const struct cs_diff_row *base, *new;	/* the last of those */
};

static struct group *group_of(struct group **tab, const struct cs_diff_row *r)
{
	struct group *g;

	HASH_FIND(hh, *tab, r->key, r->grouplen, g);
	if (!g) {
		g = calloc(1, sizeof(*g));
		if (!g)
			return NULL;
		HASH_ADD_KEYPTR(hh, *tab, r->key, r->grouplen, g);
	}
	return g;
}

/* rows of BASE by (chain, callback, val, nb symbol), for step 1 */
struct named {
	UT_hash_handle hh;
	const struct cs_diff_row *row;	/* NULL: two rows share the name */
	size_t len;
	char key[];
};

static bool nb_is_symbol(const struct cs_diff_row *r)
{
	return r->nb && strncmp(r->nb, "0x", 2);
}

/* group part, '\0', nb into buf; its length */
static size_t named_key(const struct cs_diff_row *r, char *buf)
{
	size_t n = strlen(r->nb);

	memcpy(buf, r->key, r->grouplen);
	buf[r->grouplen] = '\0';
	memcpy(buf + r->grouplen + 1, r->nb, n);
	return r->grouplen + 1 + n;
}

static int pair_by_symbol(const struct cs_diff_input *base, const struct cs_diff_input *new,
			  const struct cs_diff_row **bpeer, const struct cs_diff_row **npeer)
{
	struct named *tab = NULL, *e, *tmp;
	const struct cs_diff_row *r;
	char *key;
	size_t len;
	int rc = 0;

	for (r = cs_diff_input_rows(base); r && !rc; r = r->hh.next) {
		if (bpeer[r->idx] || !nb_is_symbol(r))
			continue;
		e = malloc(sizeof(*e) + r->grouplen + 1 + strlen(r->nb));
		if (!e) {
			rc = -1;
			break;
		}
		len = named_key(r, e->key);
		HASH_FIND(hh, tab, e->key, len, tmp);
		if (tmp) {
			tmp->row = NULL;
			free(e);
			continue;
		}
		e->row = r;
		e->len = len;
		HASH_ADD_KEYPTR(hh, tab, e->key, e->len, e);
	}
	for (r = cs_diff_input_rows(new); r && !rc; r = r->hh.next) {
		if (npeer[r->idx] || !nb_is_symbol(r))
			continue;
		key = malloc(r->grouplen + 1 + strlen(r->nb));
		if (!key) {
			rc = -1;
			break;
		}
		len = named_key(r, key);
		HASH_FIND(hh, tab, key, len, e);
		free(key);
		if (e && e->row && !bpeer[e->row->idx]) {
			npeer[r->idx] = e->row;
			bpeer[e->row->idx] = r;
		}
	}
	HASH_ITER(hh, tab, e, tmp) {
		HASH_DEL(tab, e);
		free(e);
	}
	return rc;
}

static void free_groups(struct group **tab)
{
	struct group *g, *tmp;

	HASH_ITER(hh, *tab, g, tmp) {
		HASH_DEL(*tab, g);
		free(g);
	}
}

/* peer[] per file, by row index; 0 or -1 (out of memory) */
static int pair_rows(const struct cs_diff_input *base, const struct cs_diff_input *new,
		     const struct cs_diff_row **bpeer, const struct cs_diff_row **npeer,
		     struct group **groups)
{
	const struct cs_diff_row *r, *b;
	struct group *g;

	for (r = cs_diff_input_rows(new); r; r = r->hh.next) {
		b = cs_diff_input_find(base, r);
		if (b) {
			npeer[r->idx] = b;
			bpeer[b->idx] = r;
		}
	}
	if (pair_by_symbol(base, new, bpeer, npeer))
		return -1;
	for (r = cs_diff_input_rows(base); r; r = r->hh.next) {
		if (!(g = group_of(groups, r)))
			return -1;
		g->nbase++;
		if (!bpeer[r->idx]) {
			g->lbase++;
			g->base = r;
		}
	}
	for (r = cs_diff_input_rows(new); r; r = r->hh.next) {
		if (!(g = group_of(groups, r)))
			return -1;
		g->nnew++;
		if (!npeer[r->idx]) {
			g->lnew++;
			g->new = r;
		}
	}
	for (g = *groups; g; g = g->hh.next) {
		if (g->lbase == 1 && g->lnew == 1) {
			npeer[g->new->idx] = g->base;
			bpeer[g->base->idx] = g->new;
		}
	}
	return 0;
}

/*
 * The callback as the row prints: its name, " val=V" for latency -a, and
 * when the name repeats on the chain in either file, what tells the rows
 * apart: "[nb=NAME]" (the block's symbol, or its 0x address), else
 * "[cb=0xADDR]" (two functions of one name).
 */
static const char *row_name(const struct cs_diff_row *r, struct group **groups,
			    char *buf, size_t len)
{
	struct group *g;
	size_t n;

	HASH_FIND(hh, *groups, r->key, r->grouplen, g);
	snprintf(buf, len, "%s", r->callback);
	n = strlen(buf);
	if (g && (g->nbase > 1 || g->nnew > 1)) {
		if (r->nb)
			snprintf(buf + n, len - n, " [nb=%s]", r->nb);
		else if (r->callback_addr)
			snprintf(buf + n, len - n, " [cb=%s]", r->callback_addr);
		n = strlen(buf);
	}
	if (r->val)
		snprintf(buf + n, len - n, " val=%s", r->val);
	return buf;
}

static void print_row(FILE *out, const char *verdict, const char *chain, const char *cb,
		      const struct cs_diff_row *b, const struct cs_diff_row *n)
{
	char c[CS_DIFF_NR_METRICS][64];
	int m;

	for (m = 0; m < CS_DIFF_NR_METRICS; m++)
		cell(c[m], sizeof(c[m]), b, n, m);
	fprintf(out, "%-24s %-28s %-22s %-22s %-22s %-22s %s\n", chain, cb,
		c[CS_DIFF_COUNT], c[CS_DIFF_P50], c[CS_DIFF_P99], c[CS_DIFF_MAX], verdict);
}

/* "lost 3, missed 2"; returns the number of non-zero counters */
static int loss_str(const struct cs_diff_input *in, char *buf, size_t len)
{
	const struct cs_diff_loss *loss;
	int i, n = cs_diff_input_loss(in, &loss), nz = 0;
	size_t used = 0;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		int k;

		if (!loss[i].n)
			continue;
		k = snprintf(buf + used, len - used, "%s%s %llu", nz++ ? ", " : "",
			     loss[i].name, loss[i].n);
		if (k > 0 && (size_t)k < len - used)
			used += k;
	}
	return nz;
}

/* an output's "units" (read checked them), usecs for any other */
static unsigned long long units_ns(const char *units)
{
	return cs_unit(cs_unit_find(units, false))->ns;
}

int cs_diff_compare(const struct cs_diff_budget *bu, const struct cs_diff_input *base,
		    const struct cs_diff_input *new, bool all, FILE *out,
		    char *err, size_t errlen)
{
	const char *units = cs_diff_input_units(new);
	unsigned long long uns = units_ns(units);
	const struct cs_diff_row *r, **bpeer, **npeer;
	struct group *groups = NULL;
	struct fired f = { 0 };
	char why[512], verdict[600], text[512], name[1200];
	size_t fails = 0, shown = 0, i, used;
	int m;

	if (strcmp(cs_diff_input_units(base), units)) {
		snprintf(err, errlen, "%s is in %s, %s in %s: use the same -n/-u/-m",
			 cs_diff_input_name(base), cs_diff_input_units(base),
			 cs_diff_input_name(new), units);
		return 2;
	}
	bpeer = calloc(cs_diff_input_nrows(base) + 1, sizeof(*bpeer));
	npeer = calloc(cs_diff_input_nrows(new) + 1, sizeof(*npeer));
	if (!bpeer || !npeer || pair_rows(base, new, bpeer, npeer, &groups)) {
		free(bpeer);
		free(npeer);
		free_groups(&groups);
		snprintf(err, errlen, "out of memory");
		return 2;
	}
	cs_diff_budget_str(bu, text, sizeof(text));
	fprintf(out, "units: %s  budget: %s\n", units, text);
	fprintf(out, "%-24s %-28s %-22s %-22s %-22s %-22s %s\n", "CHAIN", "CALLBACK",
		"COUNT", "P50", "P99", "MAX", "VERDICT");
	for (r = cs_diff_input_rows(new); r; r = r->hh.next) {
		const struct cs_diff_row *b = npeer[r->idx];
		int broke = judge(bu, uns, b, r, &f, why, sizeof(why));
		bool changed = !b;

		for (m = 0; m < CS_DIFF_NR_METRICS && b; m++)
			changed |= metric(b, m) != metric(r, m);
		snprintf(verdict, sizeof(verdict), broke ? "FAIL %s" : "ok", why);
		fails += broke > 0;
		if (broke || changed || all) {
			print_row(out, verdict, r->chain,
				  row_name(r, &groups, name, sizeof(name)), b, r);
			shown++;
		}
	}
	for (r = cs_diff_input_rows(base); r; r = r->hh.next) {
		int broke;

		if (bpeer[r->idx])
			continue;
		broke = judge(bu, uns, r, NULL, &f, why, sizeof(why));
		snprintf(verdict, sizeof(verdict), broke ? "FAIL %s" : "gone", why);
		fails += broke > 0;
		print_row(out, verdict, r->chain, row_name(r, &groups, name, sizeof(name)),
			  r, NULL);
		shown++;
	}
	free(bpeer);
	free(npeer);
	free_groups(&groups);
	if (!shown)
		fprintf(out, "(no differences in %zu rows)\n", cs_diff_input_nrows(new));

	/* whole-file rules */
	if ((bu->rules & CS_DIFF_NO_CALLBACKS) && !cs_diff_input_nrows(new)) {
		f.rules |= CS_DIFF_NO_CALLBACKS;
		fprintf(out, "FAIL no-callbacks: %s has no callbacks: nothing to compare\n",
			cs_diff_input_name(new));
	}
	if (loss_str(new, why, sizeof(why))) {
		if (bu->rules & CS_DIFF_LOST_EVENTS) {
			f.rules |= CS_DIFF_LOST_EVENTS;
			fprintf(out, "FAIL lost-events: %s lost events (%s): its numbers "
				"are incomplete\n", cs_diff_input_name(new), why);
		} else {
			fprintf(out, "note: %s lost events (%s), rule lost-events is off\n",
				cs_diff_input_name(new), why);
		}
	}
	if (loss_str(base, why, sizeof(why)))
		fprintf(out, "note: %s (BASE) lost events (%s)\n", cs_diff_input_name(base), why);
	/* probes mode times a callback with its probes' overhead */
	if (*cs_diff_input_mode(base) && *cs_diff_input_mode(new) &&
	    strcmp(cs_diff_input_mode(base), cs_diff_input_mode(new)))
		fprintf(out, "note: BASE is mode %s, NEW mode %s: probes mode's callback "
			"times include the probes' overhead, so durations differ by more "
			"than the code\n", cs_diff_input_mode(base), cs_diff_input_mode(new));

	if (!fails && !f.rules) {
		fprintf(out, "within budget\n");
		return 0;
	}
	/* "budget exceeded: 2 rows (p99:+20%, new-veto), lost-events" */
	used = 0;
	text[0] = '\0';
#define ADD(s) do { \
	int k = snprintf(text + used, sizeof(text) - used, "%s%s", used ? ", " : "", (s)); \
	if (k > 0 && (size_t)k < sizeof(text) - used) used += k; \
} while (0)
	for (m = 0; m < CS_DIFF_NR_METRICS; m++) {
		if (!f.limit[m])
			continue;
		limit_str(bu, m, why, sizeof(why));
		ADD(why);
	}
	for (i = 0; i < NR_NAMED; i++)
		if ((f.rules & named[i].bit) &&
		    !(named[i].bit & (CS_DIFF_NO_CALLBACKS | CS_DIFF_LOST_EVENTS)))
			ADD(named[i].name);
#undef ADD
	if (fails)
		fprintf(out, "budget exceeded: %zu row%s (%s)", fails, fails == 1 ? "" : "s",
			text);
	else
		fprintf(out, "budget exceeded:");
	if (f.rules & CS_DIFF_NO_CALLBACKS)
		fprintf(out, "%s no-callbacks", fails ? "," : "");
	if (f.rules & CS_DIFF_LOST_EVENTS)
		fprintf(out, "%s lost-events", fails || (f.rules & CS_DIFF_NO_CALLBACKS) ?
			"," : "");
	fprintf(out, "\n");
	return 1;
}
