/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* The fuzz targets that run report on a trace (fuzz_report, fuzz_openmetrics). */
#ifndef CHAINSCOPE_FUZZ_TRACE_H
#define CHAINSCOPE_FUZZ_TRACE_H

#include <stdint.h>
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

#endif /* CHAINSCOPE_FUZZ_TRACE_H */
