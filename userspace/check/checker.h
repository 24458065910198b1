/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * chainscope check, the rules: a parsed trace in, violation lines and a
 * summary out. No exit(), no libbpf, no argp: `chainscope check`
 * (check.c) and the fuzz target (tests/fuzz/fuzz_check.c) both call it.
 */
#ifndef CHAINSCOPE_CHECKER_H
#define CHAINSCOPE_CHECKER_H

#include <stdbool.h>
#include <stdio.h>

#include "tracefile.h"

struct cs_check_stats {
	unsigned long long events;
	unsigned long long passes;	/* passes that ended, judged */
	unsigned long long violations;
	unsigned long long open_passes;	/* still open when the trace ends */
	/* stopped robust passes whose rollback the trace ends before */
	unsigned long long open_rollbacks;
	unsigned long long stray_events;	/* events no open pass can explain */
	/* events of passes whose call_begin is not in the trace */
	unsigned long long orphan_runs, orphan_returns, orphan_stops, orphan_ends;
	unsigned long long loss_markers;	/* CS_REC_LOSS records */
	unsigned long long lost_events;		/* the sum of their counts */
	unsigned long long gap_passes;	/* passes whose pairing rules a gap suspended */
	unsigned long long gap_orphans;	/* orphan events put down to a gap */
	/* chains whose membership at start a snapshot gave (CS_REC_SNAPSHOT) */
	unsigned long long snapshots, snapshots_unstable;
	unsigned long long snapshot_records, snapshot_blocks;
	/* rules not judged: the chain's snapshot was unstable */
	unsigned long long snap_unknown;
	/* events that name no task (CS_TRACE_TASK_NONE: a console without caller ids) */
	unsigned long long anon_events;
	/* passes of those not judged: another of their chain and val was open with them */
	unsigned long long shared_passes;
	/*
	 * early history missing: chains (without a snapshot) on which blocks
	 * ran whose notifier_register is not in the trace (registered before
	 * tracing was up, as in a boot-time buffer); rules not judged for it
	 */
	unsigned long long early_chains, early_unknown;
};

/*
 * A stretch of the trace's time, [from_ns, to_ns] in its clock, in which
 * events may be missing though no loss marker says so: e.g. the kernel
 * switching the command line's events off and on again at early_initcall
 * (trace_event=), or a tracer reconfigured while it ran. It is a gap
 * like a loss marker's, on every CPU.
 */
struct cs_check_gap {
	__u64 from_ns, to_ns;
};

/*
 * Check trace t and print one line per violation to out, then (unless
 * quiet) the summary lines, naming the trace `name`. Fills *stats.
 * Returns 0, or -ENOMEM (the output is then incomplete).
 */
int cs_check_trace(const struct cs_trace *t, const char *name, bool quiet,
		   FILE *out, struct cs_check_stats *stats);
/* The same, with nr_gaps stretches given (check --gap) */
int cs_check_trace_gaps(const struct cs_trace *t, const char *name, bool quiet, FILE *out,
			struct cs_check_stats *stats, const struct cs_check_gap *gaps,
			size_t nr_gaps);

#endif /* CHAINSCOPE_CHECKER_H */
