// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope latency: per (chain, callback) latency histograms of notifier
 * callbacks from notifier:notifier_return's duration_ns, and with -C whole
 * chain passes from notifier_call_begin -> notifier_call_end.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "cbrow.h"
#include "chainwalk.h"
#include "chainscope.h"
#include "latency.h"
#include "latency.skel.h"
#include "probemode.h"

static struct env {
	struct cs_common c;
	bool per_val;
	bool chain_mode;
	const char *chain;
	const char *callback;
	int kind;
} env;

static const struct argp_option opts[] = {
	{ "chain", 'c', "CHAIN", 0, "Only this chain head (symbol or 0xADDR)", 0 },
	{ "callback", 'f', "CALLBACK", 0, "Only this callback (symbol or 0xADDR)", 0 },
	{ "kind", 'k', "KIND", 0, "Only chains of this kind: raw, atomic, blocking, srcu", 0 },
	{ "per-value", 'a', NULL, 0, "One histogram per event value (val) too", 0 },
	{ "chains", 'C', NULL, 0, "Also whole-chain pass latency (call_begin -> call_end)", 0 },
	{},
};

static const char doc[] =
"Summarize notifier callback latency as log2 histograms.\n"
"\n"
"Per chain and callback: count, max, p50/p99 (estimated from the log2\n"
"buckets), and how many calls returned NOTIFY_STOP (stop), NOTIFY_BAD\n"
"(bad) or an errno from notifier_from_errno() (errno). Durations come\n"
"from notifier_return's duration_ns, measured by the kernel (--mode\n"
"tracepoints), or in BPF between kprobe.multi entry and exit of each\n"
"watched callback (--mode probes: any kernel; see userspace/probemode.md).\n"
"\v"
"Examples:\n"
"  chainscope latency                 # trace until Ctrl-C, then print\n"
"  chainscope latency 1 10            # print every second, 10 times\n"
"  chainscope latency -m -C           # msecs; whole chain passes too\n"
"  chainscope latency -c reboot_notifier_list\n"
"  chainscope latency -f cs_loadgen_cb_busy -a   # per event value\n"
"  chainscope latency -k blocking -j  # JSON lines, blocking chains only\n"
"\n"
CS_EXIT_DOC;

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
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp_child children[] = {
	{ &cs_common_argp, 0, "Common options:", 0 },
	{},
};

static const struct argp argp = {
	.options = opts,
	.parser = parse_arg,
	.args_doc = "[INTERVAL [COUNT]]",
	.doc = doc,
	.children = children,
};

/* --- reading and printing ---------------------------------------------------- */

struct lat_entry {
	struct cs_lat_key key;
	struct cs_lat_hist val;
};

struct chain_entry {
	struct cs_chain_key key;
	struct cs_chain_hist val;
};

static int cmp_lat(const void *a, const void *b)
{
	const struct cs_lat_key *x = &((const struct lat_entry *)a)->key;
	const struct cs_lat_key *y = &((const struct lat_entry *)b)->key;

	if (x->head != y->head)
		return x->head < y->head ? -1 : 1;
	if (x->cb != y->cb)
		return x->cb < y->cb ? -1 : 1;
	return x->val < y->val ? -1 : x->val > y->val;
}

static int cmp_chain(const void *a, const void *b)
{
	const struct cs_chain_key *x = &((const struct chain_entry *)a)->key;
	const struct cs_chain_key *y = &((const struct chain_entry *)b)->key;

	if (x->head != y->head)
		return x->head < y->head ? -1 : 1;
	return x->val < y->val ? -1 : x->val > y->val;
}

/* The shared rows (cbrow.c), in lat's order; NULL if out of memory. */
static struct cs_cbrow *lat_rows(const struct lat_entry *lat, int n, const struct ksyms *ks)
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

/* the two generations of hists and chain_hists (see latency.bpf.c) */
static struct cs_gen_map lat_gen, chain_gen;

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
		json_object_object_add(json, "missed_call_begin", json_object_new_uint64(begin));
		json_object_object_add(json, "missed_call_end", json_object_new_uint64(end));
		json_object_object_add(json, "missed_begin_end_differ",
				       json_object_new_boolean(begin != end));
	} else if (begin != end) {
		printf("WARNING: BPF recursion protection skipped %llu call_begin and %llu "
		       "call_end events: that many passes lost their begin or their end\n",
		       begin, end);
	}
	*prev = *now;
}

static int print_interval(struct latency_bpf *skel, const struct ksyms *ks,
			  struct cs_health *seen, struct pair_misses *seen_pm,
			  struct cs_pm *pm)
{
	const char *unit = cs_units_suffix(env.c.units);
	struct lat_entry *lat = NULL;
	struct chain_entry *chains = NULL;
	struct cs_cbrow *rows;
	int nlat, nchain = 0, i;
	struct cs_health health;
	json_object *root = NULL, *arr;
	char head[256];
	struct cs_summary s;
	struct pair_misses pm_misses;
	int fd;

	/* take the written generation out of use, then read it whole */
	fd = cs_gen_swap(&lat_gen);
	if (fd < 0) {
		warn("%s: error: cannot switch map hists: %s\n", env.c.cmd, strerror(-fd));
		return fd;
	}
	nlat = cs_drain_map(fd, sizeof(struct cs_lat_key),
			    offsetof(struct lat_entry, val), sizeof(struct lat_entry),
			    (void **)&lat);
	if (nlat < 0) {
		warn("%s: error: cannot read map hists: %s\n", env.c.cmd, strerror(-nlat));
		return nlat;
	}
	if (env.chain_mode) {
		fd = cs_gen_swap(&chain_gen);
		if (fd < 0) {
			warn("%s: error: cannot switch map chain_hists: %s\n", env.c.cmd,
			     strerror(-fd));
			free(lat);
			return fd;
		}
		nchain = cs_drain_map(fd, sizeof(struct cs_chain_key),
				      offsetof(struct chain_entry, val),
				      sizeof(struct chain_entry), (void **)&chains);
		if (nchain < 0) {
			warn("%s: error: cannot read map chain_hists: %s\n", env.c.cmd,
			     strerror(-nchain));
			free(lat);
			return nchain;
		}
	}
	qsort(lat, nlat, sizeof(*lat), cmp_lat);
	qsort(chains, nchain, sizeof(*chains), cmp_chain);
	rows = lat_rows(lat, nlat, ks);
	if (!rows) {
		warn("%s: error: out of memory\n", env.c.cmd);
		free(lat);
		free(chains);
		return -ENOMEM;
	}

	/* counters are cumulative in the kernel: report what is new */
	cs_read_health(skel->obj, bpf_map__fd(skel->maps.stats), &health);
	read_pair_misses(skel, &pm_misses);

	if (env.c.json) {
		root = cs_json_root("latency", env.c.units);
		cs_pm_json_mode(&env.c, root);
		cs_report_health(&health, seen, env.chain_mode, root);
		cs_pm_report(pm, root);
		if (env.chain_mode)
			report_pair_misses(&pm_misses, seen_pm, root);
		arr = json_object_new_array();
		for (i = 0; i < nlat; i++)
			json_object_array_add(arr, cs_cbrow_json(&rows[i], env.c.units));
		json_object_object_add(root, "callbacks", arr);
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
	cs_report_health(&health, seen, env.chain_mode, NULL);
	cs_pm_report(pm, NULL);
	if (env.chain_mode)
		report_pair_misses(&pm_misses, seen_pm, NULL);
	fflush(stdout);
out:
	free(rows);
	free(lat);
	free(chains);
	return 0;
}

/* --- main ------------------------------------------------------------------- */

/* tracepoints: tp_btf or raw_tp; probes: the pm_* programs (probemode.bpf.h) */
static void pick_programs(struct latency_bpf *skel, bool btf)
{
	bool tps = env.c.mode == CS_MODE_TRACEPOINTS;

	bpf_program__set_autoload(skel->progs.notifier_return_btf, tps && btf);
	bpf_program__set_autoload(skel->progs.notifier_return_raw, tps && !btf);
	bpf_program__set_autoload(skel->progs.call_begin_btf, tps && btf && env.chain_mode);
	bpf_program__set_autoload(skel->progs.call_begin_raw, tps && !btf && env.chain_mode);
	bpf_program__set_autoload(skel->progs.call_end_btf, tps && btf && env.chain_mode);
	bpf_program__set_autoload(skel->progs.call_end_raw, tps && !btf && env.chain_mode);
	cs_pm_autoload(skel->obj, !tps);
}

/* probes mode: after load, the API programs and the callbacks */
static struct cs_pm *start_probes(struct latency_bpf *skel, const struct ksyms *ks,
				  __u64 head)
{
	struct cs_pm_opts o = {
		.cmd = env.c.cmd,
		.verbose = env.c.verbose,
		.only_head = head,
		.only_kind = env.kind,
		.known_heads = !head,
	};
	int kind = env.kind == CS_KIND_ANY ? CS_CHAIN_KIND_UNKNOWN : env.kind;

	if (head) {	/* walked at start: its passes are never early */
		o.heads = &head;
		o.kinds = &kind;
		o.nr_heads = 1;
	}
	return cs_pm_start(skel->obj, ks, &o);
}

int cmd_latency(int argc, char **argv)
{
	struct cs_tp tps[] = {
		{ "notifier_return", 8 },
		{ "notifier_call_begin", 5 },
		{ "notifier_call_end", 7 },
	};
	struct latency_bpf *skel = NULL;
	struct cs_pm *pm = NULL;
	struct ksyms *ks = NULL;
	struct cs_health seen = {};
	struct pair_misses seen_pm = {};
	__u64 head = 0, cb = 0;
	char how[256];
	long n = 0;
	bool btf;
	int err;

	cs_common_init(&env.c, argv[0]);
	env.kind = CS_KIND_ANY;
	cs_parse_args(&argp, argc, argv, &env);

	err = cs_mode_startup(&env.c, tps, env.chain_mode ? 3 : 1, true);
	if (err)
		return err;
	/*
	 * -C keeps a stack of open passes per execution context, told apart
	 * by the kernel's per-CPU preempt count (bpf/exec_ctx.bpf.h). Without
	 * it an interrupt's pass would pop its task's frames: refuse.
	 */
	if (env.chain_mode && !cs_btf_has_preempt_count()) {
		warn("%s: error: -C needs the kernel's per-CPU preempt count (__preempt_count "
		     "or pcpu_hot, and this_cpu_off), which its BTF does not locate: cannot "
		     "tell interrupt from task context\n",
		     env.c.cmd);
		return CS_EXIT_NO_CTX;
	}

	ks = cs_load_ksyms(env.c.cmd);
	if (!ks)
		return CS_EXIT_ERROR;
	if (env.chain) {
		err = cs_resolve(env.c.cmd, ks, "chain", env.chain, &head);
		if (err)
			goto cleanup;
	}
	if (env.callback) {
		err = cs_resolve(env.c.cmd, ks, "callback", env.callback, &cb);
		if (err)
			goto cleanup;
	}
	if (cs_probe_only_mode(env.c.cmd, env.c.mode)) {
		if (head)
			warn("%s: chain %s is 0x%llx\n", env.c.cmd, env.chain,
			     (unsigned long long)head);
		if (cb)
			warn("%s: callback %s is 0x%llx\n", env.c.cmd, env.callback,
			     (unsigned long long)cb);
		err = CS_EXIT_OK;
		goto cleanup;
	}

	cs_setup_libbpf(env.c.verbose);
	if (env.c.mode == CS_MODE_PROBES) {
		err = cs_pm_features(env.c.cmd);
		if (err)
			goto cleanup;
	}
	skel = latency_bpf__open();
	if (!skel) {
		warn("%s: error: failed to open BPF skeleton\n", env.c.cmd);
		err = CS_EXIT_ERROR;
		goto cleanup;
	}
	skel->rodata->targ_head = head;
	skel->rodata->targ_cb = cb;
	skel->rodata->targ_kind = env.kind;
	skel->rodata->targ_units = env.c.units;
	skel->rodata->targ_per_val = env.per_val;
	skel->rodata->cs_preempt_count_off = cs_btf_preempt_count_off();
	skel->rodata->cs_pm_die_chain = cs_pm_die_chain_addr(ks);
	skel->rodata->cs_pm_only_head = head;

	if (cs_map_entries()) {
		bpf_map__set_max_entries(skel->maps.hists_0, cs_map_entries());
		bpf_map__set_max_entries(skel->maps.hists_1, cs_map_entries());
		bpf_map__set_max_entries(skel->maps.chain_hists_0, cs_map_entries());
		bpf_map__set_max_entries(skel->maps.chain_hists_1, cs_map_entries());
	}
	if (!env.chain_mode) {
		/* preallocated; without -C nothing uses them */
		bpf_map__set_max_entries(skel->maps.chain_hists_0, 1);
		bpf_map__set_max_entries(skel->maps.chain_hists_1, 1);
		bpf_map__set_max_entries(skel->maps.stacks, 1);
	}
	btf = env.c.mode == CS_MODE_TRACEPOINTS && !env.c.raw_tp &&
	      cs_tp_btf_usable("notifier_return");
	pick_programs(skel, btf);

	err = latency_bpf__load(skel);
	if (err) {
		warn("%s: error: failed to load BPF skeleton: %s\n", env.c.cmd,
		     strerror(-err));
		err = CS_EXIT_ERROR;
		goto cleanup;
	}
	cs_gen_init(&lat_gen, skel->maps.hists, skel->maps.hists_0, skel->maps.hists_1);
	cs_gen_init(&chain_gen, skel->maps.chain_hists, skel->maps.chain_hists_0,
		    skel->maps.chain_hists_1);
	/*
	 * call_end before call_begin: then every pass whose begin we see
	 * also has its end seen (a pass already running is only unpaired).
	 * The skeleton's attach then leaves it alone (autoattach off); its
	 * link is in skel->links, so __destroy() detaches it.
	 */
	if (env.chain_mode && env.c.mode == CS_MODE_TRACEPOINTS) {
		struct bpf_program *end = btf ? skel->progs.call_end_btf : skel->progs.call_end_raw;
		struct bpf_link **link = btf ? &skel->links.call_end_btf : &skel->links.call_end_raw;

		*link = bpf_program__attach(end);
		if (!*link) {
			err = -errno;
			warn("%s: error: failed to attach %s: %s\n", env.c.cmd,
			     bpf_program__name(end), strerror(-err));
			err = CS_EXIT_ERROR;
			goto cleanup;
		}
		bpf_program__set_autoattach(end, false);
	}
	err = latency_bpf__attach(skel);
	if (err) {
		warn("%s: error: failed to attach BPF programs: %s\n", env.c.cmd,
		     strerror(-err));
		err = CS_EXIT_ERROR;
		goto cleanup;
	}
	if (env.c.mode == CS_MODE_PROBES) {
		struct cs_pm_attach_stats as;

		pm = start_probes(skel, ks, head);
		if (!pm) {
			err = CS_EXIT_ERROR;
			goto cleanup;
		}
		cs_pm_get_attach_stats(pm, &as);
		snprintf(how, sizeof(how), "mode probes: fentry/fexit on the chain API "
			 "(%d links in %.3f s), kprobe.multi on %d callbacks (%d failed, "
			 "%d links in %.3f s)", as.api_links, as.api_s, as.attached,
			 as.failed, as.links, as.attach_s);
	} else {
		snprintf(how, sizeof(how), "mode tracepoints: %s programs",
			 btf ? "tp_btf" : "raw_tp");
	}
	skel->bss->chain_armed = 1;

	cs_setup_signals();
	warn("Tracing notifier callbacks%s (%s)... %s\n",
	     env.chain_mode ? " and chain passes" : "", how,
	     env.c.interval ? "Hit Ctrl-C to end." : "Hit Ctrl-C to end and print.");

	while (!cs_exiting) {
		cs_pm_wait_interval(pm, &env.c);
		err = print_interval(skel, ks, &seen, &seen_pm, pm);
		if (err) {
			err = CS_EXIT_ERROR;
			goto cleanup;
		}
		if (cs_last_interval(&env.c, &n))
			break;
	}
	err = CS_EXIT_OK;

cleanup:
	cs_pm_stop(pm);
	latency_bpf__destroy(skel);
	ksyms__free(ks);
	return err;
}
