// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope: the event source (--mode), and the `probes` mode's set-up:
 * feature probes and program choice. Running it: probes_run.c.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "chain_walk.h"
#include "probes.h"
#include "probemode.h"
#include "live.h"

/* --- mode choice (no bpf()) -------------------------------------------------- */

/* probes mode's feature probes attach here (fentry and kprobe.multi) */
#define CS_PM_PROBE_FN "atomic_notifier_call_chain"

static int btf_find_fn(const struct btf *btf, const char *fn)
{
	return btf ? btf__find_by_name_kind(btf, fn, BTF_KIND_FUNC) : -1;
}

static bool btf_has_typedef(const char *tp)
{
	const struct btf *btf = cs_kernel_btf();
	char name[128];

	snprintf(name, sizeof(name), "btf_trace_%s", tp);
	return btf && btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF) > 0;
}

int cs_mode_startup(struct cs_common *c, const struct cs_tp *tps, int nr_tps,
		    bool need_api)
{
	const struct btf *btf;
	int i, r;

	cs_setup_libbpf(c->verbose);	/* -v: the start-up probes' output too */
	r = cs_startup_probes(c->cmd, tps, 0);
	if (r)
		return r;
	if (c->mode == CS_MODE_AUTO) {
		/* ours when every tracepoint the tool needs is declared (any prototype) */
		c->mode = CS_MODE_TRACEPOINTS;
		for (i = 0; i < nr_tps; i++)
			if (!btf_has_typedef(tps[i].name))
				c->mode = CS_MODE_PROBES;
	}
	if (c->mode == CS_MODE_TRACEPOINTS)
		return cs_startup_probes(c->cmd, tps, nr_tps);
	btf = cs_kernel_btf();
	if (need_api && btf_find_fn(btf, CS_PM_PROBE_FN) <= 0) {
		warn("%s: error: no event source: no notifier tracepoints, and probes mode "
		     "needs BPF trampolines on the chain API: the kernel BTF has no "
		     "function %s\n", c->cmd, CS_PM_PROBE_FN);
		return CS_EXIT_NO_MODE;
	}
	return CS_EXIT_OK;
}

/* --- feature probes (bpf()) ---------------------------------------------------- */

/* r0 = 0; exit */
static const struct bpf_insn ret0[] = {
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
	{ .code = BPF_JMP | BPF_EXIT },
};

static int probe_fentry(char *why, size_t len)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_TRACE_FENTRY);
	const struct btf *btf = cs_kernel_btf();
	int id, fd, link;

	id = btf ? btf__find_by_name_kind(btf, CS_PM_PROBE_FN, BTF_KIND_FUNC) : -1;
	if (id <= 0) {
		snprintf(why, len, "the kernel BTF has no function %s", CS_PM_PROBE_FN);
		return -ENOENT;
	}
	opts.attach_btf_id = id;
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "cs_fentry_probe", "GPL", ret0, 2, &opts);
	if (fd < 0) {
		snprintf(why, len, "test load failed: %s", strerror(errno));
		return -errno;
	}
	link = bpf_link_create(fd, 0, BPF_TRACE_FENTRY, NULL);
	if (link < 0) {
		snprintf(why, len, "test attach to %s failed: %s", CS_PM_PROBE_FN,
			 strerror(errno));
		close(fd);
		return -errno;
	}
	close(link);
	close(fd);
	return 0;
}

static int probe_kprobe_multi(char *why, size_t len)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = BPF_TRACE_KPROBE_MULTI);
	const char *syms[] = { CS_PM_PROBE_FN };
	LIBBPF_OPTS(bpf_link_create_opts, lopts);
	int fd, link;

	fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, "cs_kpm_probe", "GPL", ret0, 2, &opts);
	if (fd < 0) {
		snprintf(why, len, "test load failed: %s", strerror(errno));
		return -errno;
	}
	lopts.kprobe_multi.syms = syms;
	lopts.kprobe_multi.cnt = 1;
	link = bpf_link_create(fd, 0, BPF_TRACE_KPROBE_MULTI, &lopts);
	if (link < 0) {
		snprintf(why, len, "test attach to %s failed: %s%s", CS_PM_PROBE_FN,
			 strerror(errno), errno == EOPNOTSUPP ? " (CONFIG_FPROBE=n?)" : "");
		close(fd);
		return -errno;
	}
	close(link);
	close(fd);
	return 0;
}

int cs_pm_features(const char *cmd)
{
	char why[256];

	if (probe_fentry(why, sizeof(why))) {
		warn("%s: error: no event source: no notifier tracepoints, and probes mode "
		     "needs BPF trampolines (fentry): %s\n", cmd, why);
		return CS_EXIT_NO_MODE;
	}
	if (probe_kprobe_multi(why, sizeof(why))) {
		warn("%s: error: no event source: no notifier tracepoints, and probes mode "
		     "needs kprobe.multi: %s\n", cmd, why);
		return CS_EXIT_NO_MODE;
	}
	return CS_EXIT_OK;
}

/* --- program choice (before load) ---------------------------------------------- */

const char *cs_pm_missing_fn[CS_PM_MAX_MISSING];
int cs_pm_nr_missing;

const char *cs_pm_target(const struct bpf_program *p)
{
	const char *sec = bpf_program__section_name(p);

	if (!strncmp(sec, "fentry/", 7))
		return sec + 7;
	if (!strncmp(sec, "fexit/", 6))
		return sec + 6;
	return NULL;
}

static void note_missing(const char *fn)
{
	int i;

	for (i = 0; i < cs_pm_nr_missing; i++)
		if (!strcmp(cs_pm_missing_fn[i], fn))
			return;
	if (cs_pm_nr_missing < CS_PM_MAX_MISSING)
		cs_pm_missing_fn[cs_pm_nr_missing++] = fn;
}

void cs_pm_autoload(struct bpf_object *obj, bool probes)
{
	const struct btf *btf = cs_kernel_btf();
	struct bpf_program *p;
	struct bpf_map *m;

	/* tracepoints mode: probes mode's maps stay, at their smallest */
	bpf_object__for_each_map(m, obj) {
		if (probes || strncmp(bpf_map__name(m), "cs_pm_", 6))
			continue;
		bpf_map__set_max_entries(m, bpf_map__type(m) == BPF_MAP_TYPE_RINGBUF ?
					 (__u32)sysconf(_SC_PAGESIZE) : 1);
	}

	bpf_object__for_each_program(p, obj) {
		const char *fn;

		if (strncmp(bpf_program__name(p), "pm_", 3))
			continue;
		fn = cs_pm_target(p);
		/* attached by cs_pm_start(): in order, each optional, callbacks per batch */
		bpf_program__set_autoattach(p, false);
		if (!probes) {
			bpf_program__set_autoload(p, false);
		} else if (fn && btf_find_fn(btf, fn) <= 0) {
			bpf_program__set_autoload(p, false);
			note_missing(fn);
		}
	}
}

__u64 cs_pm_die_chain_addr(const struct ksyms *ks)
{
	unsigned long addr;

	if (ksyms__find(ks, "die_chain", &addr, 1) != 1)
		return 0;
	return addr;
}

