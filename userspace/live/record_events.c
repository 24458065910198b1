// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope record's events: each one the ring buffer hands us written
 * to the trace file, the chain passes still open followed so that the
 * recording ends between passes, and the loss records that make the
 * trailer's totals add up.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#define HASH_NONFATAL_OOM 1	/* a failed add leaves the item's hh.tbl NULL */
#include <uthash.h>

#include "chainscope.h"
#include "live.h"
#include "record_events.h"
#include "record_snap.h"
#include "record_syms.h"

/*
 * Open passes per (task, context), to end the recording between passes:
 * once the recorded command is done, the BPF side stops recording new
 * passes (`stopping`), we wait until every pass we saw begin has ended,
 * and only then detach everything. A pass is then never recorded without
 * its callbacks or its call_end. A robust pass that stopped stays open
 * until its rollback ends: the BPF side still records rollback passes
 * while stopping, so that `check` finds the rollback it requires. A
 * rollback that begins while stopping and follows no robust pass we saw
 * stop belongs to a pass that began after the stop: it is not written.
 */
struct open_key {
	__u64 task;
	__u32 ctx, zero;	/* zero: no uninitialised bytes in the key */
};

static struct open_pass {
	struct open_key key;
	__u32 depth;		/* open passes, awaited rollbacks included */
	__u32 awaited;		/* stopped robust passes whose rollback is due */
	UT_hash_handle hh;
} *open_passes;
static bool stopping;

/* Track a call_begin/end; false: the event is not to be written. */
static bool track_pass(const struct cs_rec_event *e)
{
	bool rollback = e->call_type == CS_CALL_ROLLBACK;
	struct open_key key = { .task = e->task, .ctx = e->ctx };
	struct open_pass *p;

	HASH_FIND(hh, open_passes, &key, sizeof(key), p);
	if (e->type == CS_REC_CALL_BEGIN) {
		if (rollback && p && p->awaited) {
			p->awaited--;	/* takes over its robust pass's slot */
			return true;
		}
		if (stopping)
			return !rollback;	/* (the BPF side lets only rollbacks by) */
		if (!p) {
			p = calloc(1, sizeof(*p));
			if (!p)
				return true;
			p->key = key;
			HASH_ADD(hh, open_passes, key, sizeof(p->key), p);
			if (!p->hh.tbl) {
				free(p);
				return true;
			}
		}
		p->depth++;
		return true;
	}
	if (!p)
		return true;
	if (e->call_type == CS_CALL_ROBUST && (e->ret & CS_NOTIFY_STOP_MASK)) {
		p->awaited++;	/* still open: its rollback comes next */
		return true;
	}
	if (--p->depth == 0) {
		HASH_DEL(open_passes, p);
		free(p);
	}
	return true;
}

void rec_passes_stop(void)
{
	stopping = true;
}

unsigned int rec_passes_open(void)
{
	return HASH_COUNT(open_passes);
}

void rec_passes_free(void)
{
	struct open_pass *p, *tmp;

	HASH_ITER(hh, open_passes, p, tmp) {
		HASH_DEL(open_passes, p);
		free(p);
	}
}

int rec_handle_event(void *ctx, void *data, size_t size)
{
	struct rec_ctx *rc = ctx;
	const struct cs_rec_event *e = data;

	if (size < sizeof(*e) || rc->err)
		return 0;
	if ((e->type == CS_REC_CALL_BEGIN || e->type == CS_REC_CALL_END) &&
	    !track_pass(e))
		return 0;
	rc->err = cs_trace_write(rc->w, e, 1);
	/* a head seen for the first time: its snapshot follows the event */
	if (!rc->err)
		rc->err = rec_snap_event(rc->snap, rc->w, e);
	if (e->type == CS_REC_LOSS) {
		rc->loss_records++;
		if (e->reason < CS_REC_LOSS_MAX)
			rc->located[e->reason] += e->val;
	}
	cs_rec_seen_add(e->head);
	cs_rec_seen_add(e->cb);
	cs_rec_seen_add(e->nb);
	cs_rec_seen_add(e->lock);
	return rc->err;
}

__u64 rec_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int write_loss(struct rec_ctx *rc, __u32 cpu, __u8 reason, __u64 n)
{
	struct cs_rec_event e = {
		.ts = rec_mono_ns(), .cpu = cpu, .val = n, .type = CS_REC_LOSS,
		.reason = reason,
	};

	if (rc->err || !n)
		return rc->err;
	rc->err = cs_trace_write(rc->w, &e, 1);
	rc->loss_records++;
	rc->located[reason] += n;
	return rc->err;
}

/*
 * The programs' recursion_misses are per program, not per CPU: a growth
 * becomes one CS_REC_CPU_ANY loss record, placed where we noticed it.
 */
int rec_poll_missed(struct rec_ctx *rc, struct bpf_object *obj)
{
	__u64 now = cs_read_missed(obj);

	if (now <= rc->missed)
		return rc->err;
	write_loss(rc, CS_REC_CPU_ANY, CS_REC_LOSS_MISSED, now - rc->missed);
	rc->missed = now;
	return rc->err;
}

/*
 * At the end: what each CPU lost after its last successful reserve has no
 * loss record yet. Write one per CPU and reason, so that the loss records
 * add up to the trailer's totals: the reader requires it.
 */
int rec_flush_pending(struct rec_ctx *rc, int map_fd)
{
	struct { __u64 n[CS_REC_LOSS_MISSED]; } *vals;
	int ncpu = libbpf_num_possible_cpus(), cpu, r;
	__u32 zero = 0;

	if (ncpu <= 0)
		return rc->err = ncpu ? ncpu : -EINVAL;
	vals = calloc(ncpu, sizeof(*vals));
	if (!vals)
		return rc->err = -ENOMEM;
	if (bpf_map_lookup_elem(map_fd, &zero, vals)) {
		rc->err = -errno;
		free(vals);
		return rc->err;
	}
	for (cpu = 0; cpu < ncpu; cpu++)
		for (r = 0; r < CS_REC_LOSS_MISSED; r++)
			write_loss(rc, cpu, r, vals[cpu].n[r]);
	free(vals);
	return rc->err;
}
