/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What the commands that read a trace file share (trace_cli.c): the
 * FILE argument with --salvage, and a trace's symbols as rows show them.
 */
#ifndef CHAINSCOPE_TRACE_CLI_H
#define CHAINSCOPE_TRACE_CLI_H

#include <argp.h>
#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct cs_sym;
struct cs_trace;

/* --salvage, for the option tables of the commands on one trace FILE */
#define CS_OPT_SALVAGE 0x1000
#define CS_SALVAGE_OPTION						\
	{ "salvage", CS_OPT_SALVAGE, NULL, 0,				\
	  "Read a recording cut short (no trailer): every whole record, "	\
	  "with a notice on stderr", 0 }
/* --console, likewise: FILE is a console log or a tracefs trace file (console.h) */
#define CS_OPT_CONSOLE 0x1001
#define CS_CONSOLE_OPTION						\
	{ "console", CS_OPT_CONSOLE, NULL, 0,				\
	  "FILE is text: a console log of our events (trace_event=notifier:* "	\
	  "tp_printk) or a tracefs trace file ('-': stdin); lines not exactly "	\
	  "ours are skipped and counted", 0 }
/* whether --console was given */
bool cs_trace_console_input(void);
/* --tracefs[=DIR]: the live ring buffer instead of a FILE (tracedat.h: cs_tracefs_read()) */
#define CS_OPT_TRACEFS 0x1002
#define CS_TRACEFS_DEFAULT "/sys/kernel/tracing"
#define CS_TRACEFS_OPTION						\
	{ "tracefs", CS_OPT_TRACEFS, "DIR", OPTION_ARG_OPTIONAL,		\
	  "Read and consume the live ftrace ring buffer of DIR instead of a "	\
	  "FILE, as trace-cmd extract does: " CS_TRACEFS_DEFAULT " (the "	\
	  "default) or an instance under it (DIR may also follow as the "	\
	  "argument); notifier:* events must be enabled there", 0 }
/* whether --tracefs was given (the FILE argument is then its DIR) */
bool cs_trace_tracefs_input(void);
/*
 * The rest of a parser for commands on one FILE (report, check):
 * one-line errors (ARGP_KEY_INIT), --salvage (cs_trace_read() then
 * salvages), --console (not with --salvage), --tracefs (with neither;
 * *file: its DIR, CS_TRACEFS_DEFAULT without one) and exactly one FILE
 * argument into *file; ARGP_ERR_UNKNOWN for any other key.
 */
error_t cs_parse_file_arg(int key, char *arg, struct argp_state *state,
			  const char **file);

/*
 * The FILE of report and check: a .cstrace (cs_trace_read(), with
 * --salvage) or, told by its magic, a trace-cmd trace.dat (tracedat.h:
 * converted in a confined child process), which gets one note line on
 * stderr: its clock, its events, what it cannot give; with --console a
 * text log (console.h, notes likewise); with --tracefs the live ring
 * buffer of the DIR in path (tracedat.h: cs_tracefs_read(), notes
 * likewise). *tracedat says the input is foreign (trace.dat, text or
 * ring buffer), *dat_flags (may be NULL) its CS_TRACEDAT_*
 * flags (CS_TRACEDAT_STOCK for a log of upstream's events). quiet: no
 * note lines (check -q); errors are the caller's to print either way.
 * 0, or the command's exit code with err set to one line
 * (CS_EXIT_USAGE for a .cstrace, as before; CS_EXIT_TRACEDAT* for a
 * trace.dat).
 */
int cs_trace_read_input(const char *cmd, const char *path, bool quiet, struct cs_trace *t,
			bool *tracedat, unsigned int *dat_flags, char *err, size_t errlen);

/* s from the trace's symbol snapshot (callback_row.h: struct cs_sym) */
void cs_sym_from_trace(struct cs_sym *s, const struct cs_trace *t, __u64 addr);

#endif /* CHAINSCOPE_TRACE_CLI_H */
