// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * contention's BPF collection (cont_collect.h): load and attach
 * contention.bpf.c, then drain both map generations each interval.
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
#include "cont_collect.h"
#include "contention.h"
#include "contention.skel.h"
#include "probes.h"

static int cmp_cont(const void *a, const void *b)
{
	const struct cs_cont_key *x = &((const struct cs_cont_entry *)a)->key;
	const struct cs_cont_key *y = &((const struct cs_cont_entry *)b)->key;

	if (x->head != y->head)
		return x->head < y->head ? -1 : 1;
	return (int)x->op - (int)y->op;
}

/* by head, then most total wait first */
static int cmp_waiter(const void *a, const void *b)
{
	const struct cs_waiter_entry *x = a, *y = b;

	if (x->key.head != y->key.head)
		return x->key.head < y->key.head ? -1 : 1;
	if (x->val.total_ns != y->val.total_ns)
		return x->val.total_ns > y->val.total_ns ? -1 : 1;
	return (int)x->key.pid - (int)y->key.pid;
}

/* A running collection (cont_collect.h) */
struct cs_cont {
	const struct cs_common *c;
	struct contention_bpf *skel;
	/* the two generations of waits and waiters (see contention.bpf.c) */
	struct cs_gen_map waits_gen, waiters_gen;
	struct ksyms *own_ks;		/* read here (no run->ks), else NULL */
	const struct ksyms *ks;
	char how[224];
};

int cs_cont_drain(struct cs_cont *ct, struct cs_cont_sample *smp)
{
	const char *cmd = ct->c->cmd;
	int wfd, tfd;

	memset(smp, 0, sizeof(*smp));
	/* take the written generations out of use, then read them whole */
	wfd = cs_gen_swap(&ct->waits_gen);
	tfd = wfd < 0 ? wfd : cs_gen_swap(&ct->waiters_gen);
	if (wfd < 0 || tfd < 0) {
		warn("%s: error: cannot switch the BPF maps: %s\n", cmd,
		     strerror(wfd < 0 ? -wfd : -tfd));
		return -EIO;
	}
	smp->nc = cs_drain_map(wfd, sizeof(struct cs_cont_key),
			       offsetof(struct cs_cont_entry, val),
			       sizeof(struct cs_cont_entry), (void **)&smp->ce);
	smp->nw = cs_drain_map(tfd, sizeof(struct cs_waiter_key),
			       offsetof(struct cs_waiter_entry, val),
			       sizeof(struct cs_waiter_entry), (void **)&smp->we);
	if (smp->nc < 0 || smp->nw < 0) {
		warn("%s: error: cannot read the BPF maps: %s\n", cmd,
		     strerror(smp->nc < 0 ? -smp->nc : -smp->nw));
		free(smp->ce);
		free(smp->we);
		memset(smp, 0, sizeof(*smp));
		return -EIO;
	}
	qsort(smp->ce, smp->nc, sizeof(*smp->ce), cmp_cont);
	qsort(smp->we, smp->nw, sizeof(*smp->we), cmp_waiter);
	cs_read_health(ct->skel->obj, bpf_map__fd(ct->skel->maps.stats), &smp->health);
	return 0;
}

/*
 * Both modes: lock:contention_begin/end. Tracepoints mode: the notifier
 * events too (heads learned, acquisitions counted).
 */
static void pick_programs(const struct cs_common *c, struct contention_bpf *skel, bool btf)
{
	bool tps = c->mode == CS_MODE_TRACEPOINTS;
	struct bpf_program *p;

	bpf_object__for_each_program(p, skel->obj) {
		const char *name = bpf_program__name(p);
		size_t len = strlen(name);
		bool is_btf = len > 4 && !strcmp(name + len - 4, "_btf");

		bpf_program__set_autoload(p, is_btf == btf &&
					  (tps || !strncmp(name, "contention_", 11)));
	}
}

int cs_cont_watch_heads(int fd, const char *cmd, const struct ksyms *ks, const __u64 *heads,
			const int *kinds, int nr)
{
	struct cs_chain *known = NULL;
	int i, n, watched = 0;

	if (nr) {
		for (i = 0; i < nr; i++) {
			__u32 kind = kinds[i] == CS_KIND_ANY ? CS_LOCK_KIND_ANY : (__u32)kinds[i];

			if (kinds[i] != CS_KIND_ANY && kind != CS_KIND_BLOCKING &&
			    kind != CS_KIND_SRCU)
				continue;	/* raw and atomic chains take no sleeping lock */
			if (bpf_map_update_elem(fd, &heads[i], &kind, BPF_ANY)) {
				warn("%s: error: cannot watch chain 0x%llx: %s\n", cmd,
				     (unsigned long long)heads[i], strerror(errno));
				return -1;
			}
			watched++;
		}
		return watched;
	}
	n = cs_chain_known_heads(ks, &known);
	for (i = 0; i < n; i++) {
		__u32 kind = known[i].kind;

		if (kind != CS_KIND_BLOCKING && kind != CS_KIND_SRCU)
			continue;
		if (bpf_map_update_elem(fd, &known[i].head, &kind, BPF_ANY)) {
			warn("%s: error: cannot watch chain %s: %s\n", cmd,
			     known[i].name, strerror(errno));
			free(known);
			return -1;
		}
		watched++;
	}
	free(known);
	return watched;
}

/* Open, load and attach contention.bpf.c for ct; 0, or -1 after one line */
static int cont_attach(struct cs_cont *ct, __u64 head)
{
	const struct cs_common *c = ct->c;
	const struct ksyms *ks = ct->ks;
	bool tps = c->mode == CS_MODE_TRACEPOINTS;
	struct contention_bpf *skel;
	int err, nr_heads, any = CS_KIND_ANY;
	bool btf;

	skel = ct->skel = contention_bpf__open();
	if (!skel) {
		warn("%s: error: failed to open BPF skeleton\n", c->cmd);
		return -1;
	}
	skel->rodata->targ_units = c->units;
	skel->rodata->targ_learn = tps && !head;
	if (cs_map_entries()) {
		bpf_map__set_max_entries(skel->maps.waits_0, cs_map_entries());
		bpf_map__set_max_entries(skel->maps.waits_1, cs_map_entries());
		bpf_map__set_max_entries(skel->maps.waiters_0, cs_map_entries());
		bpf_map__set_max_entries(skel->maps.waiters_1, cs_map_entries());
	}
	btf = !c->raw_tp && cs_tp_btf_usable("contention_begin") &&
	      (!tps || cs_tp_btf_usable("notifier_call_end"));
	pick_programs(c, skel, btf);

	err = contention_bpf__load(skel);
	if (err) {
		warn("%s: error: failed to load BPF skeleton: %s\n", c->cmd,
		     strerror(-err));
		return -1;
	}
	cs_gen_init(&ct->waits_gen, skel->maps.waits, skel->maps.waits_0, skel->maps.waits_1);
	cs_gen_init(&ct->waiters_gen, skel->maps.waiters, skel->maps.waiters_0,
		    skel->maps.waiters_1);
	nr_heads = cs_cont_watch_heads(bpf_map__fd(skel->maps.watched_heads), c->cmd, ks,
				       &head, &any, head ? 1 : 0);
	if (nr_heads < 0)
		return -1;
	if (tps)
		snprintf(ct->how, sizeof(ct->how), "mode tracepoints: %s programs, "
			 "lock:contention_begin/end on the locks of %s; acquisitions from "
			 "the notifier events", btf ? "tp_btf" : "raw_tp",
			 head ? "1 chain" : "every blocking and SRCU chain seen");
	else
		snprintf(ct->how, sizeof(ct->how), "mode probes: lock:contention_begin/end "
			 "on the locks of %d chains, contended acquisitions only", nr_heads);
	err = contention_bpf__attach(skel);
	if (err) {
		warn("%s: error: failed to attach BPF programs: %s\n", c->cmd,
		     strerror(-err));
		return -1;
	}
	return 0;
}

/*
 * contention's own start-up (no run->ks): the mode, lock:contention_*,
 * kallsyms, -c. CS_EXIT_OK or an exit code, said; *head set.
 */
static int cont_startup(struct cs_cont_run *run, struct cs_cont *ct, __u64 *head)
{
	/* tracepoints mode: the events that count acquisitions */
	struct cs_tp tps[] = {
		{ "notifier_call_end", 7 },
		{ "notifier_register", 5 },
		{ "notifier_unregister", 5 },
		{ "notifier_register_error", 6 },
		{ "notifier_unregister_error", 6 },
	};
	struct cs_common *c = run->c;
	int err;

	err = cs_mode_startup(c, tps, sizeof(tps) / sizeof(tps[0]), false);
	if (err)
		return err;
	if (!cs_cont_has_lock_tps()) {
		warn("%s: error: no event source: contention needs "
		     "lock:contention_begin/end (Linux 5.19+) in both modes, which this "
		     "kernel's BTF does not have\n", c->cmd);
		return CS_EXIT_NO_MODE;
	}
	ct->ks = ct->own_ks = cs_load_ksyms(c->cmd);
	if (!ct->ks)
		return CS_EXIT_ERROR;
	if (run->chain)
		return cs_resolve(c->cmd, ct->ks, "chain", run->chain, head);
	return CS_EXIT_OK;
}

int cs_cont_start(struct cs_cont_run *run, struct cs_cont **out)
{
	struct cs_common *c = run->c;
	struct cs_cont *ct;
	__u64 head = run->head;
	int err;

	*out = NULL;
	ct = calloc(1, sizeof(*ct));
	if (!ct) {
		warn("%s: error: out of memory\n", c->cmd);
		return CS_EXIT_ERROR;
	}
	ct->c = c;
	if (run->ks) {
		ct->ks = run->ks;
	} else {
		err = cont_startup(run, ct, &head);
		if (err)
			goto fail;
		if (cs_probe_only_mode(c->cmd, c->mode)) {
			if (head)
				warn("%s: chain %s is 0x%llx\n", c->cmd, run->chain,
				     (unsigned long long)head);
			cs_cont_stop(ct);
			return CS_EXIT_OK;
		}
		cs_setup_libbpf(c->verbose);
	}
	if (cont_attach(ct, head)) {
		err = CS_EXIT_ERROR;
		goto fail;
	}
	*out = ct;
	return CS_EXIT_OK;
fail:
	cs_cont_stop(ct);
	return err;
}

bool cs_cont_has_lock_tps(void)
{
	return cs_btf_has_tp("contention_begin", 2) && cs_btf_has_tp("contention_end", 2);
}

const char *cs_cont_how(const struct cs_cont *ct)
{
	return ct->how;
}

const struct ksyms *cs_cont_ksyms(const struct cs_cont *ct)
{
	return ct->ks;
}

void cs_cont_wait(struct cs_cont *ct)
{
	cs_wait_interval(ct->c);
}

void cs_cont_sample_free(struct cs_cont_sample *smp)
{
	free(smp->ce);
	free(smp->we);
	smp->ce = NULL;
	smp->we = NULL;
	smp->nc = smp->nw = 0;
}

void cs_cont_stop(struct cs_cont *ct)
{
	if (!ct)
		return;
	contention_bpf__destroy(ct->skel);
	ksyms__free(ct->own_ks);
	free(ct);
}
