// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* What the commands that read a trace file share: see trace_cli.h. */
#include <errno.h>

#include "callback_row.h"
#include "chainscope.h"
#include "trace_cli.h"
#include "tracefile.h"

static bool console_input, salvage, tracefs_input;
static const char *tracefs_dir;

bool cs_trace_console_input(void)
{
	return console_input;
}

bool cs_trace_tracefs_input(void)
{
	return tracefs_input;
}

error_t cs_parse_file_arg(int key, char *arg, struct argp_state *state,
			  const char **file)
{
	switch (key) {
	case ARGP_KEY_INIT:
		state->err_stream = NULL;	/* as in parse_common() */
		return 0;
	case CS_OPT_SALVAGE:
		cs_trace_set_default_flags(CS_TRACE_SALVAGE);
		salvage = true;
		return 0;
	case CS_OPT_CONSOLE:
		console_input = true;
		return 0;
	case CS_OPT_TRACEFS:
		if (arg && !*arg)
			cs_usage_error(state, "empty --tracefs directory");
		if (tracefs_input)
			cs_usage_error(state, "--tracefs given twice");
		tracefs_input = true;
		tracefs_dir = arg;
		return 0;
	case ARGP_KEY_ARG:
		if (*file)
			cs_usage_error(state, "unexpected argument '%s'", arg);
		*file = arg;
		return 0;
	case ARGP_KEY_END:
		if (tracefs_input) {
			if (salvage || console_input)
				cs_usage_error(state, "--tracefs reads the ring buffer, not a "
					       "FILE (no --salvage, no --console)");
			if (tracefs_dir && *file)
				cs_usage_error(state, "--tracefs=DIR and a FILE argument: give one");
			if (!*file)
				*file = tracefs_dir ? tracefs_dir : CS_TRACEFS_DEFAULT;
			return 0;
		}
		if (!*file)
			cs_usage_error(state, "no trace file given (or --tracefs)");
		if (console_input && salvage)
			cs_usage_error(state, "--salvage reads a .cstrace, not --console text");
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

void cs_sym_from_trace(struct cs_sym *s, const struct cs_trace *t, __u64 addr)
{
	const struct cs_trace_sym *ts = cs_trace_sym_find(t, addr);

	s->addr = addr;
	s->name = ts ? ts->name : NULL;
	s->off = 0;		/* a snapshot's names carry their "+0x.." */
	s->module = ts ? ts->module : NULL;
}
