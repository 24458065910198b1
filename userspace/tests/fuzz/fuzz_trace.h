/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the fuzz targets share: a trace parsed from the input (fuzz_report,
 * fuzz_openmetrics), a conversion's image checked (fuzz_tracedat, fuzz_console).
 */
#ifndef CHAINSCOPE_FUZZ_TRACE_H
#define CHAINSCOPE_FUZZ_TRACE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracefile.h"

/*
 * The input parsed into *t as the reader parses a file: the buffer that
 * *t points into (free it after cs_trace_free()), or NULL if the input
 * is no trace.
 */
static inline void *fuzz_trace_parse(const uint8_t *data, size_t size, struct cs_trace *t)
{
	char msg[512];
	void *buf;

	/* the reader reads files into 8-byte aligned memory: so do we */
	buf = aligned_alloc(8, (size + 8) & ~(size_t)7);
	if (!buf)
		return NULL;
	memcpy(buf, data, size);
	if (cs_trace_parse(buf, size, t, msg, sizeof(msg))) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * A conversion's image (trace.dat, console text) into *t: the strict
 * reader must take what the conversion wrote, with at least min_events
 * records; anything else is a finding (abort).
 */
static inline void fuzz_image_parse(const void *img, size_t len, struct cs_trace *t,
				    __u64 min_events)
{
	char err[512];

	if (cs_trace_parse(img, len, t, err, sizeof(err))) {
		fprintf(stderr, "the reader refuses the conversion's image: %s\n", err);
		abort();
	}
	if (t->nr_events < min_events)
		abort();
}

#endif /* CHAINSCOPE_FUZZ_TRACE_H */
