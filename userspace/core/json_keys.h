/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * chainscope CLI: the JSON keys that diff reads back (diff/diff_input.c,
 * diff/diff_row.c) from latency -j and report -j. Writer and reader both
 * name a key through these, so that renaming one cannot make the two
 * drift. Keys no reader looks at stay literal where they are written.
 */
#ifndef CS_JSON_KEYS_H
#define CS_JSON_KEYS_H

/* the root object: cs_json_root(), cs_report_print_json() (report/print.c) */
#define CS_JK_TYPE		"type"		/* the command that wrote it: latency, report */
#define CS_JK_UNITS		"units"		/* the unit of every non-_ns time: nsecs, ... */
#define CS_JK_MODE		"mode"		/* the event source: tracepoints, probes */
#define CS_JK_CALLBACKS		"callbacks"	/* the array of callback rows */

/* the type values diff compares */
#define CS_JT_LATENCY		"latency"	/* latency -j */
#define CS_JT_REPORT		"report"	/* report -j */

/*
 * Loss counters in the root: diff sums every key that starts with one of
 * CS_JK_LOST, CS_JK_MISSED, CS_JK_DROPPED and CS_JK_FAILED (the first
 * three with a lower-case suffix), so a new counter must start with one.
 */
#define CS_JK_LOST		"lost"		/* report: events lost in the ring buffer */
#define CS_JK_MISSED		"missed"	/* programs not run (BPF recursion) */
#define CS_JK_DROPPED		"dropped"	/* latency: events dropped, map full */
#define CS_JK_FAILED		"failed"	/* latency: map updates that failed */
/* latency -C: a boolean, whether missed_call_begin and _end differ */
#define CS_JK_MISSED_DIFFER	CS_JK_MISSED "_begin_end_differ"

/* a symbol (cs_json_symbol()): KEY, KEY_addr, KEY_module */
#define CS_JK_ADDR_SUFFIX	"_addr"		/* appended to a symbol's key: 0x... */
#define CS_JK_CHAIN		"chain"		/* the chain head's symbol */
#define CS_JK_CALLBACK		"callback"	/* the callback's symbol */
#define CS_JK_NB		"nb"		/* the notifier_block's symbol, if known */
#define CS_JK_VAL		"val"		/* the event value (-V), per row */

/* a summary (cs_json_summary()) and a callback row (cs_cbrow_json()) */
#define CS_JK_COUNT		"count"		/* calls, or a bucket's calls */
#define CS_JK_MAX		"max"		/* largest time in units, or a bucket's end */
#define CS_JK_MAX_NS		"max_ns"	/* largest time in ns */
#define CS_JK_P50		"p50"		/* log2 estimate of the median, in units */
#define CS_JK_P99		"p99"		/* log2 estimate of the 99th percentile */
#define CS_JK_STOP		"stop"		/* calls that returned NOTIFY_STOP */
#define CS_JK_BAD		"bad"		/* calls that returned NOTIFY_BAD */
#define CS_JK_ERRNO		"errno"		/* calls that returned an errno */
#define CS_JK_UNTIMED		"untimed"	/* calls without a time */
#define CS_JK_HISTOGRAM		"histogram"	/* log2 buckets (cs_json_hist()) */
#define CS_JK_MIN		"min"		/* a bucket's start */

#endif /* CS_JSON_KEYS_H */
