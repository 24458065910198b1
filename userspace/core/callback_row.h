/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * One callback's row, as `latency` (live) and `report` (trace file) print
 * it: return-code classes, symbols from either source, the text row and
 * the JSON row. Both commands print through here, so their layouts cannot
 * drift apart.
 */
#ifndef CHAINSCOPE_CALLBACK_ROW_H
#define CHAINSCOPE_CALLBACK_ROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>
#include <json-c/json.h>

#include "common.h"
#include "trace_helpers.h"	/* CS_SYMSTR_LEN */

struct cs_trace;
struct ksyms;

/*
 * What a notifier callback's return value says (include/linux/notifier.h):
 * without NOTIFY_STOP_MASK (0x8000) the walk goes on (ok); NOTIFY_BAD
 * (0x8002) is bad; notifier_from_errno(e) = 0x8000 | (1 - e) is errno
 * (notifier_to_errno() != 0), except that -EPERM encodes as NOTIFY_BAD;
 * any other value with the mask (NOTIFY_STOP 0x8001, 0x8000) is stop.
 * bpf/latency.bpf.c counts the same classes in the kernel.
 */
enum cs_ret_class {
	CS_RET_OK,
	CS_RET_STOP,
	CS_RET_BAD,
	CS_RET_ERRNO,
};
enum cs_ret_class cs_ret_classify(int ret);

/* notifier_lock_op / contention's op: "read", "write", "?" */
const char *cs_lock_op_name(unsigned int op);

/* A kernel address and what it is called. */
struct cs_sym {
	__u64 addr;
	const char *name;	/* NULL: no symbol, shown as 0x<addr> */
	unsigned long off;	/* shown as name+0x<off> when not 0 */
	const char *module;	/* NULL: vmlinux, or no symbol */
};
/* from kallsyms; from a trace file's symbol snapshot: cs_sym_from_trace() */
void cs_sym_from_ksyms(struct cs_sym *s, const struct ksyms *ks, __u64 addr);
/* "sym", "sym+0x10" or the address (cs_addr_str) into buf (CS_SYMSTR_LEN
 * holds any); buf */
const char *cs_sym_str(const struct cs_sym *s, char *buf, size_t len);

/*
 * Kernel addresses in what a command prints: "0x..." by default, or,
 * once cs_addrs_hide(true), "addr#N", a number per distinct address
 * given in order of first use and kept until the process ends (stable
 * across the expositions of one serve or latency process; for one trace
 * file the same in every run, as its rows come in the same order). For
 * the Prometheus expositions, which other users get to read: the
 * absolute addresses would undo KASLR. Not thread-safe: the thread that
 * formats rows is the only one that may call it.
 */
void cs_addrs_hide(bool hide);
bool cs_addrs_hidden(void);
/* "0x..." or "addr#N" into buf (CS_SYMSTR_LEN holds either); buf */
const char *cs_addr_str(__u64 addr, char *buf, size_t len);
/* Order by the name shown, then by address. */
int cs_sym_cmp(const struct cs_sym *a, const struct cs_sym *b);
/* field, field_addr and, for a module symbol, field_module */
void cs_json_symbol(json_object *o, const char *field, const struct cs_sym *s);

/* One callback's statistics (the counters of bpf/latency.h's cs_lat_hist). */
struct cs_cbstats {
	__u32 slots[CS_MAX_SLOTS];	/* log2 buckets of the duration in units */
	__u64 count;		/* calls, untimed ones included */
	__u64 sum_ns, max_ns;	/* timed calls */
	__u64 stop, bad, err;	/* enum cs_ret_class, ok not counted */
	__u64 untimed;		/* duration_ns 0: not timed by the kernel */
};
/* Account one call that took ns (0: untimed) and returned ret. */
void cs_cbstats_add(struct cs_cbstats *st, __u64 ns, int ret, int units);

/*
 * Which extra identification a row prints after the callback's name,
 * chosen by cs_cbrows_disambiguate() when the name repeats.
 */
enum cs_cbrow_label {
	CS_LABEL_NONE,
	CS_LABEL_NB,		/* [nb=<block's name or address>] */
	CS_LABEL_ADDR,		/* [cb=ADDR nb=ADDR] (cs_addr_str) */
	CS_LABEL_FULL,		/* [chain=ADDR cb=ADDR nb=ADDR] */
};

struct cs_cbrow {
	struct cs_sym chain, cb;
	struct cs_sym nb;	/* nb.addr 0: the block is not known */
	int kind;		/* enum notifier_chain_kind */
	bool has_val;		/* latency -a: one row per event value */
	__u64 val;
	enum cs_cbrow_label label;
	struct cs_cbstats st;
};

/*
 * Rows that would print the same chain, kind, callback (and val) get a
 * label naming the block, or failing that the addresses, so that every
 * row reads differently. Linear in n (hash tables). 0, or -ENOMEM after
 * giving every row CS_LABEL_FULL (still unambiguous).
 */
int cs_cbrows_disambiguate(struct cs_cbrow *rows, size_t n);
/* The label's text without brackets ("" for CS_LABEL_NONE); buf */
const char *cs_cbrow_label_str(const struct cs_cbrow *r, char *buf, size_t len);
/* Order: chain name, chain, callback name, label, val, addresses. */
int cs_cbrow_cmp(const void *a, const void *b);

/*
 * The text row: "\nchain: C (kind) callback: CB [label] val=V  count=..."
 * then the untimed note and the log2 histogram.
 */
void cs_cbrow_print(FILE *f, const struct cs_cbrow *r, int units);
/* The JSON row (caller owns the object). */
json_object *cs_cbrow_json(const struct cs_cbrow *r, int units);

#endif /* CHAINSCOPE_CALLBACK_ROW_H */
