// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope: the event source (--mode) and the `probes` mode's user
 * side: feature probes, program choice, callback attach (kprobe.multi +
 * kretprobe.multi, one pair per batch, cookie = slot) and keeping the
 * watched callbacks current from the BPF side's head/callback messages.
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
#include <uthash.h>

#include "chainwalk.h"
#include "probemode.h"
#include "../bpf/probemode.h"

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
	int i, r = cs_startup_probes(c->cmd, tps, 0);

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

#define CS_PM_MAX_MISSING 32
static const char *missing_fn[CS_PM_MAX_MISSING];
static int nr_missing;

/* "fentry/NAME" or "fexit/NAME" -> NAME, else NULL */
static const char *pm_target(const struct bpf_program *p)
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

	for (i = 0; i < nr_missing; i++)
		if (!strcmp(missing_fn[i], fn))
			return;
	if (nr_missing < CS_PM_MAX_MISSING)
		missing_fn[nr_missing++] = fn;
}

void cs_pm_autoload(struct bpf_object *obj, bool probes)
{
	const struct btf *btf = cs_kernel_btf();
	struct bpf_program *p;

	bpf_object__for_each_program(p, obj) {
		const char *fn;

		if (strncmp(bpf_program__name(p), "pm_", 3))
			continue;
		fn = pm_target(p);
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

/* --- running -------------------------------------------------------------------- */

struct cb_ent {
	__u64 cb;
	__u32 slot;
	int err;		/* 0: attached, else why not (-errno) */
	UT_hash_handle hh;
};

struct head_ent {
	__u64 head;
	int kind;
	int status;		/* of the last walk: enum cs_chain_status */
	bool ignored;
	__u64 early_seen;	/* reported so far */
	UT_hash_handle hh;
};

struct cs_pm {
	struct cs_pm_opts o;
	const struct ksyms *ks;
	struct cs_chainwalk *walker;
	struct bpf_program *entry, *exit;
	int slots_fd, cbmap_fd, nbs_fd, heads_fd, early_fd, stats_fd;
	struct ring_buffer *rb;
	struct bpf_link **links;	/* API and callback links */
	int nr_links, cap_links;
	struct cb_ent *cbs;
	struct head_ent *heads;
	__u32 next_slot;
	int nr_failed, nr_attached, nr_cb_links, nr_api, nr_api_failed;
	double attach_s;
	__u64 stat_seen[CS_PM_STAT_MAX];
	int err;		/* first fatal error seen in a callback */
	bool started;		/* cs_pm_start() done */
};

static int add_link(struct cs_pm *pm, struct bpf_link *l)
{
	if (pm->nr_links == pm->cap_links) {
		int cap = pm->cap_links ? 2 * pm->cap_links : 64;
		struct bpf_link **n = realloc(pm->links, cap * sizeof(*n));

		if (!n) {
			bpf_link__destroy(l);
			return -ENOMEM;
		}
		pm->links = n;
		pm->cap_links = cap;
	}
	pm->links[pm->nr_links++] = l;
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *sym(const struct cs_pm *pm, __u64 addr, char *buf, size_t len)
{
	return ksyms__format(pm->ks, addr, buf, len);
}

static struct bpf_link *attach_batch(struct cs_pm *pm, bool ret, const unsigned long *addrs,
				     const __u64 *cookies, int n)
{
	LIBBPF_OPTS(bpf_kprobe_multi_opts, o, .addrs = addrs, .cookies = cookies,
		    .cnt = n, .retprobe = ret);

	return bpf_program__attach_kprobe_multi_opts(ret ? pm->exit : pm->entry, NULL, &o);
}

/*
 * Attach one link pair over n new callbacks. If the batch fails, each
 * callback is tried alone to name the ones that cannot be attached
 * (notrace, inlined, not a function entry), and the rest is attached.
 */
static int attach_cbs(struct cs_pm *pm, const __u64 *cbs, int n)
{
	unsigned long *addrs = calloc(n ? n : 1, sizeof(*addrs));
	__u64 *cookies = calloc(n ? n : 1, sizeof(*cookies));
	struct cb_ent **ents = calloc(n ? n : 1, sizeof(*ents));
	struct bpf_link *in = NULL, *out = NULL;
	char name[160];
	double t0 = now_s();
	int i, k = 0, err = 0;

	if (!addrs || !cookies || !ents) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		struct cb_ent *e = calloc(1, sizeof(*e));

		if (!e) {
			err = -ENOMEM;
			goto out;
		}
		e->cb = cbs[i];
		HASH_ADD(hh, pm->cbs, cb, sizeof(e->cb), e);
		if (pm->next_slot >= CS_PM_MAX_CBS) {
			e->err = -E2BIG;
			continue;
		}
		e->slot = pm->next_slot++;
		bpf_map_update_elem(pm->slots_fd, &e->slot, &e->cb, BPF_ANY);
		ents[k] = e;
		addrs[k] = e->cb;
		cookies[k] = e->slot;
		k++;
	}
	in = k ? attach_batch(pm, false, addrs, cookies, k) : NULL;
	if (k && !in) {
		int j = 0;

		for (i = 0; i < k; i++) {
			struct bpf_link *t = attach_batch(pm, false, &addrs[i], &cookies[i], 1);

			if (!t) {
				ents[i]->err = -errno;
				continue;
			}
			bpf_link__destroy(t);
			ents[j] = ents[i];
			addrs[j] = addrs[i];
			cookies[j++] = cookies[i];
		}
		k = j;
		in = k ? attach_batch(pm, false, addrs, cookies, k) : NULL;
		if (k && !in)
			for (i = 0; i < k; i++)
				ents[i]->err = -errno;
	}
	if (in) {
		out = attach_batch(pm, true, addrs, cookies, k);
		if (!out) {
			for (i = 0; i < k; i++)
				ents[i]->err = -errno;
			bpf_link__destroy(in);
			in = NULL;
		}
	}
	if (in && (add_link(pm, in) || add_link(pm, out))) {
		err = -ENOMEM;
		goto out;
	}
	if (in)
		pm->nr_cb_links += 2;
	pm->attach_s += now_s() - t0;
	for (i = 0; i < n; i++) {
		struct cb_ent *e;

		HASH_FIND(hh, pm->cbs, &cbs[i], sizeof(cbs[i]), e);
		if (!e)
			continue;
		if (e->err) {
			pm->nr_failed++;
			warn("%s: probes: cannot attach to callback %s: %s (notrace or "
			     "inlined?): its runs are not seen\n", pm->o.cmd,
			     sym(pm, e->cb, name, sizeof(name)), strerror(-e->err));
			continue;
		}
		pm->nr_attached++;
		bpf_map_update_elem(pm->cbmap_fd, &e->cb, &e->slot, BPF_ANY);
	}
out:
	free(addrs);
	free(cookies);
	free(ents);
	return err;
}

static void set_head_state(struct cs_pm *pm, __u64 head, int kind, __u32 state)
{
	struct cs_pm_head v = { .kind = kind, .state = state };

	bpf_map_update_elem(pm->heads_fd, &head, &v, BPF_ANY);
}

static bool wanted(const struct cs_pm *pm, __u64 head, int kind)
{
	if (pm->o.only_head && head != pm->o.only_head)
		return false;
	if (pm->o.only_kind != CS_KIND_ANY && kind != pm->o.only_kind)
		return false;
	return true;
}

/* Walk a head, record its blocks, attach the callbacks not attached yet. */
static int watch_head(struct cs_pm *pm, __u64 head, int kind)
{
	struct cs_chain *ch = calloc(1, sizeof(*ch));
	struct head_ent *h;
	__u64 *todo = NULL;
	char name[160];
	int i, n = 0, err = 0;

	if (!ch)
		return -ENOMEM;
	HASH_FIND(hh, pm->heads, &head, sizeof(head), h);
	if (!h) {
		h = calloc(1, sizeof(*h));
		if (!h) {
			free(ch);
			return -ENOMEM;
		}
		h->head = head;
		h->kind = kind;
		HASH_ADD(hh, pm->heads, head, sizeof(h->head), h);
	}
	if (!wanted(pm, head, kind)) {
		h->ignored = true;
		set_head_state(pm, head, kind, CS_PM_HEAD_IGNORED);
		goto out;
	}
	set_head_state(pm, head, kind, CS_PM_HEAD_PENDING);
	if (pm->o.no_callbacks) {
		set_head_state(pm, head, kind, CS_PM_HEAD_ATTACHED);
		goto out;
	}
	err = cs_chain_walk(pm->walker, pm->ks, head, kind, ch);
	if (err) {
		/* not fatal: callbacks registered from now on are still seen */
		warn("%s: probes: cannot walk chain %s: %s\n", pm->o.cmd,
		     sym(pm, head, name, sizeof(name)), strerror(-err));
		ch->status = CS_CHAIN_FAULT;
		err = 0;
	}
	h->status = ch->status;
	if (ch->status != CS_CHAIN_OK)
		warn("%s: probes: chain %s does not validate as a %s chain (status %d): "
		     "only callbacks registered from now on are seen\n", pm->o.cmd,
		     sym(pm, head, name, sizeof(name)), cs_kind_name(kind), ch->status);
	todo = calloc(ch->nr ? ch->nr : 1, sizeof(*todo));
	if (!todo) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; ch->status == CS_CHAIN_OK && i < ch->nr; i++) {
		const struct cs_chain_block *b = &ch->blocks[i];
		struct cs_pm_nb v = { .head = head, .cb = b->cb, .kind = kind,
				      .priority = b->priority };
		struct cb_ent *e;
		int j;

		bpf_map_update_elem(pm->nbs_fd, &b->nb, &v, BPF_ANY);
		HASH_FIND(hh, pm->cbs, &b->cb, sizeof(b->cb), e);
		for (j = 0; j < n && todo[j] != b->cb; j++)
			;
		if (!e && j == n)
			todo[n++] = b->cb;
	}
	if (n)
		err = attach_cbs(pm, todo, n);
	/* after start-up always: tests (and users) wait for this line */
	if (pm->o.verbose || pm->started)
		warn("%s: probes: watching chain %s (%s): %d blocks, %d callbacks newly "
		     "attached\n", pm->o.cmd, sym(pm, head, name, sizeof(name)),
		     cs_kind_name(kind), ch->nr, n);
	set_head_state(pm, head, kind, CS_PM_HEAD_ATTACHED);
out:
	free(todo);
	free(ch);
	return err;
}

static int handle_msg(void *ctx, void *data, size_t len)
{
	struct cs_pm *pm = ctx;
	const struct cs_pm_msg *m = data;
	struct head_ent *h;
	struct cb_ent *e;
	int err = 0;

	if (len < sizeof(*m))
		return 0;
	HASH_FIND(hh, pm->heads, &m->head, sizeof(m->head), h);
	if (m->type == CS_PM_MSG_HEAD || !h) {
		if (!h || m->type == CS_PM_MSG_HEAD)
			err = watch_head(pm, m->head, m->kind);
	} else if (!h->ignored) {
		char name[160], cname[160];

		HASH_FIND(hh, pm->cbs, &m->cb, sizeof(m->cb), e);
		if (!e) {
			err = attach_cbs(pm, &m->cb, 1);
			warn("%s: probes: watching chain %s: callback %s newly attached\n",
			     pm->o.cmd, sym(pm, m->head, name, sizeof(name)),
			     sym(pm, m->cb, cname, sizeof(cname)));
		}
		set_head_state(pm, m->head, m->kind, CS_PM_HEAD_ATTACHED);
	}
	if (err && !pm->err)
		pm->err = err;
	return 0;
}

static int map_fd(struct bpf_object *obj, const char *name)
{
	struct bpf_map *m = bpf_object__find_map_by_name(obj, name);

	return m ? bpf_map__fd(m) : -ENOENT;
}

/* fexit before fentry: a pass whose begin is seen has its end seen too */
static void attach_api(struct cs_pm *pm, struct bpf_object *obj, bool fexit)
{
	struct bpf_program *p;

	bpf_object__for_each_program(p, obj) {
		const char *fn = pm_target(p);
		struct bpf_link *l;

		if (!fn || strncmp(bpf_program__name(p), "pm_", 3) || !bpf_program__autoload(p))
			continue;
		if (fexit != !strncmp(bpf_program__section_name(p), "fexit/", 6))
			continue;
		l = bpf_program__attach(p);
		if (!l) {
			pm->nr_api_failed++;
			warn("%s: probes: cannot attach to %s: %s: its calls are not seen\n",
			     pm->o.cmd, fn, strerror(errno));
			continue;
		}
		if (add_link(pm, l))
			continue;
		pm->nr_api++;
	}
}

struct cs_pm *cs_pm_start(struct bpf_object *obj, const struct ksyms *ks,
			  const struct cs_pm_opts *opts)
{
	struct cs_pm *pm = calloc(1, sizeof(*pm));
	struct cs_chain *known = NULL;
	int i, n;

	if (!pm) {
		warn("%s: error: out of memory\n", opts->cmd);
		return NULL;
	}
	pm->o = *opts;
	pm->ks = ks;
	pm->entry = bpf_object__find_program_by_name(obj, "pm_cb_entry");
	pm->exit = bpf_object__find_program_by_name(obj, "pm_cb_exit");
	pm->slots_fd = map_fd(obj, "cs_pm_slots");
	pm->cbmap_fd = map_fd(obj, "cs_pm_cbmap");
	pm->nbs_fd = map_fd(obj, "cs_pm_nbs");
	pm->heads_fd = map_fd(obj, "cs_pm_heads");
	pm->early_fd = map_fd(obj, "cs_pm_early");
	pm->stats_fd = map_fd(obj, "cs_pm_stats");
	if (!pm->entry || !pm->exit || pm->slots_fd < 0 || pm->cbmap_fd < 0 ||
	    pm->nbs_fd < 0 || pm->heads_fd < 0 || pm->early_fd < 0 || pm->stats_fd < 0) {
		warn("%s: error: probes: the BPF object lacks probemode.bpf.h\n", opts->cmd);
		goto fail;
	}
	pm->rb = ring_buffer__new(map_fd(obj, "cs_pm_msgs"), handle_msg, pm, NULL);
	if (!pm->rb) {
		warn("%s: error: probes: cannot open ring buffer: %s\n", opts->cmd,
		     strerror(errno));
		goto fail;
	}
	if (!opts->no_callbacks) {
		pm->walker = cs_chainwalk_open(opts->cmd, opts->verbose);
		if (!pm->walker)
			goto fail;
	}
	if (nr_missing) {
		warn("%s: probes: %d chain API functions are not in this kernel%s", opts->cmd,
		     nr_missing, opts->verbose ? ":" : " (-v lists them)");
		for (i = 0; opts->verbose && i < nr_missing; i++)
			warn(" %s", missing_fn[i]);
		warn("\n");
	}
	/* seed heads first: their passes are then never "early" */
	for (i = 0; i < opts->nr_heads; i++)
		if (watch_head(pm, opts->heads[i], opts->kinds[i]))
			goto fail;
	if (opts->known_heads) {
		n = cs_chain_known_heads(ks, &known);
		for (i = 0; i < n; i++) {
			struct head_ent *h;

			HASH_FIND(hh, pm->heads, &known[i].head, sizeof(known[i].head), h);
			if (!h && watch_head(pm, known[i].head, known[i].kind))
				goto fail;
		}
		free(known);
		known = NULL;
	}
	attach_api(pm, obj, true);
	attach_api(pm, obj, false);
	if (cs_pm_poll(pm, 0) < 0)
		goto fail;
	pm->started = true;
	return pm;
fail:
	free(known);
	cs_pm_stop(pm);
	return NULL;
}

int cs_pm_poll(struct cs_pm *pm, int timeout_ms)
{
	int n;

	if (!pm)
		return 0;
	n = ring_buffer__poll(pm->rb, timeout_ms);
	if (n < 0 && n != -EINTR) {
		warn("%s: error: probes: ring buffer: %s\n", pm->o.cmd, strerror(-n));
		return n;
	}
	if (pm->err) {
		warn("%s: error: probes: %s\n", pm->o.cmd, strerror(-pm->err));
		return pm->err;
	}
	return 0;
}

void cs_pm_wait_interval(struct cs_pm *pm, const struct cs_common *c)
{
	double end = now_s() + c->interval;

	if (!pm) {
		cs_wait_interval(c);
		return;
	}
	/* a signal interrupts the poll; cs_exiting is checked at least every 100 ms */
	while (!cs_exiting) {
		double left = end - now_s();
		int ms = 100;

		if (c->interval) {
			if (left <= 0)
				break;
			if (left * 1000 < ms)
				ms = (int)(left * 1000) + 1;
		}
		if (cs_pm_poll(pm, ms) < 0)
			break;
	}
}

static const char *const stat_doc[CS_PM_STAT_MAX] = {
	[CS_PM_STAT_UNKNOWN_NB] = "callback runs whose nb is on no watched chain (not events)",
	[CS_PM_STAT_OUTSIDE] = "callback runs outside a pass of their chain (direct calls)",
	[CS_PM_STAT_CB_DEEP] = "callback runs nested too deep to time",
	[CS_PM_STAT_PASS_DEEP] = "chain passes nested too deep to follow",
	[CS_PM_STAT_UNPAIRED] = "exits without their entry (attached mid-call)",
	[CS_PM_STAT_MSG_LOST] = "new heads/callbacks not reported (ring buffer full)",
	[CS_PM_STAT_EARLY] = "passes before their chain's callbacks were attached",
};

static const char *const stat_key[CS_PM_STAT_MAX] = {
	"unknown_nb", "outside_pass", "callbacks_too_deep", "passes_too_deep",
	"unpaired", "messages_lost", "early_passes",
};

void cs_pm_report(struct cs_pm *pm, json_object *json)
{
	json_object *o = NULL, *early = NULL;
	struct head_ent *h, *tmp;
	char name[160];
	int i;

	if (!pm)
		return;
	if (json) {
		o = json_object_new_object();
		early = json_object_new_array();
	}
	for (i = 0; i < CS_PM_STAT_MAX; i++) {
		__u64 v = cs_read_stat(pm->stats_fd, i);

		if (o)
			json_object_object_add(o, stat_key[i], json_object_new_uint64(v));
		else if (v > pm->stat_seen[i] && i != CS_PM_STAT_EARLY)
			printf("NOTE: probes: %llu %s\n",
			       (unsigned long long)(v - pm->stat_seen[i]), stat_doc[i]);
		if (!o)
			pm->stat_seen[i] = v;
	}
	HASH_ITER(hh, pm->heads, h, tmp) {
		__u64 n = 0;

		if (bpf_map_lookup_elem(pm->early_fd, &h->head, &n) || !n)
			continue;
		if (o) {
			json_object *e = json_object_new_object();

			cs_json_sym(e, "chain", pm->ks, h->head);
			json_object_object_add(e, "passes", json_object_new_uint64(n));
			json_object_array_add(early, e);
		} else if (n > h->early_seen) {
			printf("NOTE: probes: %llu passes on chain %s before its callbacks "
			       "were attached\n", (unsigned long long)(n - h->early_seen),
			       sym(pm, h->head, name, sizeof(name)));
			h->early_seen = n;
		}
	}
	if (o) {
		json_object_object_add(o, "early_by_chain", early);
		json_object_object_add(o, "callbacks_attached", json_object_new_int(pm->nr_attached));
		json_object_object_add(o, "callbacks_failed", json_object_new_int(pm->nr_failed));
		json_object_object_add(o, "callback_links", json_object_new_int(pm->nr_cb_links));
		json_object_object_add(o, "api_attached", json_object_new_int(pm->nr_api));
		json_object_object_add(o, "api_missing", json_object_new_int(nr_missing));
		json_object_object_add(json, "probes", o);
	}
}

void cs_pm_json_mode(const struct cs_common *c, json_object *json)
{
	json_object_object_add(json, "mode", json_object_new_string(cs_mode_name(c->mode)));
}

int cs_pm_heads(struct cs_pm *pm, __u64 *heads, int *kinds, int max)
{
	struct head_ent *h, *tmp;
	int n = 0;

	HASH_ITER(hh, pm->heads, h, tmp) {
		if (h->ignored)
			continue;
		if (n < max) {
			heads[n] = h->head;
			kinds[n] = h->kind;
		}
		n++;
	}
	return n;
}

void cs_pm_get_attach_stats(const struct cs_pm *pm, struct cs_pm_attach_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (!pm)
		return;
	st->links = pm->nr_cb_links;
	st->attached = pm->nr_attached;
	st->failed = pm->nr_failed;
	st->attach_s = pm->attach_s;
}

void cs_pm_stop(struct cs_pm *pm)
{
	struct head_ent *h, *htmp;
	struct cb_ent *e, *etmp;
	int i;

	if (!pm)
		return;
	for (i = pm->nr_links - 1; i >= 0; i--)
		bpf_link__destroy(pm->links[i]);
	free(pm->links);
	ring_buffer__free(pm->rb);
	cs_chainwalk_close(pm->walker);
	HASH_ITER(hh, pm->heads, h, htmp) {
		HASH_DEL(pm->heads, h);
		free(h);
	}
	HASH_ITER(hh, pm->cbs, e, etmp) {
		HASH_DEL(pm->cbs, e);
		free(e);
	}
	free(pm);
}
