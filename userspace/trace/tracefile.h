/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * chainscope trace files: what `chainscope record` writes and `report`,
 * `check` read. Plain C, no libbpf: the host tests, the test generator
 * and the fuzz target link only this.
 *
 * Layout, version 3 (all integers little-endian):
 *
 *   header   CS_TRACE_HEADER_SIZE bytes (struct cs_trace_header)
 *   records  nr_records * header.record_size bytes; each starts with a
 *            struct cs_rec_event (bpf/record.h)
 *   trailer  struct cs_trace_trailer, nr_syms * struct cs_trace_fsym,
 *            then strtab_size bytes of NUL-terminated strings
 *   footer   struct cs_trace_footer: the trailer's offset, end magic
 *
 * Compatibility. `version` changes when a reader of the previous one
 * would misread a file: version 2 added the CS_REC_LOSS record and its
 * `reason` byte (a zero pad byte in version 1), version 3 the
 * CS_REC_SNAPSHOT record (bpf/record.h). Readers take every
 * version from CS_TRACE_VERSION_MIN to CS_TRACE_VERSION. A writer that
 * only appends fields to the record keeps the version and raises
 * `record_size`: readers accept any record_size >= sizeof(struct
 * cs_rec_event), step through the records at that stride and ignore
 * each record's tail. A smaller record_size is refused. Version 1
 * files are read as they are: they hold no CS_REC_LOSS and their pad
 * bytes are not looked at.
 *
 * Loss. A CS_REC_LOSS record stands where events were lost (per CPU for
 * ring buffer reserve failures, CS_REC_CPU_ANY for BPF recursion misses,
 * see bpf/record.h); the trailer keeps the totals. A loss record counts
 * at least one event and has no field but ts, cpu, val, type and reason
 * set. The recorder ends with a loss record for every count still
 * pending, so in version 2 the ring-full and NMI records add up to the
 * trailer's `lost` and the recursion-miss records to its `missed`,
 * exactly (without wrapping); anything else is corrupted.
 *
 * Snapshots (version 3). A chain's CS_REC_SNAPSHOT records are
 * consecutive, positions 0 .. length-1 in order, with the same head,
 * kind, length, time and stability, no block twice, priorities not
 * rising; a head has one snapshot at most. Anything else is corrupted.
 * A salvaged file whose last snapshot is cut short loses that snapshot.
 *
 * The trailer is written when recording ends, so a file without a valid
 * footer is truncated (or the recorder died). The strict reader checks
 * every length, offset and enum field and reports the first problem with
 * the byte offset where it is. The salvaging reader (CS_TRACE_SALVAGE)
 * reads a file that does not end in the footer's end marker up to its
 * last whole record instead; a file that does is read strictly.
 */
#ifndef CHAINSCOPE_TRACEFILE_H
#define CHAINSCOPE_TRACEFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/types.h>

#include "record.h"

#define CS_TRACE_MAGIC		"CSTRACE"	/* 8 bytes with the NUL */
#define CS_TRACE_TRAILER_MAGIC	"CSTRAIL"
#define CS_TRACE_END_MAGIC	"CSTREND"
#define CS_TRACE_VERSION	3	/* written; read: MIN .. this */
#define CS_TRACE_VERSION_MIN	1
#define CS_TRACE_HEADER_SIZE	256
#define CS_TRACE_CLOCK_MONOTONIC 1	/* bpf_ktime_get_ns() */
#define CS_TRACE_NO_MODULE	0xffffffffu

struct cs_trace_header {
	char magic[8];		/* CS_TRACE_MAGIC */
	__u32 version;		/* CS_TRACE_VERSION */
	__u32 header_size;	/* CS_TRACE_HEADER_SIZE: records start here */
	__u32 record_size;	/* >= sizeof(struct cs_rec_event): the stride */
	__u32 clock;		/* CS_TRACE_CLOCK_MONOTONIC */
	__u64 start_ns;		/* CLOCK_MONOTONIC when recording began */
	char release[96];	/* uname -r, NUL-terminated */
	char boot_id[48];	/* /proc/sys/kernel/random/boot_id, NUL-terminated */
	__u32 source;		/* enum cs_trace_source: where the events came from */
	char reserved[76];	/* zero */
};

/*
 * Header `source` (was reserved, zero, in every file before it): which
 * event source `record` used. Tracepoint recordings keep the bytes they
 * always had; a probes recording has 1 there, which a reader from before
 * the field refuses ("reserved header byte is not zero") rather than
 * misjudge: probes recordings lack lock waits and nr_to_call (-1), and
 * `check` treats them accordingly (userspace/record.md).
 */
enum cs_trace_source {
	CS_TRACE_SOURCE_TRACEPOINTS,	/* our core's notifier tracepoints */
	CS_TRACE_SOURCE_PROBES,		/* fentry/fexit + kprobe.multi (--mode probes) */
	CS_TRACE_SOURCE_MAX,
};

struct cs_trace_trailer {
	char magic[8];		/* CS_TRACE_TRAILER_MAGIC */
	__u32 trailer_size;	/* this struct + symbols + strtab */
	__u32 nr_syms;
	__u64 nr_records;
	__u64 lost;		/* bpf_ringbuf_reserve() failed (ring full or NMI) */
	__u64 missed;		/* BPF recursion protection skipped a program */
	__u64 end_ns;		/* CLOCK_MONOTONIC when recording ended, >= start_ns */
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

/*
 * The task of an event whose input names none (a console line without a
 * printk caller id, console.c): all such events are one stream, in which
 * passes that ran at once on several CPUs interleave. No recorder writes
 * it (record's tasks are task_struct addresses). check pairs such passes
 * by chain and val and judges no rule that needs the task on them.
 */
#define CS_TRACE_TASK_NONE (1ULL << 41)

/* A symbol: for the writer to store, from the reader to look up. */
struct cs_trace_sym {
	__u64 addr;
	const char *name;	/* "sym" or "sym+0x10" */
	const char *module;	/* NULL for vmlinux */
};

/* A trace, read and validated. */
struct cs_trace {
	struct cs_trace_header hdr;
	/*
	 * The records as struct cs_rec_event, whatever the file's
	 * record_size. `reason` means something only in CS_REC_LOSS
	 * records (version 1 files have none).
	 */
	const struct cs_rec_event *events;
	size_t nr_events;
	__u64 lost, missed, end_ns;
	struct cs_trace_sym *syms;	/* sorted by addr */
	size_t nr_syms;
	/*
	 * Salvaged (CS_TRACE_SALVAGE, the file had no valid trailer): no
	 * symbols; lost and missed sum the CS_REC_LOSS records found,
	 * end_ns is the last record's time; `dropped` bytes after the last
	 * whole record were ignored.
	 */
	bool salvaged;
	__u64 dropped;
	void *buf;			/* owns the file (cs_trace_read) */
	size_t len;
	void *copy;			/* owns events, if they had to be copied */
};

/* cs_trace_parse_flags() / cs_trace_read_flags() flags */
enum {
	/*
	 * A file without the footer's end marker (recording cut short):
	 * read the whole records after a valid header, up to the first
	 * partial record, the trailer magic or an all-zero record (space
	 * the filesystem allocated but the recorder never wrote). A record
	 * that is invalid otherwise is still an error.
	 */
	CS_TRACE_SALVAGE = 1 << 0,
};

/*
 * Parse and validate a whole trace file held in memory (the fuzz entry
 * point). The trace points into buf, which the caller keeps; release it
 * with cs_trace_free(). Returns 0, or -1 with err set to "<problem> at
 * byte offset N: <detail>" where the problem is one of "truncated",
 * "corrupted", "wrong magic", "wrong version" (or "out of memory").
 */
int cs_trace_parse(const void *buf, size_t len, struct cs_trace *t,
		   char *err, size_t errlen);
int cs_trace_parse_flags(const void *buf, size_t len, unsigned int flags,
			 struct cs_trace *t, char *err, size_t errlen);
/*
 * Read a file and parse it; the trace owns the buffer. err as above.
 * cs_trace_read() uses the flags of cs_trace_set_default_flags() (0 at
 * start: strict) and, when it salvages, says so in one line on stderr:
 * how many bytes were dropped and that symbols and loss totals are
 * unavailable.
 */
int cs_trace_read(const char *path, struct cs_trace *t, char *err, size_t errlen);
int cs_trace_read_flags(const char *path, unsigned int flags, struct cs_trace *t,
			char *err, size_t errlen);
/* For the commands' --salvage option (main.c). */
void cs_trace_set_default_flags(unsigned int flags);
void cs_trace_free(struct cs_trace *t);

/* The symbol stored for addr, or NULL. */
const struct cs_trace_sym *cs_trace_sym_find(const struct cs_trace *t, __u64 addr);

const char *cs_rec_type_name(unsigned int type);	/* "notifier_run" */
const char *cs_rec_loss_reason_name(unsigned int reason);	/* "ring-full" */

/*
 * The reader's error: "WHAT at byte offset OFF: ..." into err; returns
 * -1 (tracefile.c, shared with tracefile_snap.c).
 */
__attribute__((format(printf, 5, 6)))
int cs_trace_bad(char *err, size_t errlen, const char *what, __u64 off,
		 const char *fmt, ...);
/* tracefile_snap.c (the reader's, exposed for the tests) */
/*
 * One CS_REC_SNAPSHOT record's own fields (e at byte offset off); 0, or -1
 * with err set as cs_trace_parse() does.
 */
int cs_trace_check_snap_record(const struct cs_rec_event *e, __u64 off,
			       char *err, size_t errlen);
/*
 * The snapshots of t->events[0 .. *nr) as a whole: consecutive positions,
 * one length, no block twice, one snapshot per head. With salvage, a
 * snapshot cut short by the end of the records is dropped: *nr becomes
 * its first record. 0, or -1 with err set.
 */
int cs_trace_check_snapshots(const struct cs_trace *t, size_t *nr, bool salvage,
			     char *err, size_t errlen);

/* --- writer --------------------------------------------------------------- */

struct cs_trace_writer;

/*
 * Open path for writing, creating it (0600) if needed, but write nothing
 * yet (record opens its output before it loads BPF). An existing path
 * must pass outfile.h's rules (flags: CS_OUT_FORCE). NULL and errno on
 * error, with *why (may be NULL) the reason for a message. Never blocks.
 */
struct cs_trace_writer *cs_trace_open(const char *path, unsigned int flags, const char **why);
/*
 * Tests only (cs-gentrace): write this version and record size instead
 * of CS_TRACE_VERSION and sizeof(struct cs_rec_event); each record's
 * tail is zero-filled. Before cs_trace_begin(); 0 or -EINVAL.
 */
int cs_trace_set_layout(struct cs_trace_writer *w, __u32 version, __u32 record_size);
/* The header's source (enum cs_trace_source, default tracepoints); before
 * cs_trace_begin(); 0 or -EINVAL. */
int cs_trace_set_source(struct cs_trace_writer *w, __u32 source);
/* "tracepoints", "probes", "?" */
const char *cs_trace_source_name(__u32 source);
/*
 * Tests only (crafted files for the reader's tests): let cs_trace_begin()
 * and cs_trace_finish() write strings the reader refuses. Process-wide.
 */
void cs_trace_write_refused_strings(bool on);
/*
 * Truncate the file and write the header; 0 or -errno (-EINVAL: a release
 * or boot id that the reader refuses, see symname.h).
 */
int cs_trace_begin(struct cs_trace_writer *w, const char *release,
		   const char *boot_id, __u64 start_ns);
/* cs_trace_open() + cs_trace_begin(); NULL and errno on error. */
struct cs_trace_writer *cs_trace_create(const char *path, const char *release,
					const char *boot_id, __u64 start_ns);
/*
 * Append records (CS_REC_LOSS needs version 2, CS_REC_SNAPSHOT version 3);
 * 0 or -errno.
 */
int cs_trace_write(struct cs_trace_writer *w, const struct cs_rec_event *e,
		   size_t n);
__u64 cs_trace_written(const struct cs_trace_writer *w);
/*
 * Hand what is buffered to the kernel, so that a recorder killed now
 * leaves every record written so far (for --salvage); 0 or -errno.
 */
int cs_trace_flush(struct cs_trace_writer *w);
/*
 * Write the trailer (counters, the symbols: any order, duplicates
 * dropped) and the footer, then close. Frees w in any case; 0 or -errno.
 * A symbol or module name that the reader refuses (symname.h) is the
 * caller's to leave out: -EINVAL, and the file is left cut short.
 */
int cs_trace_finish(struct cs_trace_writer *w, __u64 lost, __u64 missed,
		    __u64 end_ns, const struct cs_trace_sym *syms, size_t nr_syms);
/*
 * Close without finishing (error paths): the file is left truncated, a
 * cut-short recording that --salvage can read.
 */
void cs_trace_abort(struct cs_trace_writer *w);
/*
 * Close and remove the file if cs_trace_open() created it or
 * cs_trace_begin() truncated it; an existing file that was only opened
 * is left as it was.
 */
void cs_trace_discard(struct cs_trace_writer *w);

#endif /* CHAINSCOPE_TRACEFILE_H */
