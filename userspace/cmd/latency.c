// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope latency: per (chain, callback) latency histograms of notifier
 * callbacks from notifier:notifier_run -> notifier_return, and with -C whole
 * chain passes from notifier_call_begin -> notifier_call_end.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "callback_row.h"
#include "chain_walk.h"
#include "chainscope.h"
#include "json_keys.h"
#include "live.h"
#include "latency.h"
#include "latency.skel.h"
#include "lat_collect.h"
#include "om_counters.h"
#include "probes.h"

static struct env {
	struct cs_common c;
	bool per_val;
	bool chain_mode;
	bool openmetrics;
	bool show_addresses;
	const char *chain;
	const char *callback;
	int kind;
} env;

enum { OPT_OPENMETRICS = 0x100, OPT_SHOW_ADDRESSES };

static const struct argp_option opts[] = {
	{ "chain", 'c', "CHAIN", 0, "Only this chain head (symbol or 0xADDR)", 0 },
	{ "callback", 'f', "CALLBACK", 0, "Only this callback (symbol or 0xADDR)", 0 },
	{ "kind", 'k', "KIND", 0, "Only chains of this kind: raw, atomic, blocking, srcu", 0 },
	{ "per-value", 'a', NULL, 0, "One histogram per event value (val) too", 0 },
	{ "chains", 'C', NULL, 0, "Also whole-chain pass latency (call_begin -> call_end)", 0 },
	{ "openmetrics", OPT_OPENMETRICS, NULL, 0, "Each interval, the Prometheus text "
	  "exposition of the counters since start (for node_exporter's textfile collector; "
	  "see chainscope-serve(8)); kernel addresses no symbol names show as addr#N", 0 },
	{ "show-addresses", OPT_SHOW_ADDRESSES, NULL, 0, "With --openmetrics: kernel "
	  "addresses as they are (a KASLR leak to whoever reads the exposition)", 0 },
	{},
};

static const char doc[] =
"Summarize notifier callback latency as log2 histograms.\n"
"\n"
"Per chain and callback: count, max, p50/p99 (estimated from the log2\n"
"buckets), and how many calls returned NOTIFY_STOP (stop), NOTIFY_BAD\n"
"(bad) or an errno from notifier_from_errno() (errno). Durations are\n"
"measured in BPF, between each callback's notifier_run and\n"
"notifier_return (--mode tracepoints) or between kprobe.multi entry and\n"
"exit of each watched callback (--mode probes: any kernel; see\n"
"userspace/probemode.md).\n"
"\v"
CS_EXIT_DOC
"\n"
"Examples:\n"
"  chainscope latency                 # trace until Ctrl-C, then print\n"
"  chainscope latency 1 10            # print every second, 10 times\n"
"  chainscope latency -m -C           # msecs; whole chain passes too\n"
"  chainscope latency -c reboot_notifier_list\n"
"  chainscope latency -f cs_loadgen_cb_busy -a   # per event value\n"
"  chainscope latency -k blocking -j  # JSON lines, blocking chains only\n"
"  chainscope latency --openmetrics -C 60   # an exposition every minute\n";

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &env.c;
		return 0;
	case 'c':
		env.chain = arg;
		return 0;
	case 'f':
		env.callback = arg;
		return 0;
	case 'k':
		env.kind = cs_kind_parse(arg);
		if (env.kind < 0)
			cs_usage_error(state, "unknown chain kind '%s' (raw, atomic, "
				       "blocking, srcu)", arg);
		return 0;
	case 'a':
		env.per_val = true;
		return 0;
	case 'C':
		env.chain_mode = true;
		return 0;
	case OPT_OPENMETRICS:
		env.openmetrics = true;
		return 0;
	case OPT_SHOW_ADDRESSES:
		env.show_addresses = true;
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

/* --- reading and printing ---------------------------------------------------- */

/* The shared rows (callback_row.c), in lat's order; NULL if out of memory. */
static struct cs_cbrow *lat_rows(const struct cs_lat_entry *lat, int n, const struct ksyms *ks)
{
	struct cs_cbrow *rows = calloc(n ? n : 1, sizeof(*rows));
	int i;

	for (i = 0; rows && i < n; i++) {
		const struct cs_lat_hist *h = &lat[i].val;
		struct cs_cbrow *r = &rows[i];

		cs_sym_from_ksyms(&r->chain, ks, lat[i].key.head);
		cs_sym_from_ksyms(&r->cb, ks, lat[i].key.cb);
		cs_sym_from_ksyms(&r->nb, ks, lat[i].key.nb);
		r->kind = h->kind;
		r->has_val = env.per_val;
		r->val = lat[i].key.val;
		memcpy(r->st.slots, h->slots, sizeof(r->st.slots));
		r->st.count = h->count;
		r->st.sum_ns = h->sum_ns;
		r->st.max_ns = h->max_ns;
		r->st.stop = h->stop;
		r->st.bad = h->bad;
		r->st.err = h->err;
		r->st.untimed = h->untimed;
	}
	if (rows)
		cs_cbrows_disambiguate(rows, n);	/* on -ENOMEM still unambiguous */
	return rows;
}

/*
 * -C pairs call_begin with call_end. The kernel skips a program that
 * fires while it already runs on that CPU and counts it in the program's
 * recursion_misses: if the two programs missed different numbers of
 * events, some passes lost their begin or their end.
 */
struct pair_misses {
	__u64 begin, end;
};

static void read_pair_misses(struct latency_bpf *skel, struct pair_misses *m)
{
	m->begin = cs_prog_missed(skel->progs.call_begin_btf) +
		   cs_prog_missed(skel->progs.call_begin_raw);
	m->end = cs_prog_missed(skel->progs.call_end_btf) +
		 cs_prog_missed(skel->progs.call_end_raw);
}

static void report_pair_misses(const struct pair_misses *now, struct pair_misses *prev,
			       json_object *json)
{
	unsigned long long begin = now->begin - prev->begin;
	unsigned long long end = now->end - prev->end;

	if (json) {
		json_object_object_add(json, CS_JK_MISSED "_call_begin",
				       json_object_new_uint64(begin));
		json_object_object_add(json, CS_JK_MISSED "_call_end", json_object_new_uint64(end));
		json_object_object_add(json, CS_JK_MISSED_DIFFER,
				       json_object_new_boolean(begin != end));
	} else if (begin != end) {
		printf("WARNING: BPF recursion protection skipped %llu call_begin and %llu "
		       "call_end events: that many passes lost their begin or their end\n",
		       begin, end);
	}
	*prev = *now;
}

/* what latency itself prints: the counters since the last interval */
struct print_ctx {
	struct cs_health seen;
	struct pair_misses seen_pm;
};

static int print_interval(void *ctx, const struct cs_lat_sample *smp)
{
	struct print_ctx *p = ctx;
	struct latency_bpf *skel = smp->skel;
	const struct ksyms *ks = smp->ks;
	struct cs_pm *pm = smp->pm;
	const struct cs_lat_entry *lat = smp->lat;
	const struct cs_chain_entry *chains = smp->chains;
	int nlat = smp->nlat, nchain = smp->nchain;
	struct cs_health *seen = &p->seen;
	struct pair_misses *seen_pm = &p->seen_pm;
	const char *unit = cs_units_suffix(env.c.units);
	struct cs_cbrow *rows;
	json_object *root = NULL, *arr;
	char head[CS_SYMSTR_LEN];
	struct cs_summary s;
	struct pair_misses pm_misses;
	int i;

	rows = lat_rows(lat, nlat, ks);
	if (!rows) {
		warn("%s: error: out of memory\n", env.c.cmd);
		return -ENOMEM;
	}
	/* counters are cumulative in the kernel: report what is new */
	read_pair_misses(skel, &pm_misses);

	if (env.c.json) {
		root = cs_json_root(CS_JT_LATENCY, env.c.units);
		cs_pm_json_mode(&env.c, root);
		cs_report_health(&smp->health, seen, env.chain_mode, root);
		cs_pm_report(pm, root);
		if (env.chain_mode)
			report_pair_misses(&pm_misses, seen_pm, root);
		arr = json_object_new_array();
		for (i = 0; i < nlat; i++)
			json_object_array_add(arr, cs_cbrow_json(&rows[i], env.c.units));
		json_object_object_add(root, CS_JK_CALLBACKS, arr);
		if (env.chain_mode) {
			arr = json_object_new_array();
			for (i = 0; i < nchain; i++) {
				const struct cs_chain_hist *h = &chains[i].val;
				json_object *o = json_object_new_object();

				cs_json_sym(o, "chain", ks, chains[i].key.head);
				json_object_object_add(o, "kind", json_object_new_string(cs_kind_name(h->kind)));
				if (env.per_val)
					json_object_object_add(o, "val", json_object_new_uint64(chains[i].key.val));
				cs_summarize(h->slots, h->count, h->max_ns, env.c.units, &s);
				cs_json_summary(o, &s, h->sum_ns, h->max_ns, env.c.units);
				json_object_object_add(o, "stopped", json_object_new_uint64(h->stopped));
				json_object_object_add(o, "rollbacks", json_object_new_uint64(h->rollbacks));
				json_object_object_add(o, "nr_calls", json_object_new_uint64(h->nr_calls));
				json_object_object_add(o, "histogram", cs_json_hist(h->slots, CS_MAX_SLOTS));
				json_object_array_add(arr, o);
			}
			json_object_object_add(root, "chains", arr);
		}
		cs_json_print(root);
		goto out;
	}

	if (env.c.interval)
		cs_print_time_header();
	if (!nlat && !nchain)
		printf("no notifier callbacks ran\n");
	for (i = 0; i < nlat; i++)
		cs_cbrow_print(stdout, &rows[i], env.c.units);
	for (i = 0; i < nchain; i++) {
		const struct cs_chain_hist *h = &chains[i].val;

		cs_summarize(h->slots, h->count, h->max_ns, env.c.units, &s);
		ksyms__format(ks, chains[i].key.head, head, sizeof(head));
		printf("\nchain: %s (%s) whole pass", head, cs_kind_name(h->kind));
		if (env.per_val)
			printf(" val=%llu", (unsigned long long)chains[i].key.val);
		printf("  count=%llu max=%llu%s p50~%llu%s p99~%llu%s stopped=%llu rollbacks=%llu callbacks=%llu\n",
		       s.count, s.max, unit, s.p50, unit, s.p99, unit,
		       (unsigned long long)h->stopped, (unsigned long long)h->rollbacks,
		       (unsigned long long)h->nr_calls);
		print_log2_hist(h->slots, CS_MAX_SLOTS, cs_units_name(env.c.units));
	}
	cs_report_health(&smp->health, seen, env.chain_mode, NULL);
	cs_pm_report(pm, NULL);
	if (env.chain_mode)
		report_pair_misses(&pm_misses, seen_pm, NULL);
	fflush(stdout);
out:
	free(rows);
	return 0;
}

/* --- main ------------------------------------------------------------------- */

/* --openmetrics: the counters since start, one exposition per interval */
static int openmetrics_interval(void *ctx, const struct cs_lat_sample *smp)
{
	struct cs_om_live *om = ctx;

	if (cs_om_live_add(om, smp) || cs_om_live_write(om, stdout, smp->ks)) {
		warn("%s: error: out of memory\n", env.c.cmd);
		return -ENOMEM;
	}
	fflush(stdout);
	return 0;
}

/* one interval: drain, then print (or add up for --openmetrics) */
struct interval {
	struct cs_lat *lat;
	int (*fn)(void *ctx, const struct cs_lat_sample *smp);
	void *ctx;
};

static void interval_wait(void *ctx)
{
	cs_lat_wait(((struct interval *)ctx)->lat);
}

static int interval_one(void *ctx)
{
	struct interval *iv = ctx;
	struct cs_lat_sample smp;
	int err;

	err = cs_lat_drain(iv->lat, &smp);
	if (!err)
		err = iv->fn(iv->ctx, &smp);
	cs_lat_sample_free(&smp);
	return err;
}

int cmd_latency(int argc, char **argv)
{
	struct print_ctx pctx = {};
	struct cs_lat_run run = {};
	struct cs_om_live *om = NULL;
	struct interval iv = { .fn = print_interval, .ctx = &pctx };
	int err;

	cs_common_init(&env.c, argv[0]);
	env.kind = CS_KIND_ANY;
	cs_parse_args(&argp, argc, argv, &env);
	if (env.openmetrics && env.c.json) {
		warn("%s: error: -j and --openmetrics exclude each other\n", env.c.cmd);
		return CS_EXIT_USAGE;
	}
	if (env.show_addresses && !env.openmetrics) {
		warn("%s: error: --show-addresses applies to --openmetrics only\n", env.c.cmd);
		return CS_EXIT_USAGE;
	}
	/* the exposition is for others to read: no kernel address unless asked */
	cs_addrs_hide(env.openmetrics && !env.show_addresses);

	run.c = &env.c;
	run.chain = env.chain;
	run.callback = env.callback;
	run.kind = env.kind;
	run.per_val = env.per_val;
	run.chain_mode = env.chain_mode;
	if (env.openmetrics) {
		om = cs_om_live_new(&env.c, NULL, 0);
		if (!om) {
			warn("%s: error: out of memory\n", env.c.cmd);
			return CS_EXIT_ERROR;
		}
		iv.ctx = om;
		iv.fn = openmetrics_interval;
	}
	err = cs_lat_start(&run, &iv.lat);
	if (err || !iv.lat)
		goto out;
	cs_setup_signals();
	warn("Tracing notifier callbacks%s (%s)... %s\n",
	     run.chain_mode ? " and chain passes" : "", cs_lat_how(iv.lat),
	     env.c.interval ? "Hit Ctrl-C to end." : "Hit Ctrl-C to end and print.");
	err = cs_run_intervals(&env.c, interval_wait, interval_one, &iv);
out:
	cs_lat_stop(iv.lat);
	cs_om_live_free(om);
	return err;
}
