// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope contention: how long blocking and SRCU notifier chains wait
 * for their lock (notifier:notifier_lock_wait), per chain and lock op,
 * cross-checked against lock:contention_begin/end, with the top waiters.
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
"SRCU chains a mutex to (un)register. Per chain and op: a log2 histogram\n"
"of the wait, how many acquisitions had to wait (contended), max, and\n"
"what lock:contention_begin/end saw for the same acquisitions; per chain\n"
"the top " "5" " waiting threads by total wait. --mode probes (any 5.19+\n"
"kernel): from lock:contention_begin/end alone, on the locks of -c or of\n"
"the well-known heads; contended acquisitions only.\n"
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
			  bool lock_tps, struct cs_health *seen)
{
	const char *unit = cs_units_suffix(env.c.units);
	struct cs_cont_sample smp;
	struct cs_cont_entry *ce;
	struct cs_waiter_entry *we;
	int nc, nw, i, err = 0;
	json_object *root, *locks, *tops = NULL;
	char head[256], lock[256];
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
		json_object_object_add(root, "lock_tracepoints", json_object_new_boolean(lock_tps));
		locks = json_object_new_array();
		tops = json_object_new_array();
		for (i = 0; i < nc; i++) {
			const struct cs_cont_val *v = &ce[i].val;
			json_object *o = json_object_new_object(), *lt;

			cs_json_sym(o, "chain", ks, ce[i].key.head);
			json_object_object_add(o, "kind", json_object_new_string(cs_kind_name(v->kind)));
			json_object_object_add(o, "op", json_object_new_string(op_name(ce[i].key.op)));
			cs_json_sym(o, "lock", ks, v->lock);
			cs_summarize(v->slots, v->count, v->max_ns, env.c.units, &s);
			cs_json_summary(o, &s, v->sum_ns, v->max_ns, env.c.units);
			json_object_object_add(o, "contended", json_object_new_uint64(v->contended));
			json_object_object_add(o, "histogram", cs_json_hist(v->slots, CS_MAX_SLOTS));
			if (lock_tps && env.c.mode == CS_MODE_TRACEPOINTS) {
				lt = json_object_new_object();
				json_object_object_add(lt, "count", json_object_new_uint64(v->lt_count));
				json_object_object_add(lt, "sum",
						       json_object_new_uint64(cs_ns_to_units(v->lt_sum_ns, env.c.units)));
				json_object_object_add(lt, "max",
						       json_object_new_uint64(cs_ns_to_units(v->lt_max_ns, env.c.units)));
				json_object_object_add(lt, "sum_ns", json_object_new_uint64(v->lt_sum_ns));
				json_object_object_add(lt, "max_ns", json_object_new_uint64(v->lt_max_ns));
				json_object_object_add(o, "lock_tracepoint", lt);
			}
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
		printf("no notifier chain lock was taken\n");
	for (i = 0; i < nc; i++) {
		const struct cs_cont_val *v = &ce[i].val;

		cs_summarize(v->slots, v->count, v->max_ns, env.c.units, &s);
		ksyms__format(ks, ce[i].key.head, head, sizeof(head));
		ksyms__format(ks, v->lock, lock, sizeof(lock));
		printf("\nchain: %s (%s) op: %s lock: %s  count=%llu contended=%llu "
		       "max=%llu%s p50~%llu%s p99~%llu%s\n",
		       head, cs_kind_name(v->kind), op_name(ce[i].key.op), lock,
		       s.count, (unsigned long long)v->contended, s.max, unit,
		       s.p50, unit, s.p99, unit);
		print_log2_hist(v->slots, CS_MAX_SLOTS, cs_units_name(env.c.units));
		if (lock_tps && env.c.mode == CS_MODE_TRACEPOINTS)
			printf("  lock tracepoint saw %llu contended acquisitions totaling "
			       "%llu%s (max %llu%s)\n", (unsigned long long)v->lt_count,
			       cs_ns_to_units(v->lt_sum_ns, env.c.units), unit,
			       cs_ns_to_units(v->lt_max_ns, env.c.units), unit);
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

int cmd_contention(int argc, char **argv)
{
	struct cs_tp tps[] = {
		{ "notifier_lock_wait", 5 },
	};
	struct cs_cont *ct = NULL;
	struct ksyms *ks = NULL;
	struct cs_health seen = {};
	__u64 head = 0;
	bool lock_tps;
	int err;
	char how[160];
	long n = 0;

	cs_common_init(&env.c, argv[0]);
	cs_parse_args(&argp, argc, argv, &env);

	err = cs_mode_startup(&env.c, tps, 1, false);
	if (err)
		return err;
	lock_tps = cs_btf_has_tp("contention_begin", 2) && cs_btf_has_tp("contention_end", 2);
	if (env.c.mode == CS_MODE_PROBES && !lock_tps) {
		warn("%s: error: no event source: no notifier tracepoints, and probes mode "
		     "needs lock:contention_begin/end (Linux 5.19+), which this kernel's "
		     "BTF does not have\n", env.c.cmd);
		return CS_EXIT_NO_MODE;
	}

	ks = cs_load_ksyms(env.c.cmd);
	if (!ks)
		return CS_EXIT_ERROR;
	if (env.chain) {
		err = cs_resolve(env.c.cmd, ks, "chain", env.chain, &head);
		if (err)
			goto cleanup;
	}
	if (cs_probe_only_mode(env.c.cmd, env.c.mode)) {
		if (head)
			warn("%s: chain %s is 0x%llx\n", env.c.cmd, env.chain,
			     (unsigned long long)head);
		err = CS_EXIT_OK;
		goto cleanup;
	}
	if (!lock_tps)
		warn("%s: lock:contention_begin/end not in this kernel: no cross-check\n",
		     env.c.cmd);

	cs_setup_libbpf(env.c.verbose);
	ct = cs_cont_start(&env.c, ks, head, lock_tps, how, sizeof(how));
	if (!ct) {
		err = CS_EXIT_ERROR;
		goto cleanup;
	}

	cs_setup_signals();
	warn("Tracing notifier chain lock waits (%s)... %s\n", how,
	     env.c.interval ? "Hit Ctrl-C to end." : "Hit Ctrl-C to end and print.");

	for (;;) {
		bool stopping;

		/* a Ctrl-C during the last drain or print: drain once more, at once */
		if (!cs_exiting)
			cs_wait_interval(&env.c);
		stopping = cs_exiting;
		if (print_interval(ct, ks, lock_tps, &seen)) {
			err = CS_EXIT_ERROR;
			goto cleanup;
		}
		if (stopping || cs_last_interval(&env.c, &n))
			break;
	}
	err = CS_EXIT_OK;

cleanup:
	cs_cont_stop(ct);
	ksyms__free(ks);
	return err;
}
