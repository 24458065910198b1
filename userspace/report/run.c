// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope report on a parsed trace, without exiting: what the
 * command (cmd/report.c), serve --trace (its exposition) and the fuzz
 * targets run.
 */
#include <errno.h>
#include <string.h>

#include "chainscope.h"
#include "report_int.h"
#include "tracefile.h"

/* --perfetto or --folded into f, if asked for; one message on failure */
static int export(struct report *r, const char *what, FILE *f, const char *path)
{
	int err;

	if (!f)
		return 0;
	err = !strcmp(what, "perfetto") ? cs_report_perfetto(f, r->t, r->o->file) :
	      cs_report_folded(f, r->t, r->o->folded_calls);
	if (!err && fflush(f))
		err = errno ? -errno : -EIO;
	if (!err)
		return 0;
	fprintf(r->err, "%s: error: %s ", r->o->cmd, err == -ENOMEM ? "out of memory for" :
		"cannot write");
	cs_report_put_path(r->err, path);
	fprintf(r->err, " (--%s)%s%s\n", what, err == -ENOMEM ? "" : ": ",
		err == -ENOMEM ? "" : strerror(-err));
	return err;
}

int cs_report_run(const struct cs_trace *t, const struct cs_report_opts *o,
		  FILE *out, FILE *err)
{
	struct report r = { .t = t, .o = o, .out = out, .err = err };
	int rc = CS_EXIT_OK;

	if (cs_report_aggregate(&r)) {
		fprintf(err, "%s: error: out of memory\n", o->cmd);
		rc = CS_EXIT_ERROR;
		goto out;
	}
	if (o->quiet) {
		;
	} else if (o->passes) {
		int perr = cs_report_passes(out, t, o);

		if (perr) {
			fprintf(err, "%s: error: %s (--passes)\n", o->cmd,
				perr == -ENOMEM ? "out of memory" : "cannot write the report");
			rc = CS_EXIT_ERROR;
			goto out;
		}
	} else if (o->openmetrics) {
		if (cs_report_print_openmetrics(&r)) {
			fprintf(err, "%s: error: out of memory\n", o->cmd);
			rc = CS_EXIT_ERROR;
			goto out;
		}
	} else if (o->json ? cs_report_print_json(&r) : cs_report_print_text(&r)) {
		fprintf(err, "%s: error: out of memory (--boot)\n", o->cmd);
		rc = CS_EXIT_ERROR;
		goto out;
	}
	fflush(out);
	if (export(&r, "perfetto", o->perfetto, o->perfetto_path) ||
	    export(&r, "folded", o->folded, o->folded_path)) {
		rc = CS_EXIT_ERROR;
		goto out;
	}
	if (o->svg_dirfd >= 0 && cs_report_svg_files(&r))
		rc = CS_EXIT_ERROR;
out:
	cs_report_rows_free(&r);
	cs_report_svg_free(&r);
	return rc;
}
