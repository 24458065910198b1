// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope report: what was on each chain when record walked it (the
 * CS_REC_SNAPSHOT records of a version-3 trace, bpf/record.h), in call
 * order, as text and as the "snapshots" array of report -j. The reader
 * (tracefile_snap.c) has checked that each snapshot's records are
 * consecutive and complete.
 */
#include <json-c/json.h>

#include "callback_row.h"
#include "chainscope.h"
#include "report.h"
#include "trace_cli.h"
#include "tracefile.h"

size_t cs_report_snapshot_records(const struct cs_trace *t)
{
	size_t i, n = 0;

	for (i = 0; i < t->nr_events; i++)
		n += t->events[i].type == CS_REC_SNAPSHOT;
	return n;
}

/* the snapshot starting at events[i]: its records, at least one */
static size_t snap_len(const struct cs_rec_event *e)
{
	return e->nr_to_call > 0 ? (size_t)e->nr_to_call : 1;
}

void cs_report_snap_text(FILE *out, const struct cs_trace *t)
{
	char chain[CS_SYMSTR_LEN], cb[CS_SYMSTR_LEN], nb[CS_SYMSTR_LEN];
	struct cs_sym s;
	size_t i, k, nr = 0;

	for (i = 0; i < t->nr_events; i++)
		nr += t->events[i].type == CS_REC_SNAPSHOT && !t->events[i].nr_calls;
	if (!nr)
		return;
	fprintf(out, "chains walked by record (membership from then on): %zu\n", nr);
	for (i = 0; i < t->nr_events; i += k) {
		const struct cs_rec_event *e = &t->events[i];

		k = 1;
		if (e->type != CS_REC_SNAPSHOT)
			continue;
		k = snap_len(e);
		if (k > t->nr_events - i)
			k = t->nr_events - i;	/* (the reader refuses it) */
		cs_sym_from_trace(&s, t, e->head);
		fprintf(out, "chain: %s (%s) walked at +%.6f s: %d block%s%s\n",
			cs_sym_str(&s, chain, sizeof(chain)), cs_kind_name(e->kind),
			e->ts >= t->hdr.start_ns ? (e->ts - t->hdr.start_ns) / 1e9 : 0.0,
			e->nr_to_call, e->nr_to_call == 1 ? "" : "s",
			e->ret == CS_REC_SNAP_UNSTABLE ?
			" (unstable: writers changed it during the walk)" : "");
		for (; e < &t->events[i + k] && e->nr_to_call; e++) {
			struct cs_sym c, b;

			cs_sym_from_trace(&c, t, e->cb);
			cs_sym_from_trace(&b, t, e->nb);
			fprintf(out, "  %3d. %s [nb=%s] priority %d\n", e->nr_calls + 1,
				cs_sym_str(&c, cb, sizeof(cb)), cs_sym_str(&b, nb, sizeof(nb)),
				e->priority);
		}
	}
}

void cs_report_snap_json(FILE *out, const struct cs_trace *t)
{
	const char *sep = "";
	size_t i, k;

	fputs(",\"snapshots\":[", out);
	for (i = 0; i < t->nr_events; i += k) {
		const struct cs_rec_event *e = &t->events[i];
		json_object *o, *blocks;
		struct cs_sym s;

		k = 1;
		if (e->type != CS_REC_SNAPSHOT)
			continue;
		k = snap_len(e);
		if (k > t->nr_events - i)
			k = t->nr_events - i;
		o = json_object_new_object();
		cs_sym_from_trace(&s, t, e->head);
		cs_json_symbol(o, "chain", &s);
		json_object_object_add(o, "kind", json_object_new_string(cs_kind_name(e->kind)));
		json_object_object_add(o, "ts_ns", json_object_new_uint64(e->ts));
		json_object_object_add(o, "stable",
				       json_object_new_boolean(e->ret == CS_REC_SNAP_STABLE));
		json_object_object_add(o, "length", json_object_new_int(e->nr_to_call));
		blocks = json_object_new_array();
		for (; e < &t->events[i + k] && e->nr_to_call; e++) {
			json_object *b = json_object_new_object();

			json_object_object_add(b, "position", json_object_new_int(e->nr_calls));
			cs_sym_from_trace(&s, t, e->cb);
			cs_json_symbol(b, "callback", &s);
			cs_sym_from_trace(&s, t, e->nb);
			cs_json_symbol(b, "nb", &s);
			json_object_object_add(b, "priority", json_object_new_int(e->priority));
			json_object_array_add(blocks, b);
		}
		json_object_object_add(o, "blocks", blocks);
		fputs(sep, out);
		fputs(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN), out);
		json_object_put(o);
		sep = ",";
	}
	fputc(']', out);
}
