// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope report's rows (rows.c) printed: the text report in the
 * layout of the live tools, the JSON of -j (what chainscope diff reads),
 * the Prometheus exposition of --openmetrics.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "chainscope.h"
#include "json_keys.h"
#include "openmetrics.h"
#include "report_int.h"
#include "safestr.h"
#include "trace_cli.h"
#include "tracefile.h"

/* Paths as given, for messages: one line, escaped (safestr.h). */
void cs_report_put_path(FILE *f, const char *s)
{
	char buf[CS_SAFE_STR_LEN(1024)];

	fputs(cs_safe_str(s, buf, sizeof(buf)), f);
}

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
int cs_report_print_json(const struct report *r)
{
	const struct cs_trace *t = r->t;
	const struct cs_report_opts *o = r->o;
	json_object *root = json_object_new_object(), *obj;
	size_t nsnap = cs_report_snapshot_records(t);
	const char *s, *sep;
	struct cs_summary sum;
	int err = 0;
	size_t i;

	json_object_object_add(root, CS_JK_TYPE, json_object_new_string(CS_JT_REPORT));
	json_object_object_add(root, "file", json_object_new_string(o->file));
	json_object_object_add(root, "kernel", json_object_new_string(t->hdr.release));
	json_object_object_add(root, "boot_id", json_object_new_string(t->hdr.boot_id));
	json_object_object_add(root, "duration_ns",
			       json_object_new_uint64(t->end_ns - t->hdr.start_ns));
	json_object_object_add(root, CS_JK_UNITS, json_object_new_string(cs_units_name(o->units)));
	/* notifier events: snapshot records are the chains' state, not events */
	json_object_object_add(root, "events", json_object_new_uint64(t->nr_events - nsnap));
	if (nsnap)
		json_object_object_add(root, "snapshot_records", json_object_new_uint64(nsnap));
	json_object_object_add(root, CS_JK_LOST, json_object_new_uint64(t->lost));
	json_object_object_add(root, CS_JK_MISSED, json_object_new_uint64(t->missed));
	json_object_object_add(root, CS_JK_MODE,
			       json_object_new_string(cs_trace_source_name(t->hdr.source)));
	/* the header's members without the closing brace */
	s = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN);
	fprintf(r->out, "%.*s,\"" CS_JK_CALLBACKS "\":[", (int)strlen(s) - 1, s);
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
	if (o->boot)
		err = cs_report_boot_json(r->out, t, o);
	fputs("}\n", r->out);
	return err;
}

int cs_report_print_text(const struct report *r)
{
	const struct cs_trace *t = r->t;
	const struct cs_report_opts *o = r->o;
	const char *unit = cs_units_suffix(o->units);
	char head[CS_SYMSTR_LEN];
	struct cs_summary s;
	int err = 0;
	size_t i;

	fputs("trace ", r->out);
	cs_report_put_path(r->out, o->file);
	fprintf(r->out, ": kernel %s, boot %s, %.3f s, %zu events, lost %llu, missed %llu, "
		"mode %s\n", t->hdr.release, t->hdr.boot_id,
		(t->end_ns - t->hdr.start_ns) / 1e9,
		t->nr_events - cs_report_snapshot_records(t),
		(unsigned long long)t->lost, (unsigned long long)t->missed,
		cs_trace_source_name(t->hdr.source));
	if (t->hdr.source == CS_TRACE_SOURCE_PROBES)
		fprintf(r->out, "NOTE: a probes recording: lock waits of the -c or "
			"well-known chains only, and callback times include the probes' "
			"overhead\n");
	if (t->lost)
		fprintf(r->out, "WARNING: %llu events were lost while recording\n",
			(unsigned long long)t->lost);
	cs_report_snap_text(r->out, t);
	if (o->boot)		/* its per-callback lines instead of the histograms */
		err = cs_report_boot_text(r->out, t, o);
	else if (!r->nr_rows && !r->nr_lrows)
		fprintf(r->out, "no notifier callbacks ran\n");
	for (i = 0; i < r->nr_rows && !o->boot; i++)
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
	return err;
}

int cs_report_print_openmetrics(const struct report *r)
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
