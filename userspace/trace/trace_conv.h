/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The kernel's notifier events as a chainscope trace (trace_conv.c): what
 * every reader of a foreign input shares, whatever it parses (trace.dat
 * through libtracecmd in tracedat.c, console and tracefs text in
 * console.c). The reader hands over each event as a struct cs_rec_event
 * in stream order; the conversion
 *
 *  - pairs notifier_run with notifier_return per (task, context) on a
 *    stack, by (head, cb, nb), for the run time where the input has no
 *    duration_ns (as bpf/cb_pair.bpf.h pairs live);
 *  - follows a return with NOTIFY_STOP_MASK by a stop record whose
 *    nr_calls counts the runs of its pass (where the input has no
 *    notifier_stop);
 *  - for upstream's cb-only events lets the callback stand for its block;
 *  - places loss markers where the input says events were lost, and
 *    drops the runs open where one struck (their returns are untimed);
 *  - writes a version-3 .cstrace image in memory, with the symbols the
 *    reader names (checked against the kernel-symbol alphabet, symname.h),
 *    which the strict reader (cs_trace_parse()) then validates.
 */
#ifndef CHAINSCOPE_TRACE_CONV_H
#define CHAINSCOPE_TRACE_CONV_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "record.h"

#define CS_NOTIFY_STOP_MASK 0x8000

enum {
	CS_CONV_STOCK = 1 << 0,		/* upstream's cb-only events: nb = cb */
	CS_CONV_HAS_DURATION = 1 << 1,	/* returns carry duration_ns: no pairing */
	CS_CONV_HAS_STOP = 1 << 2,	/* the input has notifier_stop: no stops made */
	CS_CONV_COARSE = 1 << 3,	/* times in whole µs: a run and its return in
					 * the same one give 1 ns, not untimed (0) */
};

struct cs_conv_task;
struct cs_conv_addr;

struct cs_conv {
	unsigned int flags;		/* CS_CONV_* */
	struct cs_rec_event *out;
	size_t nr_out, cap_out;
	struct cs_conv_task *tasks;
	struct cs_conv_addr *addrs;	/* every address the events name */
	size_t nr_addrs;
	__u64 lost;
	__u64 nr_events, nr_loss, nr_timed, nr_untimed, nr_stops;
	bool untimed;			/* the next event has no time of its own:
					 * a run or return so marked is not timed */
	int rc;				/* the first failure's exit code */
	int oom_rc;			/* the exit code for "out of memory" */
	char *err;
	size_t errlen;
};

/* A name for an address, for the image's symbol table. */
struct cs_conv_sym {
	__u64 addr;
	const char *name;		/* symname.h's form, "sym" or "sym+0x10" */
	const char *module;		/* NULL: vmlinux */
};

/* c zeroed, err for the one-line error, oom_rc the code of an allocation failure */
void cs_conv_init(struct cs_conv *c, int oom_rc, char *err, size_t errlen);
void cs_conv_free(struct cs_conv *c);

/* The first failure: err set, c->rc = code; returns c->rc. */
__attribute__((format(printf, 3, 4)))
int cs_conv_fail(struct cs_conv *c, int code, const char *fmt, ...);

/* which open runs a loss drops (their returns are then untimed) */
enum {
	CS_CONV_DROP_CPU,	/* the runs on the loss's CPU */
	CS_CONV_DROP_ALL,	/* every open run: the input is one stream */
	CS_CONV_DROP_NONE,	/* none: one known line was lost (a cut line) */
};

/*
 * count events lost on cpu before time ts (count 0: the input did not
 * say how many, counted as 1); the runs open on cpu are dropped. 0 or
 * c->rc.
 */
int cs_conv_loss(struct cs_conv *c, __u64 ts, __u32 cpu, __u64 count);
/* the same, the open runs dropped as drop (CS_CONV_DROP_*) says */
int cs_conv_loss_drop(struct cs_conv *c, __u64 ts, __u32 cpu, __u64 count, int drop);

/*
 * One event, in stream order, with its task (task << 2 | ctx keys the
 * pairing), ctx, ts, cpu and its own fields set. 0 or c->rc.
 */
int cs_conv_event(struct cs_conv *c, struct cs_rec_event *e);

/* Each address the events named (non-zero), in no order; stop when fn returns non-zero. */
int cs_conv_each_addr(struct cs_conv *c, int (*fn)(struct cs_conv *c, __u64 addr, void *arg),
		      void *arg);

/*
 * The .cstrace image of what was converted: the symbols (any order,
 * unique addresses; every name and module checked with symname.h, a bad
 * one fails with name_rc), the release for the header (may be ""). 0, or
 * c->rc with err set.
 */
int cs_conv_image(struct cs_conv *c, const struct cs_conv_sym *syms, size_t nr_syms,
		  const char *release, int name_rc, void **img, size_t *len);

#endif /* CHAINSCOPE_TRACE_CONV_H */
