// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * report's and check's FILE: a .cstrace or a trace-cmd trace.dat, told
 * apart by the magic, a text log (--console) or the live ring buffer of a
 * DIR (--tracefs) (trace_cli.h: cs_trace_read_input()). Apart from
 * trace_cli.c so that what links the trace reader alone (the fuzz
 * targets, the generators) needs no libtracecmd.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "chainscope.h"
#include "console.h"
#include "safestr.h"
#include "trace_cli.h"
#include "tracedat.h"
#include "tracefile.h"

static void tracedat_note(const char *cmd, const char *path, const struct cs_trace *t,
			  const struct cs_tracedat_info *in)
{
	char name[CS_SAFE_STR_LEN(1024)], what[64];
	const char *set;

	cs_safe_str(path, name, sizeof(name));
	set = in->flags & CS_TRACEDAT_STOCK ? "upstream's cb-only events" :
	      in->flags & CS_TRACEDAT_HAS_DURATION ? "duration_ns from notifier_return" :
	      "latency = notifier_return - notifier_run";
	if (in->flags & CS_TRACEDAT_LIVE)
		snprintf(what, sizeof(what), "tracefs, the live ring buffer (consumed)");
	else
		snprintf(what, sizeof(what), "trace-cmd trace.dat v%u", in->file_version);
	fprintf(stderr, "%s: %s: %s, clock %s%s: %llu notifier events "
		"(%u formats, %s), %llu loss markers, %llu other events skipped\n", cmd, name,
		what, in->clock,
		in->flags & CS_TRACEDAT_NO_CLOCK ? " (none stored: local assumed)" :
		!strcmp(in->clock, "tsc2nsec") ? " (x86-tsc, converted to ns by libtracecmd)" : "",
		(unsigned long long)in->nr_events, in->nr_formats, set,
		(unsigned long long)in->nr_loss, (unsigned long long)in->nr_other);
	if (in->nr_stops || in->nr_untimed)
		fprintf(stderr, "%s: %s: %llu stops made from NOTIFY_STOP_MASK returns, "
			"%llu returns without their run (untimed)\n",
			cmd, name, (unsigned long long)in->nr_stops,
			(unsigned long long)in->nr_untimed);
	if (in->nr_buffers) {
		char names[200] = "";
		size_t used = 0, i, j;

		for (i = 0; i < in->bufs.nr && i < CS_TRACEDAT_MAX_BUFFERS && used < sizeof(names);
		     i++) {
			char one[sizeof(in->bufs.name[i])];

			snprintf(one, sizeof(one), "%s", in->bufs.name[i]);
			for (j = 0; one[j]; j++)
				if (one[j] < 0x21 || one[j] > 0x7e || one[j] == '"')
					one[j] = '?';
			used += snprintf(names + used, sizeof(names) - used, "%s\"%s\"",
					 i ? ", " : "", one);
		}
		if (in->bufs.nr > CS_TRACEDAT_MAX_BUFFERS && used < sizeof(names))
			snprintf(names + used, sizeof(names) - used, ", ...");
		if (in->buffer_index)
			fprintf(stderr, "%s: %s: %u buffer instance%s (%s) besides the top "
				"buffer: the notifier events are those of instance \"%s\", none "
				"in the other buffers\n", cmd, name, in->nr_buffers,
				in->nr_buffers == 1 ? "" : "s", names, in->buffer);
		else
			fprintf(stderr, "%s: %s: %u buffer instance%s (%s) besides the top "
				"buffer: no notifier event in %s, the top buffer's are read\n",
				cmd, name, in->nr_buffers, in->nr_buffers == 1 ? "" : "s", names,
				in->nr_buffers == 1 ? "it" : "any");
	}
	if (in->flags & CS_TRACEDAT_STOCK)
		fprintf(stderr, "%s: %s: upstream's notifier events carry only cb: "
			"registration order and run counts, no latency, chains or return values\n",
			cmd, name);
	(void)t;
}

int cs_trace_read_input(const char *cmd, const char *path, bool quiet, struct cs_trace *t,
			bool *tracedat, unsigned int *dat_flags, char *err, size_t errlen)
{
	struct cs_tracedat_info info;
	unsigned char magic[10];
	struct stat st;
	ssize_t n;
	int fd, rc;

	*tracedat = false;
	if (dat_flags)
		*dat_flags = 0;
	if (cs_trace_tracefs_input()) {
		*tracedat = true;
		rc = cs_tracefs_read(path, t, &info, err, errlen);
		if (!rc && !quiet)
			tracedat_note(cmd, path, t, &info);
		if (!rc && dat_flags)
			*dat_flags = info.flags;
		return rc;
	}
	if (cs_trace_console_input()) {
		struct cs_console_info ci;

		*tracedat = true;
		rc = cs_console_read(path, t, &ci, err, errlen);
		if (!rc && !quiet)
			cs_console_note(stderr, cmd, path, &ci);
		if (!rc && dat_flags && (ci.flags & CS_CONSOLE_STOCK))
			*dat_flags = CS_TRACEDAT_STOCK;
		return rc;
	}
	/* O_NONBLOCK: a FIFO opens at once and is refused, never waited on */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode)) {
		n = pread(fd, magic, sizeof(magic), 0);
		/* 1 to 9 bytes of the trace.dat magic: a trace.dat cut there */
		if (n > 0 && n < (ssize_t)sizeof(magic) && (__u64)st.st_size == (__u64)n &&
		    cs_tracedat_magic_prefix(magic, n)) {
			close(fd);
			*tracedat = true;
			snprintf(err, errlen, "trace.dat truncated: %zd bytes, shorter than its "
				 "10-byte magic", n);
			return CS_EXIT_TRACEDAT;
		}
		if (n == (ssize_t)sizeof(magic) && cs_tracedat_magic(magic, sizeof(magic))) {
			*tracedat = true;
			rc = cs_tracedat_read(fd, t, &info, err, errlen);
			if (!rc && !quiet)
				tracedat_note(cmd, path, t, &info);
			if (!rc && dat_flags)
				*dat_flags = info.flags;
			return rc;
		}
	}
	if (fd >= 0)
		close(fd);
	return cs_trace_read(path, t, err, errlen) ? CS_EXIT_USAGE : 0;
}
