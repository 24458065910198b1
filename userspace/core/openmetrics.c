// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope's rows in the Prometheus text exposition format (see
 * openmetrics.h for the families). Label values are escaped as the
 * format requires; nothing else a kernel or a trace file names reaches
 * the output unescaped (metric and label names are ours).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define HASH_NONFATAL_OOM 1	/* a failed add leaves the item's hh.tbl NULL */
#include <uthash.h>

#include "chainscope.h"
#include "openmetrics.h"

#define OM_MAX_LE_S 128.0	/* last finite bucket bound, seconds */

void cs_om_escape(FILE *f, const char *value)
{
	const char *p;

	for (p = value; *p; p++) {
		if (*p == '\\')
			fputs("\\\\", f);
		else if (*p == '"')
			fputs("\\\"", f);
		else if (*p == '\n')
			fputs("\\n", f);
		else
			fputc(*p, f);
	}
}

static void label(FILE *f, const char *name, const char *value, bool first)
{
	fprintf(f, "%s%s=\"", first ? "" : ",", name);
	cs_om_escape(f, value);
	fputc('"', f);
}

static void family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* A symbol's module as a label: its module, "vmlinux", or "" (no symbol) */
static const char *sym_module(const struct cs_sym *s)
{
	return s->module ? s->module : s->name ? "vmlinux" : "";
}

/* the labels of a callback row, without braces */
static void cb_labels(FILE *f, const struct cs_cbrow *r)
{
	char chain[CS_SYMSTR_LEN], cb[CS_SYMSTR_LEN], blk[CS_SYMSTR_LEN + 64];

	label(f, "chain", cs_sym_str(&r->chain, chain, sizeof(chain)), true);
	label(f, "callback", cs_sym_str(&r->cb, cb, sizeof(cb)), false);
	label(f, "module", sym_module(&r->cb), false);
	label(f, "kind", cs_kind_name(r->kind), false);
	label(f, "block", cs_cbrow_label_str(r, blk, sizeof(blk)), false);
}

/*
 * the labels of a chain (passes, lock waits), without braces; with head,
 * the head's address too (cs_addr_str: "addr#N" unless shown), for rows
 * of heads that print alike
 */
static void chain_labels(FILE *f, const struct cs_sym *chain, int kind, bool head)
{
	char name[CS_SYMSTR_LEN];

	label(f, "chain", cs_sym_str(chain, name, sizeof(name)), true);
	label(f, "module", sym_module(chain), false);
	label(f, "kind", cs_kind_name(kind), false);
	if (head)
		label(f, "head", cs_addr_str(chain->addr, name, sizeof(name)), false);
}

struct ident {
	UT_hash_handle hh;
	size_t n;
	char key[];
};

/* a lock op as its label: "read", "write", or its number (a crafted trace's) */
static const char *op_str(unsigned int op, char *buf, size_t len)
{
	if (op <= 1)
		return cs_lock_op_name(op);
	snprintf(buf, len, "%u", op);
	return buf;
}

/* a chain row's printed identity: chain, module, kind and op */
static size_t chain_ident(const struct cs_sym *chain, int kind, const char *op, char *buf,
			  size_t len)
{
	char name[CS_SYMSTR_LEN];
	int n = snprintf(buf, len, "%s%c%s%c%d%c%s", cs_sym_str(chain, name, sizeof(name)),
			 0, sym_module(chain), 0, kind, 0, op);

	return n < 0 ? 0 : (size_t)n >= len ? len - 1 : (size_t)n;
}

/*
 * For n chain rows (passes: op ""), whether each needs a head label: its
 * identity repeats, as two heads' that print alike do. calloc'ed; NULL
 * if out of memory (then every row gets one: still no two alike).
 */
static bool *chain_repeats(size_t n, const struct cs_sym *(*chain)(const void *, size_t),
			   int (*kind)(const void *, size_t), const char *(*op)(const void *, size_t, char *, size_t),
			   const void *rows)
{
	char key[3 * CS_SYMSTR_LEN], o[16];
	struct ident *tab = NULL, *k, *tmp, **of = calloc(n + 1, sizeof(*of));
	bool *rep = calloc(n + 1, sizeof(*rep));
	size_t i, len;

	if (!rep || !of)
		goto nomem;
	for (i = 0; i < n; i++) {
		len = chain_ident(chain(rows, i), kind(rows, i), op(rows, i, o, sizeof(o)),
				  key, sizeof(key));
		HASH_FIND(hh, tab, key, len, k);
		if (!k) {
			k = calloc(1, sizeof(*k) + len);
			if (!k)
				goto nomem;
			memcpy(k->key, key, len);
			HASH_ADD_KEYPTR(hh, tab, k->key, len, k);
			if (!k->hh.tbl) {
				free(k);
				goto nomem;
			}
		}
		k->n++;
		of[i] = k;
	}
	for (i = 0; i < n; i++)
		rep[i] = of[i]->n > 1;
	goto out;
nomem:
	free(rep);
	rep = NULL;
out:
	HASH_ITER(hh, tab, k, tmp) {
		HASH_DEL(tab, k);
		free(k);
	}
	free(of);
	return rep;
}

static const struct cs_sym *pass_chain(const void *rows, size_t i)
{
	return &((const struct cs_om_pass *)rows)[i].chain;
}

static int pass_kind(const void *rows, size_t i)
{
	return ((const struct cs_om_pass *)rows)[i].kind;
}

static const char *pass_op(const void *rows, size_t i, char *buf, size_t len)
{
	(void)rows;
	(void)i;
	(void)len;
	buf[0] = '\0';
	return buf;
}

static const struct cs_sym *lock_chain(const void *rows, size_t i)
{
	return &((const struct cs_om_lock *)rows)[i].chain;
}

static int lock_kind(const void *rows, size_t i)
{
	return ((const struct cs_om_lock *)rows)[i].kind;
}

static const char *lock_op(const void *rows, size_t i, char *buf, size_t len)
{
	return op_str(((const struct cs_om_lock *)rows)[i].op, buf, len);
}

/*
 * One histogram series: cumulative buckets from the log2 slots, _sum and
 * _count. labels() writes the series' labels (without braces) from arg.
 */
static void histogram(FILE *f, const char *name, const __u32 *slots, __u64 sum_ns,
		      int units, void (*labels)(FILE *, const void *), const void *arg,
		      const char *extra, const char *extra_val)
{
	double s = cs_unit(units)->seconds;
	__u64 cum = 0;
	int i;

	for (i = 0; i < CS_MAX_SLOTS; i++) {
		double le = (double)(1ULL << (i + 1)) * s;

		cum += slots[i];
		if (le > OM_MAX_LE_S)
			continue;	/* counted in +Inf */
		fprintf(f, "%s_bucket{", name);
		labels(f, arg);
		if (extra)
			label(f, extra, extra_val, false);
		fprintf(f, ",le=\"%.12g\"} %llu\n", le, (unsigned long long)cum);
	}
	fprintf(f, "%s_bucket{", name);
	labels(f, arg);
	if (extra)
		label(f, extra, extra_val, false);
	fprintf(f, ",le=\"+Inf\"} %llu\n", (unsigned long long)cum);
	fprintf(f, "%s_sum{", name);
	labels(f, arg);
	if (extra)
		label(f, extra, extra_val, false);
	fprintf(f, "} %.9f\n", sum_ns / 1e9);
	fprintf(f, "%s_count{", name);
	labels(f, arg);
	if (extra)
		label(f, extra, extra_val, false);
	fprintf(f, "} %llu\n", (unsigned long long)cum);
}

static void cb_labels_fn(FILE *f, const void *arg)
{
	cb_labels(f, arg);
}

struct lock_arg {
	const struct cs_om_lock *l;
	bool head;
};

static void lock_labels_fn(FILE *f, const void *arg)
{
	const struct lock_arg *a = arg;

	chain_labels(f, &a->l->chain, a->l->kind, a->head);
}

/* A counter series of a callback row, with one more label if extra */
static void cb_counter(FILE *f, const char *name, const struct cs_cbrow *r,
		       const char *extra, const char *extra_val, __u64 v)
{
	fprintf(f, "%s{", name);
	cb_labels(f, r);
	if (extra)
		label(f, extra, extra_val, false);
	fprintf(f, "} %llu\n", (unsigned long long)v);
}

/* the per-chain counter families, each one field of struct cs_om_pass */
static const struct {
	const char *name, *help;
	size_t off;
} pass_families[] = {
	{ "chainscope_chain_passes_total", "Notifier chain passes (plain and robust calls).",
	  offsetof(struct cs_om_pass, passes) },
	{ "chainscope_chain_stopped_passes_total",
	  "Notifier chain passes ended by NOTIFY_STOP_MASK.",
	  offsetof(struct cs_om_pass, stopped) },
	{ "chainscope_chain_rollbacks_total", "Notifier chain rollback passes.",
	  offsetof(struct cs_om_pass, rollbacks) },
};

int cs_om_write(FILE *f, const struct cs_om_set *s)
{
	static const char *const outcomes[] = { "ok", "stop", "bad", "errno" };
	bool *prep = chain_repeats(s->nr_passes, pass_chain, pass_kind, pass_op, s->passes);
	bool *lrep = chain_repeats(s->nr_locks, lock_chain, lock_kind, lock_op, s->locks);
	size_t i;
	int k;

	family(f, "chainscope_callback_duration_seconds", "histogram",
	       "Notifier callback run time, per chain and callback.");
	for (i = 0; i < s->nr_cbs; i++)
		histogram(f, "chainscope_callback_duration_seconds", s->cbs[i].st.slots,
			  s->cbs[i].st.sum_ns, s->units, cb_labels_fn, &s->cbs[i], NULL, NULL);

	family(f, "chainscope_callback_returns_total", "counter",
	       "Notifier callback calls by what the return value says.");
	for (i = 0; i < s->nr_cbs; i++) {
		const struct cs_cbstats *st = &s->cbs[i].st;
		__u64 n[4] = { 0, st->stop, st->bad, st->err };

		n[0] = st->count - st->stop - st->bad - st->err;
		for (k = 0; k < 4; k++)
			cb_counter(f, "chainscope_callback_returns_total", &s->cbs[i],
				   "outcome", outcomes[k], n[k]);
	}

	family(f, "chainscope_callback_untimed_total", "counter",
	       "Notifier callback calls the kernel did not time (not in the histogram).");
	for (i = 0; i < s->nr_cbs; i++)
		cb_counter(f, "chainscope_callback_untimed_total", &s->cbs[i], NULL, NULL,
			   s->cbs[i].st.untimed);

	for (k = 0; k < (int)(sizeof(pass_families) / sizeof(pass_families[0])); k++) {
		family(f, pass_families[k].name, "counter", pass_families[k].help);
		for (i = 0; i < s->nr_passes; i++) {
			const struct cs_om_pass *p = &s->passes[i];

			fprintf(f, "%s{", pass_families[k].name);
			chain_labels(f, &p->chain, p->kind, !prep || prep[i]);
			fprintf(f, "} %llu\n", (unsigned long long)
				*(const __u64 *)((const char *)p + pass_families[k].off));
		}
	}

	family(f, "chainscope_lock_wait_seconds", "histogram",
	       "Time spent waiting for a notifier chain's lock by the acquisitions "
	       "that found it taken (lock:contention_begin/end), per op (read, write).");
	for (i = 0; i < s->nr_locks; i++) {
		struct lock_arg a = { &s->locks[i], !lrep || lrep[i] };
		char o[16];

		histogram(f, "chainscope_lock_wait_seconds", s->locks[i].slots,
			  s->locks[i].sum_ns, s->units, lock_labels_fn, &a, "op",
			  op_str(s->locks[i].op, o, sizeof(o)));
	}
	free(prep);
	free(lrep);

	family(f, "chainscope_events_lost_total", "counter",
	       "Events lost before chainscope could count them (ring buffer full, map update failed).");
	fprintf(f, "chainscope_events_lost_total %llu\n", (unsigned long long)s->lost);
	family(f, "chainscope_events_missed_total", "counter",
	       "Events the kernel's BPF recursion protection skipped.");
	fprintf(f, "chainscope_events_missed_total %llu\n", (unsigned long long)s->missed);
	family(f, "chainscope_map_full_drops_total", "counter",
	       "Events not counted because a statistics map was full.");
	fprintf(f, "chainscope_map_full_drops_total %llu\n", (unsigned long long)s->dropped);
	family(f, "chainscope_rows_overflow_total", "counter",
	       "Events of a chain, callback or block not counted because chainscope "
	       "already held its maximum of rows (one per interval and row).");
	fprintf(f, "chainscope_rows_overflow_total %llu\n", (unsigned long long)s->overflow);
	family(f, "chainscope_mode_info", "gauge",
	       "The event source chainscope uses (value 1).");
	fputs("chainscope_mode_info{", f);
	label(f, "mode", s->mode ? s->mode : "", true);
	fputs("} 1\n", f);
	/* OpenMetrics' end marker, a comment to the 0.0.4 parser: one
	 * exposition of latency --openmetrics ends here */
	fputs("# EOF\n", f);
	return ferror(f) ? -1 : 0;
}
