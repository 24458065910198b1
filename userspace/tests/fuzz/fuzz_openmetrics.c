// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer target for `chainscope report --openmetrics`: any bytes are
 * parsed as a trace file; whatever the reader accepts goes through
 * cs_report_run() with openmetrics set, in each of the three units.
 * Linked with report/, trace/ and core/ only (tests/openmetrics.mk).
 *
 * Besides the sanitizers, it checks the exposition's form, what a scraper
 * relies on: printable ASCII lines; each "# HELP name text", "# TYPE name
 * type", "# UNIT name unit" or a sample "name{label="value",...} number",
 * metric and label names of [a-zA-Z_:][a-zA-Z0-9_:]*, label values with
 * only \\, \" and \n escapes, the metric family declared by a TYPE line
 * before its samples; and one "# EOF" line, the last.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "chainscope.h"
#include "report.h"
#include "tracefile.h"
#include "fuzz_trace.h"

static void bad(const char *line, size_t len, const char *why)
{
	fprintf(stderr, "fuzz_openmetrics: %s: '%.*s'\n", why, (int)(len > 200 ? 200 : len), line);
	abort();
}

static bool name_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}

static bool name_char(char c)
{
	return name_start(c) || (c >= '0' && c <= '9');
}

/* a metric or label name at p; its length, 0 if none */
static size_t name_len(const char *p, const char *end)
{
	size_t n = 0;

	if (p >= end || !name_start(*p))
		return 0;
	while (p + n < end && name_char(p[n]))
		n++;
	return n;
}

/* the last TYPE line's family: samples must be of it */
static char family[256];

static void check_sample(const char *l, size_t len)
{
	const char *p = l, *end = l + len, *num;
	size_t n = name_len(p, end);
	char *e;

	if (!n)
		bad(l, len, "no metric name");
	if (!family[0] || strncmp(l, family, strlen(family)))
		bad(l, len, "a sample before its family's TYPE");
	p += n;
	if (p < end && *p == '{') {
		for (p++; p < end && *p != '}';) {
			n = name_len(p, end);
			if (!n || p + n + 1 >= end || p[n] != '=' || p[n + 1] != '"')
				bad(l, len, "bad label");
			for (p += n + 2; p < end && *p != '"'; p++) {
				if (*p == '\\' && (p + 1 >= end || !strchr("\\\"n", p[1])))
					bad(l, len, "bad escape in a label value");
				if (*p == '\\')
					p++;
			}
			if (p >= end)
				bad(l, len, "label value without its end");
			p++;
			if (p < end && *p == ',')
				p++;
		}
		if (p >= end)
			bad(l, len, "labels without their end");
		p++;
	}
	if (p >= end || *p != ' ')
		bad(l, len, "no space before the value");
	num = ++p;
	if (num >= end)
		bad(l, len, "no value");
	if (strncmp(num, "+Inf", end - num) && strncmp(num, "-Inf", end - num) &&
	    strncmp(num, "NaN", end - num)) {
		char buf[64];

		if ((size_t)(end - num) >= sizeof(buf))
			bad(l, len, "value too long");
		memcpy(buf, num, end - num);
		buf[end - num] = '\0';
		strtod(buf, &e);
		if (*e || e == buf)
			bad(l, len, "value not a number");
	}
}

static void check_exposition(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *nl;
	bool eof = false;
	size_t i;

	for (i = 0; i < len; i++)
		if ((buf[i] < 0x20 && buf[i] != '\n') || (unsigned char)buf[i] >= 0x7f)
			bad(buf, len, "a byte other than printable ASCII and newline");
	family[0] = '\0';
	for (; p < end; p = nl + 1) {
		size_t l;

		nl = memchr(p, '\n', end - p);
		if (!nl)
			bad(p, end - p, "a line without its newline");
		l = nl - p;
		if (eof)
			bad(p, l, "a line after # EOF");
		if (l == 5 && !memcmp(p, "# EOF", 5)) {
			eof = true;
		} else if (l > 7 && (!memcmp(p, "# HELP ", 7) || !memcmp(p, "# TYPE ", 7) ||
				     !memcmp(p, "# UNIT ", 7))) {
			size_t n = name_len(p + 7, nl);

			if (!n || (p + 7 + n < nl && p[7 + n] != ' '))
				bad(p, l, "a metadata line without a metric name");
			if (!memcmp(p, "# TYPE ", 7)) {
				if (n >= sizeof(family))
					bad(p, l, "family name too long");
				memcpy(family, p + 7, n);
				family[n] = '\0';
			}
		} else if (l && p[0] == '#') {
			bad(p, l, "an unknown comment");
		} else {
			check_sample(p, l);
		}
	}
	if (!eof)
		bad(buf, len, "no # EOF");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cs_report_opts o = {
		.cmd = "chainscope report", .file = "fuzz.cstrace", .svg_dirfd = -1,
		.openmetrics = true,
	};
	struct cs_trace t;
	char *ob, *eb;
	size_t olen, elen;
	void *buf;
	int rc;

	buf = fuzz_trace_parse(data, size, &t);
	if (!buf)
		return 0;
	for (o.units = 0; o.units < 3; o.units++) {
		FILE *out = open_memstream(&ob, &olen), *err = open_memstream(&eb, &elen);

		if (!out || !err)
			abort();
		rc = cs_report_run(&t, &o, out, err);
		if (fclose(out) || fclose(err))
			abort();
		if (rc == CS_EXIT_OK) {
			if (elen)
				abort();	/* success is quiet */
			check_exposition(ob, olen);
		} else if (rc != CS_EXIT_ERROR || !elen || eb[elen - 1] != '\n' ||
			   memchr(eb, '\n', elen) != eb + elen - 1) {
			abort();	/* an error is one line */
		}
		free(ob);
		free(eb);
	}
	cs_trace_free(&t);
	free(buf);
	return 0;
}
