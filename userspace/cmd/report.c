// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope report: latency and lock-wait histograms from a trace file
 * (chainscope record), in the layout of the live tools; -j JSON, --svg
 * one SVG bar chart per chain (svg.c).
 *
 * cmd_report() reads the command line and the file; cs_report_run() does
 * the rest on a parsed trace, without exiting, for the CLI and the fuzz
 * target alike.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#define HASH_NONFATAL_OOM 1	/* a failed add leaves the item's hh.tbl NULL */
#include <uthash.h>

#include "callback_row.h"
#include "chainscope.h"
#include "openmetrics.h"
#include "outfile.h"
#include "report.h"
#include "safestr.h"
#include "trace_cli.h"
#include "tracefile.h"

static struct env {
	const char *cmd;
	const char *file;
	const char *svg_dir;
	const char *perfetto;
	const char *folded;
	bool folded_calls;
	bool force;		/* --force: outputs through links, other users' files */
	bool json;
	bool openmetrics;
	bool show_addresses;
	int units;
	char units_flag;
} env;

enum { OPT_SVG = 0x100, OPT_OPENMETRICS, OPT_PERFETTO, OPT_FOLDED, OPT_FOLDED_CALLS,
       OPT_SHOW_ADDRESSES, OPT_FORCE };

static const struct argp_option opts[] = {
	{ "json", 'j', NULL, 0, "One JSON object (the live tools' keys)", 0 },
	{ "openmetrics", OPT_OPENMETRICS, NULL, 0, "The Prometheus text exposition "
	  "(what 'chainscope serve' serves; see chainscope-serve(8)); kernel "
	  "addresses no symbol names show as addr#N", 0 },
	{ "show-addresses", OPT_SHOW_ADDRESSES, NULL, 0, "With --openmetrics: kernel "
	  "addresses as they are (a KASLR leak to whoever reads the exposition)", 0 },
	{ "svg", OPT_SVG, "DIR", 0, "Also one SVG histogram per chain into DIR: "
	  "CHAIN.svg, bytes other than [A-Za-z0-9_] as -HH; CHAIN--0xHEAD.svg "
	  "when chains share a name; and a timeline per chain that had passes, "
	  "CHAIN.timeline.svg", 0 },
	{ "perfetto", OPT_PERFETTO, "FILE", 0, "Also the passes, callbacks, stops and "
	  "lock waits as Chrome trace-event JSON (Perfetto UI, chrome://tracing) "
	  "into FILE ('-': stdout, instead of the report)", 0 },
	{ "folded", OPT_FOLDED, "FILE", 0, "Also folded stacks, 'chain;callback NS' "
	  "lines (flamegraph.pl, speedscope) into FILE ('-': stdout, instead of "
	  "the report)", 0 },
	{ "folded-calls", OPT_FOLDED_CALLS, NULL, 0, "Folded values count the "
	  "stack's passes or calls instead of its own ns", 0 },
	{ "force", OPT_FORCE, NULL, 0, "Write the --svg, --perfetto and --folded outputs "
	  "even through a symbolic link, into another user's file or directory, or into "
	  "a file with other hard links", 0 },
	CS_UNITS_OPTIONS,
	CS_SALVAGE_OPTION,
	{},
};

static const char doc[] =
"Latency histograms per chain and callback (notifier_return duration_ns)\n"
"and lock-wait histograms per chain (notifier_lock_wait), from a trace\n"
"file written by 'chainscope record'. No BPF, no root needed.\n"
"\v"
"Exit status: 0 success, 1 error (e.g. an SVG file could not be written),\n"
"2 usage error or an unreadable/invalid trace file.\n"
"\n"
"Outputs: new files are made 0600 and a new --svg directory 0700. An\n"
"existing one is written only if it is a regular file (a directory) of\n"
"this user that is not a symbolic link and has no other hard link;\n"
"--force lifts all but the file-type rule.\n"
"\n"
"Examples:\n"
"  chainscope report n.cstrace\n"
"  chainscope report -j n.cstrace > n.json   # input for 'chainscope diff'\n"
"  chainscope report --svg svg n.cstrace\n"
"  chainscope report --openmetrics n.cstrace | promtool check metrics\n"
"  chainscope report --perfetto n.trace.json n.cstrace   # ui.perfetto.dev\n"
"  chainscope report --folded - n.cstrace | flamegraph.pl > n-flame.svg\n"
"  chainscope report --folded n.folded --folded-calls n.cstrace\n";

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'j':
		env.json = true;
		return 0;
	case OPT_OPENMETRICS:
		env.openmetrics = true;
		return 0;
	case OPT_SHOW_ADDRESSES:
		env.show_addresses = true;
		return 0;
	case OPT_SVG:
		if (!*arg)
			cs_usage_error(state, "empty --svg directory");
		env.svg_dir = arg;
		return 0;
	case OPT_PERFETTO:
	case OPT_FOLDED:
		if (!*arg)
			cs_usage_error(state, "empty --%s file",
				       key == OPT_PERFETTO ? "perfetto" : "folded");
		*(key == OPT_PERFETTO ? &env.perfetto : &env.folded) = arg;
		if (env.perfetto && env.folded && !strcmp(env.perfetto, "-") &&
		    !strcmp(env.folded, "-"))
			cs_usage_error(state, "--perfetto and --folded cannot both be '-'");
		return 0;
	case OPT_FOLDED_CALLS:
		env.folded_calls = true;
		return 0;
	case OPT_FORCE:
		env.force = true;
		return 0;
	case ARGP_KEY_END:
		if (env.folded_calls && !env.folded)
			cs_usage_error(state, "--folded-calls needs --folded");
		if ((env.json || env.openmetrics) &&
		    ((env.perfetto && !strcmp(env.perfetto, "-")) ||
		     (env.folded && !strcmp(env.folded, "-"))))
			cs_usage_error(state, env.json ?
				       "-j and an export to '-' both want stdout" :
				       "--openmetrics and an export to '-' both want stdout");
		return cs_parse_file_arg(key, arg, state, &env.file);
	case 'n':
	case 'u':
	case 'm':
		env.units = cs_parse_units(state, key, &env.units_flag);
		return 0;
	default:
		return cs_parse_file_arg(key, arg, state, &env.file);
	}
}

static const struct argp argp = {
	.options = opts,
	.parser = parse_arg,
	.args_doc = "FILE",
	.doc = doc,
};

/* Paths as given, for messages: one line, escaped (safestr.h). */
static void put_path(FILE *f, const char *s)
{
	char buf[CS_SAFE_STR_LEN(1024)];

	fputs(cs_safe_str(s, buf, sizeof(buf)), f);
}

/* --- aggregation ------------------------------------------------------------ */

/* per registered block: (chain, callback, notifier_block) */
struct cb_ent {
	UT_hash_handle hh;	/* first: a lookup reads hh and key only */
	struct cb_key {
		__u64 head, cb, nb;
	} key;
	int kind;
	struct cs_cbstats st;
};

/* per (chain, lock op) */
struct lock_ent {
	UT_hash_handle hh;
	struct lock_key {
		__u64 head, op;
	} key;
	int kind;
	__u32 slots[CS_MAX_SLOTS];
	__u64 count, sum_ns, max_ns, contended;
};

struct lock_row {
	struct cs_sym chain;
	const struct lock_ent *e;
};

/* per chain: its passes, from their call_end (what latency -C counts) */
struct pass_ent {
	UT_hash_handle hh;
	__u64 head;
	int kind;
	__u64 passes;		/* plain and robust (val_up) passes */
	__u64 robust;		/* of which robust */
	__u64 stopped;		/* of them, ended by NOTIFY_STOP_MASK */
	__u64 rollbacks;	/* val_down passes */
	__u64 callbacks;	/* callbacks run, all passes */
	bool drawn;		/* --svg: its timeline is written */
};

struct pass_row {
	struct cs_sym chain;
	struct pass_ent *e;
};

struct report {
	const struct cs_trace *t;
	const struct cs_report_opts *o;
	FILE *out, *err;
	struct cb_ent *cbs;		/* hash tables */
	struct lock_ent *locks;
	struct cs_cbrow *rows;		/* sorted */
	size_t nr_rows;
	struct lock_row *lrows;		/* sorted */
	size_t nr_lrows;
	struct pass_ent *passes;
	struct pass_row *prows;		/* sorted */
	size_t nr_prows;
	struct svg_name *svg_names;	/* file names taken */
	struct cs_tl_chains *tl;	/* the timeline SVGs' data */
};

static struct cb_ent *cb_get(struct report *r, const struct cs_rec_event *e)
{
	struct cb_key key = { e->head, e->cb, e->nb };
	struct cb_ent *c;

	HASH_FIND(hh, r->cbs, &key, sizeof(key), c);
	if (c)
		return c;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->key = key;
	c->kind = e->kind;
	HASH_ADD(hh, r->cbs, key, sizeof(key), c);
	if (!c->hh.tbl) {
		free(c);
		return NULL;
	}
	return c;
}

static struct lock_ent *lock_get(struct report *r, const struct cs_rec_event *e)
{
	struct lock_key key = { e->head, e->lock_op };
	struct lock_ent *l;

	HASH_FIND(hh, r->locks, &key, sizeof(key), l);
	if (l)
		return l;
	l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	l->key = key;
	l->kind = e->kind;
	HASH_ADD(hh, r->locks, key, sizeof(key), l);
	if (!l->hh.tbl) {
		free(l);
		return NULL;
	}
	return l;
}

static int pass_add(struct report *r, const struct cs_rec_event *e)
{
	struct pass_ent *p;

	HASH_FIND(hh, r->passes, &e->head, sizeof(e->head), p);
	if (!p) {
		p = calloc(1, sizeof(*p));
		if (!p)
			return -ENOMEM;
		p->head = e->head;
		p->kind = e->kind;
		HASH_ADD(hh, r->passes, head, sizeof(p->head), p);
		if (!p->hh.tbl) {
			free(p);
			return -ENOMEM;
		}
	}
	if (e->call_type == CS_CALL_ROLLBACK) {
		p->rollbacks++;
	} else {
		p->passes++;
		p->robust += e->call_type == CS_CALL_ROBUST;
		p->stopped += !!(e->ret & CS_NOTIFY_STOP_MASK);
	}
	p->callbacks += e->nr_calls > 0 ? (__u64)e->nr_calls : 0;
	return 0;
}

static int cmp_pass_row(const void *a, const void *b)
{
	const struct pass_row *x = a, *y = b;
	int r = cs_sym_cmp(&x->chain, &y->chain);

	if (r)
		return r;
	return x->e->kind < y->e->kind ? -1 : x->e->kind > y->e->kind;
}

static void lock_add(struct lock_ent *l, __u64 ns, int units)
{
	unsigned int slot = log2_bucket(cs_ns_to_units(ns, units));

	l->slots[slot < CS_MAX_SLOTS ? slot : CS_MAX_SLOTS - 1]++;
	l->count++;
	l->sum_ns += ns;
	if (ns > l->max_ns)
		l->max_ns = ns;
	if (ns)
		l->contended++;
}

static int cmp_lock_row(const void *a, const void *b)
{
	const struct lock_row *x = a, *y = b;
	int r = cs_sym_cmp(&x->chain, &y->chain);

	if (r)
		return r;
	if (x->e->kind != y->e->kind)
		return x->e->kind < y->e->kind ? -1 : 1;
	return x->e->key.op < y->e->key.op ? -1 : x->e->key.op > y->e->key.op;
}

/* Hash every event into its row, then the rows into sorted arrays. */
static int aggregate(struct report *r)
{
	const struct cs_trace *t = r->t;
	struct cb_ent *c, *ctmp;
	struct lock_ent *l, *ltmp;
	struct pass_ent *p, *ptmp;
	size_t i;

	for (i = 0; i < t->nr_events; i++) {
		const struct cs_rec_event *e = &t->events[i];

		if (e->type == CS_REC_RETURN) {
			c = cb_get(r, e);
			if (!c)
				return -ENOMEM;
			cs_cbstats_add(&c->st, e->duration_ns, e->ret, r->o->units);
		} else if (e->type == CS_REC_LOCK_WAIT) {
			l = lock_get(r, e);
			if (!l)
				return -ENOMEM;
			lock_add(l, e->duration_ns, r->o->units);
		} else if (e->type == CS_REC_CALL_END && pass_add(r, e)) {
			return -ENOMEM;
		}
	}

	r->rows = calloc(HASH_COUNT(r->cbs) + 1, sizeof(*r->rows));
	r->lrows = calloc(HASH_COUNT(r->locks) + 1, sizeof(*r->lrows));
	r->prows = calloc(HASH_COUNT(r->passes) + 1, sizeof(*r->prows));
	if (!r->rows || !r->lrows || !r->prows)
		return -ENOMEM;
	HASH_ITER(hh, r->passes, p, ptmp) {
		struct pass_row *row = &r->prows[r->nr_prows++];

		cs_sym_from_trace(&row->chain, t, p->head);
		row->e = p;
	}
	qsort(r->prows, r->nr_prows, sizeof(*r->prows), cmp_pass_row);
	HASH_ITER(hh, r->cbs, c, ctmp) {
		struct cs_cbrow *row = &r->rows[r->nr_rows++];

		cs_sym_from_trace(&row->chain, t, c->key.head);
		cs_sym_from_trace(&row->cb, t, c->key.cb);
		cs_sym_from_trace(&row->nb, t, c->key.nb);
		row->kind = c->kind;
		row->st = c->st;
	}
	HASH_ITER(hh, r->locks, l, ltmp) {
		struct lock_row *row = &r->lrows[r->nr_lrows++];

		cs_sym_from_trace(&row->chain, t, l->key.head);
		row->e = l;
	}
	if (cs_cbrows_disambiguate(r->rows, r->nr_rows))
		return -ENOMEM;
	qsort(r->rows, r->nr_rows, sizeof(*r->rows), cs_cbrow_cmp);
	qsort(r->lrows, r->nr_lrows, sizeof(*r->lrows), cmp_lock_row);
	return 0;
}

/* --- text and JSON ---------------------------------------------------------- */

/* One object, serialized, then freed; returns what to put before the next. */
static const char *put_json(FILE *f, const char *sep, json_object *o)
{
	fputs(sep, f);
	fputs(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN), f);
	json_object_put(o);
	return ",";
}

/*
 * One line, {"type":"report",...,"callbacks":[...],"locks":[...]}, written
 * a row at a time: a tree of 80k rows' objects costs seconds in malloc.
 */
static void print_json(const struct report *r)
{
	const struct cs_trace *t = r->t;
	const struct cs_report_opts *o = r->o;
	json_object *root = json_object_new_object(), *obj;
	size_t nsnap = cs_report_snapshot_records(t);
	const char *s, *sep;
	struct cs_summary sum;
	size_t i;

	json_object_object_add(root, "type", json_object_new_string("report"));
	json_object_object_add(root, "file", json_object_new_string(o->file));
	json_object_object_add(root, "kernel", json_object_new_string(t->hdr.release));
	json_object_object_add(root, "boot_id", json_object_new_string(t->hdr.boot_id));
	json_object_object_add(root, "duration_ns",
			       json_object_new_uint64(t->end_ns - t->hdr.start_ns));
	json_object_object_add(root, "units", json_object_new_string(cs_units_name(o->units)));
	/* notifier events: snapshot records are the chains' state, not events */
	json_object_object_add(root, "events", json_object_new_uint64(t->nr_events - nsnap));
	if (nsnap)
		json_object_object_add(root, "snapshot_records", json_object_new_uint64(nsnap));
	json_object_object_add(root, "lost", json_object_new_uint64(t->lost));
	json_object_object_add(root, "missed", json_object_new_uint64(t->missed));
	json_object_object_add(root, "mode",
			       json_object_new_string(cs_trace_source_name(t->hdr.source)));
	/* the header's members without the closing brace */
	s = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN);
	fprintf(r->out, "%.*s,\"callbacks\":[", (int)strlen(s) - 1, s);
	json_object_put(root);
	for (i = 0, sep = ""; i < r->nr_rows; i++)
		sep = put_json(r->out, sep, cs_cbrow_json(&r->rows[i], o->units));
	fputs("],\"locks\":[", r->out);
	for (i = 0, sep = ""; i < r->nr_lrows; i++) {
		const struct lock_ent *l = r->lrows[i].e;

		obj = json_object_new_object();
		cs_json_symbol(obj, "chain", &r->lrows[i].chain);
		json_object_object_add(obj, "kind", json_object_new_string(cs_kind_name(l->kind)));
		json_object_object_add(obj, "op",
				       json_object_new_string(cs_lock_op_name(l->key.op)));
		cs_summarize(l->slots, l->count, l->max_ns, o->units, &sum);
		cs_json_summary(obj, &sum, l->sum_ns, l->max_ns, o->units);
		json_object_object_add(obj, "contended", json_object_new_uint64(l->contended));
		json_object_object_add(obj, "histogram", cs_json_hist(l->slots, CS_MAX_SLOTS));
		sep = put_json(r->out, sep, obj);
	}
	fputs("],\"chains\":[", r->out);
	for (i = 0, sep = ""; i < r->nr_prows; i++) {
		const struct pass_ent *p = r->prows[i].e;

		obj = json_object_new_object();
		cs_json_symbol(obj, "chain", &r->prows[i].chain);
		json_object_object_add(obj, "kind", json_object_new_string(cs_kind_name(p->kind)));
		json_object_object_add(obj, "passes", json_object_new_uint64(p->passes));
		json_object_object_add(obj, "robust", json_object_new_uint64(p->robust));
		json_object_object_add(obj, "stopped", json_object_new_uint64(p->stopped));
		json_object_object_add(obj, "rollbacks", json_object_new_uint64(p->rollbacks));
		json_object_object_add(obj, "callbacks", json_object_new_uint64(p->callbacks));
		sep = put_json(r->out, sep, obj);
	}
	fputc(']', r->out);
	if (nsnap)
		cs_report_snap_json(r->out, t);
	fputs("}\n", r->out);
}

static void print_text(const struct report *r)
{
	const struct cs_trace *t = r->t;
	const struct cs_report_opts *o = r->o;
	const char *unit = cs_units_suffix(o->units);
	char head[CS_SYMSTR_LEN];
	struct cs_summary s;
	size_t i;

	fputs("trace ", r->out);
	put_path(r->out, o->file);
	fprintf(r->out, ": kernel %s, boot %s, %.3f s, %zu events, lost %llu, missed %llu, "
		"mode %s\n", t->hdr.release, t->hdr.boot_id,
		(t->end_ns - t->hdr.start_ns) / 1e9,
		t->nr_events - cs_report_snapshot_records(t),
		(unsigned long long)t->lost, (unsigned long long)t->missed,
		cs_trace_source_name(t->hdr.source));
	if (t->hdr.source == CS_TRACE_SOURCE_PROBES)
		fprintf(r->out, "NOTE: a probes recording: no lock waits, and callback "
			"times include the probes' overhead\n");
	if (t->lost)
		fprintf(r->out, "WARNING: %llu events were lost while recording\n",
			(unsigned long long)t->lost);
	cs_report_snap_text(r->out, t);
	if (!r->nr_rows && !r->nr_lrows)
		fprintf(r->out, "no notifier callbacks ran\n");
	for (i = 0; i < r->nr_rows; i++)
		cs_cbrow_print(r->out, &r->rows[i], o->units);
	for (i = 0; i < r->nr_lrows; i++) {
		const struct lock_ent *l = r->lrows[i].e;

		cs_summarize(l->slots, l->count, l->max_ns, o->units, &s);
		fprintf(r->out, "\nchain: %s (%s) op: %s  count=%llu contended=%llu "
			"max=%llu%s p50~%llu%s p99~%llu%s\n",
			cs_sym_str(&r->lrows[i].chain, head, sizeof(head)),
			cs_kind_name(l->kind), cs_lock_op_name(l->key.op), s.count,
			(unsigned long long)l->contended, s.max, unit, s.p50, unit, s.p99, unit);
		fprint_log2_hist(r->out, l->slots, CS_MAX_SLOTS, cs_units_name(o->units));
	}
	if (r->nr_prows)
		fputc('\n', r->out);
	for (i = 0; i < r->nr_prows; i++) {
		const struct pass_ent *p = r->prows[i].e;

		fprintf(r->out, "passes: chain %s (%s) passes=%llu robust=%llu stopped=%llu "
			"rollbacks=%llu callbacks=%llu\n",
			cs_sym_str(&r->prows[i].chain, head, sizeof(head)), cs_kind_name(p->kind),
			(unsigned long long)p->passes, (unsigned long long)p->robust,
			(unsigned long long)p->stopped, (unsigned long long)p->rollbacks,
			(unsigned long long)p->callbacks);
	}
}

/* The Prometheus exposition of the rows (openmetrics.c); -ENOMEM or 0 */
static int print_openmetrics(const struct report *r)
{
	struct cs_om_set set = {
		.units = r->o->units,
		.cbs = r->rows,
		.nr_cbs = r->nr_rows,
		.nr_passes = r->nr_prows,
		.nr_locks = r->nr_lrows,
		.lost = r->t->lost,
		.missed = r->t->missed,
		.mode = cs_trace_source_name(r->t->hdr.source),
	};
	struct cs_om_pass *passes = calloc(r->nr_prows + 1, sizeof(*passes));
	struct cs_om_lock *locks = calloc(r->nr_lrows + 1, sizeof(*locks));
	size_t i;

	if (!passes || !locks) {
		free(passes);
		free(locks);
		return -ENOMEM;
	}
	for (i = 0; i < r->nr_prows; i++) {
		passes[i].chain = r->prows[i].chain;
		passes[i].kind = r->prows[i].e->kind;
		passes[i].passes = r->prows[i].e->passes;
		passes[i].stopped = r->prows[i].e->stopped;
		passes[i].rollbacks = r->prows[i].e->rollbacks;
	}
	for (i = 0; i < r->nr_lrows; i++) {
		const struct lock_ent *l = r->lrows[i].e;

		locks[i].chain = r->lrows[i].chain;
		locks[i].kind = l->kind;
		locks[i].op = l->key.op;
		memcpy(locks[i].slots, l->slots, sizeof(l->slots));
		locks[i].sum_ns = l->sum_ns;
	}
	set.passes = passes;
	set.locks = locks;
	cs_om_write(r->out, &set);
	free(passes);
	free(locks);
	return 0;
}

/* --- SVG -------------------------------------------------------------------- */

#define SVG_NAME_MAX 200	/* of the chain part, well under NAME_MAX */
/* a file name: the chain part, "--0x" and 16 hex digits, ".timeline.svg" */
#define SVG_FILE_LEN (SVG_NAME_MAX + sizeof("--0x") - 1 + 16 + sizeof(".timeline.svg"))
_Static_assert(SVG_FILE_LEN <= 255, "an SVG file name fits in NAME_MAX");

/*
 * SVG file names, a function of the chain alone (never of the order the
 * chains come in), and no two alike:
 *
 *   CHAIN.svg          the chain's name with every byte outside
 *                      [A-Za-z0-9_] written as -HH ("my.chain" is
 *                      my-2echain.svg, "my_chain" my_chain.svg)
 *   CHAIN--0xHEAD.svg  when another chain has the same name (static
 *                      symbols of two modules), or the name would be
 *                      longer than SVG_NAME_MAX bytes (cut there)
 *
 * An escape is '-' and two hex digits, so "--" never appears in the
 * first form: the two forms cannot meet, and the first is one-to-one.
 */
struct svg_name {
	UT_hash_handle hh;
	__u64 head;		/* a chain with this name */
	bool shared;		/* by more than one chain */
	char name[];		/* escaped, NUL-terminated */
};

static void svg_escape(const struct cs_sym *chain, char *buf, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	char shown[CS_SYMSTR_LEN];
	const unsigned char *p;
	size_t i = 0;

	p = (const unsigned char *)cs_sym_str(chain, shown, sizeof(shown));
	for (; *p && i + 4 < len; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '_') {
			buf[i++] = *p;
		} else {
			buf[i++] = '-';
			buf[i++] = hex[*p >> 4];
			buf[i++] = hex[*p & 0xf];
		}
	}
	buf[i] = '\0';
}

#define SVG_ESC_LEN (3 * CS_SYMSTR_LEN + 4)

/* Note a chain's name, and whether another chain has it too. */
static int svg_name_note(struct report *r, const struct cs_sym *chain)
{
	char esc[SVG_ESC_LEN];
	struct svg_name *n;

	svg_escape(chain, esc, sizeof(esc));
	HASH_FIND_STR(r->svg_names, esc, n);
	if (n) {
		n->shared |= n->head != chain->addr;
		return 0;
	}
	n = calloc(1, sizeof(*n) + strlen(esc) + 1);
	if (!n)
		return -ENOMEM;
	n->head = chain->addr;
	strcpy(n->name, esc);
	HASH_ADD_STR(r->svg_names, name, n);
	if (!n->hh.tbl) {
		free(n);
		return -ENOMEM;
	}
	return 0;
}

/*
 * Note the names of the chains drawn first (with callbacks, or passes):
 * which ones more than one chain has.
 */
static int svg_names_note(struct report *r)
{
	size_t i;

	for (i = 0; i < r->nr_rows; i++)
		if ((!i || r->rows[i].chain.addr != r->rows[i - 1].chain.addr) &&
		    svg_name_note(r, &r->rows[i].chain))
			return -ENOMEM;
	for (i = 0; i < r->nr_prows; i++)
		if (svg_name_note(r, &r->prows[i].chain))
			return -ENOMEM;
	return 0;
}

/* suffix: ".svg" (histogram), ".timeline.svg"; '.' never is in an escaped name */
/* buf: SVG_FILE_LEN bytes, which hold any name with either suffix whole */
static void svg_file_name(struct report *r, const struct cs_sym *chain, const char *suffix,
			  char *buf, size_t len)
{
	char esc[SVG_ESC_LEN];
	struct svg_name *n;

	svg_escape(chain, esc, sizeof(esc));
	HASH_FIND_STR(r->svg_names, esc, n);
	if ((n && n->shared) || strlen(esc) > SVG_NAME_MAX)
		snprintf(buf, len, "%.*s--0x%llx%s", SVG_NAME_MAX, esc,
			 (unsigned long long)chain->addr, suffix);
	else
		snprintf(buf, len, "%s%s", esc, suffix);
}

static int cmp_count_desc(const void *a, const void *b)
{
	const struct cs_cbrow *x = *(const struct cs_cbrow *const *)a;
	const struct cs_cbrow *y = *(const struct cs_cbrow *const *)b;

	if (x->st.count != y->st.count)
		return x->st.count > y->st.count ? -1 : 1;
	/* stable: the text's order (by index: no address is compared, which
	 * the fuzzer's comparison tracing would take into its dictionary) */
	return x - y < 0 ? -1 : x - y > 0;
}

struct histogram_args {
	const char *title, *note, *unit;
	const struct cs_svg_series *series;
	size_t n;
};

static int draw_histogram(FILE *f, const void *arg)
{
	const struct histogram_args *h = arg;

	return cs_svg_histogram(f, h->title, h->note, h->unit, h->series, h->n);
}

struct timeline_args {
	const struct cs_tl_chains *c;
	__u64 head;
	const char *title;
};

static int draw_timeline(FILE *f, const void *arg)
{
	const struct timeline_args *tl = arg;

	return cs_tl_chain_svg(f, tl->c, tl->head, tl->title);
}

/*
 * DIR/file, opened under the directory's descriptor by outfile.h's rules,
 * drawn by draw(); a "wrote" line, or one message and -errno.
 */
static int svg_write(struct report *r, const char *file, int (*draw)(FILE *, const void *),
		     const void *arg)
{
	const char *why = NULL;
	int fd, err = 0;
	bool created;
	FILE *f = NULL;

	fd = cs_out_open(r->o->svg_dirfd, file, r->o->out_flags | CS_OUT_TRUNCATE, &created,
			 &why);
	if (fd >= 0 && !(f = fdopen(fd, "w")))
		why = strerror(errno);
	if (!f) {
		err = errno ? -errno : -EIO;
		if (fd >= 0)
			close(fd);
	} else {
		if (draw(f, arg))
			err = errno ? -errno : -EIO;
		if (fclose(f) && !err)
			err = errno ? -errno : -EIO;
		if (err)
			why = strerror(-err);
	}
	if (err) {
		fprintf(r->err, "%s: error: cannot write ", r->o->cmd);
		put_path(r->err, r->o->svg_dir);
		fprintf(r->err, "/%s: %s\n", file, why);
		return err;
	}
	if (!r->o->json && !r->o->openmetrics && !r->o->quiet) {
		fputs("wrote ", r->out);
		put_path(r->out, r->o->svg_dir);
		fprintf(r->out, "/%s\n", file);
	}
	return 0;
}

/* A chain's timeline SVG, CHAIN.timeline.svg */
static int write_timeline(struct report *r, const struct cs_sym *chain, int kind)
{
	char file[SVG_FILE_LEN], title[CS_SYMSTR_LEN + 64], name[CS_SYMSTR_LEN];
	struct timeline_args tl = { .c = r->tl, .head = chain->addr, .title = title };

	svg_file_name(r, chain, ".timeline.svg", file, sizeof(file));
	snprintf(title, sizeof(title), "%s (%s): passes over time",
		 cs_sym_str(chain, name, sizeof(name)), cs_kind_name(kind));
	return svg_write(r, file, draw_timeline, &tl);
}

/* One chain's rows, rows[0..n): its histogram and its timeline SVG. */
static int write_svg(struct report *r, const struct cs_cbrow *rows, size_t n)
{
	char names[CS_SVG_MAX_SERIES][2 * CS_SYMSTR_LEN + 80];
	char file[SVG_FILE_LEN], title[CS_SYMSTR_LEN + 64], note[96];
	char cb[CS_SYMSTR_LEN], label[CS_SYMSTR_LEN + 64];
	struct cs_svg_series series[CS_SVG_MAX_SERIES];
	const struct cs_cbrow **order;
	size_t i, k;
	struct histogram_args h;
	struct pass_ent *p;
	int err;

	HASH_FIND(hh, r->passes, &rows[0].chain.addr, sizeof(rows[0].chain.addr), p);
	if (p)
		p->drawn = true;	/* its timeline is drawn here */
	svg_file_name(r, &rows[0].chain, ".svg", file, sizeof(file));
	order = calloc(n, sizeof(*order));
	if (!order) {
		free(order);
		fprintf(r->err, "%s: error: out of memory\n", r->o->cmd);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		order[i] = &rows[i];
	/* the most called callbacks get the bars */
	qsort(order, n, sizeof(*order), cmp_count_desc);
	k = n < CS_SVG_MAX_SERIES ? n : CS_SVG_MAX_SERIES;
	for (i = 0; i < k; i++) {
		const char *name = cs_sym_str(&order[i]->cb, cb, sizeof(cb));

		if (order[i]->label != CS_LABEL_NONE)
			snprintf(names[i], sizeof(names[i]), "%s [%s]", name,
				 cs_cbrow_label_str(order[i], label, sizeof(label)));
		else
			snprintf(names[i], sizeof(names[i]), "%s", name);
		series[i].name = names[i];
		series[i].slots = order[i]->st.slots;
	}
	free(order);
	snprintf(title, sizeof(title), "%s (%s): callback latency",
		 cs_sym_str(&rows[0].chain, cb, sizeof(cb)), cs_kind_name(rows[0].kind));
	note[0] = '\0';
	if (n > k)
		snprintf(note, sizeof(note), "%zu callbacks with fewer calls not drawn", n - k);

	h.title = title;
	h.note = note;
	h.unit = cs_units_name(r->o->units);
	h.series = series;
	h.n = k;
	err = svg_write(r, file, draw_histogram, &h);
	return err ? err : write_timeline(r, &rows[0].chain, rows[0].kind);
}

/* --perfetto or --folded into f, if asked for; one message on failure */
static int export(struct report *r, const char *what, FILE *f, const char *path)
{
	int err;

	if (!f)
		return 0;
	err = !strcmp(what, "perfetto") ? cs_report_perfetto(f, r->t, r->o->file) :
	      cs_report_folded(f, r->t, r->o->folded_calls);
	if (!err && fflush(f))
		err = errno ? -errno : -EIO;
	if (!err)
		return 0;
	fprintf(r->err, "%s: error: %s ", r->o->cmd, err == -ENOMEM ? "out of memory for" :
		"cannot write");
	put_path(r->err, path);
	fprintf(r->err, " (--%s)%s%s\n", what, err == -ENOMEM ? "" : ": ",
		err == -ENOMEM ? "" : strerror(-err));
	return err;
}

int cs_report_run(const struct cs_trace *t, const struct cs_report_opts *o,
		  FILE *out, FILE *err)
{
	struct report r = { .t = t, .o = o, .out = out, .err = err };
	struct cb_ent *c, *ctmp;
	struct lock_ent *l, *ltmp;
	struct pass_ent *p, *ptmp;
	struct svg_name *n, *ntmp;
	int rc = CS_EXIT_OK;
	size_t i, from;

	if (aggregate(&r)) {
		fprintf(err, "%s: error: out of memory\n", o->cmd);
		rc = CS_EXIT_ERROR;
		goto out;
	}
	if (o->quiet) {
		;
	} else if (o->openmetrics) {
		if (print_openmetrics(&r)) {
			fprintf(err, "%s: error: out of memory\n", o->cmd);
			rc = CS_EXIT_ERROR;
			goto out;
		}
	} else if (o->json) {
		print_json(&r);
	} else {
		print_text(&r);
	}
	fflush(out);
	if (export(&r, "perfetto", o->perfetto, o->perfetto_path) ||
	    export(&r, "folded", o->folded, o->folded_path)) {
		rc = CS_EXIT_ERROR;
		goto out;
	}

	/*
	 * rows are sorted by chain: two SVGs per run of equal heads; then the
	 * timeline of each chain that had passes but no callbacks
	 */
	if (o->svg_dirfd >= 0 && (r.nr_rows || r.nr_prows) &&
	    !(r.tl = cs_tl_chains_collect(t))) {
		fprintf(err, "%s: error: out of memory\n", o->cmd);
		rc = CS_EXIT_ERROR;
		goto out;
	}
	if (o->svg_dirfd >= 0 && svg_names_note(&r)) {
		fprintf(err, "%s: error: out of memory\n", o->cmd);
		rc = CS_EXIT_ERROR;
		goto out;
	}
	for (from = 0; o->svg_dirfd >= 0 && from < r.nr_rows; from = i) {
		for (i = from; i < r.nr_rows && r.rows[i].chain.addr == r.rows[from].chain.addr; i++)
			;
		if (write_svg(&r, &r.rows[from], i - from)) {
			rc = CS_EXIT_ERROR;
			break;	/* one message: the next file would fail alike */
		}
	}
	for (i = 0; o->svg_dirfd >= 0 && rc == CS_EXIT_OK && i < r.nr_prows; i++) {
		struct pass_ent *pe = r.prows[i].e;

		if (!pe->drawn && write_timeline(&r, &r.prows[i].chain, pe->kind))
			rc = CS_EXIT_ERROR;
	}
out:
	HASH_ITER(hh, r.cbs, c, ctmp) {
		HASH_DEL(r.cbs, c);
		free(c);
	}
	HASH_ITER(hh, r.locks, l, ltmp) {
		HASH_DEL(r.locks, l);
		free(l);
	}
	HASH_ITER(hh, r.svg_names, n, ntmp) {
		HASH_DEL(r.svg_names, n);
		free(n);
	}
	HASH_ITER(hh, r.passes, p, ptmp) {
		HASH_DEL(r.passes, p);
		free(p);
	}
	free(r.rows);
	free(r.lrows);
	free(r.prows);
	cs_tl_chains_free(r.tl);
	return rc;
}

/* an export's file ('-': stdout), by outfile.h's rules; 0, or -1 after a message */
static int open_export(const char *path, FILE **f)
{
	const char *why = NULL;
	bool created;
	int fd;

	*f = NULL;
	if (!strcmp(path, "-")) {
		*f = stdout;
		return 0;
	}
	/* the path goes to open() only */
	fd = cs_out_open(AT_FDCWD, path, (env.force ? CS_OUT_FORCE : 0) | CS_OUT_STREAM |
			 CS_OUT_TRUNCATE, &created, &why);
	if (fd >= 0 && !(*f = fdopen(fd, "w")))
		why = strerror(errno);
	if (*f)
		return 0;
	fprintf(stderr, "%s: error: cannot create ", env.cmd);
	put_path(stderr, path);
	fprintf(stderr, ": %s\n", why);
	if (fd >= 0)
		close(fd);
	return -1;
}

/* -1 if closing (writing the rest) failed, after a message unless quiet */
static int close_export(const char *path, FILE *f, bool quiet)
{
	if (!f || f == stdout)
		return 0;
	if (!fclose(f))
		return 0;
	if (quiet)
		return -1;
	fprintf(stderr, "%s: error: cannot write ", env.cmd);
	put_path(stderr, path);
	fprintf(stderr, ": %s\n", strerror(errno));
	return -1;
}

int cmd_report(int argc, char **argv)
{
	struct cs_report_opts o = { .svg_dirfd = -1 };
	struct cs_trace t;
	char err[512];
	int rc;

	memset(&env, 0, sizeof(env));
	env.cmd = argv[0];
	env.units = CS_UNITS_US;
	cs_parse_args(&argp, argc, argv, &env);
	o.out_flags = env.force ? CS_OUT_FORCE : 0;
	if (env.json && env.openmetrics) {
		warn("%s: error: -j and --openmetrics exclude each other\n", env.cmd);
		return CS_EXIT_USAGE;
	}
	if (env.show_addresses && !env.openmetrics) {
		warn("%s: error: --show-addresses applies to --openmetrics only\n", env.cmd);
		return CS_EXIT_USAGE;
	}
	/* the exposition is for others to read: no kernel address unless asked */
	cs_addrs_hide(env.openmetrics && !env.show_addresses);

	if (cs_trace_read(env.file, &t, err, sizeof(err))) {
		fprintf(stderr, "%s: error: ", env.cmd);
		put_path(stderr, env.file);
		fprintf(stderr, ": %s\n", err);
		return CS_EXIT_USAGE;
	}
	if (env.svg_dir) {
		const char *why;

		/* the path goes to system calls only; files are opened under the fd */
		o.svg_dirfd = cs_out_dir(env.svg_dir, o.out_flags, &why);
		if (o.svg_dirfd < 0) {
			fprintf(stderr, "%s: error: cannot create directory ", env.cmd);
			put_path(stderr, env.svg_dir);
			fprintf(stderr, ": %s\n", why);
			cs_trace_free(&t);
			return CS_EXIT_ERROR;
		}
	}
	if ((env.perfetto && open_export(env.perfetto, &o.perfetto)) ||
	    (env.folded && open_export(env.folded, &o.folded))) {
		rc = CS_EXIT_ERROR;
		goto done;
	}
	o.perfetto_path = env.perfetto;
	o.folded_path = env.folded;
	o.folded_calls = env.folded_calls;
	o.quiet = (env.perfetto && !strcmp(env.perfetto, "-")) ||
		  (env.folded && !strcmp(env.folded, "-"));
	o.cmd = env.cmd;
	o.file = env.file;
	o.units = env.units;
	o.json = env.json;
	o.openmetrics = env.openmetrics;
	o.svg_dir = env.svg_dir;
	/* a report can be 10^5 lines: write it in 1 MiB blocks, not BUFSIZ */
	setvbuf(stdout, NULL, _IOFBF, 1 << 20);
	rc = cs_report_run(&t, &o, stdout, stderr);
	if (fflush(stdout) || ferror(stdout)) {
		warn("%s: error: writing the report: %s\n", env.cmd, strerror(errno));
		rc = CS_EXIT_ERROR;
	}
done:
	if (close_export(env.perfetto, o.perfetto, rc != CS_EXIT_OK))
		rc = CS_EXIT_ERROR;
	if (close_export(env.folded, o.folded, rc != CS_EXIT_OK))
		rc = CS_EXIT_ERROR;
	if (o.svg_dirfd >= 0)
		close(o.svg_dirfd);
	cs_trace_free(&t);
	return rc;
}
