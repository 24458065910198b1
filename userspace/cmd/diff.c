// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope diff: compare two JSON results (latency -j, report -j) per
 * (chain, callback) and gate on a budget. The command line is here; the
 * reader is diff_input.c, the rules and the verdict diff_rules.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "chainscope.h"
#include "diff.h"
#include "safestr.h"

/* a path in our messages: escaped, so it cannot forge an output line */
#define PATH_ESC_LEN CS_SAFE_STR_LEN(4096)

static struct env {
	const char *cmd;
	const char *base, *new;
	const char *budget;
	bool all;
} env;

static const struct argp_option opts[] = {
	{ "budget", 'b', "RULES", 0, "Budget rules (default: 'default', that is "
	  CS_DIFF_DEFAULT " and the guards)", 0 },
	{ "all", 'a', NULL, 0, "Print every row, not only changed ones", 0 },
	{},
};

static const char doc[] =
"Compare two JSON results of 'chainscope latency -j' or 'chainscope\n"
"report -j' per row: count, p50, p99, max.\n"
"\n"
"A row is what latency and report print as one: (chain, callback, val)\n"
"and, when the file has them, the addresses they key rows by (chain_addr,\n"
"callback_addr, nb_addr). One callback registered through two blocks is\n"
"two rows, printed as 'callback [nb=BLOCK]' (BLOCK its symbol or 0x\n"
"address); two functions of one name print as 'callback [cb=0xADDR]'.\n"
"Addresses change from boot to boot: rows left without a partner pair by\n"
"the block's symbol, or when a (chain, callback) has one row left in each\n"
"file; otherwise they are gone and new.\n"
"\n"
"A file is a stream of JSON objects, one per line or pretty-printed (e.g.\n"
"through python3 -m json.tool). Several objects (latency -j with an\n"
"interval) are summed: counts and histograms added, max the largest,\n"
"p50/p99 estimated again from the summed histogram, loss counters added.\n"
"Every object must have the same type and units, and both files the same\n"
"units. Bad input is an error naming the file, the object and the JSON\n"
"path: invalid or truncated JSON, trailing garbage, a key twice in one\n"
"object, a row twice in one object, a missing field, a wrong type, a\n"
"negative or fractional count, unknown units, and numbers that contradict\n"
"the histogram: count must be the histogram's calls plus untimed, max\n"
"must be max_ns in the units and at least the highest non-empty bucket's\n"
"start, and p50/p99, when given, must lie in the bucket of their rank\n"
"(and not above max). The loss counters the producer writes are required:\n"
"latency -j dropped, failed, missed; report -j lost, missed.\n"
"\n"
"RULES is a comma-separated list, read left to right; a later rule for\n"
"the same metric replaces an earlier one. A row breaks the budget if any\n"
"rule applies to it:\n"
"  METRIC:+N%     METRIC in NEW is more than N percent above BASE (a BASE\n"
"                 of 0 and any increase breaks it)\n"
"  METRIC:+N      METRIC in NEW is more than N above BASE, N in the units\n"
"                 of the files, or with a unit: METRIC:+500us (ns, us, ms)\n"
"                 METRIC: count, p50, p99, max; N: digits[.digits]\n"
"  min-count:N    p50/p99/max rules skip rows with fewer than N calls in\n"
"                 either file\n"
"  new-callback   a (chain, callback) in NEW that BASE does not have\n"
"  new-veto       a callback that never vetoed in BASE returned NOTIFY_STOP,\n"
"                 NOTIFY_BAD or an errno in NEW (stop+bad+errno went from 0)\n"
"  default        " CS_DIFF_DEFAULT "\n"
"Guards, on in every budget unless turned off:\n"
"  gone-callback  a (chain, callback) in BASE that NEW does not have\n"
"  no-callbacks   NEW has no callbacks at all\n"
"  lost-events    NEW lost events: a top-level counter lost*, missed*,\n"
"                 dropped* or failed is not 0 (latency -j: dropped, failed,\n"
"                 missed; report -j: lost, missed)\n"
"Turning a rule off:\n"
"  -RULE          RULE is a named rule above, a METRIC or min-count,\n"
"                 e.g. 'default,-lost-events'\n"
"An empty list, an empty or unknown rule, a malformed or negative number,\n"
"an unknown unit or a budget with no rule left is a usage error.\n"
"Each FAIL row names the rules it broke; the last line names every rule\n"
"that fired.\n"
"\v"
"Exit status: 0 within budget, 1 budget exceeded (FAIL lines), 2 usage\n"
"error, bad budget or unreadable/invalid input.\n"
"\n"
"Examples:\n"
"  chainscope diff base.json new.json\n"
"  chainscope diff --budget 'p99:+10%,max:+500us,new-callback,min-count:20' a b\n"
"  chainscope diff --budget 'default,-lost-events' base.json new.json\n"
"  chainscope latency -j 10 6 > new.json     # six 10 s intervals, summed\n";

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case ARGP_KEY_INIT:
		state->err_stream = NULL;
		return 0;
	case 'b':
		env.budget = arg;
		return 0;
	case 'a':
		env.all = true;
		return 0;
	case ARGP_KEY_ARG:
		if (!env.base)
			env.base = arg;
		else if (!env.new)
			env.new = arg;
		else
			cs_usage_error(state, "unexpected argument '%s'", arg);
		return 0;
	case ARGP_KEY_END:
		if (!env.new)
			cs_usage_error(state, "need two files: BASE NEW");
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp argp = {
	.options = opts,
	.parser = parse_arg,
	.args_doc = "BASE NEW",
	.doc = doc,
};

/*
 * The input is named by its escaped path: every error and verdict line
 * that names the file prints that name.
 */
static struct cs_diff_input *load(const char *path, char *err, size_t errlen)
{
	static char name[PATH_ESC_LEN];
	struct cs_diff_input *in;
	FILE *f;

	cs_safe_str(path, name, sizeof(name));
	in = cs_diff_input_new(name);
	if (!in) {
		snprintf(err, errlen, "%s: out of memory", name);
		return NULL;
	}
	f = fopen(path, "re");
	if (!f) {
		snprintf(err, errlen, "%s: cannot open: %s", name, strerror(errno));
		cs_diff_input_free(in);
		return NULL;
	}
	if (cs_diff_input_read(in, f, err, errlen)) {
		cs_diff_input_free(in);
		in = NULL;
	}
	fclose(f);
	return in;
}

int cmd_diff(int argc, char **argv)
{
	struct cs_diff_input *base = NULL, *new = NULL;
	struct cs_diff_budget bu;
	char err[1024 + PATH_ESC_LEN];
	int rc = CS_EXIT_USAGE;

	memset(&env, 0, sizeof(env));
	env.cmd = argv[0];
	env.budget = "default";
	cs_parse_args(&argp, argc, argv, &env);
	if (cs_diff_parse_budget(env.budget, &bu, err, sizeof(err))) {
		warn("%s: error: %s\n", env.cmd, err);
		return CS_EXIT_USAGE;
	}
	base = load(env.base, err, sizeof(err));
	if (base)
		new = load(env.new, err, sizeof(err));
	if (new)
		rc = cs_diff_compare(&bu, base, new, env.all, stdout, err, sizeof(err));
	if (rc == CS_EXIT_USAGE)
		warn("%s: error: %s\n", env.cmd, err);
	cs_diff_input_free(base);
	cs_diff_input_free(new);
	return rc;
}
