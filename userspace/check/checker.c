// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope check: the notifier chain rules, applied to a parsed trace
 * in one pass over its events (checker.h; the rules are listed in
 * `chainscope check --help`, check.c). This file: the event loop,
 * membership, loss markers and the output; check_pass.c pairs passes.
 *
 * Loss markers (CS_REC_LOSS) are located before the rules run
 * (locate_losses()): each marks the stretch of the stream in which its
 * events may have been lost. A pass open across such a stretch, whatever
 * CPU it ran on, may have lost events: check_pass.c suspends its pairing
 * rules; membership known from before it is no longer trusted.
 *
 * Lookups are uthash tables: time is linear in the number of events.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "checker_int.h"
#include "safestr.h"
#include "trace_helpers.h"

#define CS_ENOENT 2
#define CS_EEXIST 17

/*
 * A symbol's name from the trace, escaped (safestr.h): a crafted name
 * cannot forge a line of our output. The reader allows names that fit
 * CS_SYMSTR_LEN (trace/symname.h); none is cut short.
 */
#define CS_SYM_OUT_MAX CS_SAFE_STR_LEN(CS_SYMSTR_LEN)

static const char *sym_name(const struct cs_trace *t, __u64 addr, char *buf,
			    size_t len)
{
	const struct cs_trace_sym *s = cs_trace_sym_find(t, addr);
	char raw[CS_SYMSTR_LEN];

	/* a trace's name carries its offset: off 0 */
	cs_symstr(s ? s->name : NULL, 0, addr, raw, sizeof(raw));
	return cs_safe_str(raw, buf, len);
}

__attribute__((format(printf, 6, 7)))
void chk_violation(struct checker *ck, size_t idx, __u64 head, __u64 cb,
		   const char *rule, const char *fmt, ...)
{
	char h[CS_SYM_OUT_MAX], c[CS_SYM_OUT_MAX];
	va_list ap;

	ck->s->violations++;
	fprintf(ck->out, "event %zu: chain %s: callback %s: rule %s: ", idx,
		sym_name(ck->t, head, h, sizeof(h)),
		cb ? sym_name(ck->t, cb, c, sizeof(c)) : "-", rule);
	va_start(ap, fmt);
	vfprintf(ck->out, fmt, ap);
	va_end(ap);
	fputc('\n', ck->out);
}

/* --- membership ------------------------------------------------------------ */

struct member *chk_member_get(struct checker *ck, __u64 head, __u64 nb)
{
	struct mkey k = { head, nb };
	struct member *m;

	HASH_FIND(hh, ck->members, &k, sizeof(k), m);
	if (m)
		return m;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->key = k;
	m->seq = -1;
	HASH_ADD(hh, ck->members, key, sizeof(k), m);
	if (ck->oom) {
		free(m);
		return NULL;
	}
	chk_member_init(ck, m);
	return m;
}

/*
 * Runs of m after its unregister (or, snap, while its chain's snapshot
 * did not list it), in passes that began after it: a violation unless the
 * block was published again, which its notifier_register event (the next
 * membership event) then tells.
 */
void chk_judge_suspects(struct checker *ck, struct member *m, bool registered,
			size_t idx)
{
	const struct snaphead *sh;
	const char *pass;
	size_t i;

	if (!registered)
		for (i = 0; i < m->nr_sus; i++) {
			/* a lost notifier_register may have published it again */
			if (chk_gap_between(ck, m->sus[i].gone_idx, idx))
				continue;
			pass = m->sus[i].phantom ? "a pass without call_begin, nested in "
			       "the callback of event" : "the pass of event";
			if (!m->sus[i].snap) {
				chk_violation(ck, m->sus[i].run_idx, m->key.head,
					      m->sus[i].cb, "run-after-unregister",
					      "ran in %s %zu, after its unregister at event "
					      "%zu, and was not registered again", pass,
					      m->sus[i].begin_idx, m->sus[i].gone_idx);
				continue;
			}
			sh = chk_snap_of(ck, m->key.head);
			if (sh && sh->unstable) {
				ck->s->snap_unknown++;
				continue;
			}
			chk_violation(ck, m->sus[i].run_idx, m->key.head, m->sus[i].cb,
				      "run-not-member", "ran in %s %zu, but the chain's "
				      "snapshot (event %zu) does not list it and no "
				      "notifier_register added it", pass, m->sus[i].begin_idx,
				      m->sus[i].gone_idx);
		}
	m->nr_sus = 0;
}

static int on_membership(struct checker *ck, const struct cs_rec_event *e, size_t idx)
{
	struct member *m;
	bool known, snap;

	/*
	 * An event that names no chain (upstream's cb-only events: a
	 * trace.dat of stock 6.4+, where nb is the callback) keys no block:
	 * one callback on two chains would look registered twice. Its
	 * membership is not judged (check.c says so).
	 */
	if (!e->head)
		return 0;
	m = chk_member_get(ck, e->head, e->nb);
	if (!m)
		return -ENOMEM;
	/*
	 * The republication of a block run after its unregister is followed
	 * by its register event before any other membership event of it:
	 * writers are serialised, and the event fires under the writer's
	 * lock. Not in a probes recording, whose membership records come
	 * from the API's fexit, after the lock: there another task's record
	 * may come first, and only a register event, or the end of the
	 * trace, settles the runs.
	 */
	if (m->nr_sus && (e->type == CS_REC_REGISTER || !ck->probes))
		chk_judge_suspects(ck, m, e->type == CS_REC_REGISTER, idx);
	/* a membership event lost since its state was learned may change it */
	known = !chk_gap_between(ck, m->at, idx);
	/* (the snapshot's word: judged unless the walk may postdate e) */
	snap = m->snap_state;
	switch (e->type) {
	case CS_REC_REGISTER:
		/*
		 * A block seen running but not registered in the trace may
		 * have run in the window between its publication and this
		 * event: only a registration in the trace (or a snapshot
		 * listing it) makes it a repeat.
		 */
		if (known && m->state == M_MEMBER && m->seq >= 0 &&
		    chk_snap_judge(ck, m, snap, e->ts))
			chk_violation(ck, idx, e->head, e->cb, "membership-register",
				      "registered, but it is on the chain since event %lld%s",
				      m->seq, snap ? " (the chain's snapshot lists it)" : "");
		m->state = M_MEMBER;
		m->seq = idx;
		m->seq_task = e->task;
		m->at = idx;
		m->snap_state = m->snap_seq = false;
		m->ever_reg = true;
		m->by_phantom = false;
		break;
	case CS_REC_UNREGISTER:
		if (known && m->state == M_GONE && chk_snap_judge(ck, m, snap, e->ts))
			chk_violation(ck, idx, e->head, e->cb, "membership-unregister",
				      snap ? "unregistered, but the chain's snapshot (event %zu) "
				      "does not list it and nothing registered it since" :
				      "unregistered, but it left the chain at event %zu",
				      m->gone_idx);
		m->state = M_GONE;
		m->gone_idx = idx;
		m->at = idx;
		m->snap_state = false;
		m->by_phantom = false;
		break;
	case CS_REC_REGISTER_ERROR:
		if (known && e->ret == -CS_EEXIST && m->state == M_GONE &&
		    chk_snap_judge(ck, m, snap, e->ts))
			chk_violation(ck, idx, e->head, e->cb, "membership-eexist",
				      snap ? "register failed with -EEXIST, but the chain's "
				      "snapshot (event %zu) does not list the block" :
				      "register failed with -EEXIST, but the block left the "
				      "chain at event %zu", m->gone_idx);
		break;
	case CS_REC_UNREGISTER_ERROR:
		/*
		 * On the chain only by a run of a pass that began before its
		 * call_begin was traced: that pass may have read the chain
		 * before an unregister tracing did not see. Unknown.
		 */
		if (known && e->ret == -CS_ENOENT && m->state == M_MEMBER &&
		    m->by_phantom && m->seq < 0 && !snap) {
			ck->s->early_unknown++;
			break;
		}
		if (known && e->ret == -CS_ENOENT && m->state == M_MEMBER &&
		    chk_snap_judge(ck, m, snap, e->ts))
			chk_violation(ck, idx, e->head, e->cb, "membership-enoent",
				      "unregister failed with -ENOENT, but the block is on the "
				      "chain (%s)", snap ? "the chain's snapshot lists it" :
				      m->seq >= 0 ? "registered in the trace" :
				      "it ran in a pass");
		break;
	}
	return 0;
}

/* --- loss markers ------------------------------------------------------------ */

static void on_loss(struct checker *ck, const struct cs_rec_event *e)
{
	ck->s->loss_markers++;
	ck->s->lost_events += e->val;
}

/* the previous record on a CPU; NULL without memory */
static long long *cpu_last(struct checker *ck, struct cpu_last **tab, long long *small,
			   __u32 cpu)
{
	struct cpu_last *c;

	if (cpu < CHK_CPU_CACHE * 64)
		return &small[cpu];
	HASH_FIND(hh, *tab, &cpu, sizeof(cpu), c);
	if (c)
		return &c->idx;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->cpu = cpu;
	c->idx = -1;
	HASH_ADD(hh, *tab, cpu, sizeof(c->cpu), c);
	if (ck->oom) {
		free(c);
		return NULL;
	}
	return &c->idx;
}

/*
 * Where may the events of each loss marker have been lost? Slot i is
 * the place just before event i.
 *
 * - A ring-full or NMI marker for CPU c is written by the first program
 *   on c whose reserve succeeds after the loss: its events were lost
 *   after c's previous record (slots after it, up to the marker).
 * - A recursion miss (CS_REC_CPU_ANY) is not located to a CPU, and its
 *   marker is written up to CHK_MISSED_WINDOW_NS after it: its events
 *   were lost after the last record older than that window.
 * - A stretch given (--gap FROM,TO): after the last record older than
 *   FROM, up to the first one newer than TO.
 *
 * Fills ck->gap_last (every event's latest such slot) in linear time.
 */
static int locate_losses(struct checker *ck)
{
	const struct cs_rec_event *ev = ck->t->events;
	size_t n = ck->t->nr_events, i;
	long long *small = NULL, *g = NULL, *last, any_lo = -1, run = 0;
	struct cpu_last *tab = NULL, *c, *ct;
	int err = -ENOMEM;

	for (i = 0; i < n && ev[i].type != CS_REC_LOSS; i++)
		;
	if (i == n && !ck->nr_gaps)
		return 0;
	small = malloc(CHK_CPU_CACHE * 64 * sizeof(*small));
	g = calloc(n + 2, sizeof(*g));	/* first: +1/-1 where stretches begin/end */
	if (!small || !g)
		goto out;
	for (i = 0; i < ck->nr_gaps; i++) {
		long long lo = -1, hi = (long long)n, j;

		/* the stream's records (a snapshot's time is its walk's) */
		for (j = 0; j < (long long)n; j++) {
			if (ev[j].type == CS_REC_SNAPSHOT)
				continue;
			if (ev[j].ts < ck->gaps[i].from_ns)
				lo = j;
			else if (ev[j].ts > ck->gaps[i].to_ns) {
				hi = j;
				break;
			}
		}
		g[lo + 1]++;
		g[hi + 1]--;
	}
	memset(small, 0xff, CHK_CPU_CACHE * 64 * sizeof(*small));	/* -1 */
	for (i = 0; i < n; i++) {
		long long lo;

		if (ev[i].type == CS_REC_LOSS && ev[i].cpu == CS_REC_CPU_ANY && ev[i].val) {
			__u64 t = ev[i].ts, from = t > CHK_MISSED_WINDOW_NS ?
				t - CHK_MISSED_WINDOW_NS : 0;

			/*
			 * back to the last older record (or the previous
			 * stretch); a snapshot's time is its walk's, not the
			 * stream's
			 */
			for (lo = (long long)i - 1; lo > any_lo &&
			     (ev[lo].ts >= from || ev[lo].type == CS_REC_SNAPSHOT); lo--)
				;
			any_lo = lo;
		} else if (ev[i].type == CS_REC_SNAPSHOT) {
			continue;	/* written by user space, on no CPU's stream */
		} else {
			last = cpu_last(ck, &tab, small, ev[i].cpu);
			if (!last)
				goto out;
			lo = *last;
			*last = i;
			if (ev[i].type != CS_REC_LOSS)
				continue;
		}
		if (!ev[i].val)
			continue;	/* (the recorder never writes one) nothing lost */
		g[lo + 1]++;
		g[i + 1]--;
	}
	for (i = 0; i <= n; i++) {
		run += g[i];
		g[i] = run > 0 ? (long long)i : i ? g[i - 1] : -1;
	}
	ck->gap_last = g;
	g = NULL;
	err = 0;
out:
	HASH_ITER(hh, tab, c, ct) {
		HASH_DELETE(hh, tab, c);
		free(c);
	}
	free(small);
	free(g);
	return err;
}

bool chk_stopping_phase(const struct checker *ck, size_t idx)
{
	return ck->last_begin < (long long)idx ||
	       ck->last_begin_ts < ck->t->events[idx].ts + CHK_STOP_RACE_NS;
}

/* The last non-rollback call_begin: the stopping phase comes after it. */
static void find_last_begin(struct checker *ck)
{
	const struct cs_rec_event *ev = ck->t->events;
	size_t i = ck->t->nr_events;

	ck->last_begin = -1;
	while (i--)
		if (ev[i].type == CS_REC_CALL_BEGIN && ev[i].call_type != CALL_ROLLBACK) {
			ck->last_begin = i;
			ck->last_begin_ts = ev[i].ts;
			return;
		}
}

/* --- the trace ------------------------------------------------------------------ */

static int on_event(struct checker *ck, const struct cs_rec_event *e, size_t idx)
{
	switch (e->type) {
	case CS_REC_REGISTER:
	case CS_REC_UNREGISTER:
	case CS_REC_REGISTER_ERROR:
	case CS_REC_UNREGISTER_ERROR:
		return on_membership(ck, e, idx);
	case CS_REC_RUN:
	case CS_REC_RETURN:
	case CS_REC_STOP:
	case CS_REC_CALL_BEGIN:
	case CS_REC_CALL_END:
		return chk_pass_event(ck, e, idx);
	case CS_REC_LOSS:
		on_loss(ck, e);
		return 0;
	case CS_REC_SNAPSHOT:
		return chk_on_snapshot(ck, e, idx);
	default:		/* lock_wait */
		return 0;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * Chains without a snapshot on which a block ran whose notifier_register
 * is nowhere in the trace: registered before tracing was up. 0 or -ENOMEM.
 */
static int count_early(struct checker *ck)
{
	struct member *m;
	size_t n = 0, i;
	__u64 *heads = calloc(HASH_COUNT(ck->members) + 1, sizeof(*heads));

	if (!heads)
		return -ENOMEM;
	for (m = ck->members; m; m = m->hh.next)
		if (m->ran && !m->ever_reg && m->key.head && !chk_snap_of(ck, m->key.head))
			heads[n++] = m->key.head;
	qsort(heads, n, sizeof(*heads), cmp_u64);
	for (i = 0; i < n; i++)
		ck->s->early_chains += !i || heads[i] != heads[i - 1];
	free(heads);
	return 0;
}

/* End of the trace: what is still open or waiting. */
static int finish_trace(struct checker *ck)
{
	struct member *m;

	for (m = ck->members; m; m = m->hh.next)
		if (m->nr_sus)
			chk_judge_suspects(ck, m, false, ck->t->nr_events);
	chk_passes_finish(ck);
	return count_early(ck);
}

static void free_all(struct checker *ck)
{
	struct member *m, *mt;

	HASH_ITER(hh, ck->members, m, mt) {
		HASH_DELETE(hh, ck->members, m);
		free(m->sus);
		free(m);
	}
	free(ck->gap_last);
	chk_snaps_free(ck);
	chk_passes_free(ck);
}

int cs_check_trace(const struct cs_trace *t, const char *name, bool quiet,
		   FILE *out, struct cs_check_stats *stats)
{
	return cs_check_trace_gaps(t, name, quiet, out, stats, NULL, 0);
}

int cs_check_trace_gaps(const struct cs_trace *t, const char *name, bool quiet, FILE *out,
			struct cs_check_stats *stats, const struct cs_check_gap *gaps,
			size_t nr_gaps)
{
	struct checker ck = {
		.t = t, .out = out, .s = stats,
		.probes = t->hdr.source == CS_TRACE_SOURCE_PROBES,
		.gaps = gaps, .nr_gaps = nr_gaps,
	};
	struct cs_check_stats *s = stats;
	char sname[CS_SAFE_STR_LEN(512)];
	int err;
	size_t i;

	memset(stats, 0, sizeof(*stats));
	stats->events = t->nr_events;
	find_last_begin(&ck);
	err = locate_losses(&ck);
	for (i = 0; i < t->nr_events && !err; i++)
		err = on_event(&ck, &t->events[i], i);
	if (!err)
		err = finish_trace(&ck);
	free_all(&ck);
	if (err)
		return err;
	if (s->events == s->loss_markers + s->snapshot_records) {
		/* a gate must not pass a recording of nothing */
		s->violations++;
		fprintf(out, "event -: chain -: callback -: rule no-events: the trace has "
			"no notifier event (%llu loss markers, %llu snapshot records)\n",
			s->loss_markers, s->snapshot_records);
	}
	if (quiet)
		return 0;
	name = cs_safe_str(name, sname, sizeof(sname));
	/* events as report counts them: the records but the snapshots' */
	fprintf(out, "%s: %llu events, %llu passes checked, %llu violation%s "
		"(%llu passes open when the trace ends, %llu stopped robust passes "
		"awaiting their rollback)\n", name, s->events - s->snapshot_records,
		s->passes, s->violations, s->violations == 1 ? "" : "s",
		s->open_passes, s->open_rollbacks);
	fprintf(out, "%s: orphans: %llu events of passes begun before recording or "
		"whose call_begin is not in the trace (%llu runs, %llu returns, "
		"%llu stops, %llu ends)\n", name,
		s->orphan_runs + s->orphan_returns + s->orphan_stops + s->orphan_ends,
		s->orphan_runs, s->orphan_returns, s->orphan_stops, s->orphan_ends);
	if (ck.probes)
		fprintf(out, "%s: probes recording: nr_to_call unknown (-1), no lock "
			"waits; registration order judged only between blocks one task "
			"registered (fexit order of two tasks need not be link order)\n",
			name);
	if (s->loss_markers || nr_gaps) {
		fprintf(out, "%s: gaps: %llu loss markers (%llu events lost)", name,
			s->loss_markers, s->lost_events);
		if (nr_gaps)
			fprintf(out, " and %zu given (--gap)", nr_gaps);
		fprintf(out, ": %llu passes excused from the pairing rules, %llu orphan "
			"events put down to gaps\n", s->gap_passes, s->gap_orphans);
	}
	if (s->anon_events)
		fprintf(out, "%s: no task: %llu events of passes name none (a console "
			"without caller ids): paired by chain, val and call type; %llu passes "
			"not judged (another of their chain and val open at once)\n", name,
			s->anon_events, s->shared_passes);
	if (s->early_chains)
		fprintf(out, "%s: early history missing: %llu chains ran blocks whose "
			"notifier_register is not in the trace (registered before tracing "
			"was up): their membership before their first event is unknown, "
			"not a violation; %llu judgements unknown\n", name, s->early_chains,
			s->early_unknown);
	if (s->snapshots)
		fprintf(out, "%s: snapshots: %llu chains (%llu unstable, %llu blocks) "
			"give membership and order from their walk; %llu judgements "
			"unknown (unstable snapshot)\n", name, s->snapshots,
			s->snapshots_unstable, s->snapshot_blocks, s->snap_unknown);
	return 0;
}
