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
#include "tracefile.h"

static struct env {
	const char *cmd;
	const char *file;
	bool quiet;
} env;

static const struct argp_option opts[] = {
	{ "quiet", 'q', NULL, 0, "Only the violations, no summary lines", 0 },
	CS_SALVAGE_OPTION,
	{},
};

static const char doc[] =
"Check a trace file (chainscope record) against the notifier chain rules.\n"
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
"                        depth, by its rollback pass (also at the end of\n"
"                        the trace)\n"
"  rollback              a rollback pass follows a stopped robust pass of\n"
"                        its chain, with nr_to_call = nr_calls - 1, and\n"
"                        ran exactly its first nr-1 callbacks, in order\n"
"                        (fewer if a val_down callback stopped it)\n"
"  run-after-unregister  no block ran in a pass that began after its\n"
"                        notifier_unregister, unless its next membership\n"
"                        event registers it again (judged then, or at the\n"
"                        end of the trace)\n"
"  membership-register   notifier_register of a block registered in the\n"
"                        trace and still on the chain\n"
"  membership-unregister notifier_unregister of a block not on the chain\n"
"  membership-eexist     register_error -EEXIST for a block not on the chain\n"
"  membership-enoent     unregister_error -ENOENT for a block on the chain\n"
"\n"
"Ordering: notifier_register fires after the block is published, and\n"
"notifier_unregister before the grace period ends. So a block may run\n"
"before its notifier_register event, and after its notifier_unregister\n"
"event in a pass that began before it: neither is a violation.\n"
"Membership is known only from events in the trace; blocks registered\n"
"before recording started are not judged.\n"
"\n"
"Orphans: a run, return, stop or call_end whose pass has no call_begin in\n"
"the trace (it began before recording, or the recorder was detaching) is\n"
"counted as an orphan, never paired with another pass.\n"
"\n"
"Gaps: loss markers in the trace (version 2: where, per CPU, the recorder\n"
"lost events) suspend the pairing rules (begin-without-end, nr-calls,\n"
"nr-to-call, end-ret, stop-event, missing-rollback, rollback, orphan\n"
"counting) for the passes of a task whose CPU lost events while they were\n"
"open; the summary counts them. A trace with lost events but no markers\n"
"(version 1) is checked as it is, with a warning.\n"
"\n"
"Events are numbered from 0 in file order. Output: one line per violation,\n"
"\"event N: chain C: callback F: rule R: detail\", then the summary.\n"
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

int cmd_check(int argc, char **argv)
{
	struct cs_check_stats s;
	struct cs_trace t;
	char err[512];
	int rc;

	memset(&env, 0, sizeof(env));
	env.cmd = argv[0];
	cs_parse_args(&argp, argc, argv, &env);
	if (cs_trace_read(env.file, &t, err, sizeof(err))) {
		warn("%s: error: %s: %s\n", env.cmd, env.file, err);
		return CS_EXIT_USAGE;
	}
	rc = cs_check_trace(&t, env.file, env.quiet, stdout, &s);
	if (rc) {
		warn("%s: error: %s\n", env.cmd, strerror(-rc));
		rc = CS_EXIT_ERROR;
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
