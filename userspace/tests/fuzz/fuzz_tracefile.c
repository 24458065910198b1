// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer target for the trace file reader (tracefile.c), strict and
 * salvaging: any input must be either accepted with every offset in
 * bounds or refused with a message naming a byte offset inside (or just
 * past) the input. What the strict reader accepts, the salvaging one
 * reads the same way; what it salvages accounts for every input byte.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracefile.h"

static void check_error(const char *err, size_t size)
{
	const char *at = strstr(err, "at byte offset ");

	if (!at || strtoull(at + 15, NULL, 10) > size)
		abort();	/* every error names an offset in the input */
}

static void touch(const struct cs_trace *t, size_t size)
{
	size_t i;

	for (i = 0; i < t->nr_events; i++) {
		const struct cs_rec_event *e = &t->events[i];

		if (e->type >= CS_REC_MAX)
			abort();
		if (e->type == CS_REC_LOSS &&
		    (t->hdr.version < 2 || e->reason >= CS_REC_LOSS_MAX))
			abort();
		/* a snapshot's records: version 3, in order, complete */
		if (e->type == CS_REC_SNAPSHOT &&
		    (t->hdr.version < 3 || e->nr_calls < 0 ||
		     (e->nr_to_call && e->nr_calls >= e->nr_to_call) ||
		     (e->nr_calls && (!i || e[-1].type != CS_REC_SNAPSHOT ||
				      e[-1].head != e->head ||
				      e[-1].nr_calls + 1 != e->nr_calls)) ||
		     (e->nr_calls + 1 < e->nr_to_call &&
		      (i + 1 == t->nr_events || e[1].type != CS_REC_SNAPSHOT))))
			abort();
	}
	if (t->hdr.record_size < sizeof(struct cs_rec_event) ||
	    t->hdr.header_size + (__u64)t->nr_events * t->hdr.record_size > size)
		abort();
	if (t->end_ns < t->hdr.start_ns)
		abort();
	for (i = 0; i < t->nr_syms; i++) {
		if (strlen(t->syms[i].name) > size)
			abort();
		if (t->syms[i].module && strlen(t->syms[i].module) > size)
			abort();
		if (cs_trace_sym_find(t, t->syms[i].addr) != &t->syms[i])
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cs_trace t, s;
	char err[512], serr[512];
	int strict, salvage;

	strict = cs_trace_parse(data, size, &t, err, sizeof(err));
	salvage = cs_trace_parse_flags(data, size, CS_TRACE_SALVAGE, &s, serr,
				       sizeof(serr));
	if (strict)
		check_error(err, size);
	else
		touch(&t, size);
	if (salvage) {
		check_error(serr, size);
		if (!strict)
			abort();	/* salvage refuses what strict reads */
	} else {
		touch(&s, size);
		if (!strict && (s.salvaged || s.nr_events != t.nr_events ||
				s.nr_syms != t.nr_syms || s.lost != t.lost))
			abort();	/* a complete file is read the same way */
		if (s.salvaged && s.hdr.header_size +
		    (__u64)s.nr_events * s.hdr.record_size + s.dropped != size)
			abort();	/* every byte is read or counted dropped */
	}
	if (!strict)
		cs_trace_free(&t);
	if (!salvage)
		cs_trace_free(&s);
	return 0;
}
