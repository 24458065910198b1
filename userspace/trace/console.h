/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Our events' text as a chainscope trace (console.c): the lines that
 * tp_printk puts on a console (trace_event=notifier:* tp_printk) and the
 * lines /sys/kernel/tracing/trace prints, converted through trace_conv.h
 * as a trace.dat is, so every report, check and export applies.
 *
 * A line is an event only if it is one of ours exactly, after an
 * optional prefix: a printk time "[   12.345678] " (with or without the
 * caller id "[  T123]" of CONFIG_PRINTK_CALLER), or the trace file's
 * "TASK-PID [CPU] FLAGS SECS.USEC: ". Then "EVENT: " and every field of
 * the event's TP_printk (include-trace/trace/events/notifier.h), in order,
 * with the values each can print (%p: 16 hex digits; %ps: a name in the
 * kernel-symbol alphabet with an optional " [module]", or 0xHEX), and
 * nothing after. Anything else is skipped and counted: other messages,
 * lines cut or joined by other output, a last line without its newline.
 * Upstream's cb-only lines (6.4+: notifier_register, notifier_unregister,
 * notifier_run with only "%ps") make a stock log: run counts and
 * registration order, as for a stock trace.dat. In a log with any line of
 * ours they are lines of ours cut after the name (skipped, a loss each).
 *
 * Names are what the text gives: a named callback gets a stand-in
 * address (CS_CONSOLE_SYM_BASE + 16 * n, non-canonical, so no kernel
 * address is ever mistaken for one), with its name and module in the
 * trace's symbol table. Hashed pointers are taken as the values they are.
 */
#ifndef CHAINSCOPE_CONSOLE_H
#define CHAINSCOPE_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>

struct cs_trace;

#define CS_CONSOLE_SYM_BASE 0x0c5c000000000000ULL
#define CS_CONSOLE_MAX_SIZE (1ULL << 30)	/* larger logs are refused */
/*
 * The longest line a log may have: a printk record holds at most 1 KiB of
 * text (2 KiB printed with its prefix), a trace file's line at most one
 * trace_seq buffer (a page or two). 64 KiB is 32 times that, for lines
 * that other output joined without a newline, and a stream with no
 * newline (a binary, `--console - </dev/zero`) is refused after 64 KiB,
 * not 1 GiB, whatever keeps writing it.
 */
#define CS_CONSOLE_MAX_LINE (64u << 10)
/*
 * NUL bytes: a serial line's noise puts a few in a log (such a line is
 * never an event: one of ours so hit is a loss); a log with more than one
 * NUL in CS_CONSOLE_NUL_SHARE bytes, or no line without one, is not text
 * and refused (for a stream, checked as it is read, from its first
 * CS_CONSOLE_MAX_LINE bytes on).
 */
#define CS_CONSOLE_NUL_SHARE 64

/*
 * Exit codes: those of the trace.dat input where the meaning is the same
 * (tracedat.h): 12 a log refused (not text: NUL bytes, a line longer than
 * CS_CONSOLE_MAX_LINE; no event of ours, too large, unreadable), 13
 * trace-file timestamps
 * of a clock that is not in seconds (counter, x86-tsc).
 */

struct cs_console_info {
	__u64 nr_lines;		/* lines read (the cut last one included) */
	__u64 nr_events;	/* lines taken as events */
	__u64 nr_other;		/* lines that are not notifier events */
	__u64 nr_bad;		/* "notifier_*: " lines not exactly in the format */
	__u64 nr_nul;		/* lines with a NUL byte (never events; in nr_other or ...) */
	__u64 nr_nul_lost;	/* ... of them, one of ours: a loss marker each */
	__u64 nr_cut_end;	/* 1: the log stops mid-line */
	__u64 nr_boots;		/* boots in the log (only the last one is read) */
	__u64 nr_loss;		/* loss markers ("[LOST N EVENTS]", printk drops) */
	__u64 nr_lost;		/* events they count */
	__u64 nr_untimed_lines;	/* events with no timestamp */
	__u64 nr_timed, nr_untimed, nr_stops;	/* trace_conv.h's */
	__u64 nr_names;		/* callbacks named (stand-in addresses) */
	unsigned int flags;	/* CS_CONSOLE_* */
};

enum {
	CS_CONSOLE_STOCK = 1 << 0,	/* upstream's cb-only lines */
	CS_CONSOLE_PRINTK = 1 << 1,	/* printk timestamps seen */
	CS_CONSOLE_TRACEFS = 1 << 2,	/* trace file prefixes seen */
	CS_CONSOLE_CALLER = 1 << 3,	/* printk caller ids seen */
};

/*
 * Convert the text in buf into a .cstrace image (malloc'd). 0, or an
 * exit code with err set to one line. The fuzz target's entry.
 */
int cs_console_convert(const char *buf, size_t len, void **img, size_t *imglen,
		       struct cs_console_info *info, char *err, size_t errlen);

/* The file at path, converted and read by the strict reader. 0 or an exit code. */
int cs_console_read(const char *path, struct cs_trace *t, struct cs_console_info *info,
		    char *err, size_t errlen);

/* The notes on stderr after a read: what was taken, skipped, and the time's resolution */
void cs_console_note(FILE *f, const char *cmd, const char *path,
		     const struct cs_console_info *in);

#endif /* CHAINSCOPE_CONSOLE_H */
