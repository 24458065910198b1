/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * chainscope trace files: what `chainscope record` writes and `report`,
 * `check` read. Plain C, no libbpf: the host tests, the test generator
 * and the fuzz target link only this.
 *
 * Layout, version 1 (all integers little-endian):
 *
 *   header   CS_TRACE_HEADER_SIZE bytes (struct cs_trace_header)
 *   records  nr_records * sizeof(struct cs_rec_event) (bpf/record.h)
 *   trailer  struct cs_trace_trailer, nr_syms * struct cs_trace_fsym,
 *            then strtab_size bytes of NUL-terminated strings
 *   footer   struct cs_trace_footer: the trailer's offset, end magic
 *
 * The trailer is written when recording ends, so a file without a valid
 * footer is truncated (or the recorder died). The reader checks every
 * length, offset and enum field and reports the first problem with the
 * byte offset where it is.
 */
#ifndef CHAINSCOPE_TRACEFILE_H
#define CHAINSCOPE_TRACEFILE_H

#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>

#include "record.h"

#define CS_TRACE_MAGIC		"CSTRACE"	/* 8 bytes with the NUL */
#define CS_TRACE_TRAILER_MAGIC	"CSTRAIL"
#define CS_TRACE_END_MAGIC	"CSTREND"
#define CS_TRACE_VERSION	1
#define CS_TRACE_HEADER_SIZE	256
#define CS_TRACE_CLOCK_MONOTONIC 1	/* bpf_ktime_get_ns() */
#define CS_TRACE_NO_MODULE	0xffffffffu

struct cs_trace_header {
	char magic[8];		/* CS_TRACE_MAGIC */
	__u32 version;		/* CS_TRACE_VERSION */
	__u32 header_size;	/* CS_TRACE_HEADER_SIZE: records start here */
	__u32 record_size;	/* sizeof(struct cs_rec_event) */
	__u32 clock;		/* CS_TRACE_CLOCK_MONOTONIC */
	__u64 start_ns;		/* CLOCK_MONOTONIC when recording began */
	char release[96];	/* uname -r, NUL-terminated */
	char boot_id[48];	/* /proc/sys/kernel/random/boot_id, NUL-terminated */
	char reserved[80];	/* zero */
};

struct cs_trace_trailer {
	char magic[8];		/* CS_TRACE_TRAILER_MAGIC */
	__u32 trailer_size;	/* this struct + symbols + strtab */
	__u32 nr_syms;
	__u64 nr_records;
	__u64 lost;		/* ring buffer full (bpf_ringbuf_reserve failed) */
	__u64 missed;		/* BPF recursion protection skipped a program */
	__u64 end_ns;		/* CLOCK_MONOTONIC when recording ended */
	__u32 strtab_size;
	__u32 reserved;		/* zero */
};

/* Symbol snapshot entry, sorted by addr, addresses unique. */
struct cs_trace_fsym {
	__u64 addr;
	__u32 name_off;		/* into strtab */
	__u32 module_off;	/* into strtab, or CS_TRACE_NO_MODULE */
};

struct cs_trace_footer {
	__u64 trailer_off;
	char magic[8];		/* CS_TRACE_END_MAGIC */
};

/* A symbol: for the writer to store, from the reader to look up. */
struct cs_trace_sym {
	__u64 addr;
	const char *name;	/* "sym" or "sym+0x10" */
	const char *module;	/* NULL for vmlinux */
};

/* A trace, read and validated. */
struct cs_trace {
	struct cs_trace_header hdr;
	const struct cs_rec_event *events;
	size_t nr_events;
	__u64 lost, missed, end_ns;
	struct cs_trace_sym *syms;	/* sorted by addr */
	size_t nr_syms;
	void *buf;			/* owns the data above */
	size_t len;
};

/*
 * Parse and validate a whole trace file held in memory (the fuzz entry
 * point). The trace points into buf, which the caller keeps. Returns 0,
 * or -1 with err set to "<problem> at byte offset N: <detail>" where the
 * problem is one of "truncated", "corrupted", "wrong magic",
 * "wrong version".
 */
int cs_trace_parse(const void *buf, size_t len, struct cs_trace *t,
		   char *err, size_t errlen);
/* Read a file and parse it; the trace owns the buffer. err as above. */
int cs_trace_read(const char *path, struct cs_trace *t, char *err, size_t errlen);
void cs_trace_free(struct cs_trace *t);

/* The symbol stored for addr, or NULL. */
const struct cs_trace_sym *cs_trace_sym_find(const struct cs_trace *t, __u64 addr);
/* Its name, or "0x..." for an address without one; returns buf. */
char *cs_trace_sym_format(const struct cs_trace *t, __u64 addr, char *buf,
			  size_t len);

const char *cs_rec_type_name(unsigned int type);	/* "notifier_run" */

/* --- writer --------------------------------------------------------------- */

struct cs_trace_writer;

/* Create path and write the header; NULL and errno on error. */
struct cs_trace_writer *cs_trace_create(const char *path, const char *release,
					const char *boot_id, __u64 start_ns);
/* Append records; 0 or -errno. */
int cs_trace_write(struct cs_trace_writer *w, const struct cs_rec_event *e,
		   size_t n);
__u64 cs_trace_written(const struct cs_trace_writer *w);
/*
 * Write the trailer (counters, the symbols: any order, duplicates
 * dropped) and the footer, then close. Frees w in any case; 0 or -errno.
 */
int cs_trace_finish(struct cs_trace_writer *w, __u64 lost, __u64 missed,
		    __u64 end_ns, const struct cs_trace_sym *syms, size_t nr_syms);
/* Close without finishing (error paths): the file is left truncated. */
void cs_trace_abort(struct cs_trace_writer *w);

#endif /* CHAINSCOPE_TRACEFILE_H */
