/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * chainscope diff's core, callable without the CLI (tests/fuzz/fuzz_diff.c):
 * budget rules (diff_rules.c) and the JSON stream reader (diff_input.c).
 * Nothing here exits or reads anything but the bytes it is fed; every
 * error is one line in the caller's buffer.
 */
#ifndef CHAINSCOPE_DIFF_H
#define CHAINSCOPE_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <uthash.h>

#define CS_DIFF_DEFAULT "p99:+20%,new-callback,new-veto"
#define CS_DIFF_SLOTS 64

/* --- budget (diff_rules.c) ------------------------------------------------ */

enum cs_diff_metric { CS_DIFF_COUNT, CS_DIFF_P50, CS_DIFF_P99, CS_DIFF_MAX, CS_DIFF_NR_METRICS };

/* Named rules: a bit each in cs_diff_budget.rules. */
enum cs_diff_rule {
	CS_DIFF_NEW_CALLBACK	= 1u << 0,	/* a row only NEW has */
	CS_DIFF_NEW_VETO	= 1u << 1,	/* stop+bad+errno went from 0 */
	CS_DIFF_GONE_CALLBACK	= 1u << 2,	/* a row only BASE has (guard) */
	CS_DIFF_NO_CALLBACKS	= 1u << 3,	/* NEW has no rows at all (guard) */
	CS_DIFF_LOST_EVENTS	= 1u << 4,	/* NEW counted lost events (guard) */
};
/* On in every budget unless turned off with -RULE. */
#define CS_DIFF_GUARDS (CS_DIFF_GONE_CALLBACK | CS_DIFF_NO_CALLBACKS | CS_DIFF_LOST_EVENTS)

struct cs_diff_limit {
	bool on;
	bool pct;			/* amount is a percentage of BASE */
	double amount;
	unsigned long long unit_ns;	/* 0: units of the files, else ns per unit */
	const char *unit;		/* "", "%", "ns", "us", "ms" */
};

struct cs_diff_budget {
	struct cs_diff_limit limit[CS_DIFF_NR_METRICS];
	unsigned int rules;		/* enum cs_diff_rule bits */
	unsigned long long min_count;	/* latency limits skip smaller rows */
};

/* 0, or -1 with a one-line reason naming the bad rule in err. */
int cs_diff_parse_budget(const char *s, struct cs_diff_budget *b, char *err,
			 size_t errlen);
/* The effective budget, canonical and complete, e.g. for a header line. */
void cs_diff_budget_str(const struct cs_diff_budget *b, char *buf, size_t len);

/* --- input (diff_input.c) ------------------------------------------------- */

/*
 * A row is what latency -j and report -j print as one: the names (chain,
 * callback, val) and, when the input has them, the addresses they key
 * rows by (chain_addr, callback_addr, nb_addr): one callback registered
 * through two blocks is two rows, and so are two static functions of one
 * name. cs_diff_compare() pairs rows across boots (see diff_rules.c).
 */
struct cs_diff_row {
	char *key;			/* chain, callback, val, chain_addr,
					 * callback_addr, nb_addr; '\0' between */
	size_t keylen;
	size_t grouplen;		/* the names' part: chain, callback, val */
	const char *chain, *callback;	/* point into key */
	const char *val;		/* into key; NULL: none (latency -a has it) */
	const char *callback_addr;	/* into key; NULL: not in the input */
	const char *nb_addr;		/* into key; NULL: the block is not known */
	char *nb;			/* the block's name ("0x..." if none) */
	size_t obj;			/* the last object that had the row, 1-based */
	size_t idx;			/* 0, 1, ... in file order */
	unsigned long long count, veto, max;
	unsigned long long slots[CS_DIFF_SLOTS];
	unsigned long long p50, p99;	/* set by cs_diff_input_end() */
	UT_hash_handle hh;		/* by key; hh.next is file order */
};

/*
 * Loss counters: top-level keys lost*, missed*, dropped* and failed
 * (latency -j: dropped, failed, missed; report -j: lost, missed), summed
 * over the objects.
 */
#define CS_DIFF_MAX_LOSS 8
struct cs_diff_loss {
	char name[32];
	unsigned long long n;
};

struct cs_diff_input;

struct cs_diff_input *cs_diff_input_new(const char *name);
void cs_diff_input_free(struct cs_diff_input *in);
/* Feed the next len bytes (any split); 0 or -1 with the reason in err. */
int cs_diff_input_feed(struct cs_diff_input *in, const char *buf, size_t len,
		       char *err, size_t errlen);
/* End of input: 0 or -1 (incomplete value, no object). */
int cs_diff_input_end(struct cs_diff_input *in, char *err, size_t errlen);
/* feed + end from a stream */
int cs_diff_input_read(struct cs_diff_input *in, FILE *f, char *err, size_t errlen);

const char *cs_diff_input_name(const struct cs_diff_input *in);
const char *cs_diff_input_units(const struct cs_diff_input *in);
const struct cs_diff_row *cs_diff_input_rows(const struct cs_diff_input *in);
size_t cs_diff_input_nrows(const struct cs_diff_input *in);
/* The objects' "mode" (tracepoints, probes), "" when they carry none */
const char *cs_diff_input_mode(const struct cs_diff_input *in);
const struct cs_diff_row *cs_diff_input_find(const struct cs_diff_input *in,
					     const struct cs_diff_row *like);
/* The loss counters seen (zero or not); returns how many. */
int cs_diff_input_loss(const struct cs_diff_input *in,
		       const struct cs_diff_loss **loss);
/* Objects read (several: latency -j intervals, summed) */
size_t cs_diff_input_nobjs(const struct cs_diff_input *in);

/* --- duplicate keys (diff_keys.c) ----------------------------------------- */

/* Watches the bytes of a JSON stream for a key repeated in one object. */
struct cs_json_keys;
struct cs_json_keys *cs_json_keys_new(void);
void cs_json_keys_free(struct cs_json_keys *k);
/*
 * Scan the next len bytes; returns how many were scanned. *rc is 0 (all
 * of them), 1 (buf[return] closes a duplicate key) or -1 (out of memory).
 */
size_t cs_json_keys_scan(struct cs_json_keys *k, const char *buf, size_t len, int *rc);
/* The duplicate key (printable, cut), after *rc 1 */
const char *cs_json_keys_dup(const struct cs_json_keys *k);

/* --- verdict (diff_rules.c) ----------------------------------------------- */

/*
 * Compare two complete inputs under a budget and print the table and the
 * verdict to out. Returns 0 within budget, 1 exceeded, 2 with err set
 * when the inputs cannot be compared (different units).
 */
int cs_diff_compare(const struct cs_diff_budget *b, const struct cs_diff_input *base,
		    const struct cs_diff_input *new, bool all, FILE *out,
		    char *err, size_t errlen);

#endif /* CHAINSCOPE_DIFF_H */
