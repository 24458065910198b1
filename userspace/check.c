// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope check: validate a trace file against the notifier chain
 * rules, from the trace alone. See the rule list in the help text.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "chainscope.h"
#include "tracefile.h"

#define CS_ENOENT 2
#define CS_EEXIST 17

static struct env {
	const char *cmd;
	const char *file;
	bool quiet;
} env;

static const struct argp_option opts[] = {
	{ "quiet", 'q', NULL, 0, "Only the violations, no summary line", 0 },
	CS_SALVAGE_OPTION,
	{},
};

static const char doc[] =
"Check a trace file (chainscope record) against the notifier chain rules.\n"
"\n"
"Chain passes are paired by task, execution context, head and nesting\n"
"(call_begin .. call_end). Rules, by the name a violation shows:\n"
"  priority-order        callbacks of a pass ran in non-increasing priority\n"
"  registration-order    equal priorities ran in registration order (only\n"
"                        for blocks whose notifier_register is in the trace)\n"
"  run-after-stop        nothing ran after notifier_stop in the same pass\n"
"  nr-calls              call_end's nr_calls equals the callbacks that ran\n"
"  begin-without-end     every call_begin has its call_end\n"
"  rollback              a rollback pass ran exactly the first nr-1\n"
"                        callbacks of the failed robust pass before it\n"
"  run-after-unregister  no block ran in a pass that began after its\n"
"                        notifier_unregister\n"
"  membership-register   notifier_register of a block already on the chain\n"
"  membership-unregister notifier_unregister of a block not on the chain\n"
"  membership-eexist     register_error -EEXIST for a block not on the chain\n"
"  membership-enoent     unregister_error -ENOENT for a block on the chain\n"
"Membership is known only from events in the trace; blocks registered\n"
"before recording started are not judged. Events are numbered from 0\n"
"in file order.\n"
"\v"
"Exit status: 0 no violation, 1 violations (one line each), 2 usage error\n"
"or an unreadable/invalid trace file.\n";

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'q':
		env.quiet = true;
		return 0;
	default:
		return cs_parse_file_arg(key, arg, state, &env.file);
	}
}

static const struct argp argp = {
	.options = opts,
	.parser = parse_arg,
	.args_doc = "FILE",
	.doc = doc,
};

/* --- state ------------------------------------------------------------------ */

static const struct cs_trace *trace;
static unsigned long nr_violations;

__attribute__((format(printf, 5, 6)))
static void violation(size_t idx, __u64 head, __u64 cb, const char *rule,
		      const char *fmt, ...)
{
	char h[256], c[256];
	va_list ap;

	nr_violations++;
	printf("event %zu: chain %s: callback %s: rule %s: ", idx,
	       cs_trace_sym_format(trace, head, h, sizeof(h)),
	       cb ? cs_trace_sym_format(trace, cb, c, sizeof(c)) : "-", rule);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* membership of (head, nb) as far as the trace tells */
enum mstate { M_UNKNOWN, M_MEMBER, M_GONE };

struct member {
	__u64 head, nb;
	enum mstate state;
	long long seq;		/* event index of its notifier_register, -1 unknown */
	size_t gone_idx;	/* event index of its notifier_unregister */
};

static struct member *members;
static size_t nr_members, cap_members;

static size_t mhash(__u64 head, __u64 nb)
{
	return (size_t)(((head * 0x9e3779b97f4a7c15ULL) ^ (nb * 0xc2b2ae3d27d4eb4fULL)) >> 17);
}

static struct member *member_slot(__u64 head, __u64 nb)
{
	size_t i;

	for (i = mhash(head, nb) & (cap_members - 1);
	     members[i].head || members[i].nb; i = (i + 1) & (cap_members - 1))
		if (members[i].head == head && members[i].nb == nb)
			break;
	return &members[i];
}

/* The entry of (head, nb), created if missing; NULL only without memory. */
static struct member *member_get(__u64 head, __u64 nb)
{
	struct member *m;

	if (cap_members) {
		m = member_slot(head, nb);
		if (m->head || m->nb)
			return m;
	}
	if ((nr_members + 1) * 2 > cap_members) {
		struct member *old = members;
		size_t oldcap = cap_members, j;

		cap_members = oldcap ? oldcap * 2 : 1024;
		members = calloc(cap_members, sizeof(*members));
		if (!members) {
			members = old;
			cap_members = oldcap;
			return NULL;
		}
		for (j = 0; j < oldcap; j++)
			if (old[j].head || old[j].nb)
				*member_slot(old[j].head, old[j].nb) = old[j];
		free(old);
	}
	m = member_slot(head, nb);
	m->head = head;
	m->nb = nb;
	m->seq = -1;
	nr_members++;
	return m;
}

struct run {
	size_t idx;
	__u64 cb, nb;
	int priority;
};

struct frame {
	__u64 head;
	size_t begin_idx;
	int type, nr_to_call;
	struct run *runs;
	size_t nr_runs, cap_runs;
	bool in_flight;		/* a callback ran and has not returned */
	long long stop_idx;	/* notifier_stop (or a STOP_MASK return), -1 */
};

/* the last robust pass of a (task, ctx) that was stopped */
struct pending {
	bool valid;
	__u64 head;
	size_t depth, end_idx;
	int nr_calls;
	struct run *runs;
	size_t nr_runs;
};

struct stack {
	__u64 task;
	__u32 ctx;
	struct frame *f;
	size_t depth, cap;
	struct pending pend;
};

static struct stack *stacks;
static size_t nr_stacks;
static unsigned long nr_passes, nr_unmatched_ends, nr_orphan_runs;

static struct stack *stack_get(__u64 task, __u32 ctx)
{
	size_t i;
	struct stack *p;

	for (i = 0; i < nr_stacks; i++)
		if (stacks[i].task == task && stacks[i].ctx == ctx)
			return &stacks[i];
	p = realloc(stacks, (nr_stacks + 1) * sizeof(*stacks));
	if (!p)
		return NULL;
	stacks = p;
	memset(&stacks[nr_stacks], 0, sizeof(*stacks));
	stacks[nr_stacks].task = task;
	stacks[nr_stacks].ctx = ctx;
	return &stacks[nr_stacks++];
}

static void frame_free(struct frame *f)
{
	free(f->runs);
	f->runs = NULL;
	f->nr_runs = f->cap_runs = 0;
}

static const char *const call_types[] = { "plain", "robust", "rollback" };

/* A pass ended (its call_end is event idx): apply the per-pass rules. */
static void finish_pass(struct stack *st, struct frame *f, const struct cs_rec_event *end,
			size_t idx)
{
	size_t i;

	nr_passes++;
	for (i = 1; i < f->nr_runs; i++) {
		const struct run *a = &f->runs[i - 1], *b = &f->runs[i];
		struct member *ma, *mb;

		if (b->priority > a->priority) {
			violation(b->idx, f->head, b->cb, "priority-order",
				  "priority %d ran after priority %d (event %zu) in the "
				  "pass of event %zu", b->priority, a->priority, a->idx,
				  f->begin_idx);
			continue;
		}
		if (b->priority != a->priority)
			continue;
		ma = member_get(f->head, a->nb);
		mb = member_get(f->head, b->nb);
		if (ma && mb && ma->seq >= 0 && mb->seq >= 0 && mb->seq < ma->seq)
			violation(b->idx, f->head, b->cb, "registration-order",
				  "priority %d: block registered at event %lld ran after "
				  "the one registered at event %lld (event %zu)",
				  b->priority, mb->seq, ma->seq, a->idx);
	}
	if (end->nr_calls != (int)f->nr_runs)
		violation(idx, f->head, 0, "nr-calls",
			  "%s pass of event %zu: call_end says nr_calls=%d, %zu "
			  "callbacks ran", call_types[f->type], f->begin_idx,
			  end->nr_calls, f->nr_runs);

	if (f->type == 2) {	/* rollback */
		struct pending *p = &st->pend;

		if (!p->valid || p->head != f->head || p->depth != st->depth) {
			violation(idx, f->head, 0, "rollback",
				  "rollback pass of event %zu follows no stopped robust "
				  "pass of this chain", f->begin_idx);
		} else {
			size_t want = p->nr_calls > 0 ? (size_t)p->nr_calls - 1 : 0;

			if (f->nr_runs != want)
				violation(idx, f->head, 0, "rollback",
					  "rollback pass of event %zu ran %zu callbacks, the "
					  "robust pass (ended at event %zu) stopped at callback "
					  "%d, so want %zu", f->begin_idx, f->nr_runs,
					  p->end_idx, p->nr_calls, want);
			for (i = 0; i < f->nr_runs && i < want && i < p->nr_runs; i++)
				if (f->runs[i].nb != p->runs[i].nb) {
					violation(f->runs[i].idx, f->head, f->runs[i].cb,
						  "rollback", "rollback callback %zu is not "
						  "callback %zu of the robust pass (event %zu)",
						  i + 1, i + 1, p->runs[i].idx);
					break;
				}
		}
		free(p->runs);
		memset(p, 0, sizeof(*p));
	} else if (f->type == 1 && (end->ret & CS_NOTIFY_STOP_MASK)) {
		free(st->pend.runs);
		st->pend.valid = true;
		st->pend.head = f->head;
		st->pend.depth = st->depth;
		st->pend.end_idx = idx;
		st->pend.nr_calls = end->nr_calls;
		st->pend.runs = f->runs;	/* handed over */
		st->pend.nr_runs = f->nr_runs;
		f->runs = NULL;
	}
	frame_free(f);
}

static void pop_unended(struct stack *st, size_t idx, const char *why)
{
	struct frame *f = &st->f[--st->depth];

	violation(f->begin_idx, f->head, 0, "begin-without-end",
		  "%s pass has no call_end (%s at event %zu)", call_types[f->type], why,
		  idx);
	frame_free(f);
}

static struct frame *frame_of(struct stack *st, __u64 head)
{
	size_t d;

	for (d = st->depth; d > 0; d--)
		if (st->f[d - 1].head == head)
			return &st->f[d - 1];
	return NULL;
}

static int on_event(const struct cs_rec_event *e, size_t idx)
{
	struct stack *st = NULL;
	struct member *m = NULL;
	struct frame *f;

	if (e->type == CS_REC_LOCK_WAIT)
		return 0;
	if (e->type <= CS_REC_STOP) {
		m = member_get(e->head, e->nb);
		if (!m)
			return -ENOMEM;
	}
	if (e->type >= CS_REC_RUN && e->type <= CS_REC_CALL_END) {
		st = stack_get(e->task, e->ctx);
		if (!st)
			return -ENOMEM;
	}

	switch (e->type) {
	case CS_REC_REGISTER:
		if (m->state == M_MEMBER)
			violation(idx, e->head, e->cb, "membership-register",
				  "registered, but it is on the chain since event %lld",
				  m->seq);
		m->state = M_MEMBER;
		m->seq = idx;
		break;
	case CS_REC_UNREGISTER:
		if (m->state == M_GONE)
			violation(idx, e->head, e->cb, "membership-unregister",
				  "unregistered, but it left the chain at event %zu",
				  m->gone_idx);
		m->state = M_GONE;
		m->gone_idx = idx;
		break;
	case CS_REC_REGISTER_ERROR:
		if (e->ret == -CS_EEXIST && m->state == M_GONE)
			violation(idx, e->head, e->cb, "membership-eexist",
				  "register failed with -EEXIST, but the block left the "
				  "chain at event %zu", m->gone_idx);
		break;
	case CS_REC_UNREGISTER_ERROR:
		if (e->ret == -CS_ENOENT && m->state == M_MEMBER)
			violation(idx, e->head, e->cb, "membership-enoent",
				  "unregister failed with -ENOENT, but the block is on the "
				  "chain (%s)", m->seq >= 0 ? "registered in the trace" :
				  "it ran in a pass");
		break;
	case CS_REC_RUN:
		f = st->depth && st->f[st->depth - 1].head == e->head ?
		    &st->f[st->depth - 1] : frame_of(st, e->head);
		if (!f) {
			nr_orphan_runs++;	/* its pass began before recording */
			break;
		}
		if (f->stop_idx >= 0)
			violation(idx, e->head, e->cb, "run-after-stop",
				  "ran after the pass stopped at event %lld", f->stop_idx);
		if (m->state == M_GONE && m->gone_idx < f->begin_idx)
			violation(idx, e->head, e->cb, "run-after-unregister",
				  "ran in the pass of event %zu, after its unregister at "
				  "event %zu", f->begin_idx, m->gone_idx);
		if (m->state == M_UNKNOWN)
			m->state = M_MEMBER;	/* on the chain, order unknown */
		if (f->nr_runs == f->cap_runs) {
			size_t cap = f->cap_runs ? f->cap_runs * 2 : 8;
			struct run *r = realloc(f->runs, cap * sizeof(*r));

			if (!r)
				return -ENOMEM;
			f->runs = r;
			f->cap_runs = cap;
		}
		f->runs[f->nr_runs++] = (struct run){ idx, e->cb, e->nb, e->priority };
		f->in_flight = true;
		break;
	case CS_REC_RETURN:
	case CS_REC_STOP:
		f = frame_of(st, e->head);
		if (!f)
			break;
		f->in_flight = false;
		if (e->type == CS_REC_STOP || (e->ret & CS_NOTIFY_STOP_MASK))
			if (f->stop_idx < 0)
				f->stop_idx = idx;
		break;
	case CS_REC_CALL_BEGIN:
		/* nesting needs a callback in flight in the pass below */
		while (st->depth && !st->f[st->depth - 1].in_flight)
			pop_unended(st, idx, "next call_begin on this task");
		if (st->depth == st->cap) {
			size_t cap = st->cap ? st->cap * 2 : 8;
			struct frame *p = realloc(st->f, cap * sizeof(*p));

			if (!p)
				return -ENOMEM;
			st->f = p;
			st->cap = cap;
		}
		f = &st->f[st->depth++];
		memset(f, 0, sizeof(*f));
		f->head = e->head;
		f->begin_idx = idx;
		f->type = e->call_type;
		f->nr_to_call = e->nr_to_call;
		f->stop_idx = -1;
		break;
	case CS_REC_CALL_END:
		f = frame_of(st, e->head);
		if (!f) {
			nr_unmatched_ends++;	/* began before recording */
			break;
		}
		while (&st->f[st->depth - 1] != f)
			pop_unended(st, idx, "call_end of an outer pass");
		st->depth--;
		finish_pass(st, f, e, idx);
		break;
	}
	return 0;
}

int cmd_check(int argc, char **argv)
{
	struct cs_trace t;
	unsigned long open_passes = 0;
	char err[512];
	size_t i, d;
	int rc;

	memset(&env, 0, sizeof(env));
	env.cmd = argv[0];
	cs_parse_args(&argp, argc, argv, &env);
	if (cs_trace_read(env.file, &t, err, sizeof(err))) {
		warn("%s: error: %s: %s\n", env.cmd, env.file, err);
		return CS_EXIT_USAGE;
	}
	trace = &t;
	nr_violations = nr_passes = nr_unmatched_ends = nr_orphan_runs = 0;
	if (t.lost || t.missed)
		warn("%s: warning: %llu events lost and %llu missed while recording: "
		     "violations below may be artifacts of that\n", env.cmd,
		     (unsigned long long)t.lost, (unsigned long long)t.missed);
	rc = CS_EXIT_OK;
	for (i = 0; i < t.nr_events; i++) {
		if (on_event(&t.events[i], i)) {
			warn("%s: error: out of memory\n", env.cmd);
			rc = CS_EXIT_ERROR;
			break;
		}
	}
	for (i = 0; i < nr_stacks; i++) {
		open_passes += stacks[i].depth;
		for (d = 0; d < stacks[i].depth; d++)
			frame_free(&stacks[i].f[d]);
		free(stacks[i].f);
		free(stacks[i].pend.runs);
	}
	if (rc == CS_EXIT_OK && !env.quiet)
		printf("%s: %zu events, %lu passes checked, %lu violation%s "
		       "(%lu passes open at the end, %lu ends and %lu runs of passes "
		       "begun before recording)\n", env.file, t.nr_events, nr_passes,
		       nr_violations, nr_violations == 1 ? "" : "s", open_passes,
		       nr_unmatched_ends, nr_orphan_runs);
	if (rc == CS_EXIT_OK && nr_violations)
		rc = CS_EXIT_ERROR;
	free(stacks);
	stacks = NULL;
	nr_stacks = 0;
	free(members);
	members = NULL;
	nr_members = cap_members = 0;
	cs_trace_free(&t);
	return rc;
}
