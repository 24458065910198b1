/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * chainscope report, internal: one run's state (struct report), which
 * run.c (cs_report_run's flow), rows.c (the trace hashed into sorted
 * rows), print.c (the rows as text, JSON, OpenMetrics) and svg_files.c
 * (the --svg directory) share. Lookups are uthash tables.
 */
#ifndef CHAINSCOPE_REPORT_INT_H
#define CHAINSCOPE_REPORT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>

#define HASH_NONFATAL_OOM 1	/* a failed add leaves the item's hh.tbl NULL */
#include <uthash.h>

#include "callback_row.h"
#include "report.h"

/* per registered block: (chain, callback, notifier_block) */
struct cb_ent {
	UT_hash_handle hh;	/* first: a lookup reads hh and key only */
	struct cb_key {
		__u64 head, cb, nb;
	} key;
	int kind;
	struct cs_cbstats st;
};

/* per (chain, lock op) */
struct lock_ent {
	UT_hash_handle hh;
	struct lock_key {
		__u64 head, op;
	} key;
	int kind;
	__u32 slots[CS_MAX_SLOTS];
	__u64 count, sum_ns, max_ns, contended;
};

struct lock_row {
	struct cs_sym chain;
	const struct lock_ent *e;
};

/* per chain: its passes, from their call_end (what latency -C counts) */
struct pass_ent {
	UT_hash_handle hh;
	__u64 head;
	int kind;
	__u64 passes;		/* plain and robust (val_up) passes */
	__u64 robust;		/* of which robust */
	__u64 stopped;		/* of them, ended by NOTIFY_STOP_MASK */
	__u64 rollbacks;	/* val_down passes */
	__u64 callbacks;	/* callbacks run, all passes */
	bool drawn;		/* --svg: its timeline is written */
};

struct pass_row {
	struct cs_sym chain;
	struct pass_ent *e;
};

struct report {
	const struct cs_trace *t;
	const struct cs_report_opts *o;
	FILE *out, *err;
	struct cb_ent *cbs;		/* hash tables */
	struct lock_ent *locks;
	struct cs_cbrow *rows;		/* sorted */
	size_t nr_rows;
	struct lock_row *lrows;		/* sorted */
	size_t nr_lrows;
	struct pass_ent *passes;
	struct pass_row *prows;		/* sorted */
	size_t nr_prows;
	struct svg_name *svg_names;	/* file names taken */
	struct cs_tl_chains *tl;	/* the timeline SVGs' data */
};

/* --- rows.c --- */

/* Hash every event into its row, then the rows into sorted arrays; 0 or -ENOMEM. */
int cs_report_aggregate(struct report *r);
/* The tables and rows; what is not there yet is NULL. */
void cs_report_rows_free(struct report *r);

/* --- print.c: on r->out --- */

/* 0, or -ENOMEM (--boot's sections; the output is then incomplete) */
int cs_report_print_text(const struct report *r);
int cs_report_print_json(const struct report *r);
/* The Prometheus exposition of the rows (openmetrics.c); -ENOMEM or 0 */
int cs_report_print_openmetrics(const struct report *r);

/* --- svg_files.c --- */

/* Every chain's SVG files into o->svg_dirfd; 0, or -1 after one message. */
int cs_report_svg_files(struct report *r);
void cs_report_svg_free(struct report *r);

#endif /* CHAINSCOPE_REPORT_INT_H */
