// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope record: every notifier event into a trace file
 * (userspace/trace/tracefile.h), through the ring buffer of bpf/record.bpf.c.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#define HASH_NONFATAL_OOM 1	/* a failed add leaves the item's hh.tbl NULL */
#include <uthash.h>

#include "chainscope.h"
#include "live.h"
#include "chain_walk.h"
#include "probes.h"
#include "record.h"
#include "record.skel.h"
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
	bool verbose;
	bool force;		/* --force: -o through a link, or another user's */
	int mode;		/* enum cs_mode */
	char *chains[CS_REC_MAX_CHAINS];	/* -c, a ":KIND" suffix cut off */
	int kinds[CS_REC_MAX_CHAINS];		/* its kind, CS_KIND_ANY: -k's */
	int nr_chains;
	int kind;		/* -k, CS_KIND_ANY if none */
	char **command;		/* after "--" */
} env;

enum { OPT_MODE = 0x100, OPT_FORCE };

static const struct argp_option opts[] = {
	{ "output", 'o', "FILE", 0, "Write the trace to FILE (required; a new file is 0600)", 0 },
	{ "force", OPT_FORCE, NULL, 0,
	  "Write FILE even if it is a symbolic link, another user's file or a file "
	  "with other hard links", 0 },
	{ "duration", 'd', "SECONDS", 0, "Stop after SECONDS", 0 },
	{ "buffer-size", 'b', "MIB", 0, "Ring buffer size in MiB, a power of two (default 16)", 0 },
	{ "verbose", 'v', NULL, 0, "Show libbpf debug output", 0 },
	{ "mode", OPT_MODE, "MODE", 0,
	  "Event source: auto (default: tracepoints if the kernel has ours, "
	  "else probes), tracepoints, probes", 0 },
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
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v <= 0 || v > max)
		cs_usage_error(state, "invalid %s '%s': must be 1..%ld", what, arg, max);
	return v;
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	int i;

	switch (key) {
	case ARGP_KEY_INIT:
		state->err_stream = NULL;	/* one-line errors, as elsewhere */
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
	case 'v':
		env.verbose = true;
		return 0;
	case OPT_FORCE:
		env.force = true;
		return 0;
	case OPT_MODE:
		env.mode = cs_mode_parse(arg);
		if (env.mode < 0)
			cs_usage_error(state, "unknown --mode '%s' (auto, tracepoints, probes)",
				       arg);
		return 0;
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
};

/* --- recording ---------------------------------------------------------------- */

struct rec_ctx {
	struct cs_trace_writer *w;
	struct rec_snap *snap;	/* chain snapshots (NULL: none) */
	int err;
	__u64 loss_records;	/* CS_REC_LOSS written, from BPF or from us */
	__u64 missed;		/* recursion misses already written as loss */
	__u64 located[CS_REC_LOSS_MAX];	/* events in the loss records, by reason */
};

/*
 * Open passes per (task, context), to end the recording between passes:
 * once the recorded command is done, the BPF side stops recording new
 * passes (`stopping`), we wait until every pass we saw begin has ended,
 * and only then detach everything. A pass is then never recorded without
 * its callbacks or its call_end. A robust pass that stopped stays open
 * until its rollback ends: the BPF side still records rollback passes
 * while stopping, so that `check` finds the rollback it requires. A
 * rollback that begins while stopping and follows no robust pass we saw
 * stop belongs to a pass that began after the stop: it is not written.
 */
struct open_key {
	__u64 task;
	__u32 ctx, zero;	/* zero: no uninitialised bytes in the key */
};

static struct open_pass {
	struct open_key key;
	__u32 depth;		/* open passes, awaited rollbacks included */
	__u32 awaited;		/* stopped robust passes whose rollback is due */
	UT_hash_handle hh;
} *open_passes;
static bool stopping;

/* Track a call_begin/end; false: the event is not to be written. */
static bool track_pass(const struct cs_rec_event *e)
{
	bool rollback = e->call_type == CS_CALL_ROLLBACK;
	struct open_key key = { .task = e->task, .ctx = e->ctx };
	struct open_pass *p;

	HASH_FIND(hh, open_passes, &key, sizeof(key), p);
	if (e->type == CS_REC_CALL_BEGIN) {
		if (rollback && p && p->awaited) {
			p->awaited--;	/* takes over its robust pass's slot */
			return true;
		}
		if (stopping)
			return !rollback;	/* (the BPF side lets only rollbacks by) */
		if (!p) {
			p = calloc(1, sizeof(*p));
			if (!p)
				return true;
			p->key = key;
			HASH_ADD(hh, open_passes, key, sizeof(p->key), p);
			if (!p->hh.tbl) {
				free(p);
				return true;
			}
		}
		p->depth++;
		return true;
	}
	if (!p)
		return true;
	if (e->call_type == CS_CALL_ROBUST && (e->ret & CS_NOTIFY_STOP_MASK)) {
		p->awaited++;	/* still open: its rollback comes next */
		return true;
	}
	if (--p->depth == 0) {
		HASH_DEL(open_passes, p);
		free(p);
	}
	return true;
}

static void open_passes_free(void)
{
	struct open_pass *p, *tmp;

	HASH_ITER(hh, open_passes, p, tmp) {
		HASH_DEL(open_passes, p);
		free(p);
	}
}

static int handle_event(void *ctx, void *data, size_t size)
{
	struct rec_ctx *rc = ctx;
	const struct cs_rec_event *e = data;

	if (size < sizeof(*e) || rc->err)
		return 0;
	if ((e->type == CS_REC_CALL_BEGIN || e->type == CS_REC_CALL_END) &&
	    !track_pass(e))
		return 0;
	rc->err = cs_trace_write(rc->w, e, 1);
	/* a head seen for the first time: its snapshot follows the event */
	if (!rc->err)
		rc->err = rec_snap_event(rc->snap, rc->w, e);
	if (e->type == CS_REC_LOSS) {
		rc->loss_records++;
		if (e->reason < CS_REC_LOSS_MAX)
			rc->located[e->reason] += e->val;
	}
	cs_rec_seen_add(e->head);
	cs_rec_seen_add(e->cb);
	cs_rec_seen_add(e->nb);
	cs_rec_seen_add(e->lock);
	return rc->err;
}

static __u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int write_loss(struct rec_ctx *rc, __u32 cpu, __u8 reason, __u64 n)
{
	struct cs_rec_event e = {
		.ts = mono_ns(), .cpu = cpu, .val = n, .type = CS_REC_LOSS,
		.reason = reason,
	};

	if (rc->err || !n)
		return rc->err;
	rc->err = cs_trace_write(rc->w, &e, 1);
	rc->loss_records++;
	rc->located[reason] += n;
	return rc->err;
}

/*
 * The programs' recursion_misses are per program, not per CPU: a growth
 * becomes one CS_REC_CPU_ANY loss record, placed where we noticed it.
 */
static int poll_missed(struct rec_ctx *rc, struct bpf_object *obj)
{
	__u64 now = cs_read_missed(obj);

	if (now <= rc->missed)
		return rc->err;
	write_loss(rc, CS_REC_CPU_ANY, CS_REC_LOSS_MISSED, now - rc->missed);
	rc->missed = now;
	return rc->err;
}

/*
 * At the end: what each CPU lost after its last successful reserve has no
 * loss record yet. Write one per CPU and reason, so that the loss records
 * add up to the trailer's totals: the reader requires it.
 */
static int flush_pending(struct rec_ctx *rc, int map_fd)
{
	struct { __u64 n[CS_REC_LOSS_MISSED]; } *vals;
	int ncpu = libbpf_num_possible_cpus(), cpu, r;
	__u32 zero = 0;

	if (ncpu <= 0)
		return rc->err = ncpu ? ncpu : -EINVAL;
	vals = calloc(ncpu, sizeof(*vals));
	if (!vals)
		return rc->err = -ENOMEM;
	if (bpf_map_lookup_elem(map_fd, &zero, vals)) {
		rc->err = -errno;
		free(vals);
		return rc->err;
	}
	for (cpu = 0; cpu < ncpu; cpu++)
		for (r = 0; r < CS_REC_LOSS_MISSED; r++)
			write_loss(rc, cpu, r, vals[cpu].n[r]);
	free(vals);
	return rc->err;
}

/* tracepoints mode: only the tp_btf programs (rec_*) load */
static void set_tp_autoload(struct bpf_object *obj, bool on)
{
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, obj)
		if (!strncmp(bpf_program__name(prog), "rec_", 4))
			bpf_program__set_autoload(prog, on);
}

/*
 * call_end before call_begin (then every pass whose begin is recorded has
 * its end recorded); the other programs attach before call_begin too, in
 * skeleton order. CS_EXIT_OK or CS_EXIT_ERROR, said.
 */
static int attach_tracepoints(struct record_bpf *skel)
{
	int err;

	skel->links.rec_call_end = bpf_program__attach(skel->progs.rec_call_end);
	if (!skel->links.rec_call_end) {
		warn("%s: error: failed to attach rec_call_end: %s\n", env.cmd,
		     strerror(errno));
		return CS_EXIT_ERROR;
	}
	bpf_program__set_autoattach(skel->progs.rec_call_end, false);
	err = record_bpf__attach(skel);
	if (err) {
		warn("%s: error: failed to attach BPF programs: %s\n", env.cmd, strerror(-err));
		return CS_EXIT_ERROR;
	}
	return CS_EXIT_OK;
}

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

int cmd_record(int argc, char **argv)
{
	static const struct cs_tp tps[] = {
		{ "notifier_register", 6 },
		{ "notifier_unregister", 6 },
		{ "notifier_register_error", 6 },
		{ "notifier_unregister_error", 6 },
		{ "notifier_run", 6 },
		{ "notifier_return", 8 },
		{ "notifier_stop", 8 },
		{ "notifier_call_begin", 5 },
		{ "notifier_call_end", 7 },
		{ "notifier_lock_wait", 5 },
	};
	struct record_bpf *skel = NULL;
	struct ring_buffer *rb = NULL;
	struct cs_pm *pm = NULL;
	struct cs_common c;
	__u64 heads[CS_REC_MAX_CHAINS];
	int kinds[CS_REC_MAX_CHAINS];
	bool probes;
	struct ksyms *ks_start = NULL, *ks_end = NULL;
	struct cs_trace_sym *syms = NULL;
	struct rec_ctx rc = {};
	struct rec_snap_stats snap_st;
	char boot_id[48], why[128] = "Ctrl-C", bad_name[CS_SYMSTR_LEN + 100];
	char out_name[CS_SAFE_STR_LEN(1024)];
	const char *out_why;
	struct utsname uts;
	__u64 start, deadline = 0, next_missed = 0, lost, lost_nmi, missed, nr, partial;
	size_t nsyms = 0, nbad = 0, i;
	pid_t child = 0;
	int err, own_argc = argc, status;

	memset(&env, 0, sizeof(env));
	env.cmd = argv[0];
	env.kind = CS_KIND_ANY;
	for (i = 1; i < (size_t)argc; i++) {
		if (!strcmp(argv[i], "--")) {
			own_argc = i;
			if (i + 1 < (size_t)argc)
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

	cs_safe_str(env.output, out_name, sizeof(out_name));
	/* a bad path fails before anything else, bpf() above all */
	rc.w = cs_trace_open(env.output, env.force ? CS_OUT_FORCE : 0, &out_why);
	if (!rc.w) {
		warn("%s: error: cannot create %s: %s\n", env.cmd, out_name, out_why);
		return CS_EXIT_OUTPUT;
	}
	/* privileges, BTF, then the mode: tracepoints if the kernel has ours */
	cs_common_init(&c, env.cmd);
	c.mode = env.mode;
	c.verbose = env.verbose;
	err = cs_mode_startup(&c, tps, sizeof(tps) / sizeof(tps[0]), true);
	if (err)
		goto discard;
	probes = c.mode == CS_MODE_PROBES;
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
		err = CS_EXIT_NO_CTX;
		goto discard;
	}
	ks_start = cs_load_ksyms(env.cmd);
	if (!ks_start) {
		err = CS_EXIT_ERROR;
		goto discard;
	}
	for (i = 0; i < (size_t)env.nr_chains; i++) {
		err = cs_resolve(env.cmd, ks_start, "chain", env.chains[i], &heads[i]);
		if (err)
			goto discard;
		kinds[i] = env.kinds[i] == CS_KIND_ANY ? env.kind : env.kinds[i];
	}
	if (cs_probe_only_mode(env.cmd, c.mode)) {
		err = CS_EXIT_OK;
		goto discard;
	}
	if (probes) {
		err = cs_pm_features(env.cmd);
		if (err)
			goto discard;
	}

	cs_setup_libbpf(env.verbose);
	skel = record_bpf__open();
	if (!skel) {
		warn("%s: error: failed to open BPF skeleton\n", env.cmd);
		err = CS_EXIT_ERROR;
		goto discard;
	}
	skel->rodata->cs_preempt_count_off = cs_btf_preempt_count_off();
	if (env.buf_mib)
		bpf_map__set_max_entries(skel->maps.events, env.buf_mib << 20);
	/* one source: the tp_btf programs, or the probes (pm_*) */
	cs_pm_autoload(skel->obj, probes);
	set_tp_autoload(skel->obj, !probes);
	if (probes)
		skel->rodata->cs_pm_die_chain = cs_pm_die_chain_addr(ks_start);
	else	/* (probes mode's own maps: cs_pm_autoload()) */
		bpf_map__set_max_entries(skel->maps.rec_pm_stacks, 1);
	err = record_bpf__load(skel);
	if (err) {
		warn("%s: error: failed to load BPF skeleton: %s\n", env.cmd, strerror(-err));
		err = CS_EXIT_ERROR;
		goto discard;
	}
	/* the chain walker, for the snapshots (without it: none, and a warning) */
	rc.snap = rec_snap_open(env.cmd, ks_start, env.verbose, cs_rec_seen_add);
	rb = ring_buffer__new(bpf_map__fd(skel->maps.events), handle_event, &rc, NULL);
	if (!rb) {
		warn("%s: error: failed to create ring buffer: %s\n", env.cmd, strerror(errno));
		err = CS_EXIT_ERROR;
		goto discard;
	}

	uname(&uts);
	cs_rec_boot_id(boot_id, sizeof(boot_id));
	/* (the reader refuses what no kernel writes: leave it out, say so) */
	if (cs_release_bad(uts.release) >= 0) {
		warn("%s: warning: kernel release not stored: not printable ASCII "
		     "without spaces\n", env.cmd);
		uts.release[0] = '\0';
	}
	if (cs_boot_id_bad(boot_id) >= 0) {
		warn("%s: warning: boot id not stored: bytes other than [0-9a-f-]\n",
		     env.cmd);
		boot_id[0] = '\0';
	}
	start = mono_ns();
	err = cs_trace_set_source(rc.w, probes ? CS_TRACE_SOURCE_PROBES :
				  CS_TRACE_SOURCE_TRACEPOINTS);
	if (!err)
		err = cs_trace_begin(rc.w, uts.release, boot_id, start);
	if (err) {
		warn("%s: error: writing %s: %s\n", env.cmd, out_name, strerror(-err));
		err = CS_EXIT_OUTPUT;
		goto discard;
	}
	cs_trace_flush(rc.w);	/* a header at least, should we be killed */
	if (probes) {
		/*
		 * The API programs, then the callbacks of the -c chains; a
		 * pass is recorded once its chain's callbacks are attached
		 * (bpf/record.bpf.c), so attach order does not matter here.
		 */
		struct cs_pm_opts o = {
			.cmd = env.cmd, .verbose = env.verbose, .only_kind = CS_KIND_ANY,
			.heads = heads, .kinds = kinds, .nr_heads = env.nr_chains,
			.known_heads = true,
		};

		pm = cs_pm_start(skel->obj, ks_start, &o);
		if (!pm) {
			err = CS_EXIT_ERROR;
			goto discard;
		}
	} else {
		err = attach_tracepoints(skel);
		if (err)
			goto discard;
	}
	/*
	 * What is on the chains now, before the first event is written:
	 * check knows their membership from here on.
	 */
	err = snap_start(&rc, heads, kinds);
	if (err) {
		warn("%s: error: writing %s: %s\n", env.cmd, out_name, strerror(-err));
		err = CS_EXIT_ERROR;
		goto cut_short;
	}
	cs_setup_signals();
	warn("Tracing notifier events into %s (mode %s: %s)... %s\n", out_name,
	     cs_mode_name(c.mode), probes ? "fentry/fexit on the chain API, "
	     "kprobe.multi on the callbacks" : "tp_btf programs",
	     env.command ? "Until the command exits or Ctrl-C." :
	     env.duration ? "Until -d expires or Ctrl-C." : "Hit Ctrl-C to end.");
	if (env.duration)
		deadline = mono_ns() + (__u64)env.duration * 1000000000ULL;
	if (env.command) {
		child = start_command(env.command);
		if (child < 0) {
			warn("%s: error: fork: %s\n", env.cmd, strerror(errno));
			err = CS_EXIT_ERROR;
			goto discard;
		}
	}

	while (!cs_exiting) {
		err = ring_buffer__poll(rb, 100);
		if (err == -EINTR)
			continue;
		/* new chains and callbacks: walk them, attach */
		if (err >= 0 && pm && cs_pm_poll(pm, 0) < 0) {
			warn("%s: error: probes mode: attaching new callbacks failed\n",
			     env.cmd);
			err = CS_EXIT_ERROR;
			goto cut_short;
		}
		/* every 100 ms: recursion misses, and the records to the file */
		if (err >= 0 && mono_ns() >= next_missed) {
			if (!poll_missed(&rc, skel->obj))
				rc.err = cs_trace_flush(rc.w);
			next_missed = mono_ns() + 100000000ULL;
		}
		if (err < 0 || rc.err) {
			warn("%s: error: %s: %s\n", env.cmd,
			     rc.err ? "writing the trace" : "polling the ring buffer",
			     strerror(rc.err ? -rc.err : -err));
			err = CS_EXIT_ERROR;
			goto cut_short;
		}
		if (deadline && mono_ns() >= deadline) {
			snprintf(why, sizeof(why), "%ld s elapsed", env.duration);
			break;
		}
		if (child > 0 && waitpid(child, &status, WNOHANG) == child) {
			if (WIFEXITED(status))
				snprintf(why, sizeof(why), "command exited %d",
					 WEXITSTATUS(status));
			else
				snprintf(why, sizeof(why), "command killed by signal %d",
					 WTERMSIG(status));
			child = 0;
			break;
		}
	}
	/*
	 * Stop new passes, let the ones under way end (up to 2 s), then stop
	 * everything and take what is left in the buffer.
	 */
	skel->bss->stopping = true;
	stopping = true;
	deadline = mono_ns() + 2000000000ULL;
	while (!rc.err && ring_buffer__consume(rb) >= 0 && open_passes &&
	       mono_ns() < deadline)
		usleep(1000);
	if (open_passes)
		warn("%s: warning: %u chain passes still open when recording ended\n",
		     env.cmd, HASH_COUNT(open_passes));
	if (pm) {
		cs_pm_report(pm, NULL);	/* passes before attach, what it missed */
		partial = cs_read_stat(bpf_map__fd(skel->maps.rec_stats), CS_REC_STAT_PARTIAL);
		if (partial)
			printf("NOTE: probes: %llu passes not recorded: their chain has a "
			       "callback probes mode cannot see (named above)\n",
			       (unsigned long long)partial);
		partial = cs_read_stat(bpf_map__fd(skel->maps.rec_stats), CS_REC_STAT_LONG);
		if (partial)
			printf("NOTE: probes: %llu passes not recorded: their chain is longer "
			       "than the %d blocks record checks per pass\n",
			       (unsigned long long)partial, CS_REC_PM_MAX_WALK);
		/*
		 * cs_lookup_or_init() counts a full per-task map (pass and
		 * callback stacks, CS_PM_MAX_TASKS) in `stats`: those passes
		 * are not recorded either, and nothing else says so.
		 */
		partial = cs_read_stat(bpf_map__fd(skel->maps.stats), CS_STAT_DROPPED) +
			  cs_read_stat(bpf_map__fd(skel->maps.stats), CS_STAT_FAILED);
		if (partial)
			printf("NOTE: probes: %llu passes or callback runs not recorded: "
			       "per-task state map full or failing\n",
			       (unsigned long long)partial);
		cs_pm_stop(pm);		/* the probes' links */
		pm = NULL;
	}
	record_bpf__detach(skel);
	/*
	 * A program that was running as we detached may still count a loss
	 * or put a record in the ring: wait for it (detaching a tracepoint
	 * probe does not; an RCU grace period does), then take the ring's
	 * rest and write what is still pending as loss records.
	 */
	if (syscall(__NR_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0))
		usleep(100000);
	err = ring_buffer__consume(rb);
	if (err >= 0) {
		flush_pending(&rc, bpf_map__fd(skel->maps.rec_pending));
		poll_missed(&rc, skel->obj);
	}
	lost = cs_read_stat(bpf_map__fd(skel->maps.rec_stats), CS_REC_STAT_LOST);
	lost_nmi = cs_read_stat(bpf_map__fd(skel->maps.rec_stats), CS_REC_STAT_LOST_NMI);
	if (err >= 0 && !rc.err &&
	    (rc.located[CS_REC_LOSS_RING_FULL] != lost ||
	     rc.located[CS_REC_LOSS_NMI] != lost_nmi))
		warn("%s: warning: the loss counters (%llu ring-full, %llu NMI) differ "
		     "from the loss records (%llu, %llu); the trailer counts the "
		     "records\n", env.cmd, (unsigned long long)lost,
		     (unsigned long long)lost_nmi,
		     (unsigned long long)rc.located[CS_REC_LOSS_RING_FULL],
		     (unsigned long long)rc.located[CS_REC_LOSS_NMI]);
	if (err < 0 || rc.err) {
		warn("%s: error: draining the ring buffer: %s\n", env.cmd,
		     strerror(rc.err ? -rc.err : -err));
		err = CS_EXIT_ERROR;
		goto cut_short;
	}
	/* the trailer's totals are what the loss records add up to */
	lost = rc.located[CS_REC_LOSS_RING_FULL];
	lost_nmi = rc.located[CS_REC_LOSS_NMI];
	missed = rc.missed;
	ks_end = ksyms__load(NULL);
	syms = cs_rec_snapshot(ks_end, ks_start, &nsyms, &nbad, bad_name, sizeof(bad_name));
	if (nbad) {
		char esc[CS_SAFE_STR_LEN(sizeof(bad_name))];

		warn("%s: warning: %zu symbol names not stored: bytes a kernel symbol "
		     "or module name does not have (first: %s); their addresses show "
		     "as numbers\n", env.cmd, nbad,
		     cs_safe_str(bad_name, esc, sizeof(esc)));
	}
	nr = cs_trace_written(rc.w);
	err = cs_trace_finish(rc.w, lost + lost_nmi, missed, mono_ns(), syms, nsyms);
	rc.w = NULL;
	rec_snap_close(rc.snap, &snap_st);
	rc.snap = NULL;
	if (err) {
		warn("%s: error: writing %s: %s (the file is cut short: read it "
		     "with --salvage)\n", env.cmd, out_name, strerror(-err));
		err = CS_EXIT_ERROR;
		goto cleanup;
	}
	/* (qemu/bench_report.py parses up to "missed N") */
	printf("recorded %llu events into %s (%s); lost %llu (ring buffer full), "
	       "missed %llu (BPF recursion protection), %llu lost in NMI; "
	       "%llu loss records; %zu symbols; %llu chains walked (%llu unstable), "
	       "%llu snapshot records; mode %s\n",
	       (unsigned long long)(nr - rc.loss_records - snap_st.records), out_name, why,
	       (unsigned long long)lost, (unsigned long long)missed,
	       (unsigned long long)lost_nmi, (unsigned long long)rc.loss_records, nsyms,
	       (unsigned long long)snap_st.chains, (unsigned long long)snap_st.unstable,
	       (unsigned long long)snap_st.records, cs_mode_name(c.mode));
	/* only a full ring is helped by a bigger one */
	if (lost)
		printf("WARNING: %llu events lost: the ring buffer was full (try -b)\n",
		       (unsigned long long)lost);
	if (lost_nmi)
		printf("WARNING: %llu events lost in NMI context, where the ring "
		       "buffer cannot wait for its lock (-b does not help)\n",
		       (unsigned long long)lost_nmi);
	fflush(stdout);
	err = CS_EXIT_OK;
	goto cleanup;

cut_short:
	/* what is written stays: a cut-short recording, for --salvage */
	nr = cs_trace_written(rc.w);
	cs_trace_abort(rc.w);
	rc.w = NULL;
	warn("%s: %s is cut short after %llu records: read it with --salvage\n",
	     env.cmd, out_name, (unsigned long long)nr);
	goto cleanup;
discard:
	cs_trace_discard(rc.w);
	rc.w = NULL;
cleanup:
	if (child > 0) {
		/* Ctrl-C or an error while the command ran: end it too */
		kill(child, SIGTERM);
		waitpid(child, &status, 0);
	}
	cs_pm_stop(pm);
	ring_buffer__free(rb);
	rec_snap_close(rc.snap, &snap_st);
	record_bpf__destroy(skel);
	for (i = 0; i < nsyms; i++) {
		free((char *)syms[i].name);
		free((char *)syms[i].module);
	}
	free(syms);
	cs_rec_seen_free();
	open_passes_free();
	ksyms__free(ks_start);
	ksyms__free(ks_end);
	return err;
}
