// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope: the chain walker (userspace/live/chain_walk.h). Runs
 * bpf/chains.bpf.c with BPF_PROG_TEST_RUN, twice per head, and checks
 * what it read against kallsyms: every notifier_call must be the start of
 * a text symbol (or a weak one), and priorities must not increase along the list (the
 * core inserts a block before the first one of lower priority).
 *
 * Consistency: the walk is not atomic with respect to writers. Blocks
 * are unlinked with rcu_assign_pointer() and freed (by their owners) only
 * after the unregister returned, so a walk that races with a writer sees
 * every block that was on the chain for its whole duration, and any
 * other block it reports was on the chain at some time during the walk;
 * a block freed under us reads as a fault or garbage, which validation
 * rejects. Two walks that agree make `stable`; up to three are tried.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "chainscope.h"
#include "live.h"
#include "chain_walk.h"
#include "chains.h"
#include "chains.skel.h"

_Static_assert(CS_CHAIN_MAX_BLOCKS == CS_WALK_MAX_BLOCKS, "loop bounds differ");
_Static_assert(CS_CHAIN_RAW == CS_WALK_RAW && CS_CHAIN_ATOMIC == CS_WALK_ATOMIC &&
	       CS_CHAIN_BLOCKING == CS_WALK_BLOCKING && CS_CHAIN_SRCU == CS_WALK_SRCU,
	       "kinds differ");
_Static_assert(CS_CHAIN_OK == CS_WALK_OK && CS_CHAIN_BAD_POINTER == CS_WALK_BAD_POINTER &&
	       CS_CHAIN_FAULT == CS_WALK_FAULT && CS_CHAIN_TOO_LONG == CS_WALK_TOO_LONG &&
	       CS_CHAIN_BAD_LOCK == CS_WALK_BAD_LOCK, "statuses differ");

#define CS_WALK_TRIES	3

struct cs_chainwalk {
	struct chains_bpf *skel;
	int prog_fd;
	__u32 seq;
};

static const struct {
	const char *name;
	const char *doc;
} statuses[] = {
	[CS_CHAIN_OK] = { "ok", "a valid chain" },
	[CS_CHAIN_BAD_POINTER] = { "bad-pointer",
		"a pointer outside the kernel's address range or misaligned" },
	[CS_CHAIN_FAULT] = { "fault", "kernel memory that cannot be read" },
	[CS_CHAIN_TOO_LONG] = { "too-long",
		"more than 256 blocks, or a cycle" },
	[CS_CHAIN_BAD_CALLBACK] = { "bad-callback",
		"a notifier_call that is not the start of a kernel text symbol" },
	[CS_CHAIN_BAD_ORDER] = { "bad-order",
		"priorities that increase along the list" },
	[CS_CHAIN_BAD_LOCK] = { "bad-lock",
		"the head's lock does not look like a lock of that kind" },
	[CS_CHAIN_NO_ROOM] = { "no-room",
		"a head of that kind would overlap the next kernel symbol" },
	[CS_CHAIN_AMBIGUOUS] = { "ambiguous",
		"it validates as more than one kind" },
	[CS_CHAIN_NOT_A_HEAD] = { "not-a-head",
		"it validates as no kind of notifier head" },
	[CS_CHAIN_OTHER_KIND] = { "other-kind",
		"another kind fits it with more evidence" },
	[CS_CHAIN_NO_EVIDENCE] = { "no-evidence",
		"it reads as an empty list with no lock that proves a kind, as any "
		"zeroed memory does" },
};

const char *cs_chain_status_name(int status)
{
	if (status < 0 || status >= (int)(sizeof(statuses) / sizeof(statuses[0])))
		return "?";
	return statuses[status].name;
}

const char *cs_chain_status_doc(int status)
{
	if (status < 0 || status >= (int)(sizeof(statuses) / sizeof(statuses[0])))
		return "unknown status";
	return statuses[status].doc;
}

struct cs_chainwalk *cs_chainwalk_open(const char *cmd, bool verbose)
{
	struct cs_chainwalk *w;
	int err;

	w = calloc(1, sizeof(*w));
	if (!w) {
		warn("%s: error: out of memory\n", cmd);
		errno = ENOMEM;
		return NULL;
	}
	cs_setup_libbpf(verbose);
	w->skel = chains_bpf__open();
	if (!w->skel) {
		err = errno;
		warn("%s: error: failed to open the chain walker (BPF): %s\n", cmd,
		     strerror(err));
		goto fail;
	}
	err = chains_bpf__load(w->skel);
	if (err) {
		err = -err;
		warn("%s: error: failed to load the chain walker (BPF): %s\n", cmd,
		     strerror(err));
		goto fail;
	}
	w->prog_fd = bpf_program__fd(w->skel->progs.walk_chain);
	return w;
fail:
	chains_bpf__destroy(w->skel);
	free(w);
	errno = err;
	return NULL;
}

void cs_chainwalk_close(struct cs_chainwalk *w)
{
	if (!w)
		return;
	chains_bpf__destroy(w->skel);
	free(w);
}

const void *cs_chainwalk_object(size_t *size)
{
	return chains_bpf__elf_bytes(size);
}

/* One BPF walk into *o; 0 or -errno. */
static int walk_once(struct cs_chainwalk *w, __u64 head, int kind,
		     struct cs_walk_out *o)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	const struct cs_walk_out *res = &w->skel->bss->chains_out;
	int err;

	w->skel->data_in->chains_in.head = head;
	w->skel->data_in->chains_in.kind = kind;
	w->skel->data_in->chains_in.seq = ++w->seq;
	/* 6.1's raw_tp test run: no context, repeat 0 */
	err = bpf_prog_test_run_opts(w->prog_fd, &opts);
	if (err)
		return -errno;
	if (res->seq != w->seq)
		return -EIO;
	memcpy(o, res, offsetof(struct cs_walk_out, blocks));
	if (o->nr > CS_WALK_MAX_BLOCKS)
		return -EIO;
	memcpy(o->blocks, res->blocks, o->nr * sizeof(o->blocks[0]));
	return 0;
}

/* The user-space checks of one walk; returns a CS_CHAIN_* status. */
static int validate(const struct ksyms *ks, const struct cs_walk_out *o)
{
	const struct ksym *s;
	unsigned long off;
	__u32 i, j;

	if (o->status != CS_WALK_OK)
		return o->status;
	for (i = 0; i < o->nr; i++) {
		for (j = 0; j < i; j++)
			if (o->blocks[j].nb == o->blocks[i].nb)
				return CS_CHAIN_TOO_LONG;	/* a cycle */
		if (i && o->blocks[i].priority > o->blocks[i - 1].priority)
			return CS_CHAIN_BAD_ORDER;
		/* without addresses in kallsyms there is nothing to check against */
		if (!ksyms__count(ks))
			continue;
		s = ksyms__map_addr(ks, o->blocks[i].cb, &off);
		/* t/T text, w/W a weak function (kprobe_exceptions_notify) */
		if (!s || off || !strchr("tTwW", s->type))
			return CS_CHAIN_BAD_CALLBACK;
	}
	return CS_CHAIN_OK;
}

static bool same_walk(const struct cs_walk_out *a, const struct cs_walk_out *b)
{
	__u32 i;

	if (a->status != b->status || a->nr != b->nr)
		return false;
	for (i = 0; i < a->nr; i++)
		if (a->blocks[i].nb != b->blocks[i].nb || a->blocks[i].cb != b->blocks[i].cb ||
		    a->blocks[i].priority != b->blocks[i].priority)
			return false;
	return true;
}

static void chain_name(const struct ksyms *ks, __u64 addr, char *buf, size_t len)
{
	const struct ksym *s = ksyms__map_addr(ks, addr, NULL);
	char sym[CS_SYMSTR_LEN];
	int n;

	ksyms__format(ks, addr, sym, sizeof(sym));
	if (s && s->module)
		n = snprintf(buf, len, "%s [%s]", sym, s->module);
	else
		n = snprintf(buf, len, "%s", sym);
	if (n >= (int)len && len > 4)	/* cut: say so */
		strcpy(buf + len - 4, "...");
}

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* cs_chain_walk() that also returns the BPF side's flags and head size. */
static int walk_head(struct cs_chainwalk *w, const struct ksyms *ks, __u64 head,
		     int kind, struct cs_chain *out, struct cs_walk_out *o)
{
	struct cs_walk_out *prev;
	int err, i, status = CS_CHAIN_OK;
	__u32 k;

	if (kind < CS_CHAIN_RAW || kind > CS_CHAIN_SRCU)
		return -EINVAL;
	prev = malloc(sizeof(*prev));
	if (!prev)
		return -ENOMEM;
	out->head = head;
	out->kind = kind;
	out->stable = false;
	if (!out->name[0])
		chain_name(ks, head, out->name, sizeof(out->name));

	err = walk_once(w, head, kind, prev);
	for (i = 0; !err && i < CS_WALK_TRIES; i++) {
		err = walk_once(w, head, kind, o);
		if (err)
			break;
		if (same_walk(prev, o)) {
			out->stable = true;
			break;
		}
		memcpy(prev, o, sizeof(*o));
	}
	free(prev);
	if (err)
		return err;

	status = validate(ks, o);
	/* a head of this kind must end before the next symbol */
	if (status == CS_CHAIN_OK) {
		unsigned long next = ksyms__next_addr(ks, head);

		if (next && o->head_size > next - head)
			status = CS_CHAIN_NO_ROOM;
	}
	out->status = status;
	out->walked_ns = now_ns();
	out->nr = o->nr;
	for (k = 0; k < o->nr; k++) {
		out->blocks[k].nb = o->blocks[k].nb;
		out->blocks[k].cb = o->blocks[k].cb;
		out->blocks[k].priority = (int)o->blocks[k].priority;
	}
	return 0;
}

int cs_chain_walk(struct cs_chainwalk *w, const struct ksyms *ks, __u64 head,
		  int kind, struct cs_chain *out)
{
	struct cs_walk_out *o = malloc(sizeof(*o));
	int err;

	if (!o)
		return -ENOMEM;
	out->kind_guessed = false;
	err = walk_head(w, ks, head, kind, out, o);
	free(o);
	return err;
}

int cs_chain_infer(struct cs_chainwalk *w, const struct ksyms *ks, __u64 head,
		   struct cs_chain *out, int per_kind[4])
{
	struct cs_chain *cand = malloc(sizeof(*cand));
	struct cs_walk_out *o = malloc(sizeof(*o));
	int kind, err = 0, best = -1, best_score = -1, tie = 0, score;

	if (!cand || !o) {
		err = -ENOMEM;
		goto out;
	}
	for (kind = CS_CHAIN_RAW; kind <= CS_CHAIN_SRCU; kind++) {
		memset(cand, 0, offsetof(struct cs_chain, blocks));
		memcpy(cand->name, out->name, sizeof(cand->name));
		err = walk_head(w, ks, head, kind, cand, o);
		if (err)
			goto out;
		if (per_kind)
			per_kind[kind] = cand->status;
		if (cand->status != CS_CHAIN_OK)
			continue;
		/*
		 * A proven lock is evidence, but not a spinlock's magic
		 * (CONFIG_DEBUG_SPINLOCK): any spinlock followed by a zero
		 * word would read as an empty atomic head (kernfs_notify_lock
		 * did, in --all). An atomic head needs a non-empty list.
		 */
		score = (o->flags & CS_WALK_LOCK_STRONG && kind != CS_CHAIN_ATOMIC ? 2 : 0) +
			(cand->nr > 0);
		if (score > best_score) {
			best_score = score;
			best = kind;
			tie = 0;
			memcpy(out, cand, sizeof(*cand));
		} else if (score == best_score) {
			tie++;
		}
	}
	if (best < 0 || tie || !best_score) {
		/* nothing walked worth showing: just the verdict */
		out->head = head;
		out->kind = CS_CHAIN_KIND_UNKNOWN;
		out->nr = 0;
		out->stable = false;
		out->status = best < 0 ? CS_CHAIN_NOT_A_HEAD :
			      !best_score ? CS_CHAIN_NO_EVIDENCE : CS_CHAIN_AMBIGUOUS;
		if (!out->name[0])
			chain_name(ks, head, out->name, sizeof(out->name));
	}
	out->kind_guessed = true;
out:
	free(cand);
	free(o);
	return err;
}

/*
 * Well-known static heads of 6.1 and 6.12 (x86-64 and what distributions
 * build as modules), with the kind their DEFINE macro gives them. A name
 * this kernel does not have, or has more than once, is skipped; a wrong
 * kind is caught by validation (bad-lock), never read as a list.
 */
static const struct {
	const char *sym;
	int kind;
} known_heads[] = {
	/* kernel/ */
	{ "reboot_notifier_list", CS_CHAIN_BLOCKING },
	{ "restart_handler_list", CS_CHAIN_ATOMIC },
	{ "restart_prep_handler_list", CS_CHAIN_BLOCKING },
	{ "power_off_prep_handler_list", CS_CHAIN_BLOCKING },
	{ "power_off_handler_list", CS_CHAIN_ATOMIC },
	{ "panic_notifier_list", CS_CHAIN_ATOMIC },
	{ "die_chain", CS_CHAIN_ATOMIC },
	{ "module_notify_list", CS_CHAIN_BLOCKING },
	{ "pm_chain_head", CS_CHAIN_BLOCKING },
	{ "cpu_pm_notifier", CS_CHAIN_RAW },	/* its chain is the first member */
	{ "tracepoint_notify_list", CS_CHAIN_BLOCKING },
	{ "pvclock_gtod_chain", CS_CHAIN_RAW },
	/* mm/ */
	{ "oom_notify_list", CS_CHAIN_BLOCKING },
	{ "vmap_notify_list", CS_CHAIN_BLOCKING },
	{ "memory_chain", CS_CHAIN_BLOCKING },
	/* net/ */
	{ "netdev_chain", CS_CHAIN_RAW },
	{ "inetaddr_chain", CS_CHAIN_BLOCKING },
	{ "inetaddr_validator_chain", CS_CHAIN_BLOCKING },
	{ "inet6addr_chain", CS_CHAIN_ATOMIC },
	{ "inet6addr_validator_chain", CS_CHAIN_BLOCKING },
	{ "netevent_notif_chain", CS_CHAIN_ATOMIC },
	{ "netlink_chain", CS_CHAIN_BLOCKING },
	{ "switchdev_notif_chain", CS_CHAIN_ATOMIC },
	{ "dcbevent_notif_chain", CS_CHAIN_ATOMIC },
	/* drivers/ */
	{ "keyboard_notifier_list", CS_CHAIN_ATOMIC },
	{ "vt_notifier_list", CS_CHAIN_ATOMIC },
	{ "fb_notifier_list", CS_CHAIN_BLOCKING },
	{ "usb_notifier_list", CS_CHAIN_BLOCKING },
	{ "acpi_chain_head", CS_CHAIN_BLOCKING },
	{ "acpi_reconfig_chain", CS_CHAIN_BLOCKING },
	{ "power_supply_notifier", CS_CHAIN_BLOCKING },
	{ "cpufreq_policy_notifier_list", CS_CHAIN_BLOCKING },
	{ "cpufreq_transition_notifier_list", CS_CHAIN_SRCU },
	{ "x86_mce_decoder_chain", CS_CHAIN_BLOCKING },
	{ "xenstore_chain", CS_CHAIN_BLOCKING },
	{ "crypto_chain", CS_CHAIN_BLOCKING },
	{ "blocking_lsm_notifier_chain", CS_CHAIN_BLOCKING },
};

int cs_chain_known_heads(const struct ksyms *ks, struct cs_chain **out)
{
	size_t i, n = sizeof(known_heads) / sizeof(known_heads[0]);
	struct cs_chain *c;
	unsigned long addr[2];
	int nr = 0;

	*out = NULL;
	c = calloc(n, sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (ksyms__find(ks, known_heads[i].sym, addr, 2) != 1)
			continue;
		c[nr].head = addr[0];
		c[nr].kind = known_heads[i].kind;
		chain_name(ks, addr[0], c[nr].name, sizeof(c[nr].name));
		nr++;
	}
	*out = c;
	return nr;
}
