/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * chainscope record: the ring buffer's events into the trace file
 * (record_events.c), the passes still open, the loss records.
 */
#ifndef CHAINSCOPE_RECORD_EVENTS_H
#define CHAINSCOPE_RECORD_EVENTS_H

#include <stddef.h>
#include <linux/types.h>

#include "record.h"
#include "tracefile.h"

struct bpf_object;
struct rec_snap;

struct rec_ctx {
	struct cs_trace_writer *w;
	struct rec_snap *snap;	/* chain snapshots (NULL: none) */
	int err;
	__u64 loss_records;	/* CS_REC_LOSS written, from BPF or from us */
	__u64 missed;		/* recursion misses already written as loss */
	__u64 located[CS_REC_LOSS_MAX];	/* events in the loss records, by reason */
};

/* CLOCK_MONOTONIC in ns: the clock of the events' ts */
__u64 rec_mono_ns(void);
/* ring_buffer__new()'s callback, ctx a struct rec_ctx: the event into the file */
int rec_handle_event(void *ctx, void *data, size_t size);
/* New recursion misses of obj's programs as a loss record; rc->err */
/* How often the recording and stopping loops poll recursion misses. */
#define CS_REC_MISSED_POLL_NS 100000000ULL
int rec_poll_missed(struct rec_ctx *rc, struct bpf_object *obj);
/* The losses rec_pending (map_fd) holds as loss records; rc->err */
int rec_flush_pending(struct rec_ctx *rc, int map_fd);
/* Recording stops: no new pass is written from now on, those open end. */
void rec_passes_stop(void);
/* Passes begun and not yet ended */
unsigned int rec_passes_open(void);
void rec_passes_free(void);

#endif /* CHAINSCOPE_RECORD_EVENTS_H */
