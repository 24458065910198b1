// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer target for the trace.dat input (trace/tracedat.c): the bytes
 * as a file (a memfd) through libtracecmd and our conversion, in
 * process, then the strict reader on the image. Any input must either be
 * refused with one line and a trace.dat exit code (12-14; the pre-check,
 * cs_tracedat_extents(), runs first, as in the commands), or give an
 * image that our own reader accepts (the conversion writes only what the
 * reader takes, names included). Seeds: every cs-gentracedat scenario
 * (tests/fuzz/corpus/tracedat, tests/sh/tracedat.sh).
 *
 * FUZZ_TRACEDAT_CHILD=1 runs each input as the commands do, in the
 * confined child (cs_tracedat_read()): there a crash of the library is
 * exit 15, not a finding, and what is fuzzed is that chainscope never
 * dies with it and always answers in one line (make test runs this
 * way; tests/sh/tracedat.sh also runs the seeds in process, where ASan
 * watches our conversion). In process, libtracecmd 3.1.6 fails within a
 * few dozen mutated inputs: a NULL dereference in tracecmd_close() after
 * a failed open, a strdup() past the end of a heap buffer in
 * tracecmd_open_fd(), sizes from the file handed to malloc().
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "fuzz_trace.h"
#include "tracedat.h"
#include "tracefile.h"

static int in_child = -1;

/*
 * libtracecmd 3.1.6 leaks the records it peeked when an iteration stops
 * early (our refusal of a record): its leak, not ours.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	/* the library mallocs sizes read from the file: NULL, not a finding */
	return "allocator_may_return_null=1:handle_segv=0:handle_sigbus=0:handle_sigfpe=0:"
	       "handle_sigill=0:handle_abort=0";
}

const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtracecmd.so\n";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cs_tracedat_buffers bufs;
	struct cs_tracedat_info info;
	struct cs_trace t;
	char err[512];
	void *img;
	size_t len;
	int fd, rc;

	if (in_child < 0) {
		in_child = getenv("FUZZ_TRACEDAT_CHILD") && *getenv("FUZZ_TRACEDAT_CHILD") == '1';
		/* the library loops forever on some pages: 2 s, not 10 */
		setenv("CHAINSCOPE_TRACEDAT_CPU", "2", 0);
	}
	fd = memfd_create("fuzz-tracedat", MFD_CLOEXEC);
	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size) ||
	    lseek(fd, 0, SEEK_SET))
		abort();
	if (in_child) {
		rc = cs_tracedat_read(fd, &t, &info, err, sizeof(err));
		if (!rc)
			cs_trace_free(&t);
		else if (rc < CS_EXIT_TRACEDAT || rc > CS_EXIT_TRACEDAT_CRASH || !err[0] ||
			 strchr(err, '\n'))
			abort();
		return 0;
	}
	/* as the commands: the pre-check first (ASan watches it here) */
	rc = cs_tracedat_extents(fd, size, &bufs, err, sizeof(err));
	if (rc) {
		if (rc != CS_EXIT_TRACEDAT || !err[0] || strchr(err, '\n'))
			abort();
		close(fd);
		return 0;
	}
	rc = cs_tracedat_convert(fd, bufs.clock_override[0] ? bufs.clock_override : NULL, &img, &len, &info,
				 err, sizeof(err));
	if (rc) {
		if (rc < CS_EXIT_TRACEDAT || rc > CS_EXIT_TRACEDAT_NAME || !err[0] ||
		    strchr(err, '\n'))
			abort();
		return 0;
	}
	fuzz_image_parse(img, len, &t, info.nr_events);
	cs_trace_free(&t);
	free(img);
	return 0;
}
