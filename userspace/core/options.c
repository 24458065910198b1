// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* chainscope CLI: common options, argument parsing, units and chain kinds. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "chainscope.h"
#include "common.h"
#include "safestr.h"

enum {
	OPT_RAW_TP = 0x100,
	OPT_MODE,
};

/* record takes these too, not the rest: cs_startup_children */
static const struct argp_option startup_opts[] = {
	{ "verbose", 'v', NULL, 0, "Show libbpf debug output", 0 },
	{ "mode", OPT_MODE, "MODE", 0,
	  "Event source: auto (default: tracepoints if the kernel has ours, "
	  "else probes), tracepoints, probes", 0 },
	{},
};

static const struct argp_option common_opts[] = {
	{ "json", 'j', NULL, 0, "One JSON object per interval, one per line", 0 },
	CS_UNITS_OPTIONS,
	{ "raw-tp", OPT_RAW_TP, NULL, 0,
	  "Attach raw_tp programs even where tp_btf works", 0 },
	{},
};

void cs_common_init(struct cs_common *c, const char *cmd)
{
	memset(c, 0, sizeof(*c));
	c->cmd = cmd;
	c->units = CS_UNITS_US;
}

static const char *const mode_names[] = {
	[CS_MODE_AUTO] = "auto",
	[CS_MODE_TRACEPOINTS] = "tracepoints",
	[CS_MODE_PROBES] = "probes",
};

const char *cs_mode_name(int mode)
{
	if (mode < 0 || mode >= (int)(sizeof(mode_names) / sizeof(mode_names[0])))
		return "?";
	return mode_names[mode];
}

int cs_mode_parse(const char *s)
{
	int i;

	for (i = 0; i < (int)(sizeof(mode_names) / sizeof(mode_names[0])); i++)
		if (!strcmp(s, mode_names[i]))
			return i;
	return -1;
}

int cs_parse_units(const struct argp_state *state, int key, char *units_flag)
{
	if (*units_flag && *units_flag != key)
		cs_usage_error(state, "options -%c and -%c are mutually exclusive",
			       *units_flag, key);
	*units_flag = key;
	return key == 'n' ? CS_UNITS_NS : key == 'u' ? CS_UNITS_US : CS_UNITS_MS;
}

int cs_parse_num(const char *arg, long max, long *v)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (end == arg || *end)
		return -EINVAL;
	if (errno)
		return -EOVERFLOW;
	if (n <= 0 || n > max)
		return -ERANGE;
	*v = n;
	return 0;
}

static long parse_positive(const struct argp_state *state, const char *what,
			   const char *arg)
{
	long v = 0;
	int err = cs_parse_num(arg, INT_MAX, &v);

	/* past long's range is "not a number" here, "must be" in chains -w */
	if (err && err != -ERANGE)
		cs_usage_error(state, "invalid %s '%s': not a number", what, arg);
	if (err)
		cs_usage_error(state, "invalid %s '%s': must be 1..%d", what, arg,
			       INT_MAX);
	return v;
}

static error_t parse_startup(int key, char *arg, struct argp_state *state)
{
	struct cs_common *c = state->input;

	switch (key) {
	case 'v':
		c->verbose = true;	/* cs_mode_startup() sets libbpf up */
		return 0;
	case OPT_MODE:
		c->mode = cs_mode_parse(arg);
		if (c->mode < 0)
			cs_usage_error(state, "unknown --mode '%s' (auto, tracepoints, probes)",
				       arg);
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp startup_argp = {
	.options = startup_opts,
	.parser = parse_startup,
};

/*
 * No group and no header: argp merges the child's options into its
 * parent's list and sorts them together, so --help and --usage read as
 * if they were the parent's own.
 */
const struct argp_child cs_startup_children[] = {
	{ &startup_argp, 0, NULL, 0 },
	{},
};

static error_t parse_common(int key, char *arg, struct argp_state *state)
{
	struct cs_common *c = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		/*
		 * getopt already reports a bad option in one line; argp's
		 * extra "Try --help" line goes nowhere, and argp_parse()
		 * returns the error to cs_parse_args() instead of exiting.
		 */
		state->err_stream = NULL;
		state->child_inputs[0] = c;	/* -v and --mode: startup_argp */
		return 0;
	case 'j':
		c->json = true;
		return 0;
	case OPT_RAW_TP:
		c->raw_tp = true;
		return 0;
	case 'n':
	case 'u':
	case 'm':
		c->units = cs_parse_units(state, key, &c->units_flag);
		return 0;
	case ARGP_KEY_ARG:
		if (c->nr_args == 0)
			c->interval = parse_positive(state, "interval", arg);
		else if (c->nr_args == 1)
			c->count = parse_positive(state, "count", arg);
		else
			cs_usage_error(state, "unexpected argument '%s'", arg);
		c->nr_args++;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

const struct argp cs_common_argp = {
	.options = common_opts,
	.parser = parse_common,
	.children = cs_startup_children,
};

const struct argp_child cs_common_children[] = {
	{ &cs_common_argp, 0, "Common options:", 0 },
	{},
};

int cs_parse_args(const struct argp *argp, int argc, char **argv, void *input)
{
	int err;

	err = argp_parse(argp, argc, argv, 0, NULL, input);
	if (err) {
		/* getopt printed the reason (unknown option, missing argument) */
		exit(CS_EXIT_USAGE);
	}
	return 0;
}

const char *cs_units_name(int units)
{
	return cs_unit(units)->name;
}

const char *cs_units_suffix(int units)
{
	return cs_unit(units)->suffix;
}

unsigned long long cs_ns_to_units(__u64 ns, int units)
{
	return ns / cs_unit(units)->ns;
}

static const char *const kind_names[] = { "raw", "atomic", "blocking", "srcu" };

const char *cs_kind_name(int kind)
{
	if (kind < 0 || kind >= (int)(sizeof(kind_names) / sizeof(kind_names[0])))
		return "?";
	return kind_names[kind];
}

int cs_kind_parse(const char *s)
{
	int i;

	for (i = 0; i < (int)(sizeof(kind_names) / sizeof(kind_names[0])); i++)
		if (!strcmp(s, kind_names[i]))
			return i;
	return -1;
}
