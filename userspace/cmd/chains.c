// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope chains: what is on a notifier chain, in call order, read
 * from kernel memory by the chain walker (userspace/live/chain_walk.c, which
 * runs bpf/chains.bpf.c with BPF_PROG_TEST_RUN). Works on any kernel with
 * BPF and BTF: it needs no notifier tracepoint.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "chainscope.h"
#include "live.h"
#include "chain_watch.h"
#include "chain_walk.h"
#include "outfile.h"
#include "probes.h"
#include "chainseen.h"

#define MAX_HEADS 64

enum {
	OPT_ALL = 0x100,
	OPT_BPF_OBJECT,
	OPT_MODE,
	OPT_FORCE,
};

static struct env {
	const char *cmd;
	const char *chains[MAX_HEADS];
	int nr_chains;
	int kind;		/* -k, CS_CHAIN_KIND_UNKNOWN if not given */
	bool json;
	bool verbose;
	bool all;
	const char *bpf_object;	/* --bpf-object FILE */
	bool force;		/* --force: FILE through a link, or another user's */
	long watch;		/* -w SECONDS, 0 if not given */
	int mode;		/* --mode (for -w), enum cs_mode */
	bool mode_given;
} env = {
	.kind = CS_CHAIN_KIND_UNKNOWN,
};

static const struct argp_option opts[] = {
	{ "chain", 'c', "CHAIN", 0,
	  "Only this head (repeatable): SYMBOL, MODULE:SYMBOL or 0xADDR", 0 },
	{ "kind", 'k', "KIND", 0,
	  "The -c heads are of this kind: raw, atomic, blocking, srcu", 0 },
	{ "all", OPT_ALL, NULL, 0,
	  "Also every kallsyms data symbol named like a head that validates as "
	  "exactly one kind", 0 },
	{ "watch", 'w', "SECONDS", 0,
	  "Also every head notifier events name during SECONDS (Ctrl-C ends "
	  "the window early), marked seen", 0 },
	{ "mode", OPT_MODE, "MODE", 0,
	  "Where -w sees events: auto (default: tracepoints if the kernel has "
	  "ours, else probes), tracepoints, probes", 0 },
	{ "json", 'j', NULL, 0, "One JSON object", 0 },
	{ "bpf-object", OPT_BPF_OBJECT, "FILE", 0,
	  "Write the walker's BPF object to FILE (for bpftool prog loadall) and exit", 0 },
	{ "force", OPT_FORCE, NULL, 0,
	  "--bpf-object: write FILE even if it is a symbolic link, another user's file "
	  "or a file with other hard links", 0 },
	{ "verbose", 'v', NULL, 0,
	  "libbpf debug output; with --all, the candidates rejected and why", 0 },
	{},
};

static const char doc[] =
"List the blocks on notifier chains, in call order.\n"
"\n"
"For each chain head: its symbol [module], kind, address and whether two\n"
"walks in a row agreed (stable); then every block in the order a call runs\n"
"them: priority, callback symbol [module] and the notifier_block address.\n"
"The list is read from kernel memory by a BPF program run with\n"
"BPF_PROG_TEST_RUN (bounded, every pointer checked), so it needs no\n"
"tracepoint and works on any kernel with BPF and BTF.\n"
"\n"
"Heads: without -c, the built-in table of well-known heads this kernel\n"
"has (reboot_notifier_list, netdev_chain, ...). -c SYMBOL takes its kind\n"
"from that table, else from -k, else infers it (the head must validate as\n"
"exactly one kind, with evidence). A head that is not a chain prints why\n"
"(bad-pointer, fault, too-long, bad-callback, bad-order, bad-lock,\n"
"no-room, ambiguous, not-a-head, other-kind, no-evidence).\n"
"\n"
"-w SECONDS first watches notifier events for that long and adds every\n"
"head they name, with the kind the event gives (tracepoints mode: the\n"
"notifier_call_begin and (un)register tracepoints; probes mode: fentry on\n"
"the exported *_notifier_call_chain and *_chain_(un)register functions,\n"
"which miss calls that bypass the API). Each head says where it came\n"
"from: cli (-c), table, all (--all) or seen (only events named it): the\n"
"JSON field \"source\", and with -w the text's source=; with -w, seen=N\n"
"(\"seen_events\") counts the events that named it. A seen head that does\n"
"not validate is shown with its status, like a table head.\n"
"\v"
"Exit status of chains: as below, and\n"
"  10 a -c head does not validate as a chain (of its -k kind, or of any)\n"
"\n"
CS_EXIT_DOC
"\n"
"Examples:\n"
"  chainscope chains                         # the well-known heads\n"
"  chainscope chains -c reboot_notifier_list\n"
"  chainscope chains -c cs_loadgen:cs_loadgen_blocking -j\n"
"  chainscope chains -c 0xffffffffc0a02040 -k atomic\n"
"  chainscope chains --all                   # every head kallsyms names\n"
"  chainscope chains -w 10 -j                # and every head called or\n"
"                                            # (un)registered within 10 s\n";

/* -w SECONDS: 1..INT_MAX, a usage error otherwise */
static long parse_seconds(const struct argp_state *state, const char *arg)
{
	long v = 0;
	int err = cs_parse_num(arg, INT_MAX, &v);

	if (err == -EINVAL)
		cs_usage_error(state, "invalid -w '%s': not a number of seconds", arg);
	if (err)
		cs_usage_error(state, "invalid -w '%s': must be 1..%d seconds", arg, INT_MAX);
	return v;
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case ARGP_KEY_INIT:
		state->err_stream = NULL;	/* one-line errors (cs_parse_args) */
		return 0;
	case 'c':
		if (!*arg)
			cs_usage_error(state, "empty -c CHAIN");
		if (env.nr_chains == MAX_HEADS)
			cs_usage_error(state, "more than %d -c heads", MAX_HEADS);
		env.chains[env.nr_chains++] = arg;
		return 0;
	case 'k':
		env.kind = cs_kind_parse(arg);
		if (env.kind < 0)
			cs_usage_error(state, "unknown -k '%s' (raw, atomic, blocking, srcu)",
				       arg);
		return 0;
	case OPT_ALL:
		env.all = true;
		return 0;
	case 'w':
		env.watch = parse_seconds(state, arg);
		return 0;
	case OPT_MODE:
		env.mode = cs_mode_parse(arg);
		if (env.mode < 0)
			cs_usage_error(state, "unknown --mode '%s' (auto, tracepoints, probes)",
				       arg);
		env.mode_given = true;
		return 0;
	case OPT_BPF_OBJECT:
		env.bpf_object = arg;
		return 0;
	case OPT_FORCE:
		env.force = true;
		return 0;
	case 'j':
		env.json = true;
		return 0;
	case 'v':
		env.verbose = true;
		cs_setup_libbpf(true);
		return 0;
	case ARGP_KEY_ARG:
		cs_usage_error(state, "unexpected argument '%s'", arg);
	case ARGP_KEY_END:
		if (env.kind >= 0 && !env.nr_chains)
			cs_usage_error(state, "-k KIND applies to -c heads: give -c CHAIN");
		if (env.mode_given && !env.watch)
			cs_usage_error(state, "--mode picks where -w sees events: give -w SECONDS");
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp argp = {
	.options = opts,
	.parser = parse_arg,
	.args_doc = NULL,
	.doc = doc,
};

/* Where a head to walk came from (the first of these that names it) */
enum head_source {
	SRC_CLI,		/* -c */
	SRC_TABLE,		/* the curated table */
	SRC_ALL,		/* --all: a kallsyms name */
	SRC_SEEN,		/* -w: only notifier events named it */
};

static const char *const source_names[] = {
	[SRC_CLI] = "cli", [SRC_TABLE] = "table", [SRC_ALL] = "all", [SRC_SEEN] = "seen",
};

/* A head to walk: where it came from decides its kind and the exit code. */
struct head {
	__u64 addr;
	int kind;		/* CS_CHAIN_KIND_UNKNOWN: infer */
	bool from_c;		/* -c: a head that does not validate fails the run */
	bool from_all;		/* --all: kept only if it validates (or was seen) */
	int source;		/* enum head_source */
	__u64 seen;		/* -w: events that named it */
};

/* "SYM", "MODULE:SYM" or "0xADDR" to an address; CS_EXIT_OK or _USAGE. */
static int resolve_head(const struct ksyms *ks, const char *arg, __u64 *addr)
{
	return cs_resolve(env.cmd, ks, "chain", arg, addr);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/*
 * --all: a data symbol whose name says it may be a head. Validation
 * decides; the names only keep the number of walks down.
 */
static bool head_like(const struct ksym *s)
{
	static const char *const suffixes[] = {
		"_atomic", "_blocking", "_raw", "_srcu", "_nh", "_handler_list",
	};
	size_t i;

	if (!strchr("dDbB", s->type))
		return false;
	if (strstr(s->name, "notif") || strstr(s->name, "chain"))
		return true;
	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
		if (ends_with(s->name, suffixes[i]))
			return true;
	return false;
}

static bool have_head(const struct head *h, int n, __u64 addr)
{
	int i;

	for (i = 0; i < n; i++)
		if (h[i].addr == addr)
			return true;
	return false;
}

static int known_kind(const struct cs_chain *known, int nr_known, __u64 addr)
{
	int i;

	for (i = 0; i < nr_known; i++)
		if (known[i].head == addr)
			return known[i].kind;
	return CS_CHAIN_KIND_UNKNOWN;
}

static void print_sym(const struct ksyms *ks, __u64 addr)
{
	const struct ksym *s = ksyms__map_addr(ks, addr, NULL);
	char buf[CS_SYMSTR_LEN];

	ksyms__format(ks, addr, buf, sizeof(buf));
	if (s && s->module)
		printf("%s [%s]", buf, s->module);
	else
		printf("%s", buf);
}

static void print_blocks(const struct ksyms *ks, const struct cs_chain *c,
			 const char *indent)
{
	int i;

	for (i = 0; i < c->nr; i++) {
		printf("%s%3d prio=%-11d cb=", indent, i, c->blocks[i].priority);
		print_sym(ks, c->blocks[i].cb);
		printf(" nb=0x%llx\n", (unsigned long long)c->blocks[i].nb);
	}
}

static void print_text(const struct ksyms *ks, const struct cs_chain *c,
		       const int *per_kind, const struct head *h)
{
	int k;

	printf("chain: %s (%s%s) addr=0x%llx", c->name, cs_kind_name(c->kind),
	       c->kind_guessed ? ", inferred" : "", (unsigned long long)c->head);
	if (env.watch)
		printf(" source=%s seen=%llu", source_names[h->source],
		       (unsigned long long)h->seen);
	if (c->status != CS_CHAIN_OK) {
		printf(" not a chain: %s (%s)", cs_chain_status_name(c->status),
		       cs_chain_status_doc(c->status));
		if (c->status == CS_CHAIN_OTHER_KIND)
			printf(": %s", cs_kind_name(per_kind[0]));
		else if (per_kind) {
			for (k = CS_CHAIN_RAW; k <= CS_CHAIN_SRCU; k++)
				printf("%s%s: %s", k ? ", " : "; as ", cs_kind_name(k),
				       cs_chain_status_name(per_kind[k]));
			if (c->status == CS_CHAIN_AMBIGUOUS ||
			    c->status == CS_CHAIN_NO_EVIDENCE)
				printf("; give -k KIND");
		}
		printf("\n");
		/* what was read, so that the offending block can be seen */
		if (c->status == CS_CHAIN_BAD_CALLBACK || c->status == CS_CHAIN_BAD_ORDER)
			print_blocks(ks, c, "  ?");
		return;
	}
	printf(" %s blocks=%d\n", c->stable ? "stable" : "unstable", c->nr);
	print_blocks(ks, c, "  ");
}

static void json_source(json_object *o, const struct head *h)
{
	json_object_object_add(o, "source", json_object_new_string(source_names[h->source]));
	if (env.watch)
		json_object_object_add(o, "seen_events", json_object_new_uint64(h->seen));
}

static json_object *chain_json(const struct ksyms *ks, const struct cs_chain *c,
			       const int *per_kind, const struct head *h)
{
	json_object *o = json_object_new_object(), *blocks, *b, *kinds;
	int i, k;

	cs_json_sym(o, "chain", ks, c->head);
	json_object_object_add(o, "kind", c->kind >= 0 ?
			       json_object_new_string(cs_kind_name(c->kind)) : NULL);
	json_object_object_add(o, "kind_inferred", json_object_new_boolean(c->kind_guessed));
	json_object_object_add(o, "status", json_object_new_string(cs_chain_status_name(c->status)));
	if (c->status != CS_CHAIN_OK) {
		json_object_object_add(o, "reason",
				       json_object_new_string(cs_chain_status_doc(c->status)));
		if (c->status == CS_CHAIN_OTHER_KIND)
			json_object_object_add(o, "other_kind",
				json_object_new_string(cs_kind_name(per_kind[0])));
		else if (per_kind) {
			kinds = json_object_new_object();
			for (k = CS_CHAIN_RAW; k <= CS_CHAIN_SRCU; k++)
				json_object_object_add(kinds, cs_kind_name(k),
					json_object_new_string(cs_chain_status_name(per_kind[k])));
			json_object_object_add(o, "as_kind", kinds);
		}
		/* the blocks read stay, so the offending one can be seen */
		if (c->status != CS_CHAIN_BAD_CALLBACK && c->status != CS_CHAIN_BAD_ORDER) {
			json_source(o, h);
			return o;
		}
	}
	json_object_object_add(o, "stable", json_object_new_boolean(c->stable));
	blocks = json_object_new_array();
	for (i = 0; i < c->nr; i++) {
		b = json_object_new_object();
		json_object_object_add(b, "priority", json_object_new_int(c->blocks[i].priority));
		cs_json_sym(b, "callback", ks, c->blocks[i].cb);
		json_object_object_add(b, "nb", cs_json_addr(c->blocks[i].nb));
		json_object_array_add(blocks, b);
	}
	json_object_object_add(o, "blocks", blocks);
	json_source(o, h);
	return o;
}

/* Walk one head into *c; per_kind set when the kind was inferred. */
static int walk(struct cs_chainwalk *w, const struct ksyms *ks, const struct head *h,
		struct cs_chain *c, int *per_kind, bool *inferred)
{
	struct cs_chain *other;
	int err;

	memset(c, 0, offsetof(struct cs_chain, blocks));
	*inferred = h->kind == CS_CHAIN_KIND_UNKNOWN;
	if (*inferred)
		return cs_chain_infer(w, ks, h->addr, c, per_kind);
	err = cs_chain_walk(w, ks, h->addr, h->kind, c);
	if (err || c->status != CS_CHAIN_OK || env.kind < 0 || !h->from_c)
		return err;
	/*
	 * -k is a guess: an empty list behind a lock word of 0 reads as a
	 * valid atomic or raw chain. Reject it when another kind fits the
	 * same bytes with more evidence (its lock checks out conclusively).
	 */
	other = malloc(sizeof(*other));
	if (!other)
		return -ENOMEM;
	memset(other, 0, offsetof(struct cs_chain, blocks));
	err = cs_chain_infer(w, ks, h->addr, other, NULL);
	if (!err && other->status == CS_CHAIN_OK && other->kind != h->kind) {
		c->status = CS_CHAIN_OTHER_KIND;
		c->nr = 0;
		*per_kind = other->kind;	/* print_text() names it */
	}
	free(other);
	return err;
}

/* The heads to walk, from -c, the table and --all; count or -errno. */
static int collect(const struct ksyms *ks, const __u64 *c_addrs, struct head **out,
		   const struct cs_chain *known, int nr_known)
{
	size_t i, cap = nr_known + env.nr_chains + 16;
	struct head *h = calloc(cap, sizeof(*h));
	int n = 0;

	if (!h)
		return -ENOMEM;
	for (i = 0; i < (size_t)env.nr_chains; i++) {
		if (have_head(h, n, c_addrs[i]))
			continue;
		h[n].addr = c_addrs[i];
		h[n].kind = env.kind >= 0 ? env.kind : known_kind(known, nr_known, c_addrs[i]);
		h[n].from_c = true;
		h[n].source = SRC_CLI;
		n++;
	}
	if (!env.nr_chains || env.all) {
		for (i = 0; i < (size_t)nr_known; i++) {
			if (have_head(h, n, known[i].head))
				continue;
			h[n].addr = known[i].head;
			h[n].kind = known[i].kind;
			h[n].source = SRC_TABLE;
			n++;
		}
	}
	for (i = 0; env.all && i < ksyms__count(ks); i++) {
		const struct ksym *s = ksyms__get(ks, i);

		if (!head_like(s) || have_head(h, n, s->addr))
			continue;
		if (cs_grow(&h, &cap, (size_t)n + 1, sizeof(*h))) {
			free(h);
			return -ENOMEM;
		}
		h[n].addr = s->addr;
		h[n].kind = CS_CHAIN_KIND_UNKNOWN;
		h[n].from_all = true;
		h[n].from_c = false;
		h[n].source = SRC_ALL;
		n++;
	}
	*out = h;
	return n;
}

/*
 * -w: mark the heads already listed that events named, append the others
 * (source seen). The event's kind replaces an inference; a head the
 * events gave several kinds is inferred. Count or -errno.
 */
static int add_seen(struct head **heads, int n, const struct cs_seen_result *seen)
{
	size_t cap = n;		/* the heads in use: cs_grow() keeps them */
	const struct cs_seen_head *s;
	struct head *h;
	int i, j;

	if (cs_grow(heads, &cap, (size_t)n + seen->nr + 1, sizeof(**heads)))
		return -ENOMEM;
	h = *heads;
	for (i = 0; i < seen->nr; i++) {
		s = &seen->heads[i];
		for (j = 0; j < n; j++)
			if (h[j].addr == s->head)
				break;
		if (j == n) {
			memset(&h[n], 0, sizeof(h[n]));
			h[n].addr = s->head;
			h[n].kind = CS_CHAIN_KIND_UNKNOWN;
			h[n].source = SRC_SEEN;
			n++;
		}
		h[j].seen = s->events;
		h[j].from_all = false;	/* seen: shown even if it does not validate */
		if (h[j].kind == CS_CHAIN_KIND_UNKNOWN)
			h[j].kind = s->kind;
	}
	return n;
}

/* -w: what start-up needs (tracepoints mode: these; probes: the API) */
static int watch_startup(int *mode)
{
	static const struct cs_tp tps[] = {
		{ "notifier_call_begin", 7 },
		{ "notifier_register", 5 },
		{ "notifier_unregister", 5 },
		{ "notifier_register_error", 6 },
		{ "notifier_unregister_error", 6 },
	};
	struct cs_common c;
	int err;

	cs_common_init(&c, env.cmd);
	c.mode = env.mode;
	err = cs_mode_startup(&c, tps, sizeof(tps) / sizeof(tps[0]), true);
	*mode = c.mode;
	return err;
}

static void warn_seen(const struct ksyms *ks, const struct cs_seen_result *seen)
{
	char buf[300], kinds[64];
	int i, k;

	for (i = 0; i < seen->nr; i++) {
		if (seen->heads[i].kind != CS_CHAIN_KIND_UNKNOWN)
			continue;
		kinds[0] = 0;
		for (k = CS_CHAIN_RAW; k <= CS_CHAIN_SRCU; k++)
			if (seen->heads[i].kinds & (1U << k))
				snprintf(kinds + strlen(kinds), sizeof(kinds) - strlen(kinds),
					 "%s%s", kinds[0] ? " " : "", cs_kind_name(k));
		ksyms__format(ks, seen->heads[i].head, buf, sizeof(buf));
		warn("%s: -w: events named %s with several kinds (%s): its kind is inferred\n",
		     env.cmd, buf, kinds);
	}
	if (seen->dropped)
		warn("%s: WARNING: -w: %llu events named heads beyond the first %d, not "
		     "listed\n", env.cmd, (unsigned long long)seen->dropped, CS_SEEN_MAX_HEADS);
	warn("%s: -w: %d heads seen in notifier events\n", env.cmd, seen->nr);
}

/* --bpf-object FILE (outfile.h's rules): no privileges needed, no bpf() call */
static int write_object(void)
{
	char safe[CS_SAFE_STR_LEN(256)];
	const char *why = NULL;
	const void *obj;
	bool created;
	size_t size;
	FILE *f = NULL;
	int fd;

	obj = cs_chainwalk_object(&size);
	fd = cs_out_open(AT_FDCWD, env.bpf_object, (env.force ? CS_OUT_FORCE : 0) |
			 CS_OUT_TRUNCATE, &created, &why);
	if (fd >= 0 && !(f = fdopen(fd, "wb")))
		why = strerror(errno);
	if (f) {
		fd = -1;
		if (fwrite(obj, 1, size, f) != size)
			why = strerror(errno ? errno : EIO);
		if (fclose(f) && !why)
			why = strerror(errno);
	}
	if (fd >= 0)
		close(fd);
	if (why) {
		warn("%s: error: cannot write %s: %s\n", env.cmd,
		     cs_safe_str(env.bpf_object, safe, sizeof(safe)), why);
		return CS_EXIT_OUTPUT;
	}
	return CS_EXIT_OK;
}

int cmd_chains(int argc, char **argv)
{
	__u64 c_addrs[MAX_HEADS];
	struct cs_chainwalk *w = NULL;
	struct cs_chain *known = NULL, *c = NULL;
	struct head *heads = NULL;
	json_object *root = NULL, *arr = NULL;
	int nr_known, nr_heads = 0, i, err, per_kind[4];
	int shown = 0, rejected = 0, bad_c = 0, mode = CS_MODE_AUTO;
	struct cs_seen_result seen = {};
	struct ksyms *ks = NULL;
	bool inferred;

	env.cmd = argv[0];
	cs_parse_args(&argp, argc, argv, &env);
	if (env.bpf_object)
		return write_object();

	/*
	 * capabilities (3) and BTF (4) first; no tracepoint needed, except
	 * by -w in tracepoints mode (5; probes mode without the API: 9)
	 */
	err = env.watch ? watch_startup(&mode) : cs_startup_probes(env.cmd, NULL, 0);
	if (err)
		return err;
	ks = ksyms__load(NULL);
	if (!ks) {
		warn("%s: error: cannot read %s: %s\n", env.cmd, ksyms__default_path(),
		     strerror(errno));
		return CS_EXIT_ERROR;
	}
	if (!ksyms__count(ks)) {
		warn("%s: error: %s shows no addresses to this process: chains needs "
		     "them (CAP_SYSLOG) to find heads and check callbacks\n", env.cmd,
		     ksyms__default_path());
		err = CS_EXIT_NO_PRIV;
		goto cleanup;
	}
	for (i = 0; i < env.nr_chains; i++) {
		err = resolve_head(ks, env.chains[i], &c_addrs[i]);
		if (err)
			goto cleanup;
	}
	if (cs_probe_only_mode(env.cmd, mode)) {
		for (i = 0; i < env.nr_chains; i++)
			warn("%s: chain %s is 0x%llx\n", env.cmd, env.chains[i],
			     (unsigned long long)c_addrs[i]);
		err = CS_EXIT_OK;
		goto cleanup;
	}

	err = CS_EXIT_ERROR;
	nr_known = cs_chain_known_heads(ks, &known);
	if (nr_known < 0) {
		warn("%s: error: out of memory\n", env.cmd);
		goto cleanup;
	}
	nr_heads = collect(ks, c_addrs, &heads, known, nr_known);
	c = malloc(sizeof(*c));
	if (nr_heads < 0 || !c) {
		warn("%s: error: out of memory\n", env.cmd);
		goto cleanup;
	}
	w = cs_chainwalk_open(env.cmd, env.verbose);
	if (!w)
		goto cleanup;
	if (env.watch) {
		err = cs_chains_watch(env.cmd, mode, env.watch, ks, &seen);
		if (err)
			goto cleanup;
		warn_seen(ks, &seen);
		err = CS_EXIT_ERROR;
		nr_heads = add_seen(&heads, nr_heads, &seen);
		if (nr_heads < 0) {
			warn("%s: error: out of memory\n", env.cmd);
			goto cleanup;
		}
	}

	if (env.json) {
		root = json_object_new_object();
		json_object_object_add(root, "type", json_object_new_string("chains"));
		json_object_object_add(root, "time", json_object_new_double(cs_now()));
		arr = json_object_new_array();
		json_object_object_add(root, "chains", arr);
	}
	for (i = 0; i < nr_heads; i++) {
		int r = walk(w, ks, &heads[i], c, per_kind, &inferred);

		if (r) {
			warn("%s: error: walking 0x%llx: BPF_PROG_TEST_RUN: %s\n", env.cmd,
			     (unsigned long long)heads[i].addr, strerror(-r));
			goto cleanup;
		}
		if (c->status != CS_CHAIN_OK) {
			if (heads[i].from_all) {
				rejected++;
				if (env.verbose)
					warn("%s: --all: %s: %s\n", env.cmd, c->name,
					     cs_chain_status_name(c->status));
				continue;
			}
			if (heads[i].from_c)
				bad_c++;
		}
		shown++;
		if (env.json)
			json_object_array_add(arr, chain_json(ks, c, inferred ||
					      c->status == CS_CHAIN_OTHER_KIND ? per_kind : NULL,
					      &heads[i]));
		else
			print_text(ks, c, inferred || c->status == CS_CHAIN_OTHER_KIND ?
				   per_kind : NULL, &heads[i]);
	}
	if (env.json) {
		cs_json_print(root);
		root = NULL;
	}
	if (env.all)
		warn("%s: --all: %d heads shown, %d candidate symbols rejected%s\n",
		     env.cmd, shown, rejected, env.verbose ? "" : " (-v lists them)");
	err = bad_c ? CS_EXIT_NOT_A_CHAIN : CS_EXIT_OK;

cleanup:
	json_object_put(root);
	cs_chainwalk_close(w);
	free(c);
	free(heads);
	free(seen.heads);
	free(known);
	ksyms__free(ks);
	return err;
}
