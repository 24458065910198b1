/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * trace-cmd's trace.dat as a chainscope trace (tracedat.c): the
 * `notifier:*` events of the file, read with Debian's libtracecmd and
 * libtraceevent (fields by name, from the formats stored in the file),
 * become the record stream a .cstrace gives, so every rule, histogram
 * and export applies unchanged. userspace/record.md, "trace.dat input".
 *
 * The conversion writes a version-3 .cstrace image in memory, which the
 * strict reader (cs_trace_parse()) then validates like any file. The
 * commands run it in a child process without privileges and with
 * resource limits (cs_tracedat_read()): libtracecmd was not written
 * against hostile input.
 */
#ifndef CHAINSCOPE_TRACEDAT_H
#define CHAINSCOPE_TRACEDAT_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct cs_trace;
struct cs_tepconv;
struct tep_handle;
struct tep_record;

/* Exit codes of the trace.dat input (report, check: after 0-11) */
enum {
	CS_EXIT_TRACEDAT = 12,		/* trace.dat the library or we refuse */
	CS_EXIT_TRACEDAT_CLOCK = 13,	/* a trace clock that cannot be compared */
	CS_EXIT_TRACEDAT_NAME = 14,	/* a name outside the kernel symbol alphabet */
	CS_EXIT_TRACEDAT_CRASH = 15,	/* the parser process died (signal, limit) */
	CS_EXIT_TRACEFS_OFF = 16,	/* --tracefs: no notifier:* event enabled in DIR */
};

/* The buffer instances a trace.dat names (trace-cmd record -B NAME) */
#define CS_TRACEDAT_MAX_BUFFERS 8
struct cs_tracedat_buffers {
	__u32 nr;				/* instances, the top buffer not counted */
	char name[CS_TRACEDAT_MAX_BUFFERS][48];	/* the first ones' names, cut */
	char clock[CS_TRACEDAT_MAX_BUFFERS][32];	/* v7: each one's clock ("" in v6) */
	/*
	 * v7 with an empty TRACECLOCK option (trace-cmd convert writes one
	 * from a v6 file): the top buffer's clock, from its BUFFER option,
	 * which the conversion must use instead (libtracecmd parses the
	 * empty option past its end), or if there is none, the first
	 * instance's; "" otherwise
	 */
	char clock_override[32];
};

/* What the file was, for the commands' notes */
struct cs_tracedat_info {
	char clock[32];		/* the trace clock the file names ("local") */
	__u32 file_version;	/* trace.dat version (6, 7) */
	__u32 nr_formats;	/* notifier event formats in the file */
	__u64 nr_events;	/* notifier events read */
	__u64 nr_other;		/* records of other events, skipped */
	__u64 nr_loss;		/* loss markers made from missed events */
	__u64 nr_timed;		/* returns timed from their run (no duration_ns) */
	__u64 nr_untimed;	/* returns without a matching run */
	__u64 nr_stops;		/* stops made from NOTIFY_STOP_MASK returns */
	__u32 flags;		/* CS_TRACEDAT_* */
	__u32 nr_buffers;	/* buffer instances (trace-cmd record -B), top not counted */
	__u32 buffer_index;	/* the buffer read: 0 the top one, else instance n - 1 */
	char buffer[40];	/* that instance's name (sanitised) */
	struct cs_tracedat_buffers bufs;	/* the instances the pre-check found */
};

enum {
	CS_TRACEDAT_STOCK = 1 << 0,	/* upstream's cb-only events: no latency */
	CS_TRACEDAT_HAS_DURATION = 1 << 1,	/* notifier_return has duration_ns */
	CS_TRACEDAT_HAS_STOP = 1 << 2,	/* the file has notifier_stop's format */
	CS_TRACEDAT_NO_CLOCK = 1 << 3,	/* no clock stored: "local" assumed */
	CS_TRACEDAT_LIVE = 1 << 4,	/* --tracefs: the live ring buffer, consumed */
};

/*
 * The pre-check (tracedat_extent.c): the structure of the trace.dat of
 * size bytes open on fd walked with bounded reads, every extent it names
 * (v6: headers, formats, options, each buffer's per-CPU data; v7: every
 * section, the options chain, each buffer's per-CPU data and compressed
 * chunks) inside the file. 0, or CS_EXIT_TRACEDAT with err set to one
 * line, "trace.dat truncated: ..." or "trace.dat malformed: ...". bufs
 * (may be NULL) gets the buffer instances the file names.
 */
int cs_tracedat_extents(int fd, __u64 size, struct cs_tracedat_buffers *bufs, char *err,
			size_t errlen);

/* The first bytes of a trace.dat: 0x17 0x08 0x44 "tracing" */
bool cs_tracedat_magic(const void *buf, size_t len);
/* 1 to 9 bytes that begin that magic (a trace.dat cut inside it) */
bool cs_tracedat_magic_prefix(const void *buf, size_t len);

/*
 * Convert the trace.dat open on fd (which the call closes) into a
 * .cstrace image (malloc'd, *img, *len), in clock (NULL: the one the
 * file's TRACECLOCK names; the pre-check's clock_override where it says so).
 * In-process: the fuzz target's entry. 0, or an exit code
 * (CS_EXIT_TRACEDAT*) with err set to one line.
 */
int cs_tracedat_convert(int fd, const char *clock, void **img, size_t *len,
			struct cs_tracedat_info *info, char *err, size_t errlen);

/*
 * The commands': cs_tracedat_convert() in a child process (no
 * privileges, no capabilities, rlimits), then the strict reader on its
 * image. 0, or an exit code with err set to one line.
 */
int cs_tracedat_read(int fd, struct cs_trace *t, struct cs_tracedat_info *info,
		     char *err, size_t errlen);

/*
 * --tracefs [DIR] (tracefs_input.c): the live ring buffer of DIR (a
 * tracefs top directory or an instance under it), read and consumed
 * with libtracefs, decoded in this process as a trace.dat's records are.
 * 0, or an exit code with err set to one line: CS_EXIT_USAGE (DIR is no
 * tracefs directory), CS_EXIT_NO_PRIV (cannot read it), CS_EXIT_NO_TP
 * (the kernel has no notifier:* events), CS_EXIT_TRACEFS_OFF (none
 * enabled there), CS_EXIT_TRACEDAT* (as a trace.dat's).
 */
int cs_tracefs_read(const char *dir, struct cs_trace *t, struct cs_tracedat_info *info,
		    char *err, size_t errlen);

/*
 * The decoding of libtraceevent records both inputs share (tracedat.c):
 * a trace.dat's (cs_tracedat_convert()) and the live ring buffer's
 * (tracefs_input.c) go through the same formats by field name, context,
 * loss markers and trace_conv.c's pairing and image.
 *   cs_tepconv_new()     a decoder; info zeroed, err "" (NULL: no memory)
 *   cs_tepconv_setup()   tep's notifier formats, by name, and the clock;
 *                        none: the error when tep has no notifier:* format
 *   cs_tepconv_record()  one record, in time order (-1 once failed)
 *   cs_tepconv_image()   the .cstrace image (malloc'd), release in its
 *                        header, info's counts filled
 * Each returns 0 or the exit code (CS_EXIT_TRACEDAT*) of the first
 * failure, whose one line is in err; cs_tepconv_rc() says it.
 */
struct cs_tepconv *cs_tepconv_new(struct cs_tracedat_info *info, char *err, size_t errlen);
int cs_tepconv_setup(struct cs_tepconv *c, struct tep_handle *tep, const char *clock,
		     const char *none);
int cs_tepconv_record(struct cs_tepconv *c, struct tep_record *r, int cpu);
int cs_tepconv_image(struct cs_tepconv *c, const char *release, void **img, size_t *len);
int cs_tepconv_rc(const struct cs_tepconv *c);
void cs_tepconv_free(struct cs_tepconv *c);

#endif /* CHAINSCOPE_TRACEDAT_H */
