/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * chainscope report's core, apart from its command line: what the CLI
 * (report.c) and the fuzz target (tests/fuzz_report.c) both run.
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
};

/*
 * Print the report of a parsed trace on out, messages on err, and write
 * the SVG files. Never exits. Returns CS_EXIT_OK, or CS_EXIT_ERROR after
 * a one-line message (out of memory, an SVG that could not be written).
 */
int cs_report_run(const struct cs_trace *t, const struct cs_report_opts *o,
		  FILE *out, FILE *err);

/* --- report_snap.c: the chains record walked (CS_REC_SNAPSHOT) --- */

size_t cs_report_snapshot_records(const struct cs_trace *t);
/* "chains walked by record ..." and each chain's blocks; nothing if none */
void cs_report_snap_text(FILE *out, const struct cs_trace *t);
/* ,"snapshots":[{chain, kind, ts_ns, stable, length, blocks[]}...] */
void cs_report_snap_json(FILE *out, const struct cs_trace *t);

/* --- report_svg.c --- */

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

#endif /* CHAINSCOPE_REPORT_H */
