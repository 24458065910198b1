// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope check: the notifier chain rules, applied to a parsed trace
 * in one pass over its events (checker.h; the rules are listed in
 * `chainscope check --help`, check.c). This file: the event loop,
 * membership, loss markers and the output; check_pass.c pairs passes.
 *
 * Loss markers (CS_REC_LOSS) locate lost events per CPU. A task whose
 * CPU lost events since its previous event may have lost some of its
 * own: check_pass.c then suspends the pairing rules of its open passes.
 *
 * Lookups are uthash tables: time is linear in the number of events.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "checker_int.h"

#define CS_ENOENT 2
#define CS_EEXIST 17

/*
 * A symbol's name from the trace, control bytes and backslashes as \xNN:
 * a crafted name cannot forge a line of our output.
 */
static const char *sym_name(const struct cs_trace *t, __u64 addr, char *buf,
			    size_t len)
{
	char raw[256];
	const unsigned char *p;
	size_t n = 0;

	cs_trace_sym_format(t, addr, raw, sizeof(raw));
	for (p = (const unsigned char *)raw; *p && n + 5 < len; p++) {
		if (*p < 0x20 || *p == 0x7f || *p == '\\')
			n += snprintf(buf + n, len - n, "\\x%02x", *p);
		else
			buf[n++] = *p;
	}
	buf[n] = '\0';
	return buf;
}

__attribute__((format(printf, 6, 7)))
void chk_violation(struct checker *ck, size_t idx, __u64 head, __u64 cb,
		   const char *rule, const char *fmt, ...)
{
	char h[1024], c[1024];
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

bool chk_grow(void **arr, size_t *cap, size_t nr, size_t sz)
{
	size_t n;
	char *p;

	if (nr < *cap)
		return true;
	n = *cap ? *cap * 2 : 4;
	p = realloc(*arr, n * sz);
	if (!p)
		return false;
	memset(p + *cap * sz, 0, (n - *cap) * sz);
	*arr = p;
	*cap = n;
	return true;
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
	return m;
}

/*
 * Runs of m after its unregister, in passes that began after it: a
 * violation unless the block was published again, which its
 * notifier_register event (the next membership event) then tells.
 */
static void judge_suspects(struct checker *ck, struct member *m, bool registered)
{
	size_t i;

	if (!registered)
		for (i = 0; i < m->nr_sus; i++)
			chk_violation(ck, m->sus[i].run_idx, m->key.head, m->sus[i].cb,
				      "run-after-unregister", "ran in the pass of event %zu, "
				      "after its unregister at event %zu, and was not "
				      "registered again", m->sus[i].begin_idx, m->gone_idx);
	m->nr_sus = 0;
}

static int on_membership(struct checker *ck, const struct cs_rec_event *e, size_t idx)
{
	struct member *m = chk_member_get(ck, e->head, e->nb);

	if (!m)
		return -ENOMEM;
	if (m->nr_sus)
		judge_suspects(ck, m, e->type == CS_REC_REGISTER);
	switch (e->type) {
	case CS_REC_REGISTER:
		/*
		 * A block seen running but not registered in the trace may
		 * have run in the window between its publication and this
		 * event: only a registration in the trace makes it a repeat.
		 */
		if (m->state == M_MEMBER && m->seq >= 0)
			chk_violation(ck, idx, e->head, e->cb, "membership-register",
				      "registered, but it is on the chain since event %lld",
				      m->seq);
		m->state = M_MEMBER;
		m->seq = idx;
		break;
	case CS_REC_UNREGISTER:
		if (m->state == M_GONE)
			chk_violation(ck, idx, e->head, e->cb, "membership-unregister",
				      "unregistered, but it left the chain at event %zu",
				      m->gone_idx);
		m->state = M_GONE;
		m->gone_idx = idx;
		break;
	case CS_REC_REGISTER_ERROR:
		if (e->ret == -CS_EEXIST && m->state == M_GONE)
			chk_violation(ck, idx, e->head, e->cb, "membership-eexist",
				      "register failed with -EEXIST, but the block left the "
				      "chain at event %zu", m->gone_idx);
		break;
	case CS_REC_UNREGISTER_ERROR:
		if (e->ret == -CS_ENOENT && m->state == M_MEMBER)
			chk_violation(ck, idx, e->head, e->cb, "membership-enoent",
				      "unregister failed with -ENOENT, but the block is on the "
				      "chain (%s)", m->seq >= 0 ? "registered in the trace" :
				      "it ran in a pass");
		break;
	}
	return 0;
}

/* --- loss markers ------------------------------------------------------------ */

static int on_loss(struct checker *ck, const struct cs_rec_event *e, size_t idx)
{
	struct cpu_loss *l;

	ck->s->loss_markers++;
	ck->s->lost_events += e->val;
	if (e->cpu == CS_REC_CPU_ANY) {
		ck->loss_any = idx;
		return 0;
	}
	HASH_FIND(hh, ck->losses, &e->cpu, sizeof(e->cpu), l);
	if (!l) {
		l = calloc(1, sizeof(*l));
		if (!l)
			return -ENOMEM;
		l->cpu = e->cpu;
		HASH_ADD(hh, ck->losses, cpu, sizeof(l->cpu), l);
		if (ck->oom) {
			free(l);
			return -ENOMEM;
		}
	}
	l->idx = idx;
	return 0;
}

bool chk_lost_since(struct checker *ck, __u32 cpu, long long after)
{
	struct cpu_loss *l;

	if (ck->loss_any > after)
		return true;
	HASH_FIND(hh, ck->losses, &cpu, sizeof(cpu), l);
	return l && (long long)l->idx > after;
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
		return on_loss(ck, e, idx);
	default:		/* lock_wait */
		return 0;
	}
}

/* End of the trace: what is still open or waiting. */
static void finish_trace(struct checker *ck)
{
	struct member *m;

	for (m = ck->members; m; m = m->hh.next)
		if (m->nr_sus)
			judge_suspects(ck, m, false);
	chk_passes_finish(ck);
}

static void free_all(struct checker *ck)
{
	struct member *m, *mt;
	struct cpu_loss *l, *lt;

	HASH_ITER(hh, ck->members, m, mt) {
		HASH_DELETE(hh, ck->members, m);
		free(m->sus);
		free(m);
	}
	HASH_ITER(hh, ck->losses, l, lt) {
		HASH_DELETE(hh, ck->losses, l);
		free(l);
	}
	chk_passes_free(ck);
}

int cs_check_trace(const struct cs_trace *t, const char *name, bool quiet,
		   FILE *out, struct cs_check_stats *stats)
{
	struct checker ck = {
		.t = t, .out = out, .s = stats, .loss_any = -1,
	};
	struct cs_check_stats *s = stats;
	int err = 0;
	size_t i;

	memset(stats, 0, sizeof(*stats));
	stats->events = t->nr_events;
	for (i = 0; i < t->nr_events && !err; i++)
		err = on_event(&ck, &t->events[i], i);
	if (!err)
		finish_trace(&ck);
	free_all(&ck);
	if (err)
		return err;
	if (quiet)
		return 0;
	fprintf(out, "%s: %llu events, %llu passes checked, %llu violation%s "
		"(%llu passes open when the trace ends)\n", name, s->events,
		s->passes, s->violations, s->violations == 1 ? "" : "s",
		s->open_passes);
	fprintf(out, "%s: orphans: %llu events of passes begun before recording or "
		"whose call_begin is not in the trace (%llu runs, %llu returns, "
		"%llu stops, %llu ends)\n", name,
		s->orphan_runs + s->orphan_returns + s->orphan_stops + s->orphan_ends,
		s->orphan_runs, s->orphan_returns, s->orphan_stops, s->orphan_ends);
	if (s->loss_markers)
		fprintf(out, "%s: gaps: %llu loss markers (%llu events lost): %llu "
			"passes excused from the pairing rules, %llu orphan events "
			"put down to gaps\n", name, s->loss_markers, s->lost_events,
			s->gap_passes, s->gap_orphans);
	return 0;
}
