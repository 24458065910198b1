/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * chainscope report's core, apart from its command line: what the CLI
 * (cmd/report.c), serve and the fuzz targets (tests/fuzz/fuzz_report.c)
 * run. Its files' shared internals: report_int.h.
 */
#ifndef CHAINSCOPE_REPORT_H
#define CHAINSCOPE_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>

#include "common.h"

struct cs_trace;

struct cs_report_opts {
	const char *cmd;	/* "chainscope report", to start messages */
	const char *file;	/* the trace's path, as shown */
	int units;		/* enum cs_units */
	bool json;
	bool openmetrics;	/* the Prometheus exposition (openmetrics.c) */
	int svg_dirfd;		/* write CHAIN.svg files here; -1: no SVG */
	const char *svg_dir;	/* the directory's path, as shown */
	unsigned int out_flags;	/* outfile.h's CS_OUT_*, for the SVG files */
	FILE *perfetto;		/* --perfetto: the trace-event JSON here, or NULL */
	const char *perfetto_path;
	FILE *folded;		/* --folded: the folded stacks here, or NULL */
	const char *folded_path;
	bool folded_calls;	/* folded values: slices, not ns */
	bool quiet;		/* an export has stdout: no report there */
	bool passes;		/* --passes: the passes view instead of the rows */
	bool boot;		/* --boot: the boot sections (boot.c) */
	bool stock;		/* the input is upstream's cb-only events */
};

/* report --boot: the input holds no notifier_register event at all */
#define CS_EXIT_BOOT_NO_REG 17

/*
 * run.c: print the report of a parsed trace on out, messages on err, and
 * write the SVG files. Never exits. Returns CS_EXIT_OK, or CS_EXIT_ERROR after
 * a one-line message (out of memory, an SVG that could not be written).
 */
int cs_report_run(const struct cs_trace *t, const struct cs_report_opts *o,
		  FILE *out, FILE *err);

/* Paths as given, for messages: one line, escaped (safestr.h). print.c */
void cs_report_put_path(FILE *f, const char *s);

/* --- snapshots.c: the chains record walked (CS_REC_SNAPSHOT) --- */

size_t cs_report_snapshot_records(const struct cs_trace *t);
/* "chains walked by record ..." and each chain's blocks; nothing if none */
void cs_report_snap_text(FILE *out, const struct cs_trace *t);
/* ,"snapshots":[{chain, kind, ts_ns, stable, length, blocks[]}...] */
void cs_report_snap_json(FILE *out, const struct cs_trace *t);

/* --- boot.c: --boot, a boot-time buffer as an answer --- */

/* notifier_register events in t (--boot refuses a trace without one) */
size_t cs_report_boot_registrations(const struct cs_trace *t);
/*
 * The boot sections: slowest callbacks; per chain its membership events
 * in order, the call order they built, early history missing, each
 * callback's calls and time (stock: the registration order over all
 * chains and run counts). Text, or JSON members to put inside the
 * report's object (",\"boot\":{...}"). 0, or -ENOMEM (nothing written).
 */
int cs_report_boot_text(FILE *out, const struct cs_trace *t, const struct cs_report_opts *o);
int cs_report_boot_json(FILE *out, const struct cs_trace *t, const struct cs_report_opts *o);

/* --- export.c: the timeline (timeline.h) for other tools --- */

/*
 * Chrome trace-event JSON (Perfetto UI, chrome://tracing); file is the
 * trace's path for "otherData". 0, -ENOMEM or -EIO (writing f failed).
 */
int cs_report_perfetto(FILE *f, const struct cs_trace *t, const char *file);
/*
 * Folded stacks (flamegraph.pl, speedscope): "chain;callback[;...] VALUE"
 * sorted, VALUE the stack's own ns, or with calls its number of slices.
 * 0, -ENOMEM or -EIO.
 */
int cs_report_folded(FILE *f, const struct cs_trace *t, bool calls);

/* --- passes.c --- */

/*
 * --passes: every pass with its callbacks in the order they ran, their
 * start, run time and return value; text in o->units, or JSON (o->json)
 * in ns. 0, -ENOMEM or -EIO (writing f failed).
 */
int cs_report_passes(FILE *f, const struct cs_trace *t, const struct cs_report_opts *o);

/* --- svg.c --- */

#define CS_SVG_MAX_SERIES 12	/* bars per bucket; the rest are left out */

struct cs_svg_series {
	const char *name;
	const __u32 *slots;	/* CS_MAX_SLOTS log2 buckets */
};

/*
 * One SVG bar chart of up to CS_SVG_MAX_SERIES histograms. Every string
 * is XML-escaped. 0, or -1 if writing to f failed.
 */
int cs_svg_histogram(FILE *f, const char *title, const char *note, const char *unit,
		     const struct cs_svg_series *s, size_t n);

/*
 * A chain's timeline: its passes over time, the trace's span cut into
 * CS_SVG_TL_COLS columns, each drawn as the longest pass that began in it,
 * a bar as tall as the pass, stacked from its callbacks in call order
 * (series: colour index, < 0 other callbacks) and the pass' time outside
 * them. Every string is XML-escaped. 0, or -1 if writing to f failed.
 */
#define CS_SVG_TL_COLS	200
#define CS_SVG_TL_SEGS	8	/* callbacks drawn per pass; the rest as one */

struct cs_svg_tl_seg {
	int series;
	__u64 ns;
};

struct cs_svg_tl_col {
	unsigned int col;	/* 0 .. CS_SVG_TL_COLS - 1 */
	__u64 ts, dur;		/* ns since the trace's start */
	__u64 passes;		/* that began in the column */
	bool unfinished;
	size_t nseg;
	struct cs_svg_tl_seg seg[CS_SVG_TL_SEGS];
};

struct cs_svg_timeline {
	__u64 span_ns;			/* the trace's duration */
	const struct cs_svg_tl_col *cols;	/* the used columns, in order */
	size_t nr_cols;
	const char *const *names;	/* of the series, CS_SVG_MAX_SERIES at most */
	size_t nr_names;
};

int cs_svg_timeline(FILE *f, const char *title, const char *note,
		    const struct cs_svg_timeline *tl);

/* --- svg_timeline.c: the timelines' data, for every chain at once --- */

struct cs_tl_chains;

/* Walk t once; NULL: out of memory. */
struct cs_tl_chains *cs_tl_chains_collect(const struct cs_trace *t);
/* Chain head's timeline SVG into f (title: the chain's, as shown); 0 or -1. */
int cs_tl_chain_svg(FILE *f, const struct cs_tl_chains *c, __u64 head, const char *title);
void cs_tl_chains_free(struct cs_tl_chains *c);

#endif /* CHAINSCOPE_REPORT_H */
