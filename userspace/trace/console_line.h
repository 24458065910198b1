/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Console and tracefs text input, inside: the line matching of
 * console_line.c (printk and trace-file prefixes, the events' bodies)
 * that console.c's log reading uses.
 */
#ifndef CHAINSCOPE_CONSOLE_LINE_H
#define CHAINSCOPE_CONSOLE_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "record.h"

/* a span of the log being matched */
struct cur {
	const char *p, *e;
};

/* %ps of cb: "name", "name [module]", or "0x%lx" where no symbol has it */
struct cbtok {
	const char *tok;	/* "name" or "name [module]", as printed */
	size_t len, nlen;	/* of tok, of the name in it */
	__u64 addr;		/* unnamed: the address */
};

enum { BODY_OTHER, BODY_BAD, BODY_OURS, BODY_STOCK };

/* who and when a line says: nothing, a printk prefix, a trace file's */
struct pfx {
	bool has_ts, has_task, int_ts, tracefs;
	__u64 ts;
	__u32 pid, cpu;
	__u8 ctx;
};

/* match s exactly, or leave c */
bool cl_lit(struct cur *c, const char *s);
/* n digits exactly (n > 0), or 1..-n digits (n < 0), as a number */
bool cl_digits(struct cur *c, int n, __u64 *v);
/* %lu: 0, or no leading zero, up to 2^64 - 1 */
bool cl_dec_u64(struct cur *c, __u64 *v);
#define CL_NR_NAMES 8	/* the events of ours, by name */

/*
 * the text after the prefix: BODY_*; for BODY_OURS and BODY_STOCK the
 * event in e and cb; *name the index of the event's name (< CL_NR_NAMES,
 * cl_name() prints it), -1 where no name matched whole
 */
int cl_body(struct cur *c, struct cs_rec_event *e, struct cbtok *cb, int *name);
/* "notifier_run" for the index cl_body() gave */
const char *cl_name(int name, size_t *len);
/* a printk prefix, into x; *flags gets CS_CONSOLE_PRINTK / CS_CONSOLE_CALLER */
void cl_printk_prefix(struct cur *c, struct pfx *x, unsigned int *flags);
/* a trace file's prefix, into x */
bool cl_tracefs_prefix(struct cur *c, struct pfx *x);

#endif /* CHAINSCOPE_CONSOLE_LINE_H */
