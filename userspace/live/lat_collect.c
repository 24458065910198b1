// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * latency's BPF collection (lat_collect.h): start-up probes, loading and
 * attaching latency.bpf.c, then a drained sample whenever the caller asks. `chainscope latency` prints the samples; `latency
 * --openmetrics` and `chainscope serve` add them up (om_counters.c).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "chainscope.h"
#include "live.h"
#include "chain_walk.h"
#include "latency.skel.h"
#include "lat_collect.h"
#include "probes.h"

/* A running collection (lat_collect.h) */
struct cs_lat {
	const struct cs_lat_run *run;
	struct latency_bpf *skel;
	struct cs_pm *pm;		/* probes mode, else NULL */
	struct ksyms *ks;
	/* the two generations of hists and chain_hists (see latency.bpf.c) */
	struct cs_gen_map lat_gen, chain_gen;
	char how[256];
};

static int cmp_lat(const void *a, const void *b)
{
	const struct cs_lat_key *x = &((const struct cs_lat_entry *)a)->key;
	const struct cs_lat_key *y = &((const struct cs_lat_entry *)b)->key;

	if (x->head != y->head)
		return x->head < y->head ? -1 : 1;
	if (x->cb != y->cb)
		return x->cb < y->cb ? -1 : 1;
	return x->val < y->val ? -1 : x->val > y->val;
}

static int cmp_chain(const void *a, const void *b)
{
	const struct cs_chain_key *x = &((const struct cs_chain_entry *)a)->key;
	const struct cs_chain_key *y = &((const struct cs_chain_entry *)b)->key;

	if (x->head != y->head)
		return x->head < y->head ? -1 : 1;
	return x->val < y->val ? -1 : x->val > y->val;
}

/* Take the written generations out of use, then read them whole; 0 or -errno */
static int drain(struct cs_lat *l, struct cs_lat_sample *smp)
{
	const struct cs_lat_run *run = l->run;
	const char *cmd = run->c->cmd;
	int fd;

	fd = cs_gen_swap(&l->lat_gen);
	if (fd < 0) {
		warn("%s: error: cannot switch map hists: %s\n", cmd, strerror(-fd));
		return fd;
	}
	smp->nlat = cs_drain_map(fd, sizeof(struct cs_lat_key),
				 offsetof(struct cs_lat_entry, val),
				 sizeof(struct cs_lat_entry), (void **)&smp->lat);
	if (smp->nlat < 0) {
		warn("%s: error: cannot read map hists: %s\n", cmd, strerror(-smp->nlat));
		return smp->nlat;
	}
	if (run->chain_mode) {
		fd = cs_gen_swap(&l->chain_gen);
		if (fd < 0) {
			warn("%s: error: cannot switch map chain_hists: %s\n", cmd,
			     strerror(-fd));
			return fd;
		}
		smp->nchain = cs_drain_map(fd, sizeof(struct cs_chain_key),
					   offsetof(struct cs_chain_entry, val),
					   sizeof(struct cs_chain_entry), (void **)&smp->chains);
		if (smp->nchain < 0) {
			warn("%s: error: cannot read map chain_hists: %s\n", cmd,
			     strerror(-smp->nchain));
			return smp->nchain;
		}
	}
	qsort(smp->lat, smp->nlat, sizeof(*smp->lat), cmp_lat);
	qsort(smp->chains, smp->nchain, sizeof(*smp->chains), cmp_chain);
	cs_read_health(smp->skel->obj, bpf_map__fd(smp->skel->maps.stats), &smp->health);
	return 0;
}

/* tracepoints: tp_btf or raw_tp; probes: the pm_* programs (probemode.bpf.h) */
static void pick_programs(const struct cs_lat_run *run, struct latency_bpf *skel, bool btf)
{
	bool tps = run->c->mode == CS_MODE_TRACEPOINTS;
	bool cm = run->chain_mode;

	bpf_program__set_autoload(skel->progs.notifier_run_btf, tps && btf);
	bpf_program__set_autoload(skel->progs.notifier_run_raw, tps && !btf);
	bpf_program__set_autoload(skel->progs.notifier_return_btf, tps && btf);
	bpf_program__set_autoload(skel->progs.notifier_return_raw, tps && !btf);
	bpf_program__set_autoload(skel->progs.call_begin_btf, tps && btf && cm);
	bpf_program__set_autoload(skel->progs.call_begin_raw, tps && !btf && cm);
	bpf_program__set_autoload(skel->progs.call_end_btf, tps && btf && cm);
	bpf_program__set_autoload(skel->progs.call_end_raw, tps && !btf && cm);
	bpf_program__set_autoload(skel->progs.test_return_ns, false);	/* cs-bpf-unit's */
	cs_pm_autoload(skel->obj, !tps);
}

/* probes mode: after load, the API programs and the callbacks */
static struct cs_pm *start_probes(const struct cs_lat_run *run, struct latency_bpf *skel,
				  const struct ksyms *ks, __u64 head)
{
	struct cs_pm_opts o = {
		.cmd = run->c->cmd,
		.verbose = run->c->verbose,
		.only_head = head,
		.only_kind = run->kind,
		.known_heads = !head,
	};
	int kind = run->kind == CS_KIND_ANY ? CS_CHAIN_KIND_UNKNOWN : run->kind;
	int kinds[CS_LAT_MAX_SEEDS], i;

	if (head) {	/* walked at start: its passes are never early */
		o.heads = &head;
		o.kinds = &kind;
		o.nr_heads = 1;
	} else if (run->nr_seed_heads > 0 && run->nr_seed_heads <= CS_LAT_MAX_SEEDS) {
		for (i = 0; i < run->nr_seed_heads; i++)
			kinds[i] = kind;
		o.heads = run->seed_heads;
		o.kinds = kinds;
		o.nr_heads = run->nr_seed_heads;
	}
	return cs_pm_start(skel->obj, ks, &o);
}

/*
 * The mode, then whether -C can be had: the kernel's preempt count and,
 * in tracepoints mode, call_begin/end. CS_EXIT_OK or an exit code, said.
 */
static int lat_startup(struct cs_lat_run *run)
{
	struct cs_tp tps[] = {
		{ "notifier_return", 7 },
		{ "notifier_call_begin", 7 },
		{ "notifier_call_end", 7 },
	};
	struct cs_common *c = run->c;
	int err;

	/* optional -C: only where the preempt count is located (read after the probes) */
	err = cs_mode_startup(c, tps, run->chain_mode && !run->chain_mode_optional ? 3 : 1,
			      true);
	if (err)
		return err;
	if (run->chain_mode && run->chain_mode_optional &&
	    (!cs_btf_has_preempt_count() ||
	     (c->mode == CS_MODE_TRACEPOINTS && !cs_btf_has_tp(tps[1].name, tps[1].nr_args)) ||
	     (c->mode == CS_MODE_TRACEPOINTS && !cs_btf_has_tp(tps[2].name, tps[2].nr_args)))) {
		warn("%s: warning: no chain passes (the kernel's BTF locates no per-CPU "
		     "preempt count, or lacks notifier_call_begin/end)\n", c->cmd);
		run->chain_mode = false;
	}
	/*
	 * -C keeps a stack of open passes per execution context, told apart
	 * by the kernel's per-CPU preempt count (bpf/exec_ctx.bpf.h). Without
	 * it an interrupt's pass would pop its task's frames: refuse.
	 */
	if (run->chain_mode && !cs_btf_has_preempt_count()) {
		warn("%s: error: -C needs the kernel's per-CPU preempt count (__preempt_count "
		     "or pcpu_hot, and this_cpu_off), which its BTF does not locate: cannot "
		     "tell interrupt from task context\n",
		     c->cmd);
		return CS_EXIT_NO_CTX;
	}
	return CS_EXIT_OK;
}

/*
 * Open the skeleton (*skelp), set it up for the run (targets, units, map
 * sizes, tp_btf or raw_tp programs: *btfp) and load it. CS_EXIT_OK or an
 * exit code, said.
 */
static int lat_load(struct cs_lat *l, __u64 head, __u64 cb, struct latency_bpf **skelp,
		    bool *btfp)
{
	const struct cs_lat_run *run = l->run;
	const struct ksyms *ks = l->ks;
	struct cs_common *c = run->c;
	struct latency_bpf *skel;
	bool btf;
	int err;

	cs_setup_libbpf(c->verbose);
	if (c->mode == CS_MODE_PROBES) {
		err = cs_pm_features(c->cmd);
		if (err)
			return err;
	}
	skel = *skelp = latency_bpf__open();
	if (!skel) {
		warn("%s: error: failed to open BPF skeleton\n", c->cmd);
		return CS_EXIT_ERROR;
	}
	skel->rodata->targ_head = head;
	skel->rodata->targ_cb = cb;
	skel->rodata->targ_kind = run->kind;
	skel->rodata->targ_units = c->units;
	skel->rodata->targ_per_val = run->per_val;
	skel->rodata->cs_preempt_count_off = cs_btf_preempt_count_off();
	skel->rodata->cs_pm_die_chain = cs_pm_die_chain_addr(ks);
	skel->rodata->cs_pm_only_head = head;

	if (cs_map_entries()) {
		bpf_map__set_max_entries(skel->maps.hists_0, cs_map_entries());
		bpf_map__set_max_entries(skel->maps.hists_1, cs_map_entries());
		bpf_map__set_max_entries(skel->maps.chain_hists_0, cs_map_entries());
		bpf_map__set_max_entries(skel->maps.chain_hists_1, cs_map_entries());
	}
	if (!run->chain_mode) {
		/* preallocated; without -C nothing uses them */
		bpf_map__set_max_entries(skel->maps.chain_hists_0, 1);
		bpf_map__set_max_entries(skel->maps.chain_hists_1, 1);
		bpf_map__set_max_entries(skel->maps.stacks, 1);
	}
	btf = *btfp = c->mode == CS_MODE_TRACEPOINTS && !c->raw_tp &&
	      cs_tp_btf_usable("notifier_return");
	pick_programs(run, skel, btf);

	err = latency_bpf__load(skel);
	if (err) {
		warn("%s: error: failed to load BPF skeleton: %s\n", c->cmd,
		     strerror(-err));
		return CS_EXIT_ERROR;
	}
	cs_gen_init(&l->lat_gen, skel->maps.hists, skel->maps.hists_0, skel->maps.hists_1);
	cs_gen_init(&l->chain_gen, skel->maps.chain_hists, skel->maps.chain_hists_0,
		    skel->maps.chain_hists_1);
	return CS_EXIT_OK;
}

/*
 * Attach: in tracepoints mode notifier_return, and under -C call_end,
 * first, then the skeleton's programs, or probes mode's (*pmp); how says
 * which, for the banner. CS_EXIT_OK or CS_EXIT_ERROR, said.
 */
static int lat_attach(const struct cs_lat_run *run, struct latency_bpf *skel,
		      const struct ksyms *ks, __u64 head, bool btf, struct cs_pm **pmp,
		      char *how, size_t how_len)
{
	struct cs_common *c = run->c;
	struct cs_pm *pm;
	int err;

	/*
	 * notifier_return before notifier_run and call_end before
	 * call_begin: then every callback or pass whose start we see also
	 * has its end seen (one already running is only unpaired).
	 */
	if (c->mode == CS_MODE_TRACEPOINTS) {
		err = btf ? cs_attach_first(c->cmd, skel->progs.notifier_return_btf,
					    &skel->links.notifier_return_btf) :
			    cs_attach_first(c->cmd, skel->progs.notifier_return_raw,
					    &skel->links.notifier_return_raw);
		if (!err && run->chain_mode)
			err = btf ? cs_attach_first(c->cmd, skel->progs.call_end_btf,
						    &skel->links.call_end_btf) :
				    cs_attach_first(c->cmd, skel->progs.call_end_raw,
						    &skel->links.call_end_raw);
		if (err)
			return err;
	}
	err = latency_bpf__attach(skel);
	if (err) {
		warn("%s: error: failed to attach BPF programs: %s\n", c->cmd,
		     strerror(-err));
		return CS_EXIT_ERROR;
	}
	if (c->mode == CS_MODE_PROBES) {
		struct cs_pm_attach_stats as;

		pm = *pmp = start_probes(run, skel, ks, head);
		if (!pm)
			return CS_EXIT_ERROR;
		cs_pm_get_attach_stats(pm, &as);
		snprintf(how, how_len, "mode probes: fentry/fexit on the chain API "
			 "(%d links in %.3f s), kprobe.multi on %d callbacks (%d failed, "
			 "%d links in %.3f s)", as.api_links, as.api_s, as.attached,
			 as.failed, as.links, as.attach_s);
	} else {
		snprintf(how, how_len, "mode tracepoints: %s programs",
			 btf ? "tp_btf" : "raw_tp");
	}
	skel->bss->chain_armed = 1;
	return CS_EXIT_OK;
}

int cs_lat_start(struct cs_lat_run *run, struct cs_lat **out)
{
	struct cs_common *c = run->c;
	__u64 head = 0, cb = 0;
	struct cs_lat *l;
	bool btf;
	int err;

	*out = NULL;
	err = lat_startup(run);
	if (err)
		return err;
	if (run->probed && !cs_probe_only_set()) {
		err = run->probed(run->ctx);
		if (err)
			return err;
	}
	l = calloc(1, sizeof(*l));
	if (!l) {
		warn("%s: error: out of memory\n", c->cmd);
		return CS_EXIT_ERROR;
	}
	l->run = run;
	l->ks = cs_load_ksyms(c->cmd);
	if (!l->ks) {
		err = CS_EXIT_ERROR;
		goto fail;
	}
	if (run->chain) {
		err = cs_resolve(c->cmd, l->ks, "chain", run->chain, &head);
		if (err)
			goto fail;
	}
	if (run->callback) {
		err = cs_resolve(c->cmd, l->ks, "callback", run->callback, &cb);
		if (err)
			goto fail;
	}
	if (run->setup) {
		err = run->setup(run->ctx, l->ks);
		if (err)
			goto fail;
	}
	if (cs_probe_only_mode(c->cmd, c->mode)) {
		if (head)
			warn("%s: chain %s is 0x%llx\n", c->cmd, run->chain,
			     (unsigned long long)head);
		if (cb)
			warn("%s: callback %s is 0x%llx\n", c->cmd, run->callback,
			     (unsigned long long)cb);
		cs_lat_stop(l);
		return CS_EXIT_OK;
	}

	err = lat_load(l, head, cb, &l->skel, &btf);
	if (!err)
		err = lat_attach(run, l->skel, l->ks, head, btf, &l->pm, l->how, sizeof(l->how));
	if (err)
		goto fail;
	*out = l;
	return CS_EXIT_OK;
fail:
	cs_lat_stop(l);
	return err;
}

const char *cs_lat_how(const struct cs_lat *l)
{
	return l->how;
}

const struct ksyms *cs_lat_ksyms(const struct cs_lat *l)
{
	return l->ks;
}

void cs_lat_wait(struct cs_lat *l)
{
	cs_pm_wait_interval(l->pm, l->run->c);
}

int cs_lat_drain(struct cs_lat *l, struct cs_lat_sample *smp)
{
	int err;

	memset(smp, 0, sizeof(*smp));
	smp->ks = l->ks;
	smp->skel = l->skel;
	smp->pm = l->pm;
	err = drain(l, smp);
	if (err)
		cs_lat_sample_free(smp);
	return err;
}

void cs_lat_sample_free(struct cs_lat_sample *smp)
{
	free(smp->lat);
	free(smp->chains);
	smp->lat = NULL;
	smp->chains = NULL;
	smp->nlat = smp->nchain = 0;
}

void cs_lat_stop(struct cs_lat *l)
{
	if (!l)
		return;
	cs_pm_stop(l->pm);
	latency_bpf__destroy(l->skel);
	ksyms__free(l->ks);
	free(l);
}
