// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope `probes` mode at run time: API attach, callback attach
 * (kprobe.multi + kretprobe.multi, one pair per batch, cookie = slot),
 * keeping the watched callbacks current from the BPF side's head and
 * callback messages, and the counters of what was missed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <uthash.h>

#include "chain_walk.h"
#include "json_keys.h"
#include "probes.h"
#include "probemode.h"
#include "live.h"

/* --- running -------------------------------------------------------------------- */

/* cb_ent.err: not traceable according to tracefs (not an errno) */
#define CS_PM_NOTRACE 1

struct cb_ent {
	__u64 cb;
	__u32 slot;
	int err;		/* 0: attached, else why not (-errno) */
	UT_hash_handle hh;
};

/* a line of tracefs' available_filter_functions: "func" or "func [module]" */
struct name_ent {
	UT_hash_handle hh;
	char name[];
};

struct head_ent {
	__u64 head;
	int kind;
	int status;		/* of the last walk: enum cs_chain_status */
	bool ignored;
	__u64 early_seen;	/* reported so far */
	UT_hash_handle hh;
};

/* a head (or a callback of one) waiting for the batch's attach */
struct pending {
	__u64 head;
	__u64 cb;		/* CS_PM_MSG_CB: the callback, else 0 */
	int kind;
	int nr_blocks;
	int nr_new;
};

struct cs_pm {
	struct cs_pm_opts o;
	const struct ksyms *ks;
	struct cs_chainwalk *walker;
	struct bpf_program *entry, *exit;
	int slots_fd, cbmap_fd, nbs_fd, heads_fd, early_fd, stats_fd;
	struct ring_buffer *rb;
	struct bpf_link **links;	/* API and callback links */
	int nr_links;
	size_t cap_links;
	struct cb_ent *cbs;
	struct head_ent *heads;
	__u32 next_slot;
	int nr_failed, nr_attached, nr_cb_links, nr_api, nr_api_failed;
	double attach_s;	/* creating callback links */
	double api_s;		/* attaching the API programs (one trampoline link each) */
	__u64 stat_seen[CS_PM_STAT_MAX];
	int err;		/* first fatal error seen in a callback */
	bool started;		/* cs_pm_start() done */
	/* the batch: callbacks to attach in one link pair, then these heads are done */
	__u64 *todo;
	int nr_todo;
	size_t cap_todo;
	struct name_ent *traceable;	/* NULL: tracefs not readable, try all */
	struct pending *pending;
	int nr_pending;
	size_t cap_pending;
};

/*
 * What ftrace can trace. kprobe.multi fails a whole batch for one address
 * it cannot attach to; checking names here first spares the one-by-one
 * retry (a trampoline update each) for the usual cause: notrace code.
 */
static void load_traceable(struct cs_pm *pm)
{
	static const char *const paths[] = {
		"/sys/kernel/tracing/available_filter_functions",
		"/sys/kernel/debug/tracing/available_filter_functions",
	};
	char *line = NULL;
	size_t cap = 0, i;
	FILE *f = NULL;

	for (i = 0; !f && i < sizeof(paths) / sizeof(paths[0]); i++)
		f = fopen(paths[i], "r");
	if (!f)
		return;
	/* whole lines: a long name's tail must not become a name of its own */
	while (getline(&line, &cap, f) > 0) {
		size_t len = strcspn(line, "\n");
		struct name_ent *e, *dup;

		line[len] = 0;
		HASH_FIND(hh, pm->traceable, line, len, dup);
		if (dup)
			continue;
		e = malloc(sizeof(*e) + len + 1);
		if (!e)
			break;
		memcpy(e->name, line, len + 1);
		HASH_ADD_KEYPTR(hh, pm->traceable, e->name, len, e);
	}
	free(line);
	fclose(f);
}

static bool traceable(const struct cs_pm *pm, __u64 addr)
{
	const struct ksym *k;
	struct name_ent *e;
	unsigned long off;
	/* "name [module]", as available_filter_functions lists it */
	char name[CS_SYMNAME_MAX + CS_MODNAME_MAX + 4];
	int len;

	if (!pm->traceable)
		return true;
	k = ksyms__map_addr(pm->ks, addr, &off);
	if (!k || off)
		return true;	/* let the kernel decide */
	len = k->module ? snprintf(name, sizeof(name), "%s [%s]", k->name, k->module) :
			  snprintf(name, sizeof(name), "%s", k->name);
	if (len < 0 || (size_t)len >= sizeof(name))
		return true;	/* not a name the list can hold: let the kernel decide */
	HASH_FIND(hh, pm->traceable, name, len, e);
	return e;
}

static int add_link(struct cs_pm *pm, struct bpf_link *l)
{
	if (cs_grow(&pm->links, &pm->cap_links, (size_t)pm->nr_links + 1, sizeof(*pm->links))) {
		bpf_link__destroy(l);
		return -ENOMEM;
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
		if (!traceable(pm, e->cb)) {
			e->err = CS_PM_NOTRACE;
			continue;
		}
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
	/*
	 * The return probes first: a callback that starts between the two
	 * attaches then has an exit without an entry (counted as unpaired),
	 * never an entry frame that no exit pops.
	 */
	cs_libbpf_quiet(true);
	out = k ? attach_batch(pm, true, addrs, cookies, k) : NULL;
	cs_libbpf_quiet(false);
	if (k && !out) {
		int j = 0;

		cs_libbpf_quiet(true);	/* libbpf's line per failure: ours says more */
		for (i = 0; i < k; i++) {
			struct bpf_link *t = attach_batch(pm, true, &addrs[i], &cookies[i], 1);

			if (!t) {
				ents[i]->err = -errno;
				continue;
			}
			bpf_link__destroy(t);
			ents[j] = ents[i];
			addrs[j] = addrs[i];
			cookies[j++] = cookies[i];
		}
		cs_libbpf_quiet(false);
		k = j;
		out = k ? attach_batch(pm, true, addrs, cookies, k) : NULL;
		if (k && !out)
			for (i = 0; i < k; i++)
				ents[i]->err = -errno;
	}
	if (out) {
		in = attach_batch(pm, false, addrs, cookies, k);
		if (!in) {
			for (i = 0; i < k; i++)
				ents[i]->err = -errno;
			bpf_link__destroy(out);
			out = NULL;
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
			warn("%s: probes: cannot attach to callback %s: %s: its runs are "
			     "not seen\n", pm->o.cmd, sym(pm, e->cb, name, sizeof(name)),
			     e->err == CS_PM_NOTRACE ? "not in ftrace's available_filter_functions "
			     "(notrace or inlined)" : strerror(-e->err));
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
	if (pm->o.only_kind != CS_KIND_ANY && kind != CS_CHAIN_KIND_UNKNOWN &&
	    kind != pm->o.only_kind)
		return false;
	return true;
}

/* cb into the batch unless attached (or tried) already or in it */
static int add_todo(struct cs_pm *pm, __u64 cb)
{
	struct cb_ent *e;
	int i;

	HASH_FIND(hh, pm->cbs, &cb, sizeof(cb), e);
	if (e)
		return 0;
	for (i = 0; i < pm->nr_todo; i++)
		if (pm->todo[i] == cb)
			return 0;
	if (cs_grow(&pm->todo, &pm->cap_todo, (size_t)pm->nr_todo + 1, sizeof(*pm->todo)))
		return -ENOMEM;
	pm->todo[pm->nr_todo++] = cb;
	return 0;
}

static int add_pending(struct cs_pm *pm, __u64 head, int kind, __u64 cb, int nr_blocks,
		       int nr_new)
{
	if (cs_grow(&pm->pending, &pm->cap_pending, (size_t)pm->nr_pending + 1,
		    sizeof(*pm->pending)))
		return -ENOMEM;
	pm->pending[pm->nr_pending++] = (struct pending){ .head = head, .cb = cb,
		.kind = kind, .nr_blocks = nr_blocks, .nr_new = nr_new };
	return 0;
}

/*
 * Walk a head and record its blocks; its callbacks not attached yet go
 * into the batch, and the head is marked attached by flush().
 */
static int watch_head(struct cs_pm *pm, __u64 head, int kind)
{
	struct cs_chain *ch = calloc(1, sizeof(*ch));
	struct head_ent *h;
	char name[160];
	int i, n = 0, n0, err = 0;

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
		err = add_pending(pm, head, kind, 0, 0, 0);
		goto out;
	}
	if (kind == CS_CHAIN_KIND_UNKNOWN) {
		/* -c without -k: the walker tells the kind from the head */
		err = cs_chain_infer(pm->walker, pm->ks, head, ch, NULL);
		if (!err && ch->status == CS_CHAIN_OK)
			kind = h->kind = ch->kind;
	} else {
		err = cs_chain_walk(pm->walker, pm->ks, head, kind, ch);
	}
	if (err) {
		/* not fatal: callbacks registered from now on are still seen */
		warn("%s: probes: cannot walk chain %s: %s\n", pm->o.cmd,
		     sym(pm, head, name, sizeof(name)), strerror(-err));
		ch->status = CS_CHAIN_FAULT;
		err = 0;
	}
	h->status = ch->status;
	if (ch->status != CS_CHAIN_OK)
		warn("%s: probes: chain %s does not validate as a %s chain (%s): "
		     "only callbacks registered from now on are seen\n", pm->o.cmd,
		     sym(pm, head, name, sizeof(name)), cs_kind_name(kind),
		     cs_chain_status_name(ch->status));
	for (i = 0; ch->status == CS_CHAIN_OK && i < ch->nr; i++) {
		const struct cs_chain_block *b = &ch->blocks[i];
		struct cs_pm_nb v = { .head = head, .cb = b->cb, .kind = kind,
				      .priority = b->priority };

		bpf_map_update_elem(pm->nbs_fd, &b->nb, &v, BPF_ANY);
		n0 = pm->nr_todo;
		err = add_todo(pm, b->cb);
		if (err)
			goto out;
		n += pm->nr_todo - n0;
	}
	err = add_pending(pm, head, kind, 0, ch->nr, n);
out:
	free(ch);
	return err;
}

/* Attach the batch (one link pair), then mark its heads attached. */
static int flush(struct cs_pm *pm)
{
	char name[160], cname[160];
	int i, err = 0;

	if (pm->nr_todo)
		err = attach_cbs(pm, pm->todo, pm->nr_todo);
	pm->nr_todo = 0;
	for (i = 0; i < pm->nr_pending; i++) {
		const struct pending *p = &pm->pending[i];

		set_head_state(pm, p->head, p->kind, CS_PM_HEAD_ATTACHED);
		/* after start-up always: tests (and users) wait for this line */
		if (!pm->o.verbose && !pm->started)
			continue;
		if (p->cb)
			warn("%s: probes: watching chain %s: callback %s newly attached\n",
			     pm->o.cmd, sym(pm, p->head, name, sizeof(name)),
			     sym(pm, p->cb, cname, sizeof(cname)));
		else
			warn("%s: probes: watching chain %s (%s): %d blocks, %d callbacks "
			     "newly attached\n", pm->o.cmd, sym(pm, p->head, name, sizeof(name)),
			     cs_kind_name(p->kind), p->nr_blocks, p->nr_new);
	}
	pm->nr_pending = 0;
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
		HASH_FIND(hh, pm->cbs, &m->cb, sizeof(m->cb), e);
		err = e ? 0 : add_todo(pm, m->cb);
		if (!err)
			err = add_pending(pm, m->head, m->kind, e ? 0 : m->cb, 0, 0);
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
		const char *fn = cs_pm_target(p);
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
	__u32 zero = 0, one = 1;
	int i, n, armed_fd;
	double t0;

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
		load_traceable(pm);
	}
	if (cs_pm_nr_missing) {
		warn("%s: probes: %d chain API functions are not in this kernel%s", opts->cmd,
		     cs_pm_nr_missing, opts->verbose ? ":" : " (-v lists them)");
		for (i = 0; opts->verbose && i < cs_pm_nr_missing; i++)
			warn(" %s", cs_pm_missing_fn[i]);
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
	if (flush(pm))
		goto fail;
	t0 = now_s();
	attach_api(pm, obj, true);
	attach_api(pm, obj, false);
	pm->api_s = now_s() - t0;
	if (cs_pm_poll(pm, 0) < 0)
		goto fail;
	armed_fd = map_fd(obj, "cs_pm_armed");
	if (armed_fd < 0 || bpf_map_update_elem(armed_fd, &zero, &one, BPF_ANY)) {
		warn("%s: error: probes: cannot arm: %s\n", opts->cmd, strerror(errno));
		goto fail;
	}
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
	n = flush(pm);
	if (n && !pm->err)
		pm->err = n;
	if (pm->err) {
		warn("%s: error: probes: %s\n", pm->o.cmd, strerror(-pm->err));
		return pm->err;
	}
	return 0;
}

int cs_pm_epoll_fd(const struct cs_pm *pm)
{
	return pm ? ring_buffer__epoll_fd(pm->rb) : -1;
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
		json_object_object_add(o, "api_missing", json_object_new_int(cs_pm_nr_missing));
		json_object_object_add(o, "callback_attach_s", json_object_new_double(pm->attach_s));
		json_object_object_add(o, "api_attach_s", json_object_new_double(pm->api_s));
		json_object_object_add(json, "probes", o);
	}
}

void cs_pm_json_mode(const struct cs_common *c, json_object *json)
{
	json_object_object_add(json, CS_JK_MODE, json_object_new_string(cs_mode_name(c->mode)));
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
	st->api_links = pm->nr_api;
	st->api_s = pm->api_s;
}

void cs_pm_stop(struct cs_pm *pm)
{
	struct head_ent *h, *htmp;
	struct name_ent *n, *ntmp;
	struct cb_ent *e, *etmp;
	int i;

	if (!pm)
		return;
	for (i = pm->nr_links - 1; i >= 0; i--)
		bpf_link__destroy(pm->links[i]);
	free(pm->links);
	free(pm->todo);
	free(pm->pending);
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
	HASH_ITER(hh, pm->traceable, n, ntmp) {
		HASH_DEL(pm->traceable, n);
		free(n);
	}
	free(pm);
}
