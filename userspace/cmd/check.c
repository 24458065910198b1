// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope check: validate a trace file against the notifier chain
 * rules, from the trace alone. The command line; the rules are in
 * checker.c, their list in the help text below.
 */
#include <errno.h>
#include <string.h>

#include "chainscope.h"
#include "checker.h"
#include "safestr.h"
#include "trace_cli.h"
#include "tracedat.h"
#include "tracefile.h"

/* out of memory: the check is incomplete (not 1: that says violations) */
#define CHECK_EXIT_NOMEM CS_EXIT_OOM

#define OPT_GAP 0x2000
#define MAX_GAPS 16

static struct env {
	const char *cmd;
	const char *file;
	bool quiet;
	struct cs_check_gap gaps[MAX_GAPS];
	size_t nr_gaps;
} env;

static const struct argp_option opts[] = {
	{ "quiet", 'q', NULL, 0, "Only the violations (and errors, warnings): no summary "
	  "lines, no notes on the input", 0 },
	{ "gap", OPT_GAP, "FROM,TO", 0, "Events may be missing between these times (seconds "
	  "in the trace's clock, as trace-cmd report prints them): a gap on every CPU, as "
	  "a loss marker's (see Gaps); repeatable, up to 16", 0 },
	CS_SALVAGE_OPTION,
	CS_CONSOLE_OPTION,
	CS_TRACEFS_OPTION,
	{},
};

static const char doc[] =
"Check a trace file against the notifier chain rules: a .cstrace\n"
"(chainscope record) or a trace-cmd trace.dat of the notifier:* events\n"
"(trace-cmd record -e notifier; told apart by the first bytes), or with\n"
"--console a text log of the events (a console with trace_event=notifier:*\n"
"tp_printk, or /sys/kernel/tracing/trace), or with --tracefs [DIR] the\n"
"live ftrace ring buffer of DIR (/sys/kernel/tracing or an instance under\n"
"it), read and consumed with libtracefs as 'trace-cmd extract' does (root;\n"
"notifier:* events enabled there).\n"
"\n"
"Passes are paired per task and execution context by (head, val, call\n"
"type) frames, nested as they ran. Rules, by the name a violation shows:\n"
"  priority-order        callbacks of a pass ran in non-increasing priority\n"
"  registration-order    blocks of equal priority ran in registration order,\n"
"                        whatever ran between them (judged for blocks whose\n"
"                        notifier_register is in the trace)\n"
"  run-after-stop        nothing ran after a NOTIFY_STOP_MASK return\n"
"  stop-event            notifier_stop follows exactly the returns with\n"
"                        NOTIFY_STOP_MASK, with their ret and nr_calls\n"
"  nr-calls              call_end's nr_calls equals the callbacks that ran\n"
"  nr-to-call            a plain or robust pass ran at most nr_to_call\n"
"  end-ret               call_end's ret is the last callback's return\n"
"                        (NOTIFY_DONE if none ran): stopped iff it had\n"
"                        NOTIFY_STOP_MASK\n"
"  begin-without-end     every call_begin has its call_end\n"
"  missing-rollback      a robust pass that stopped is followed, at the same\n"
"                        depth, by its rollback pass (before anything else\n"
"                        begins there; the trace may end before it)\n"
"  rollback              a rollback pass follows a stopped robust pass of\n"
"                        its chain, with nr_to_call = nr_calls - 1, and\n"
"                        ran exactly its first nr-1 callbacks, in order\n"
"                        (fewer if a val_down callback stopped it)\n"
"  run-after-unregister  no block ran in a pass that began after its\n"
"                        notifier_unregister, unless its next membership\n"
"                        event registers it again (judged then, or at the\n"
"                        end of the trace)\n"
"  run-not-member        no block ran that its chain's snapshot does not\n"
"                        list, in a pass that began after the walk, unless\n"
"                        its next membership event registers it\n"
"  membership-register   notifier_register of a block registered in the\n"
"                        trace (or listed by the snapshot) and still on the\n"
"                        chain\n"
"  membership-unregister notifier_unregister of a block not on the chain\n"
"  membership-eexist     register_error -EEXIST for a block not on the chain\n"
"  membership-enoent     unregister_error -ENOENT for a block on the chain\n"
"  stray-event           a run, return, stop or call_end that fits no open\n"
"                        pass of its task while one is open (see Orphans)\n"
"  no-events             the trace has no notifier event at all (a gate must\n"
"                        not pass a recording of nothing); its line reads\n"
"                        \"event -: chain -: callback -: rule no-events: ...\"\n"
"\n"
"Ordering: notifier_register fires after the block is published, and\n"
"notifier_unregister after the unlink, before the grace period ends. So a\n"
"block may run before its notifier_register event, and after its\n"
"notifier_unregister event in a pass that began before it: neither is a\n"
"violation. \"Began before\" is the order in the file (the ring buffer's),\n"
"as a pass reads the chain only after its call_begin; a pass without\n"
"call_begin began after the run of the callback it nests in, no sooner.\n"
"Snapshots: record walks each chain as it starts (version 3 traces) and\n"
"stores its blocks in call order; from then on the chain's membership and\n"
"order are known without register events: what it lists is on the chain,\n"
"in that order, what it does not list is not. A membership event within\n"
"50 ms after the walk may predate it and is not judged against it. An\n"
"unstable snapshot (the chain changed during the walk) still seeds\n"
"membership, but what only it would call a violation is counted as\n"
"unknown (the summary's snapshots: line). Without a snapshot, membership\n"
"is known only from events in the trace.\n"
"Early history: a trace without snapshot (a boot-time buffer, a\n"
"trace.dat) lacks the registrations made before tracing was up. A block\n"
"that runs with no notifier_register in the trace marks its chain \"early\n"
"history missing\" (the summary line of that name counts the chains):\n"
"its place among equal priorities is not judged, and an -ENOENT\n"
"unregistration of a block known only from a pass that began before it\n"
"was traced is counted as unknown, not as membership-enoent.\n"
"\n"
"Orphans: a run, return, stop or call_end whose pass has no call_begin in\n"
"the trace is counted as an orphan, never paired with another pass. Such a\n"
"pass began before recording (then no recorded pass of its task is open:\n"
"those nest in its callbacks), or while the recorder was stopping (no\n"
"call_begin but rollbacks is recorded then: it nests in the callback in\n"
"flight of the innermost open pass, and is paired and judged as such,\n"
"without its nr_to_call). Anything else while a pass of the task is open\n"
"is a stray-event, unless a loss gap explains it. The stopping phase is\n"
"what follows the last non-rollback call_begin (and 1 ms before it, for\n"
"one that raced the recorder's flag).\n"
"\n"
"No task: a console log without printk caller ids names no task; passes\n"
"that ran at once on several CPUs interleave in it. Its passes are paired\n"
"by (head, val, call type) wherever they are open; what fits none is an\n"
"orphan. What needs the task is not judged on them: stray-event,\n"
"begin-without-end (a pass is left open), missing-rollback and rollback;\n"
"nor any rule of two passes of one chain and val open at once (the\n"
"summary's \"no task:\" line counts them). A note says so.\n"
"\n"
"Gaps: loss markers in the trace (version 2) tell where events may have\n"
"been lost: a ring-full or NMI marker for CPU c after c's previous record\n"
"(it is written by c's next successful event, however late), a recursion\n"
"miss (any CPU) within 500 ms before its marker (the recorder polls those\n"
"counters every 100 ms). A pass of any task and CPU that is open across\n"
"such a stretch (the event may have been its, after a migration) is\n"
"excused from the pairing rules (begin-without-end, nr-calls, nr-to-call,\n"
"end-ret, stop-event, missing-rollback, rollback, stray-event, orphan\n"
"counting); membership known from before a stretch is not trusted after\n"
"it (registration-order, run-after-unregister and the membership-* rules\n"
"skip such blocks until their next membership event). The summary counts\n"
"them. A trace with lost events but no markers (version 1) is checked as\n"
"it is, with a warning. --gap FROM,TO gives such a stretch where nothing\n"
"in the trace marks it: a boot with trace_event= on the command line has\n"
"one, as the kernel switches all those events off, then on again, in\n"
"event_trace_enable_again (an early_initcall); a pass running then can\n"
"lose its call_end (trace_event=initcall:* too gives its times). A gap\n"
"must meet the trace's records (the first to the last), or it is refused.\n"
"\n"
"Probes recordings (record --mode probes; the trace header says so): the\n"
"API has no nr_to_call, so it is -1 (unknown) on plain and robust passes,\n"
"and a rollback's -1 is not held against it either (its runs still are);\n"
"membership events come from the fexit of the (un)register functions,\n"
"after the lock is dropped, so registration-order compares only blocks\n"
"that one task registered (two tasks' events may come out of link order).\n"
"Its lock waits are those of the -c or well-known chains. A tracepoint\n"
"recording is judged as always.\n"
"\n"
"End of the trace: passes still open, and stopped robust passes whose\n"
"rollback had not begun (the recorder stops between them), are counted,\n"
"not violations.\n"
"\n"
"Events are numbered from 0 in file order. Output: one line per violation,\n"
"\"event N: chain C: callback F: rule R: detail\", then the summary.\n"
"\v"
"Exit status: 0 no violation, 1 violations (one line each), 2 usage error\n"
"or an unreadable/invalid trace file, 8 out of memory (the check is\n"
"incomplete); a trace.dat: 12 one that cannot be read or is cut short\n"
"(truncated), or with notifier events in two buffers (-B), 13 a trace\n"
"clock that is not in nanoseconds (or a buffer instance's that is not the\n"
"top buffer's), 14 a name outside the kernel symbol alphabet, 15 the\n"
"parser process died on it; --console text: 12 one that is refused (not\n"
"text: NUL bytes, a line over 64 KiB; no event of ours, unreadable), 13\n"
"trace file times of a clock not in seconds; --tracefs: 2 DIR is not a\n"
"tracefs directory or instance, 3 no permission to read it (root), 5 the\n"
"kernel has no notifier:* events, 16 none of them is enabled in DIR, 12\n"
"and 13 as for a trace.dat.\n"
"\n"
"Examples:\n"
"  chainscope check n.cstrace             # violations, then the summary\n"
"  chainscope check -q n.cstrace || echo violations\n"
"  chainscope check --salvage cut.cstrace # a recording cut short\n"
"  chainscope check trace.dat             # trace-cmd record -e notifier\n"
"  chainscope check --gap 0.648112,0.652877 boot.dat  # a boot's re-enable\n"
"  chainscope check --tracefs /sys/kernel/tracing/instances/cs\n";

static bool has_snapshot(const struct cs_trace *t)
{
	size_t i;

	for (i = 0; i < t->nr_events; i++)
		if (t->events[i].type == CS_REC_SNAPSHOT)
			return true;
	return false;
}

static size_t nr_registrations(const struct cs_trace *t)
{
	size_t i, n = 0;

	for (i = 0; i < t->nr_events; i++)
		n += t->events[i].type == CS_REC_REGISTER;
	return n;
}

static size_t nr_taskless(const struct cs_trace *t)
{
	size_t i, n = 0;

	for (i = 0; i < t->nr_events; i++)
		n += t->events[i].task == CS_TRACE_TASK_NONE;
	return n;
}

/* SEC[.FRAC] (up to 9 digits after the point) as ns, exactly; -1 if not that */
static int parse_secs(const char *s, const char *end, __u64 *ns)
{
	__u64 sec = 0, frac = 0;
	int digits = 0, nfrac = 0;

	for (; s < end && *s >= '0' && *s <= '9'; s++, digits++) {
		if (sec > 1844674406ULL)	/* ns past 2^64 */
			return -1;
		sec = sec * 10 + (*s - '0');
	}
	if (s < end && *s == '.')
		for (s++; s < end && *s >= '0' && *s <= '9'; s++, nfrac++) {
			if (nfrac == 9)
				return -1;
			frac = frac * 10 + (*s - '0');
		}
	if (s != end || (!digits && !nfrac))
		return -1;
	for (; nfrac < 9; nfrac++)
		frac *= 10;
	*ns = sec * 1000000000ULL + frac;
	return 0;
}

static void parse_gap(const char *arg, struct argp_state *state)
{
	const char *comma = strchr(arg, ',');
	struct cs_check_gap g;

	if (env.nr_gaps == MAX_GAPS)
		cs_usage_error(state, "--gap: at most %d", MAX_GAPS);
	if (!comma || parse_secs(arg, comma, &g.from_ns) ||
	    parse_secs(comma + 1, comma + strlen(comma), &g.to_ns) || g.from_ns > g.to_ns)
		cs_usage_error(state, "--gap '%s': want FROM,TO, seconds with up to 9 "
			       "decimals (e.g. 0.648112,0.652877), FROM <= TO", arg);
	env.gaps[env.nr_gaps++] = g;
}

/*
 * A --gap that holds no record's time, and none between two of them, is
 * a typo or another clock's: it would still excuse what is judged at the
 * trace's edges (before its first record, after its last). 0, or an
 * error said.
 */
static int gaps_in_trace(const struct cs_trace *t)
{
	__u64 first = ~0ULL, last = 0;
	size_t i;

	for (i = 0; i < t->nr_events; i++) {
		if (t->events[i].type == CS_REC_SNAPSHOT)
			continue;
		if (t->events[i].ts < first)
			first = t->events[i].ts;
		if (t->events[i].ts > last)
			last = t->events[i].ts;
	}
	for (i = 0; i < env.nr_gaps; i++) {
		const struct cs_check_gap *g = &env.gaps[i];

		if (first <= last && g->to_ns >= first && g->from_ns <= last)
			continue;
		warn("%s: error: --gap %llu.%09llu,%llu.%09llu: outside the trace's records "
		     "(%llu.%09llu to %llu.%09llu s in its clock)\n", env.cmd,
		     g->from_ns / 1000000000ULL, g->from_ns % 1000000000ULL,
		     g->to_ns / 1000000000ULL, g->to_ns % 1000000000ULL,
		     first <= last ? first / 1000000000ULL : 0,
		     first <= last ? first % 1000000000ULL : 0,
		     last / 1000000000ULL, last % 1000000000ULL);
		return -1;
	}
	return 0;
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'q':
		env.quiet = true;
		return 0;
	case OPT_GAP:
		parse_gap(arg, state);
		return 0;
	default:
		return cs_parse_file_arg(key, arg, state, &env.file);
	}
}

static const struct argp argp = {
	.options = opts,
	.parser = parse_arg,
	.args_doc = "FILE\n--tracefs [DIR]",
	.doc = doc,
};

int cmd_check(int argc, char **argv)
{
	char err[512], path[CS_SAFE_STR_LEN(512)];
	struct cs_check_stats s;
	struct cs_trace t;
	unsigned int dat_flags;
	bool tracedat;
	int rc;

	memset(&env, 0, sizeof(env));
	env.cmd = argv[0];
	cs_parse_args(&argp, argc, argv, &env);
	/* -q: the violations and errors only, no note of the input's */
	rc = cs_trace_read_input(env.cmd, env.file, env.quiet, &t, &tracedat, &dat_flags, err,
				 sizeof(err));
	if (rc) {
		warn("%s: error: %s: %s\n", env.cmd,
		     cs_safe_str(env.file, path, sizeof(path)), err);
		return rc;
	}
	/* the notes are informational: not with -q */
	if (!env.quiet && tracedat && (dat_flags & CS_TRACEDAT_STOCK))
		warn("%s: note: %s: upstream's notifier events name no chain and no block: "
		     "membership and order are not judged (%zu registration events), only "
		     "what needs neither\n", env.cmd, cs_safe_str(env.file, path, sizeof(path)),
		     nr_registrations(&t));
	else if (!env.quiet && tracedat && !has_snapshot(&t))
		warn("%s: note: %s: a trace.dat, text log or ring buffer has no membership "
		     "snapshot: membership "
		     "is seeded from the %zu registration events it holds\n", env.cmd,
		     cs_safe_str(env.file, path, sizeof(path)), nr_registrations(&t));
	if (!env.quiet && tracedat && nr_taskless(&t))
		warn("%s: note: %s: %zu events name no task (a console without printk caller "
		     "ids): one stream, in which passes that ran at once on several CPUs "
		     "interleave; they are paired by chain, val and call type, and what needs "
		     "the task is not judged on them (stray-event, begin-without-end, "
		     "missing-rollback, rollback; all rules of two passes of one chain and val "
		     "open at once)\n", env.cmd, cs_safe_str(env.file, path, sizeof(path)),
		     nr_taskless(&t));
	if (gaps_in_trace(&t)) {
		cs_trace_free(&t);
		return CS_EXIT_USAGE;
	}
	rc = cs_check_trace_gaps(&t, env.file, env.quiet, stdout, &s, env.gaps, env.nr_gaps);
	if (rc) {
		warn("%s: error: %s: %s\n", env.cmd,
		     cs_safe_str(env.file, path, sizeof(path)), strerror(-rc));
		rc = rc == -ENOMEM ? CHECK_EXIT_NOMEM : CS_EXIT_USAGE;
	} else {
		if ((t.lost || t.missed) && !s.loss_markers)
			warn("%s: warning: %llu events lost and %llu missed while "
			     "recording, with no loss markers to locate them: "
			     "violations above may be artifacts of that\n", env.cmd,
			     (unsigned long long)t.lost, (unsigned long long)t.missed);
		rc = s.violations ? CS_EXIT_ERROR : CS_EXIT_OK;
	}
	cs_trace_free(&t);
	return rc;
}
