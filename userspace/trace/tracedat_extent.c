// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * trace.dat input, the pre-check (tracedat.h: cs_tracedat_extents()):
 * the file's own structure walked, in the commands' process and before
 * libtracecmd sees the file, with bounded reads (pread) and every offset
 * and size checked against the file's size without overflow. Nothing is
 * decompressed, nothing is parsed but offsets, sizes, counts and names,
 * and the options libtracecmd would read past (option_bounds()).
 *
 * Why: libtracecmd 3.1.6 does not notice every cut. A version-6 file cut
 * inside its CPU data fails its own size check and then crashes in
 * tracecmd_close() (the parser process dies: exit 15, not 12); a
 * version-7 file cut inside its last (strings) section, or inside a
 * compressed CPU extent's last 4 bytes (its check leaves out the chunk
 * count), is read as if whole. Here, every extent the file names must
 * lie inside it: anything short is "truncated" (exit 12).
 *
 * The layouts walked (trace-cmd.dat.v6(5), trace-cmd.dat.v7(5); where
 * the two manuals and trace-cmd 3.1.6's writer differ, the writer: a
 * section header's size is 8 bytes, a compressed CPU extent's size
 * leaves out its 4-byte chunk count):
 *
 *   both: magic (10), version "N\0", endian (1), long size (1), page size (4)
 *   v6:   "header_page\0" size8 data, "header_event\0" size8 data,
 *         ftrace formats (count4, {size8 data}), event systems (count4,
 *         {name\0 count4 {size8 data}}), kallsyms size4 data, printk size4
 *         data, cmdlines size8 data, cpus4, ["options  \0" {id2 size4 data}
 *         id 0], "flyrecord\0" {offset8 size8} per CPU [, clock: size8 data
 *         when the options have TRACECLOCK] | "latency  \0" text; a BUFFER
 *         option (offset8 name\0) points at an instance's "flyrecord\0",
 *         its per-CPU offsets and sizes [and its clock, as the top one's]
 *   v7:   compression "name\0version\0", first options offset8, then
 *         sections to the end of the file, each id2 flags2 string4 size8
 *         data (compressed: csize4 rsize4 data); options sections chained
 *         by their DONE option; BUFFER (offset8 name\0 clock\0 cpus4
 *         {cpu4 offset8 size8}), BUFFER_TEXT (offset8 name\0 clock\0) and
 *         the metadata options (id 16-21: offset8) name sections by offset;
 *         a compressed CPU extent is count4 {csize4 rsize4 data}
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracedat.h"

#define SEC_HDR 16		/* v7 section header: id2 flags2 string4 size8 */
#define SEC_COMPRESSED 1
#define MAX_OPTION_SECTIONS 4096
#define MAX_SECTIONS (1u << 20)
#define MAX_BUFFERS 4096

enum {
	OPT_DONE = 0, OPT_DATE = 1, OPT_CPUSTAT = 2, OPT_BUFFER = 3, OPT_TRACECLOCK = 4, OPT_UNAME = 5,
	OPT_HOOK = 6, OPT_OFFSET = 7, OPT_CPUCOUNT = 8, OPT_VERSION = 9,
	OPT_STRINGS = 15, OPT_HEADER_INFO = 16, OPT_CMDLINES = 21, OPT_BUFFER_TEXT = 22,
};

struct walk {
	int fd;
	__u64 size;		/* of the file */
	__u64 pos;
	bool big;		/* the file's numbers are big-endian */
	int rc;
	char *err;
	size_t errlen;
	__u64 *sec;		/* v7: each section's offset, ascending */
	size_t nr_sec;
	struct cs_tracedat_buffers *bufs;
	bool empty_clock;	/* v7: a TRACECLOCK option of 0 bytes */
	char top_clock[32];	/* v7: the top buffer's BUFFER option's clock */
	char inst_clock[32];	/* v7: the first instance's */
};

static const unsigned char tracedat_magic[10] = {
	0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'
};

bool cs_tracedat_magic(const void *buf, size_t len)
{
	return len >= sizeof(tracedat_magic) && !memcmp(buf, tracedat_magic, sizeof(tracedat_magic));
}

bool cs_tracedat_magic_prefix(const void *buf, size_t len)
{
	return len && len < sizeof(tracedat_magic) && !memcmp(buf, tracedat_magic, len);
}

static int refuse(struct walk *w, bool truncated, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* one line: "truncated: ..." or "malformed: ..." (the first one kept) */
static int refuse(struct walk *w, bool truncated, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (w->rc)
		return -1;
	w->rc = CS_EXIT_TRACEDAT;
	n = snprintf(w->err, w->errlen, "trace.dat %s: ", truncated ? "truncated" : "malformed");
	if (n >= 0 && (size_t)n < w->errlen) {
		va_start(ap, fmt);
		vsnprintf(w->err + n, w->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* [at, at + n) inside the file */
static bool inside(const struct walk *w, __u64 at, __u64 n)
{
	return at <= w->size && n <= w->size - at;
}

static int past_end(struct walk *w, const char *what, __u64 at, __u64 n)
{
	return refuse(w, true, "%s (%llu bytes at byte %llu) runs past the end of the file "
		      "(%llu bytes)", what, (unsigned long long)n, (unsigned long long)at,
		      (unsigned long long)w->size);
}

static int get(struct walk *w, __u64 at, void *buf, size_t n, const char *what)
{
	size_t got = 0;

	if (!inside(w, at, n))
		return past_end(w, what, at, n);
	while (got < n) {
		ssize_t r = pread(w->fd, (char *)buf + got, n - got, at + got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return refuse(w, r == 0, "%s at byte %llu: %s", what,
				      (unsigned long long)(at + got),
				      r == 0 ? "the file ended while read" : strerror(errno));
		got += r;
	}
	return 0;
}

static __u64 decode(const struct walk *w, const unsigned char *p, size_t n)
{
	__u64 v = 0;
	size_t i;

	for (i = 0; i < n; i++)
		v |= (__u64)p[w->big ? n - 1 - i : i] << (8 * i);
	return v;
}

/* an n-byte number at the walk's position, which moves past it */
static int num(struct walk *w, size_t n, __u64 *v, const char *what)
{
	unsigned char b[8];

	if (get(w, w->pos, b, n, what))
		return -1;
	*v = decode(w, b, n);
	w->pos += n;
	return 0;
}

static int skip(struct walk *w, __u64 n, const char *what)
{
	if (!inside(w, w->pos, n))
		return past_end(w, what, w->pos, n);
	w->pos += n;
	return 0;
}

/* a size-prefixed block (size of sz bytes) at the position, skipped */
static int block(struct walk *w, size_t sz, const char *what)
{
	__u64 n;

	return num(w, sz, &n, what) || skip(w, n, what) ? -1 : 0;
}

/* a NUL-terminated string at the position: its length, the position after it */
static int string(struct walk *w, __u64 max, char *out, size_t outlen, const char *what)
{
	unsigned char b[256];
	__u64 start = w->pos, len = 0;

	if (outlen)
		out[0] = 0;
	for (;;) {
		size_t n = sizeof(b), i;

		if (w->size - w->pos < n)
			n = w->size - w->pos;
		if (!n)
			return refuse(w, true, "%s at byte %llu has no end (NUL) before the end "
				      "of the file", what, (unsigned long long)start);
		if (get(w, w->pos, b, n, what))
			return -1;
		for (i = 0; i < n && b[i]; i++, len++)
			if (len + 1 < outlen)
				out[len] = b[i], out[len + 1] = 0;
		if (i < n) {
			w->pos += i + 1;
			return 0;
		}
		w->pos += n;
		if (len > max)
			return refuse(w, false, "%s at byte %llu is longer than %llu bytes", what,
				      (unsigned long long)start, (unsigned long long)max);
	}
}

static int expect(struct walk *w, const char *text, size_t n, const char *what)
{
	char b[16];

	if (get(w, w->pos, b, n, what))
		return -1;
	if (memcmp(b, text, n))
		return refuse(w, false, "no %s at byte %llu", what, (unsigned long long)w->pos);
	w->pos += n;
	return 0;
}

static void note_buffer(struct walk *w, const char *name, const char *clock)
{
	struct cs_tracedat_buffers *b = w->bufs;

	if (!*name)
		snprintf(w->top_clock, sizeof(w->top_clock), "%s", clock);
	else if (!w->inst_clock[0])
		snprintf(w->inst_clock, sizeof(w->inst_clock), "%s", clock);
	if (!b || !*name)
		return;
	if (b->nr < CS_TRACEDAT_MAX_BUFFERS) {
		snprintf(b->name[b->nr], sizeof(b->name[b->nr]), "%s", name);
		snprintf(b->clock[b->nr], sizeof(b->clock[b->nr]), "%s", clock);
	}
	b->nr++;
}

/*
 * The options libtracecmd reads as C strings (strdup(), strtok_r(),
 * sscanf()) straight from the bytes it read: one without its NUL is read
 * past its end, and what follows in the heap becomes the clock or the
 * kernel release, another one each run. trace-cmd writes each one with
 * its NUL last. TRACECLOCK may be empty: trace-cmd record writes it so
 * in version 6 (the clock follows the CPU data, and that one counts),
 * and trace-cmd convert carries it so into version 7, where the top
 * buffer's BUFFER option names the clock (walk_v7() then requires one,
 * and the conversion takes it: cs_tracedat_buffers' clock_override). CPUSTAT
 * and CPUCOUNT are read by size: an empty CPUSTAT makes libtracecmd
 * write before its buffer, a CPUCOUNT under 4 bytes read past it.
 */
static int option_bounds(struct walk *w, __u64 id, __u64 at, __u64 n, bool v7)
{
	static const char *const names[] = {
		[OPT_DATE] = "DATE", [OPT_TRACECLOCK] = "TRACECLOCK", [OPT_UNAME] = "UNAME",
		[OPT_HOOK] = "HOOK", [OPT_OFFSET] = "OFFSET", [OPT_VERSION] = "VERSION",
	};
	unsigned char last = 1;

	if ((id == OPT_CPUSTAT && !n) || (id == OPT_CPUCOUNT && n < 4))
		return refuse(w, false, "%s option at byte %llu has %llu bytes",
			      id == OPT_CPUSTAT ? "CPUSTAT" : "CPUCOUNT",
			      (unsigned long long)at, (unsigned long long)n);
	if (id >= sizeof(names) / sizeof(names[0]) || !names[id])
		return 0;
	if (!n && id == OPT_TRACECLOCK) {
		w->empty_clock |= v7;
		return 0;
	}
	if (n && get(w, at + n - 1, &last, 1, "an option"))
		return -1;
	if (last)
		return refuse(w, false, "%s option at byte %llu (%llu bytes) does not end in a "
			      "NUL: libtracecmd would read it past its end", names[id],
			      (unsigned long long)at, (unsigned long long)n);
	return 0;
}

/* --- version 6 ------------------------------------------------------------ */

/* "options  \0" {id2 size4 data} 0, then "flyrecord\0" or "latency  \0" */
static int v6_options(struct walk *w, __u64 *cpus, bool *clock, __u64 *buf_off, size_t *nr_buf,
		      bool top)
{
	char ten[10];
	__u64 id, n;

	if (get(w, w->pos, ten, 10, "the options or flyrecord mark"))
		return -1;
	if (!memcmp(ten, "options  \0", 10)) {
		w->pos += 10;
		for (;;) {
			__u64 at;

			if (num(w, 2, &id, "an option's id"))
				return -1;
			if (id == OPT_DONE)
				break;
			if (num(w, 4, &n, "an option's size"))
				return -1;
			at = w->pos;
			if (skip(w, n, "an option") || option_bounds(w, id, at, n, false))
				return -1;
			if (!top)
				continue;
			if (id == OPT_TRACECLOCK)
				*clock = true;
			if (id == OPT_CPUCOUNT) {	/* >= 4 bytes: option_bounds() */
				w->pos = at;
				if (num(w, 4, cpus, "the CPU count option"))
					return -1;
				w->pos = at + n;
			}
			if (id == OPT_BUFFER) {
				char name[64];

				if (n < 9)
					return refuse(w, false, "BUFFER option at byte %llu: %llu bytes",
						      (unsigned long long)at, (unsigned long long)n);
				if (*nr_buf >= MAX_BUFFERS)
					return refuse(w, false, "more than %d buffer instances",
						      MAX_BUFFERS);
				w->pos = at;
				if (num(w, 8, &buf_off[*nr_buf], "a buffer's offset") ||
				    string(w, n - 9, name, sizeof(name), "a buffer's name"))
					return -1;
				if (w->pos > at + n)
					return refuse(w, false, "BUFFER option at byte %llu: its name "
						      "runs past the option", (unsigned long long)at);
				note_buffer(w, name, "");
				(*nr_buf)++;
				w->pos = at + n;
			}
		}
		if (get(w, w->pos, ten, 10, "the flyrecord mark"))
			return -1;
	}
	if (!memcmp(ten, "latency  \0", 10))
		return 1;
	if (memcmp(ten, "flyrecord\0", 10))
		return refuse(w, false, "no flyrecord or latency mark at byte %llu",
			      (unsigned long long)w->pos);
	w->pos += 10;
	return 0;
}

/* cpus {offset8 size8} at the position, each extent inside the file */
static int v6_cpu_data(struct walk *w, __u64 cpus, const char *buffer)
{
	__u64 cpu, off, n;
	char what[96];

	for (cpu = 0; cpu < cpus; cpu++) {
		snprintf(what, sizeof(what), "the CPU %llu data offset and size%s%s",
			 (unsigned long long)cpu, *buffer ? " of buffer " : "", buffer);
		if (num(w, 8, &off, what) || num(w, 8, &n, what))
			return -1;
		snprintf(what, sizeof(what), "the CPU %llu data%s%s", (unsigned long long)cpu,
			 *buffer ? " of buffer " : "", buffer);
		if (n && !inside(w, off, n))
			return past_end(w, what, off, n);
	}
	return 0;
}

static int walk_v6(struct walk *w)
{
	__u64 cpus, count, i, j, buf_off[MAX_BUFFERS];
	size_t nr_buf = 0;
	bool clock = false;
	char sys[64];
	int r;

	if (expect(w, "header_page", 12, "header_page") || block(w, 8, "the header_page format") ||
	    expect(w, "header_event", 13, "header_event") ||
	    block(w, 8, "the header_event format"))
		return -1;
	if (num(w, 4, &count, "the ftrace format count"))
		return -1;
	for (i = 0; i < count; i++)
		if (block(w, 8, "an ftrace event format"))
			return -1;
	if (num(w, 4, &count, "the event system count"))
		return -1;
	for (i = 0; i < count; i++) {
		__u64 events;

		if (string(w, 4096, sys, sizeof(sys), "an event system's name") ||
		    num(w, 4, &events, "an event system's event count"))
			return -1;
		for (j = 0; j < events; j++)
			if (block(w, 8, "an event format"))
				return -1;
	}
	if (block(w, 4, "kallsyms") || block(w, 4, "the trace_printk formats") ||
	    block(w, 8, "the saved command lines") || num(w, 4, &cpus, "the CPU count"))
		return -1;
	r = v6_options(w, &cpus, &clock, buf_off, &nr_buf, true);
	if (r)
		return r < 0 ? -1 : 0;	/* latency: the rest is text */
	if (v6_cpu_data(w, cpus, "") || (clock && block(w, 8, "the trace clock")))
		return -1;
	/* each instance: its own mark and CPU offsets where its option points */
	for (i = 0; i < nr_buf; i++) {
		char name[72];

		snprintf(name, sizeof(name), "\"%s\"",
			 w->bufs && i < CS_TRACEDAT_MAX_BUFFERS ? w->bufs->name[i] : "?");
		w->pos = buf_off[i];
		r = v6_options(w, &cpus, &clock, NULL, NULL, false);
		if (r < 0)
			return -1;
		/* trace-cmd writes the clock after each buffer's CPU offsets */
		if (!r && (v6_cpu_data(w, cpus, name) || (clock && block(w, 8, "the trace clock"))))
			return -1;
	}
	return 0;
}

/* --- version 7 ------------------------------------------------------------ */

static bool is_section(const struct walk *w, __u64 off)
{
	size_t lo = 0, hi = w->nr_sec;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (w->sec[mid] == off)
			return true;
		if (w->sec[mid] < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

struct section {
	__u64 off, id, flags, size;	/* size: of the data after the header */
};

static int section_at(struct walk *w, __u64 off, unsigned int want_id, struct section *s,
		      const char *what)
{
	__u64 save = w->pos;

	if (!is_section(w, off))
		return inside(w, off, SEC_HDR) || off < w->size ?
			refuse(w, false, "%s names byte %llu, where no section starts", what,
			       (unsigned long long)off) :
			past_end(w, what, off, SEC_HDR);
	w->pos = off;
	s->off = off;
	if (num(w, 2, &s->id, what) || num(w, 2, &s->flags, what) || skip(w, 4, what) ||
	    num(w, 8, &s->size, what))
		return -1;
	w->pos = save;
	if (s->id != want_id)
		return refuse(w, false, "%s names the section at byte %llu, of id %llu, not %u",
			      what, (unsigned long long)off, (unsigned long long)s->id, want_id);
	return 0;
}

/*
 * One CPU's extent of a buffer section: inside the section; compressed,
 * its chunks inside the extent
 */
static int v7_cpu_extent(struct walk *w, const struct section *s, __u64 off, __u64 n,
			 const char *what)
{
	__u64 start = s->off + SEC_HDR, end = start + s->size, chunks, i, csize;

	if (!n)
		return 0;
	if (s->flags & SEC_COMPRESSED) {
		if (n > ~0ULL - 4)
			return past_end(w, what, off, n);
		n += 4;		/* the chunk count, which the size leaves out */
	}
	if (!inside(w, off, n))
		return past_end(w, what, off, n);
	if (off < start || off + n > end)
		return refuse(w, false, "%s (bytes %llu..%llu) is outside its section "
			      "(bytes %llu..%llu)", what, (unsigned long long)off,
			      (unsigned long long)(off + n), (unsigned long long)start,
			      (unsigned long long)end);
	if (!(s->flags & SEC_COMPRESSED))
		return 0;
	w->pos = off;
	if (num(w, 4, &chunks, what))
		return -1;
	for (i = 0; i < chunks; i++) {
		if (w->pos + 8 > off + n)
			return refuse(w, false, "%s: compressed chunk %llu of %llu at byte %llu "
				      "is outside the extent", what, (unsigned long long)i,
				      (unsigned long long)chunks, (unsigned long long)w->pos);
		if (num(w, 4, &csize, what) || skip(w, 4, what))
			return -1;
		if (csize > off + n - w->pos)
			return refuse(w, false, "%s: compressed chunk %llu (%llu bytes at byte "
				      "%llu) runs past the extent", what, (unsigned long long)i,
				      (unsigned long long)csize, (unsigned long long)w->pos);
		w->pos += csize;
	}
	return 0;
}

/* a BUFFER or BUFFER_TEXT option's data, [at, at + n) */
static int v7_buffer(struct walk *w, __u64 id, __u64 at, __u64 n)
{
	__u64 off, cpus = 0, i, cpu, coff, csize, end = at + n, rest;
	char name[64], clock[32], what[128];
	struct section s;

	w->pos = at;
	if (n < 8 || num(w, 8, &off, "a buffer option's offset") ||
	    string(w, n, name, sizeof(name), "a buffer option's name") ||
	    string(w, n, clock, sizeof(clock), "a buffer option's clock") || w->pos > end)
		return w->rc ? -1 : refuse(w, false, "buffer option at byte %llu runs past "
					    "its %llu bytes", (unsigned long long)at,
					    (unsigned long long)n);
	note_buffer(w, name, clock);
	snprintf(what, sizeof(what), "buffer \"%s\"'s section", name);
	if (section_at(w, off, (unsigned int)id, &s, what))
		return -1;
	if (id == OPT_BUFFER_TEXT)
		return 0;
	/*
	 * trace-cmd 3.1.6 writes the page size (4 bytes) before the CPU
	 * count, which the manual does not list: the one whose CPU list
	 * ends the option exactly
	 */
	rest = end - w->pos;
	if (rest >= 8) {
		__u64 save = w->pos;

		w->pos += 4;
		if (num(w, 4, &cpus, "a buffer option's CPU count"))
			return -1;
		if (cpus * 20 != rest - 8)
			w->pos = save;
	}
	if (w->pos == at + n - rest &&
	    (rest < 4 || num(w, 4, &cpus, "a buffer option's CPU count") ||
	     cpus * 20 != rest - 4))
		return w->rc ? -1 : refuse(w, false, "buffer \"%s\"'s option at byte %llu: "
					    "its CPU list does not end it", name,
					    (unsigned long long)at);
	for (i = 0; i < cpus; i++) {
		if (num(w, 4, &cpu, "a CPU id") || num(w, 8, &coff, "a CPU data offset") ||
		    num(w, 8, &csize, "a CPU data size"))
			return -1;
		snprintf(what, sizeof(what), "the CPU %llu data of buffer \"%s\"",
			 (unsigned long long)cpu, name);
		{
			__u64 save = w->pos;

			if (v7_cpu_extent(w, &s, coff, csize, what))
				return -1;
			w->pos = save;
		}
	}
	return 0;
}

/* the options section at off and those its DONE options chain to */
static int v7_options(struct walk *w, __u64 off)
{
	unsigned int nr = 0;

	while (off) {
		struct section s;
		__u64 end;

		if (++nr > MAX_OPTION_SECTIONS)
			return refuse(w, false, "more than %d options sections (a loop?)",
				      MAX_OPTION_SECTIONS);
		if (section_at(w, off, OPT_DONE, &s, "an options offset"))
			return -1;
		if (s.flags & SEC_COMPRESSED)
			return refuse(w, false, "the options section at byte %llu is compressed",
				      (unsigned long long)off);
		w->pos = off + SEC_HDR;
		end = w->pos + s.size;
		off = 0;
		for (;;) {
			__u64 id, n, at;

			if (end - w->pos < 6)
				return refuse(w, false, "the options section at byte %llu ends "
					      "without its DONE option", (unsigned long long)s.off);
			if (num(w, 2, &id, "an option's id") || num(w, 4, &n, "an option's size"))
				return -1;
			at = w->pos;
			if (n > end - at)
				return refuse(w, false, "option %llu at byte %llu (%llu bytes) runs "
					      "past its section", (unsigned long long)id,
					      (unsigned long long)at, (unsigned long long)n);
			if (id == OPT_DONE) {
				if (n < 8)
					return refuse(w, false, "DONE option at byte %llu: %llu bytes",
						      (unsigned long long)at, (unsigned long long)n);
				if (num(w, 8, &off, "the next options offset"))
					return -1;
				break;
			}
			if (option_bounds(w, id, at, n, true))
				return -1;
			if (id == OPT_BUFFER || id == OPT_BUFFER_TEXT) {
				if (v7_buffer(w, id, at, n))
					return -1;
			} else if (id >= OPT_HEADER_INFO && id <= OPT_CMDLINES && n >= 8) {
				struct section m;
				__u64 moff;

				if (num(w, 8, &moff, "a section offset") ||
				    section_at(w, moff, (unsigned int)id, &m, "a metadata option"))
					return -1;
			}
			w->pos = at + n;
		}
	}
	return 0;
}

static int walk_v7(struct walk *w)
{
	char name[64];
	__u64 first, id, flags, n, csize, last = ~0ULL;
	size_t cap = 0;

	if (string(w, 64, name, sizeof(name), "the compression name") ||
	    string(w, 64, name, sizeof(name), "the compression version") ||
	    num(w, 8, &first, "the first options offset"))
		return -1;
	/* the sections, one after the other to the end of the file */
	while (w->pos < w->size) {
		__u64 at = w->pos;

		if (w->nr_sec == cap) {
			__u64 *p;

			if (cap >= MAX_SECTIONS)
				return refuse(w, false, "more than %u sections", MAX_SECTIONS);
			cap = cap ? cap * 2 : 64;
			p = realloc(w->sec, cap * sizeof(*p));
			if (!p)
				return refuse(w, false, "out of memory");
			w->sec = p;
		}
		if (num(w, 2, &id, "a section header") || num(w, 2, &flags, "a section header") ||
		    skip(w, 4, "a section header") || num(w, 8, &n, "a section header"))
			return -1;
		if (!inside(w, w->pos, n))
			return refuse(w, true, "section %llu at byte %llu (%llu bytes) runs past "
				      "the end of the file (%llu bytes)", (unsigned long long)id,
				      (unsigned long long)at, (unsigned long long)n,
				      (unsigned long long)w->size);
		/* compressed metadata: csize4 rsize4 data (CPU data: chunks, checked apart) */
		if ((flags & SEC_COMPRESSED) && id != OPT_BUFFER && id != OPT_BUFFER_TEXT) {
			if (n < 8 || num(w, 4, &csize, "a compression header"))
				return w->rc ? -1 : refuse(w, false, "compressed section at byte "
							    "%llu: %llu bytes", (unsigned long long)at,
							    (unsigned long long)n);
			if (csize > n - 8)
				return refuse(w, false, "compressed section %llu at byte %llu: "
					      "%llu compressed bytes in %llu", (unsigned long long)id,
					      (unsigned long long)at, (unsigned long long)csize,
					      (unsigned long long)(n - 8));
			w->pos = at + SEC_HDR;
		}
		w->sec[w->nr_sec++] = at;
		w->pos += n;
		last = id;
	}
	/*
	 * trace-cmd writes the strings section last (tracecmd_output_close()):
	 * a file cut where a section ends has lost it, and libtracecmd reads
	 * such a file without a word
	 */
	if (last != OPT_STRINGS)
		return refuse(w, true, "the last section (id %llu at byte %llu) is not the "
			      "strings section trace-cmd writes last", (unsigned long long)last,
			      (unsigned long long)(w->nr_sec ? w->sec[w->nr_sec - 1] : w->pos));
	if (v7_options(w, first))
		return -1;
	/*
	 * an empty TRACECLOCK: the top buffer's clock, or (trace-cmd convert
	 * of a file whose top buffer was empty writes no BUFFER option for
	 * it) the first instance's, which the others' are held to
	 */
	if (!w->empty_clock)
		return 0;
	if (!w->top_clock[0] && !w->inst_clock[0])
		return refuse(w, false, "an empty TRACECLOCK option and no BUFFER option that "
			      "names a clock");
	if (w->bufs)
		snprintf(w->bufs->clock_override, sizeof(w->bufs->clock_override), "%s",
			 w->top_clock[0] ? w->top_clock : w->inst_clock);
	return 0;
}

int cs_tracedat_extents(int fd, __u64 size, struct cs_tracedat_buffers *bufs, char *err,
			size_t errlen)
{
	struct walk w = { .fd = fd, .size = size, .err = err, .errlen = errlen, .bufs = bufs };
	unsigned char magic[10], b[2];
	char ver[32];
	__u64 page;

	err[0] = 0;
	if (bufs)
		memset(bufs, 0, sizeof(*bufs));
	if (get(&w, 0, magic, sizeof(magic), "the magic") ||
	    !cs_tracedat_magic(magic, sizeof(magic))) {
		if (!w.rc)
			refuse(&w, false, "no trace.dat magic");
		return w.rc;
	}
	w.pos = 10;
	if (string(&w, 16, ver, sizeof(ver), "the version"))
		return w.rc;
	if (get(&w, w.pos, b, 2, "the endianness and long size"))
		return w.rc;
	w.big = b[0] == 1;
	w.pos += 2;
	if (num(&w, 4, &page, "the page size"))
		return w.rc;
	/* another version: libtracecmd's to refuse */
	if (!strcmp(ver, "6"))
		walk_v6(&w);
	else if (!strcmp(ver, "7"))
		walk_v7(&w);
	free(w.sec);
	return w.rc;
}
