// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer target for `chainscope check` end to end: any bytes the
 * trace reader accepts go through every rule (checker.c) and the
 * summary. The output must hold exactly one "event N: ... rule R: ..."
 * line per violation counted, each naming an event of the trace.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checker.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned long long lines = 0;
	struct cs_check_stats s;
	struct cs_trace t;
	char err[512], *out = NULL, *p;
	size_t len = 0;
	FILE *f;
	int rc;

	if (cs_trace_parse(data, size, &t, err, sizeof(err)))
		return 0;	/* the reader's own target covers refusals */
	f = open_memstream(&out, &len);
	if (!f)
		abort();
	rc = cs_check_trace(&t, "fuzz", size & 1, f, &s);
	fclose(f);
	if (rc)
		abort();	/* only -ENOMEM, which a fuzz input cannot cause */
	for (p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
		if (strncmp(p, "event ", 6))
			continue;
		if (strtoull(p + 6, NULL, 10) > t.nr_events || !strstr(p, ": rule "))
			abort();
		lines++;
	}
	if (lines != s.violations || s.events != t.nr_events)
		abort();
	if (!(size & 1) && !strstr(out, "fuzz: orphans: "))
		abort();	/* the summary was printed */
	free(out);
	cs_trace_free(&t);
	return 0;
}
