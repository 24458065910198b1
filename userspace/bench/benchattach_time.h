/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * benchattach: the attach-time measurement (-a FILE) and the name
 * resolution it shares with -m kprobe-multi (benchattach_time.c).
 */
#ifndef CS_BENCHATTACH_TIME_H
#define CS_BENCHATTACH_TIME_H

#include <stdbool.h>
#include <stddef.h>

/* Exit status of benchattach (see its --help) */
enum ba_exit {
	BA_EXIT_OK = 0,
	BA_EXIT_BPF = 1,	/* BPF open/load/attach failure, unknown function */
	BA_EXIT_USAGE = 2,
	BA_EXIT_LIST = 3,	/* bad function list file (-a) */
};

/* Attach mechanisms */
enum ba_mode {
	BA_MODE_FENTRY,		/* fentry/fexit, one program pair per function */
	BA_MODE_KPROBE,		/* kprobe/kretprobe, one link pair per function */
	BA_MODE_KPROBE_MULTI,	/* one kprobe.multi + one kretprobe.multi link */
};

#define BA_MAX_FUNCS	4096	/* functions in one -a list */
#define BA_NAME_MAX	127	/* longest function name accepted */

/*
 * The text addresses of @n function names from kallsyms
 * ($CHAINSCOPE_KALLSYMS, else /proc/kallsyms), module symbols included.
 * 0 on success; else a one-line message on stderr and BA_EXIT_BPF (a name
 * missing or with two different addresses).
 */
int ba_resolve_addrs(const char *const *names, size_t n, unsigned long *addrs);

/*
 * -a LIST: attach the program pair of @mode to every function named in
 * the file @list (one name per line), then detach, and print
 *   benchattach: attach mode=M n=N resolve_ns= load_ns= attach_ns= detach_ns=
 * on stdout. Returns a BA_EXIT_* status.
 */
int ba_attach_time(const char *list, enum ba_mode mode);

/* "fentry", "kprobe", "kprobe-multi" */
const char *ba_mode_name(enum ba_mode mode);

#endif /* CS_BENCHATTACH_TIME_H */
