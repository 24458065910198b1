// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer target for the trace file reader (tracefile.c): any input must
 * be either accepted with every offset in bounds or refused with a message
 * naming a byte offset inside (or just past) the input.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracefile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cs_trace t;
	char err[512];
	size_t i;

	if (cs_trace_parse(data, size, &t, err, sizeof(err))) {
		const char *at = strstr(err, "at byte offset ");

		if (!at || strtoull(at + 15, NULL, 10) > size)
			abort();	/* every error names an offset in the input */
		return 0;
	}
	/* touch everything the reader handed out */
	for (i = 0; i < t.nr_events; i++) {
		struct cs_rec_event e;

		memcpy(&e, (const char *)t.events + i * sizeof(e), sizeof(e));
		if (e.type >= CS_REC_MAX)
			abort();
	}
	for (i = 0; i < t.nr_syms; i++) {
		if (strlen(t.syms[i].name) > size)
			abort();
		if (t.syms[i].module && strlen(t.syms[i].module) > size)
			abort();
		if (cs_trace_sym_find(&t, t.syms[i].addr) != &t.syms[i])
			abort();
	}
	free(t.syms);
	return 0;
}
