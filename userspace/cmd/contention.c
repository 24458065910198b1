// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope contention: how long blocking and SRCU notifier chains wait
 * for their lock (lock:contention_begin/end on the chains' rwsems and
 * mutexes, bpf/contention.bpf.c), per chain and lock op, with the top
 * waiters; in tracepoints mode out of how many acquisitions.
 */
#include <stdlib.h>
#include <string.h>

#include "callback_row.h"
#include "chainscope.h"
#include "live.h"
#include "cont_collect.h"
#include "contention.h"
#include "probes.h"

#define TOP_WAITERS 5

static struct env {
	struct cs_common c;
	const char *chain;
} env;

static const struct argp_option opts[] = {
	{ "chain", 'c', "CHAIN", 0, "Only this chain head (symbol or 0xADDR)", 0 },
	{},
};

static const char doc[] =
"Summarize how long notifier chains wait for their lock.\n"
"\n"
"Blocking chains take an rwsem (read to call, write to (un)register),\n"
"SRCU chains a mutex to (un)register. The waits come from\n"
"lock:contention_begin/end on those locks (Linux 5.19+), in both modes.\n"
"Per chain and op: a log2 histogram of the contended acquisitions' waits,\n"
"how many (contended), max; per chain the top " "5" " waiting threads by\n"
"total wait. Tracepoints mode (our kernel) also counts every acquisition\n"
"(acquisitions=) from the notifier events and watches every blocking and\n"
"SRCU chain they name; probes mode watches the chain of -c or the\n"
"well-known ones, and sees contended acquisitions only.\n"
"\v"
CS_EXIT_DOC
"\n"
"Examples:\n"
"  chainscope contention              # trace until Ctrl-C, then print\n"
"  chainscope contention 5 3          # every 5 seconds, 3 times\n"
"  chainscope contention -n -c cs_loadgen_blocking\n"
"  chainscope contention -j 1         # JSON lines every second\n";

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &env.c;
		return 0;
	case 'c':
		env.chain = arg;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp argp = {
	.options = opts,
	.parser = parse_arg,
	.args_doc = "[INTERVAL [COUNT]]",
	.doc = doc,
	.children = cs_common_children,
};

static const char *op_name(__u32 op)
{
	return cs_lock_op_name(op);
}

static json_object *json_waiters(const struct cs_waiter_entry *w, int n, __u64 head)
{
	json_object *arr = json_object_new_array();
	int i, shown = 0;

	for (i = 0; i < n && shown < TOP_WAITERS; i++) {
		json_object *o;

		if (w[i].key.head != head)
			continue;
		o = json_object_new_object();
		json_object_object_add(o, "pid", json_object_new_int64(w[i].key.pid));
		json_object_object_add(o, "tgid", json_object_new_int64(w[i].val.tgid));
		json_object_object_add(o, "comm", json_object_new_string_len(
			w[i].val.comm, strnlen(w[i].val.comm, CS_TASK_COMM_LEN)));
		json_object_object_add(o, "count", json_object_new_uint64(w[i].val.count));
		json_object_object_add(o, "total",
				       json_object_new_uint64(cs_ns_to_units(w[i].val.total_ns, env.c.units)));
		json_object_object_add(o, "max",
				       json_object_new_uint64(cs_ns_to_units(w[i].val.max_ns, env.c.units)));
		json_object_object_add(o, "total_ns", json_object_new_uint64(w[i].val.total_ns));
		json_object_array_add(arr, o);
		shown++;
	}
	return arr;
}

static void print_waiters(const struct cs_waiter_entry *w, int n, __u64 head)
{
	const char *unit = cs_units_suffix(env.c.units);
	int i, shown = 0;

	for (i = 0; i < n && shown < TOP_WAITERS; i++) {
		if (w[i].key.head != head)
			continue;
		if (!shown)
			printf("  top waiters:\n");
		printf("    %-16.16s pid=%-7u total=%llu%s count=%llu max=%llu%s\n",
		       w[i].val.comm, w[i].key.pid,
		       cs_ns_to_units(w[i].val.total_ns, env.c.units), unit,
		       (unsigned long long)w[i].val.count,
		       cs_ns_to_units(w[i].val.max_ns, env.c.units), unit);
		shown++;
	}
}

static int print_interval(struct cs_cont *ct, const struct ksyms *ks,
			  struct cs_health *seen)
{
	const char *unit = cs_units_suffix(env.c.units);
	struct cs_cont_sample smp;
	struct cs_cont_entry *ce;
	struct cs_waiter_entry *we;
	int nc, nw, i, err = 0;
	bool tps = env.c.mode == CS_MODE_TRACEPOINTS;
	json_object *root, *locks, *tops = NULL;
	char head[CS_SYMSTR_LEN], lock[CS_SYMSTR_LEN];
	struct cs_summary s;
	struct cs_health health;

	if (cs_cont_drain(ct, &smp))
		return -EIO;
	ce = smp.ce;
	nc = smp.nc;
	we = smp.we;
	nw = smp.nw;
	health = smp.health;

	if (env.c.json) {
		root = cs_json_root("contention", env.c.units);
		cs_pm_json_mode(&env.c, root);
		cs_report_health(&health, seen, false, root);
		/* tracepoints mode: "acquisitions" per lock; probes mode: none */
		json_object_object_add(root, "acquisitions", json_object_new_boolean(tps));
		locks = json_object_new_array();
		tops = json_object_new_array();
		for (i = 0; i < nc; i++) {
			const struct cs_cont_val *v = &ce[i].val;
			json_object *o = json_object_new_object();

			cs_json_sym(o, "chain", ks, ce[i].key.head);
			json_object_object_add(o, "kind", json_object_new_string(cs_kind_name(v->kind)));
			json_object_object_add(o, "op", json_object_new_string(op_name(ce[i].key.op)));
			cs_json_sym(o, "lock", ks, v->lock);
			cs_summarize(v->slots, v->count, v->max_ns, env.c.units, &s);
			cs_json_summary(o, &s, v->sum_ns, v->max_ns, env.c.units);
			json_object_object_add(o, "contended", json_object_new_uint64(v->count));
			if (tps)
				json_object_object_add(o, "acquisitions",
						       json_object_new_uint64(v->acquired));
			json_object_object_add(o, "histogram", cs_json_hist(v->slots, CS_MAX_SLOTS));
			json_object_array_add(locks, o);
			if (i == nc - 1 || ce[i + 1].key.head != ce[i].key.head) {
				json_object *t = json_object_new_object();

				cs_json_sym(t, "chain", ks, ce[i].key.head);
				json_object_object_add(t, "waiters",
						       json_waiters(we, nw, ce[i].key.head));
				json_object_array_add(tops, t);
			}
		}
		json_object_object_add(root, "locks", locks);
		json_object_object_add(root, "top_waiters", tops);
		cs_json_print(root);
		goto out;
	}

	if (env.c.interval)
		cs_print_time_header();
	if (!nc)
		printf(tps ? "no notifier chain lock was taken\n"
			   : "no notifier chain lock was contended\n");
	for (i = 0; i < nc; i++) {
		const struct cs_cont_val *v = &ce[i].val;
		char acq[40] = "";

		cs_summarize(v->slots, v->count, v->max_ns, env.c.units, &s);
		ksyms__format(ks, ce[i].key.head, head, sizeof(head));
		ksyms__format(ks, v->lock, lock, sizeof(lock));
		if (tps)
			snprintf(acq, sizeof(acq), "acquisitions=%llu ",
				 (unsigned long long)v->acquired);
		printf("\nchain: %s (%s) op: %s lock: %s  %scontended=%llu "
		       "max=%llu%s p50~%llu%s p99~%llu%s\n",
		       head, cs_kind_name(v->kind), op_name(ce[i].key.op), lock,
		       acq, s.count, s.max, unit, s.p50, unit, s.p99, unit);
		if (s.count)
			print_log2_hist(v->slots, CS_MAX_SLOTS, cs_units_name(env.c.units));
		if (i == nc - 1 || ce[i + 1].key.head != ce[i].key.head)
			print_waiters(we, nw, ce[i].key.head);
	}
	cs_report_health(&health, seen, false, NULL);
	fflush(stdout);
out:
	free(ce);
	free(we);
	return err;
}

/* one interval: drain and print */
struct interval {
	struct cs_cont *ct;
	struct cs_health seen;
};

static void interval_wait(void *ctx)
{
	cs_cont_wait(((struct interval *)ctx)->ct);
}

static int interval_one(void *ctx)
{
	struct interval *iv = ctx;

	return print_interval(iv->ct, cs_cont_ksyms(iv->ct), &iv->seen);
}

int cmd_contention(int argc, char **argv)
{
	struct cs_cont_run run = {};
	struct interval iv = {};
	int err;

	cs_common_init(&env.c, argv[0]);
	cs_parse_args(&argp, argc, argv, &env);

	run.c = &env.c;
	run.chain = env.chain;
	err = cs_cont_start(&run, &iv.ct);
	if (err || !iv.ct)
		return err;

	cs_setup_signals();
	warn("Tracing notifier chain lock waits (%s)... %s\n", cs_cont_how(iv.ct),
	     env.c.interval ? "Hit Ctrl-C to end." : "Hit Ctrl-C to end and print.");
	err = cs_run_intervals(&env.c, interval_wait, interval_one, &iv);
	cs_cont_stop(iv.ct);
	return err;
}
