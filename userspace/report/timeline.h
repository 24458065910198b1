/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * chainscope report's timeline: a trace's events paired into slices on
 * tracks, for --perfetto, --folded and the timeline SVGs (timeline.c).
 *
 * Tracks. A task-context event goes to the track of its task (the `task`
 * pointer: idle tasks share pid 0, one per CPU); an interrupt-context
 * event (softirq, hardirq, NMI) to the track of (its CPU, its context),
 * since an interrupt runs where it came in and never migrates, while a
 * task may sleep in a blocking callback and wake on another CPU. So a
 * hardirq pass that interrupts a task's callback lies on its CPU's
 * hardirq track, at the same time as the callback's slice, not inside it.
 *
 * Slices. On each track a stack: call_begin opens a pass (named by its
 * chain), a run opens a callback inside the pass on top, its return closes
 * it, call_end closes the pass; a call_begin inside a callback nests the
 * inner chain's pass in it. A lock wait is a closed slice [ts - wait_ns,
 * ts], a stop an instant. Events that match nothing open (their pass
 * began before the recording, or events were lost) are counted in
 * `unpaired` and left out; slices an end of which is missing are closed
 * where the next event of the track shows they must have ended (a run of
 * the pass while a callback is open, a call_begin while a pass is between
 * callbacks, the end of an outer slice), where a loss record of the
 * track's CPU says events may be missing (CS_REC_CPU_ANY: every track), or
 * at the track's last event, and marked unfinished.
 *
 * Times are ns since the header's start time, made non-decreasing per
 * track (a child never starts before its parent nor ends after it).
 */
#ifndef CHAINSCOPE_TIMELINE_H
#define CHAINSCOPE_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct cs_trace;
struct cs_rec_event;

/*
 * Slices nest this deep on a track at most (a kernel nests chains a few
 * deep): a call_begin or run above it is cut, counted as unpaired, with
 * everything that begins above it and the ends of all that; stops and lock
 * waits there go to the innermost slice kept. So a crafted trace costs
 * what its size costs.
 */
#define CS_TL_MAX_DEPTH 64

enum cs_tl_type {
	CS_TL_PASS,	/* call_begin .. call_end */
	CS_TL_CALLBACK,	/* run .. return */
	CS_TL_LOCK,	/* a lock wait */
	CS_TL_STOP,	/* an instant: notifier_stop */
};

struct cs_tl_item {
	int type;			/* enum cs_tl_type */
	const struct cs_rec_event *b;	/* call_begin, run, lock wait, stop */
	const struct cs_rec_event *e;	/* call_end, return; NULL: unfinished */
	__u64 ts, dur;			/* ns since the trace's start */
	long parent;			/* index of the enclosing slice, -1 */
	int depth;			/* of slices: 0 at the track's base */
};

struct cs_tl_track {
	unsigned int idx;	/* 0, 1, ... in the order tracks first appear */
	unsigned int ctx;	/* enum cs_rec_ctx */
	__u32 cpu;		/* interrupt contexts: their CPU */
	__u64 task;		/* task context: the task */
	__u32 pid;		/* task context: its thread id (first seen) */
};

/*
 * Called with a track's items whenever its stack empties (and at the end
 * for what is still open), in start order, parents before children: each
 * top-level slice with everything inside it, or one item outside any
 * slice. Returns 0, or -1 to stop the walk.
 */
typedef int (*cs_tl_flush_fn)(void *ctx, const struct cs_tl_track *tr,
			      const struct cs_tl_item *items, size_t n);

struct cs_tl_stats {
	size_t tracks;
	__u64 unpaired;		/* runs, returns, call_ends that matched nothing;
				 * events cut at CS_TL_MAX_DEPTH */
	__u64 unfinished;	/* slices closed without their end event */
};

/*
 * Walk t's events; tracks and items only live during the call. 0, -1 if
 * flush said so, -ENOMEM.
 */
int cs_timeline_walk(const struct cs_trace *t, cs_tl_flush_fn flush, void *ctx,
		     struct cs_tl_stats *st);

/* "task", "softirq", "hardirq", "NMI" */
const char *cs_tl_ctx_name(unsigned int ctx);
/* a pass' call type: "plain", "robust", "rollback" ("?") */
const char *cs_tl_call_name(unsigned int type);
/* a return value's class (cs_ret_classify()): "ok", "stop", "bad", "errno" */
const char *cs_tl_result_name(int ret);
/* addr as the trace's symbols name it (cs_sym_str()) into buf; buf */
const char *cs_tl_sym_name(const struct cs_trace *t, __u64 addr, char *buf, size_t len);

#endif /* CHAINSCOPE_TIMELINE_H */
