// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope record: every notifier event into a trace file
 * (userspace/trace/tracefile.h), through the ring buffer of bpf/record.bpf.c.
 *
 * The command: its options, the steps of a recording and its summary.
 * The events into the file: live/record_events.c; the programs loaded,
 * attached and stopped: live/record_prog.c; the snapshots and symbols:
 * live/record_snap.c, live/record_syms.c.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <bpf/libbpf.h>

#include "chainscope.h"
#include "live.h"
#include "chain_walk.h"
#include "probes.h"
#include "record.h"
#include "record.skel.h"
#include "record_events.h"
#include "record_prog.h"
#include "record_snap.h"
#include "record_syms.h"
#include "safestr.h"
#include "symname.h"
#include "outfile.h"
#include "tracefile.h"

#define CS_REC_MAX_CHAINS 16

static struct env {
	const char *cmd;
	const char *output;
	long duration;		/* -d seconds, 0: none */
	long buf_mib;		/* -b */
	int wakeup_pct;		/* --wakeup */
	struct cs_common c;	/* -v and --mode only (cs_startup_children) */
	bool force;		/* --force: -o through a link, or another user's */
	char *chains[CS_REC_MAX_CHAINS];	/* -c, a ":KIND" suffix cut off */
	int kinds[CS_REC_MAX_CHAINS];		/* its kind, CS_KIND_ANY: -k's */
	int nr_chains;
	int kind;		/* -k, CS_KIND_ANY if none */
	char **command;		/* after "--" */
} env;

enum { OPT_FORCE = 0x100, OPT_WAKEUP };

static const struct argp_option opts[] = {
	{ "output", 'o', "FILE", 0, "Write the trace to FILE (required; a new file is 0600)", 0 },
	{ "force", OPT_FORCE, NULL, 0,
	  "Write FILE even if it is a symbolic link, another user's file or a file "
	  "with other hard links", 0 },
	{ "duration", 'd', "SECONDS", 0, "Stop after SECONDS", 0 },
	{ "buffer-size", 'b', "MIB", 0, "Ring buffer size in MiB, a power of two (default 16)", 0 },
	{ "wakeup", OPT_WAKEUP, "PERCENT", 0,
	  "Wake the reader once the ring buffer is PERCENT full, else drain it at least "
	  "every 100 ms; "
	  "0 wakes it at every record, at the cost of an irq_work per event on the traced "
	  "CPU (0..90, default 25)", 0 },
	{ "chain", 'c', "CHAIN[:KIND]", 0,
	  "probes mode: watch CHAIN (SYMBOL, MODULE:SYMBOL or 0xADDR) of KIND from the start, "
	  "its callbacks attached before recording begins (repeatable, up to 16)", 0 },
	{ "kind", 'k', "KIND", 0,
	  "The kind of the -c chains without one: raw, atomic, blocking, srcu", 0 },
	{},
};

static const char doc[] =
"Record every notifier event into a trace file.\n"
"\n"
"All ten notifier tracepoints go through a BPF ring buffer into FILE:\n"
"a header (kernel release, boot id, CLOCK_MONOTONIC), fixed-size\n"
"records, and a trailer with the events lost in the ring buffer and the\n"
"symbols of the chains and callbacks seen. Where events were lost, a\n"
"loss record in the stream says how many, on which CPU and why. What is\n"
"on each well-known chain is walked at start (and a chain first seen in an\n"
"event, when it is seen) and stored as snapshot records, so that 'check'\n"
"knows the chains' membership and order from then on. FILE is\n"
"opened first: if it cannot be created, nothing else happens (exit 6).\n"
"Recording ends on Ctrl-C, when -d expires, or when COMMAND exits; the\n"
"file is complete then (one cut short reads with --salvage). Read it\n"
"with 'chainscope report', 'chainscope check'.\n"
"\n"
"Modes (--mode): tracepoints records our core's ten notifier tracepoints.\n"
"probes records the same events on any kernel from fentry/fexit on the\n"
"exported chain API and kprobe.multi on the callbacks of the chains it\n"
"watches: a chain is watched from its first call or registration (or from\n"
"the start with -c), and its passes are recorded once its callbacks are\n"
"attached (those before are counted and reported, not recorded). What\n"
"probes mode cannot see: chains never called or registered through the\n"
"API while recording, callbacks that cannot be traced (notrace,\n"
"inlined), calls that bypass the exported API, lock waits, nr_to_call of\n"
"plain passes (-1); callback times include the probes' overhead. The\n"
"trace file's header says which mode wrote it.\n"
"\v"
CS_EXIT_DOC
"\n"
"record also exits 6 when FILE cannot be created or exists and is not a\n"
"regular file (a FIFO or a device), or, without --force, is a symbolic\n"
"link, another user's file or a file with other hard links; and 7 when the kernel BTF does not\n"
"locate the per-CPU preempt count (__preempt_count or pcpu_hot, and\n"
"this_cpu_off): no execution context for the events.\n"
"\n"
"Examples:\n"
"  chainscope record -o n.cstrace                # until Ctrl-C\n"
"  chainscope record -o n.cstrace -d 10           # 10 seconds\n"
"  chainscope record -o n.cstrace -- modprobe foo # while foo loads\n";

static long parse_num(const struct argp_state *state, const char *what,
		      const char *arg, long max)
{
	long v = 0;

	/* one message for every way it fails, as record always said */
	if (cs_parse_num(arg, max, &v))
		cs_usage_error(state, "invalid %s '%s': must be 1..%ld", what, arg, max);
	return v;
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	int i;

	switch (key) {
	case ARGP_KEY_INIT:
		state->err_stream = NULL;	/* one-line errors, as elsewhere */
		state->child_inputs[0] = &env.c;
		return 0;
	case 'o':
		env.output = arg;
		return 0;
	case 'd':
		env.duration = parse_num(state, "duration", arg, INT_MAX);
		return 0;
	case 'b':
		env.buf_mib = parse_num(state, "buffer size", arg, 1024);
		if (env.buf_mib & (env.buf_mib - 1))
			cs_usage_error(state, "invalid buffer size '%s': not a power of two",
				       arg);
		return 0;
	case OPT_FORCE:
		env.force = true;
		return 0;
	case OPT_WAKEUP: {
		long v = 0;

		/* all zeros is 0; anything else a number 1..90 */
		if ((!*arg || arg[strspn(arg, "0")]) && cs_parse_num(arg, 90, &v))
			cs_usage_error(state, "invalid wakeup percentage '%s': must be 0..90",
				       arg);
		env.wakeup_pct = v;
		return 0;
	}
	case 'c': {
		/* [MODULE:]SYMBOL or 0xADDR, then :KIND if the last part is a kind */
		char *kind = strrchr(arg, ':');

		if (env.nr_chains == CS_REC_MAX_CHAINS)
			cs_usage_error(state, "more than %d -c chains", CS_REC_MAX_CHAINS);
		env.kinds[env.nr_chains] = CS_KIND_ANY;
		if (kind && cs_kind_parse(kind + 1) >= 0) {
			env.kinds[env.nr_chains] = cs_kind_parse(kind + 1);
			*kind = '\0';
		}
		if (!*arg)
			cs_usage_error(state, "empty -c CHAIN");
		env.chains[env.nr_chains++] = arg;
		return 0;
	}
	case 'k':
		env.kind = cs_kind_parse(arg);
		if (env.kind < 0)
			cs_usage_error(state, "unknown kind '%s' (raw, atomic, blocking, srcu)",
				       arg);
		return 0;
	case ARGP_KEY_ARG:
		cs_usage_error(state, "unexpected argument '%s' (a command goes after "
			       "'--')", arg);
	case ARGP_KEY_END:
		if (!env.output)
			cs_usage_error(state, "no output file (-o FILE)");
		if (env.kind != CS_KIND_ANY && !env.nr_chains)
			cs_usage_error(state, "-k KIND needs -c CHAIN");
		for (i = 0; i < env.nr_chains; i++)
			if (env.kinds[i] == CS_KIND_ANY && env.kind == CS_KIND_ANY)
				cs_usage_error(state, "-c %s: no kind (-c CHAIN:KIND or -k KIND; "
					       "KIND: raw, atomic, blocking, srcu)",
					       env.chains[i]);
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp argp = {
	.options = opts,
	.parser = parse_arg,
	.args_doc = "[-- COMMAND [ARG...]]",
	.doc = doc,
	.children = cs_startup_children,
};

/* --- recording ---------------------------------------------------------------- */

/* One recording: what its steps share, and what its end frees. */
struct rec_run {
	struct record_bpf *skel;
	struct ring_buffer *rb;
	struct cs_pm *pm;		/* probes mode */
	struct cs_common c;
	__u64 heads[CS_REC_MAX_CHAINS];	/* the -c chains' */
	int kinds[CS_REC_MAX_CHAINS];
	bool probes;
	struct ksyms *ks_start, *ks_end;
	struct cs_trace_sym *syms;	/* the trailer's */
	size_t nsyms;
	struct rec_ctx rc;
	struct rec_snap_stats snap_st;
	char why[128];			/* why recording ended */
	char out_name[CS_SAFE_STR_LEN(1024)];	/* -o, as shown */
	__u64 deadline;			/* -d, in rec_mono_ns(); 0: none */
	pid_t child;			/* COMMAND while it runs */
};

static pid_t start_command(char **argv)
{
	pid_t pid = fork();

	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "%s: error: cannot run %s: %s\n", env.cmd, argv[0],
			strerror(errno));
		_exit(127);
	}
	return pid;
}

/*
 * The snapshots at start: the -c chains, or the curated table without
 * -c. 0 or -errno.
 */
static int snap_start(struct rec_ctx *rc, const __u64 *heads, const int *kinds)
{
	struct cs_chain *want = NULL;
	int i, err;

	if (env.nr_chains) {
		want = calloc(env.nr_chains, sizeof(*want));
		if (!want)
			return -ENOMEM;
	}
	for (i = 0; i < env.nr_chains; i++) {
		want[i].head = heads[i];
		want[i].kind = kinds[i] == CS_KIND_ANY ? CS_CHAIN_KIND_UNKNOWN : kinds[i];
		snprintf(want[i].name, sizeof(want[i].name), "%s", env.chains[i]);
	}
	err = rec_snap_start(rc->snap, rc->w, want, env.nr_chains);
	free(want);
	return err;
}

/* Our options are those before "--"; 0 or CS_EXIT_USAGE (said). */
static int parse_command_line(int argc, char **argv)
{
	int own_argc = argc, i;

	memset(&env, 0, sizeof(env));
	env.cmd = argv[0];
	env.kind = CS_KIND_ANY;
	env.wakeup_pct = 25;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			own_argc = i;
			if (i + 1 < argc)
				env.command = argv + i + 1;
			break;
		}
	}
	if (own_argc < argc && !env.command) {
		warn("%s: error: no command after '--' (see '%s --help')\n", env.cmd,
		     env.cmd);
		return CS_EXIT_USAGE;
	}
	cs_parse_args(&argp, own_argc, argv, &env);
	return 0;
}

/*
 * Privileges, BTF, then the mode: tracepoints if the kernel has ours; the
 * -c chains resolved. CS_EXIT_OK or an exit code, said.
 */
static int rec_startup(struct rec_run *r)
{
	static const struct cs_tp tps[] = {
		{ "notifier_register", 5 },
		{ "notifier_unregister", 5 },
		{ "notifier_register_error", 6 },
		{ "notifier_unregister_error", 6 },
		{ "notifier_run", 7 },
		{ "notifier_return", 7 },
		{ "notifier_call_begin", 7 },
		{ "notifier_call_end", 7 },
	};
	size_t i;
	int err;

	cs_common_init(&r->c, env.cmd);
	r->c.mode = env.c.mode;
	r->c.verbose = env.c.verbose;
	err = cs_mode_startup(&r->c, tps, sizeof(tps) / sizeof(tps[0]), true);
	if (err)
		return err;
	r->probes = r->c.mode == CS_MODE_PROBES;
	/*
	 * Each event's execution context comes from the kernel's per-CPU
	 * preempt count (bpf/exec_ctx.bpf.h). Without it every event would
	 * read as task context, and check would nest an interrupt's pass in
	 * the task's: refuse, as latency -C does.
	 */
	if (!cs_btf_has_preempt_count()) {
		warn("%s: error: record needs the kernel's per-CPU preempt count "
		     "(__preempt_count or pcpu_hot, and this_cpu_off), which its BTF does "
		     "not locate: "
		     "cannot tell interrupt from task context\n", env.cmd);
		return CS_EXIT_NO_CTX;
	}
	r->ks_start = cs_load_ksyms(env.cmd);
	if (!r->ks_start)
		return CS_EXIT_ERROR;
	for (i = 0; i < (size_t)env.nr_chains; i++) {
		err = cs_resolve(env.cmd, r->ks_start, "chain", env.chains[i], &r->heads[i]);
		if (err)
			return err;
		r->kinds[i] = env.kinds[i] == CS_KIND_ANY ? env.kind : env.kinds[i];
	}
	return CS_EXIT_OK;
}

/* The programs loaded, the chain walker, the ring buffer; as rec_startup() */
static int rec_open(struct rec_run *r)
{
	int err;

	if (r->probes) {
		err = cs_pm_features(env.cmd);
		if (err)
			return err;
	}
	err = rec_prog_load(&r->skel, env.cmd, env.c.verbose, r->probes, env.buf_mib,
			    env.wakeup_pct, r->ks_start, r->heads, r->kinds, env.nr_chains);
	if (err)
		return err;
	/* the chain walker, for the snapshots (without it: none, and a warning) */
	r->rc.snap = rec_snap_open(env.cmd, r->ks_start, env.c.verbose, cs_rec_seen_add);
	r->rb = ring_buffer__new(bpf_map__fd(r->skel->maps.events), rec_handle_event, &r->rc,
				 NULL);
	if (!r->rb) {
		warn("%s: error: failed to create ring buffer: %s\n", env.cmd, strerror(errno));
		return CS_EXIT_ERROR;
	}
	return CS_EXIT_OK;
}

/* The file's header, then the programs attached; as rec_startup() */
static int rec_begin(struct rec_run *r)
{
	int err;

	err = cs_rec_begin(r->rc.w, env.cmd, r->probes);
	if (err) {
		warn("%s: error: writing %s: %s\n", env.cmd, r->out_name, strerror(-err));
		return CS_EXIT_OUTPUT;
	}
	if (r->probes) {
		/*
		 * The API programs, then the callbacks of the -c chains; a
		 * pass is recorded once its chain's callbacks are attached
		 * (bpf/record.bpf.c), so attach order does not matter here.
		 */
		struct cs_pm_opts o = {
			.cmd = env.cmd, .verbose = env.c.verbose, .only_kind = CS_KIND_ANY,
			.heads = r->heads, .kinds = r->kinds, .nr_heads = env.nr_chains,
			.known_heads = true,
		};

		r->pm = cs_pm_start(r->skel->obj, r->ks_start, &o);
		if (!r->pm)
			return CS_EXIT_ERROR;
		return rec_prog_attach_locks(r->skel, env.cmd);
	}
	return rec_prog_attach_tracepoints(r->skel, env.cmd);
}

/* Ctrl-C, the banner, -d's deadline, COMMAND; CS_EXIT_OK or CS_EXIT_ERROR */
static int rec_go(struct rec_run *r)
{
	cs_setup_signals();
	warn("Tracing notifier events into %s (mode %s: %s)... %s\n", r->out_name,
	     cs_mode_name(r->c.mode), r->probes ? "fentry/fexit on the chain API, "
	     "kprobe.multi on the callbacks, lock:contention_* on the chain locks" :
	     "tp_btf programs, lock:contention_* on the chain locks",
	     env.command ? "Until the command exits or Ctrl-C." :
	     env.duration ? "Until -d expires or Ctrl-C." : "Hit Ctrl-C to end.");
	if (env.duration)
		r->deadline = rec_mono_ns() + (__u64)env.duration * 1000000000ULL;
	if (env.command) {
		r->child = start_command(env.command);
		if (r->child < 0) {
			warn("%s: error: fork: %s\n", env.cmd, strerror(errno));
			return CS_EXIT_ERROR;
		}
	}
	return CS_EXIT_OK;
}

/*
 * Up to 100 ms for the ring (or probes mode's messages), then take what
 * the ring holds; what ring_buffer__consume() returns. Records come
 * without a wakeup until the ring is --wakeup percent full, and then one
 * wakes us (record.bpf.c: rec_commit()), so the timeout is what drains it
 * at a modest rate, and a wait that ends on a signal or a timeout
 * consumes too. New chains of probes mode wake it at once (their
 * callbacks are attached the sooner).
 */
static int rec_wait(struct rec_run *r)
{
	struct pollfd fds[2] = {
		{ .fd = ring_buffer__epoll_fd(r->rb), .events = POLLIN },
		{ .fd = cs_pm_epoll_fd(r->pm), .events = POLLIN },
	};
	int n;

	if (poll(fds, 2, 100) < 0 && errno != EINTR)
		return -errno;
	n = ring_buffer__consume(r->rb);
	/* read: the next commit past the fill may wake us again */
	__atomic_store_n(&r->skel->bss->rec_woken, 0, __ATOMIC_RELEASE);
	return n;
}

/*
 * Until Ctrl-C, -d or COMMAND's end (r->why says which). CS_EXIT_OK, or
 * CS_EXIT_ERROR (said): the file is to be cut short.
 */
static int rec_loop(struct rec_run *r)
{
	__u64 next_missed = 0;
	int err, status;

	while (!cs_exiting) {
		err = rec_wait(r);
		/* new chains and callbacks: walk them, attach */
		if (err >= 0 && r->pm && cs_pm_poll(r->pm, 0) < 0) {
			warn("%s: error: probes mode: attaching new callbacks failed\n",
			     env.cmd);
			return CS_EXIT_ERROR;
		}
		/* every 100 ms: recursion misses, and the records to the file */
		if (err >= 0 && rec_mono_ns() >= next_missed) {
			if (!rec_poll_missed(&r->rc, r->skel->obj))
				r->rc.err = cs_trace_flush(r->rc.w);
			next_missed = rec_mono_ns() + CS_REC_MISSED_POLL_NS;
		}
		if (err < 0 || r->rc.err) {
			warn("%s: error: %s: %s\n", env.cmd,
			     r->rc.err ? "writing the trace" : "polling the ring buffer",
			     strerror(r->rc.err ? -r->rc.err : -err));
			return CS_EXIT_ERROR;
		}
		if (r->deadline && rec_mono_ns() >= r->deadline) {
			snprintf(r->why, sizeof(r->why), "%ld s elapsed", env.duration);
			break;
		}
		if (r->child > 0 && waitpid(r->child, &status, WNOHANG) == r->child) {
			if (WIFEXITED(status))
				snprintf(r->why, sizeof(r->why), "command exited %d",
					 WEXITSTATUS(status));
			else
				snprintf(r->why, sizeof(r->why), "command killed by signal %d",
					 WTERMSIG(status));
			r->child = 0;
			break;
		}
	}
	return CS_EXIT_OK;
}

/* The trailer, then the summary; CS_EXIT_OK or CS_EXIT_ERROR (said) */
static int rec_finish(struct rec_run *r)
{
	char bad_name[CS_SYMSTR_LEN + 100];
	__u64 lost, lost_nmi, missed, nr;
	size_t nbad = 0;
	int err;

	/* the trailer's totals are what the loss records add up to */
	lost = r->rc.located[CS_REC_LOSS_RING_FULL];
	lost_nmi = r->rc.located[CS_REC_LOSS_NMI];
	missed = r->rc.missed;
	r->ks_end = ksyms__load(NULL);
	r->syms = cs_rec_snapshot(r->ks_end, r->ks_start, &r->nsyms, &nbad, bad_name,
				  sizeof(bad_name));
	if (nbad) {
		char esc[CS_SAFE_STR_LEN(sizeof(bad_name))];

		warn("%s: warning: %zu symbol names not stored: bytes a kernel symbol "
		     "or module name does not have (first: %s); their addresses show "
		     "as numbers\n", env.cmd, nbad,
		     cs_safe_str(bad_name, esc, sizeof(esc)));
	}
	nr = cs_trace_written(r->rc.w);
	err = cs_trace_finish(r->rc.w, lost + lost_nmi, missed, rec_mono_ns(), r->syms,
			      r->nsyms);
	r->rc.w = NULL;
	rec_snap_close(r->rc.snap, &r->snap_st);
	r->rc.snap = NULL;
	if (err) {
		warn("%s: error: writing %s: %s (the file is cut short: read it "
		     "with --salvage)\n", env.cmd, r->out_name, strerror(-err));
		return CS_EXIT_ERROR;
	}
	/* (qemu/bench_report.py parses up to "missed N") */
	printf("recorded %llu events into %s (%s); lost %llu (ring buffer full), "
	       "missed %llu (BPF recursion protection), %llu lost in NMI; "
	       "%llu loss records; %zu symbols; %llu chains walked (%llu unstable), "
	       "%llu snapshot records; mode %s\n",
	       (unsigned long long)(nr - r->rc.loss_records - r->snap_st.records), r->out_name,
	       r->why,
	       (unsigned long long)lost, (unsigned long long)missed,
	       (unsigned long long)lost_nmi, (unsigned long long)r->rc.loss_records, r->nsyms,
	       (unsigned long long)r->snap_st.chains, (unsigned long long)r->snap_st.unstable,
	       (unsigned long long)r->snap_st.records, cs_mode_name(r->c.mode));
	/* only a full ring is helped by a bigger one */
	if (lost)
		printf("WARNING: %llu events lost: the ring buffer was full (try -b)\n",
		       (unsigned long long)lost);
	if (lost_nmi)
		printf("WARNING: %llu events lost in NMI context, where the ring "
		       "buffer cannot wait for its lock (-b does not help)\n",
		       (unsigned long long)lost_nmi);
	fflush(stdout);
	return CS_EXIT_OK;
}

static void rec_free(struct rec_run *r)
{
	int status;
	size_t i;

	if (r->child > 0) {
		/* Ctrl-C or an error while the command ran: end it too */
		kill(r->child, SIGTERM);
		waitpid(r->child, &status, 0);
	}
	cs_pm_stop(r->pm);
	ring_buffer__free(r->rb);
	rec_snap_close(r->rc.snap, &r->snap_st);
	record_bpf__destroy(r->skel);
	for (i = 0; i < r->nsyms; i++) {
		free((char *)r->syms[i].name);
		free((char *)r->syms[i].module);
	}
	free(r->syms);
	cs_rec_seen_free();
	rec_passes_free();
	ksyms__free(r->ks_start);
	ksyms__free(r->ks_end);
}

int cmd_record(int argc, char **argv)
{
	struct rec_run r = { .why = "Ctrl-C" };
	const char *out_why;
	__u64 nr;
	int err;

	err = parse_command_line(argc, argv);
	if (err)
		return err;
	cs_safe_str(env.output, r.out_name, sizeof(r.out_name));
	/* a bad path fails before anything else, bpf() above all */
	r.rc.w = cs_trace_open(env.output, env.force ? CS_OUT_FORCE : 0, &out_why);
	if (!r.rc.w) {
		warn("%s: error: cannot create %s: %s\n", env.cmd, r.out_name, out_why);
		return CS_EXIT_OUTPUT;
	}
	err = rec_startup(&r);
	if (err || cs_probe_only_mode(env.cmd, r.c.mode))
		goto discard;	/* (probe-only: CS_EXIT_OK) */
	err = rec_open(&r);
	if (!err)
		err = rec_begin(&r);
	if (err)
		goto discard;
	/*
	 * What is on the chains now, before the first event is written:
	 * check knows their membership from here on.
	 */
	err = snap_start(&r.rc, r.heads, r.kinds);
	if (err) {
		warn("%s: error: writing %s: %s\n", env.cmd, r.out_name, strerror(-err));
		err = CS_EXIT_ERROR;
		goto cut_short;
	}
	err = rec_go(&r);
	if (err)
		goto discard;
	err = rec_loop(&r);
	if (!err)
		err = rec_prog_stop(r.skel, r.rb, &r.pm, &r.rc, env.cmd);
	if (err)
		goto cut_short;
	err = rec_finish(&r);
	goto cleanup;

cut_short:
	/* what is written stays: a cut-short recording, for --salvage */
	nr = cs_trace_written(r.rc.w);
	cs_trace_abort(r.rc.w);
	r.rc.w = NULL;
	warn("%s: %s is cut short after %llu records: read it with --salvage\n",
	     env.cmd, r.out_name, (unsigned long long)nr);
	goto cleanup;
discard:
	cs_trace_discard(r.rc.w);
	r.rc.w = NULL;
cleanup:
	rec_free(&r);
	return err;
}
