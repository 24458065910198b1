// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer target for `chainscope report` end to end: any bytes are
 * parsed as a trace file; whatever the reader accepts goes through
 * cs_report_run() six times, for the text, the JSON, the SVG output
 * (into a private temporary directory), the --perfetto and --folded
 * exports and --passes as text and JSON. Nothing runs another program.
 *
 * Linked with report/, trace/ and core/ only (tests/report.mk).
 * Besides the sanitizers, it checks what a reader of the output relies on:
 * the text and the SVG files hold no control bytes but newlines, the
 * JSON is one line that parses, messages are one line each, the trace-event
 * JSON parses into a traceEvents array whose slices have a dur >= 0, and
 * every folded line is "frame;frame... N".
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>

#include "chainscope.h"
#include "report.h"
#include "tracefile.h"
#include "fuzz_trace.h"

static char dir[64];
static int dirfd_ = -1;

/* A fresh directory per input (libFuzzer ends with _Exit: no atexit). */
static void make_dir(void)
{
	snprintf(dir, sizeof(dir), "/tmp/cs-fuzz-report.XXXXXX");
	if (!mkdtemp(dir))
		abort();
	dirfd_ = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd_ < 0)
		abort();
}

/* only printable ASCII, tab and newline */
static void check_plain(const char *buf, size_t len, const char *what)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = buf[i];

		if ((c < 0x20 && c != '\n' && c != '\t') || c >= 0x7f) {
			fprintf(stderr, "fuzz_report: byte 0x%02x at %zu of the %s\n", c, i, what);
			abort();
		}
	}
}

/* every message ends its line and there is no empty one */
static void check_lines(const char *buf, size_t len)
{
	if (len && (buf[len - 1] != '\n' || strstr(buf, "\n\n")))
		abort();
	check_plain(buf, len, "messages");
}

struct capture {
	FILE *f;
	char *buf;
	size_t len;
};

static FILE *cap_open(struct capture *c)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	if (!c->f)
		abort();
	return c->f;
}

static void cap_close(struct capture *c)
{
	if (fclose(c->f))
		abort();
}

/* Check and remove what the SVG run wrote, and the directory. */
static void check_svg_files(void)
{
	DIR *d = fdopendir(dirfd_);
	struct dirent *de;
	char buf[1 << 16];

	if (!d)
		abort();
	while ((de = readdir(d))) {
		ssize_t n;
		int fd;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		fd = openat(dirfd_, de->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			abort();
		n = strlen(de->d_name);
		if (n < 5 || strcmp(de->d_name + n - 4, ".svg") || de->d_name[0] == '.')
			abort();	/* nothing but CHAIN.svg */
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			check_plain(buf, n, "SVG");
		close(fd);
		if (unlinkat(dirfd_, de->d_name, 0))
			abort();
	}
	closedir(d);	/* closes dirfd_ */
	dirfd_ = -1;
	if (rmdir(dir))
		abort();
}

/* the trace-event JSON parses; its slices have a ts and a dur >= 0 */
static void check_perfetto(const char *buf)
{
	json_object *j = json_tokener_parse(buf), *ev, *e, *v;
	size_t i;

	if (!j || !json_object_object_get_ex(j, "traceEvents", &ev) ||
	    !json_object_is_type(ev, json_type_array))
		abort();
	for (i = 0; i < json_object_array_length(ev); i++) {
		e = json_object_array_get_idx(ev, i);
		if (!json_object_object_get_ex(e, "ph", &v))
			abort();
		if (strcmp(json_object_get_string(v), "X"))
			continue;
		if (!json_object_object_get_ex(e, "dur", &v) || json_object_get_double(v) < 0 ||
		    !json_object_object_get_ex(e, "ts", &v) || json_object_get_double(v) < 0)
			abort();
	}
	json_object_put(j);
}

/* "frame;frame... N" lines: symbol bytes, ';' between frames, one space */
static void check_folded(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *nl, *sp;

	check_plain(buf, len, "folded stacks");
	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', end - p);
		sp = nl ? memrchr(p, ' ', nl - p) : NULL;
		if (!nl || !sp || sp == p || sp + 1 == nl || p[0] == ';' || sp[-1] == ';' ||
		    memchr(p, ' ', sp - p) || strspn(sp + 1, "0123456789") != (size_t)(nl - sp - 1))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct capture pf, fo;
	struct cs_report_opts o = {
		.cmd = "chainscope report", .file = "fuzz.cstrace", .svg_dirfd = -1,
		.svg_dir = "svg",
	};
	struct capture out, err;
	struct cs_trace t;
	void *buf;
	int mode, rc;

	buf = fuzz_trace_parse(data, size, &t);
	if (!buf)
		return 0;
	o.units = size % 3;	/* CS_UNITS_NS, _US, _MS */
	for (mode = 0; mode < 6; mode++) {
		o.json = mode == 1 || mode == 5;
		o.passes = mode >= 4;
		/* --boot (text, -j and the exports), as a stock input too */
		o.boot = mode <= 3 && (size & 4);
		o.stock = o.boot && (size & 8);
		o.quiet = mode == 3;
		o.perfetto = mode == 3 ? cap_open(&pf) : NULL;
		o.folded = mode == 3 ? cap_open(&fo) : NULL;
		o.folded_calls = size % 2;
		if (mode == 2)
			make_dir();
		o.svg_dirfd = mode == 2 ? dirfd_ : -1;
		rc = cs_report_run(&t, &o, cap_open(&out), cap_open(&err));
		cap_close(&out);
		cap_close(&err);
		if (rc != CS_EXIT_OK && rc != CS_EXIT_ERROR)
			abort();
		check_lines(err.buf, err.len);
		if (rc == CS_EXIT_OK && err.len)
			abort();	/* success is quiet */
		if (o.json && rc == CS_EXIT_OK) {
			json_object *j = json_tokener_parse(out.buf);

			if (!j || out.len < 2 || memchr(out.buf, '\n', out.len) !=
						    out.buf + out.len - 1)
				abort();
			json_object_put(j);
		} else {
			check_plain(out.buf, out.len, "output");
		}
		free(out.buf);
		free(err.buf);
		if (mode == 2)
			check_svg_files();
		if (mode == 3) {
			cap_close(&pf);
			cap_close(&fo);
			if (out.len)
				abort();	/* quiet: the exports only */
			if (rc == CS_EXIT_OK) {
				check_plain(pf.buf, pf.len, "trace-event JSON");
				check_perfetto(pf.buf);
				check_folded(fo.buf, fo.len);
			}
			free(pf.buf);
			free(fo.buf);
		}
	}
	cs_trace_free(&t);
	free(buf);
	return 0;
}
