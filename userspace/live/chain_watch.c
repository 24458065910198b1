// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope chains -w: collect the chain heads notifier events name
 * during a window (bpf/chainseen.bpf.c). chains.c then walks them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "chainscope.h"
#include "live.h"
#include "chain_watch.h"
#include "chain_walk.h"
#include "probes.h"
#include "chainseen.h"
#include "chainseen.skel.h"

/* tracepoints mode's programs are the tp_btf ones; the rest are fentry */
static bool is_tp_prog(const struct bpf_program *p)
{
	return !strncmp(bpf_program__section_name(p), "tp_btf/", 7);
}

/* Load the programs of this mode (probes: only those whose function exists). */
static int pick_programs(struct chainseen_bpf *skel, int mode)
{
	const struct btf *btf = cs_kernel_btf();
	struct bpf_program *p;
	int n = 0;

	bpf_object__for_each_program(p, skel->obj) {
		const char *fn = cs_pm_target(p);
		bool load;

		if (mode == CS_MODE_TRACEPOINTS)
			load = is_tp_prog(p);
		else
			load = fn && btf && btf__find_by_name_kind(btf, fn, BTF_KIND_FUNC) > 0;
		bpf_program__set_autoload(p, load);
		n += load;
	}
	return n;
}

/* every program of the object, loaded or not */
#define MAX_PROGS 32

/*
 * Attach each loaded program. Tracepoints mode needs them all; probes
 * mode takes what attaches, saying what did not (a function may be
 * notrace on some kernel). Programs attached, 0 when probes mode got
 * none (exit 9), -1 on another failure; a one-line message either way.
 */
static int attach(const char *cmd, struct chainseen_bpf *skel, int mode,
		  struct bpf_link **links)
{
	struct bpf_program *p;
	int i = 0, n = 0, err = 0;

	bpf_object__for_each_program(p, skel->obj) {
		if (i == MAX_PROGS)
			break;
		if (!bpf_program__autoload(p)) {
			i++;
			continue;
		}
		links[i] = bpf_program__attach(p);
		if (links[i]) {
			n++;
		} else {
			err = -errno;
			links[i] = NULL;
			if (mode == CS_MODE_TRACEPOINTS) {
				warn("%s: error: -w: cannot attach to %s: %s\n", cmd,
				     bpf_program__section_name(p), strerror(-err));
				return -1;
			}
			warn("%s: -w: cannot attach to %s (%s): its events are not seen\n",
			     cmd, bpf_program__section_name(p), strerror(-err));
		}
		i++;
	}
	if (!n)
		warn("%s: error: no event source for -w: no notifier tracepoints, and fentry "
		     "on the chain API failed: %s (BPF trampolines?)\n", cmd, strerror(-err));
	return n;
}

static void detach(struct bpf_link **links)
{
	int i;

	for (i = 0; i < MAX_PROGS; i++) {
		bpf_link__destroy(links[i]);
		links[i] = NULL;
	}
}

static int cmp_head(const void *a, const void *b)
{
	const struct cs_seen_head *x = a, *y = b;

	return x->head < y->head ? -1 : x->head > y->head;
}

static int only_kind(__u32 kinds)
{
	int k;

	for (k = CS_CHAIN_RAW; k <= CS_CHAIN_SRCU; k++)
		if (kinds == 1U << k)
			return k;
	return CS_CHAIN_KIND_UNKNOWN;
}

/* Drain `seen` into res; -errno on failure. */
static int read_seen(int fd, struct cs_seen_result *res)
{
	__u64 key, next, *prev = NULL;
	struct cs_seen v;
	size_t cap = 64;
	int err;

	res->heads = malloc(cap * sizeof(*res->heads));
	if (!res->heads)
		return -ENOMEM;
	while (!(err = bpf_map_get_next_key(fd, prev, &next))) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &v))
			continue;	/* cannot go away: nothing deletes */
		if (cs_grow(&res->heads, &cap, (size_t)res->nr + 1, sizeof(*res->heads)))
			return -ENOMEM;
		res->heads[res->nr].head = key;
		res->heads[res->nr].kinds = v.kinds;
		res->heads[res->nr].kind = only_kind(v.kinds);
		res->heads[res->nr].events = v.events;
		res->nr++;
	}
	if (err != -ENOENT)
		return err;
	qsort(res->heads, res->nr, sizeof(*res->heads), cmp_head);
	return 0;
}

int cs_chains_watch(const char *cmd, int mode, long seconds, const struct ksyms *ks,
		    struct cs_seen_result *res)
{
	struct cs_common c = { .cmd = cmd, .interval = seconds };
	struct bpf_link *links[MAX_PROGS] = {};
	struct chainseen_bpf *skel;
	int err, n;

	memset(res, 0, sizeof(*res));
	skel = chainseen_bpf__open();
	if (!skel) {
		warn("%s: error: failed to open BPF skeleton\n", cmd);
		return CS_EXIT_ERROR;
	}
	skel->rodata->die_chain = cs_pm_die_chain_addr(ks);
	n = pick_programs(skel, mode);
	if (!n) {
		/* cs_mode_startup() found atomic_notifier_call_chain: not reached */
		warn("%s: error: -w: no notifier API function in the kernel BTF to attach to\n",
		     cmd);
		err = CS_EXIT_NO_MODE;
		goto out;
	}
	err = chainseen_bpf__load(skel);
	if (err) {
		warn("%s: error: -w: failed to load BPF programs (mode %s): %s\n", cmd,
		     cs_mode_name(mode), strerror(-err));
		err = CS_EXIT_ERROR;
		goto out;
	}
	n = attach(cmd, skel, mode, links);
	if (n <= 0) {
		err = n ? CS_EXIT_ERROR : CS_EXIT_NO_MODE;
		goto out;
	}

	cs_setup_signals();
	warn("Tracing notifier chain heads for %ld s (mode %s, %d programs)... "
	     "Hit Ctrl-C to end early.\n", seconds, cs_mode_name(mode), n);
	cs_wait_interval(&c);
	detach(links);

	err = read_seen(bpf_map__fd(skel->maps.seen), res);
	if (err) {
		warn("%s: error: -w: reading the heads seen: %s\n", cmd, strerror(-err));
		free(res->heads);
		res->heads = NULL;
		res->nr = 0;
		err = CS_EXIT_ERROR;
		goto out;
	}
	res->dropped = skel->bss->seen_dropped;
	err = CS_EXIT_OK;
out:
	detach(links);
	chainseen_bpf__destroy(skel);
	return err;
}
