// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope: live tools for the chainscope notifier tracepoints.
 *
 * This file dispatches to a subcommand and holds what the subcommands
 * share: common options, the start-up probes, symbol resolution, output.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "chainscope.h"
#include "common.h"
#include "tracefile.h"

const char *argp_program_version = "chainscope 0.1";

static bool libbpf_verbose;	/* -v: show libbpf's debug and probe output */
static bool libbpf_quiet;	/* during the start-up probes */

/* --- common options ---------------------------------------------------- */

enum {
	OPT_RAW_TP = 0x100,
};

static const struct argp_option common_opts[] = {
	{ "json", 'j', NULL, 0, "One JSON object per interval, one per line", 0 },
	CS_UNITS_OPTIONS,
	{ "verbose", 'v', NULL, 0, "Show libbpf debug output", 0 },
	{ "raw-tp", OPT_RAW_TP, NULL, 0,
	  "Attach raw_tp programs even where tp_btf works", 0 },
	{},
};

void cs_common_init(struct cs_common *c, const char *cmd)
{
	memset(c, 0, sizeof(*c));
	c->cmd = cmd;
	c->units = CS_UNITS_US;
}

void cs_usage_error(const struct argp_state *state, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: error: ", state->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see '%s --help')\n", state->name);
	exit(CS_EXIT_USAGE);
}

int cs_parse_units(const struct argp_state *state, int key, char *units_flag)
{
	if (*units_flag && *units_flag != key)
		cs_usage_error(state, "options -%c and -%c are mutually exclusive",
			       *units_flag, key);
	*units_flag = key;
	return key == 'n' ? CS_UNITS_NS : key == 'u' ? CS_UNITS_US : CS_UNITS_MS;
}

error_t cs_parse_file_arg(int key, char *arg, struct argp_state *state,
			  const char **file)
{
	switch (key) {
	case ARGP_KEY_INIT:
		state->err_stream = NULL;	/* as in parse_common() */
		return 0;
	case CS_OPT_SALVAGE:
		cs_trace_set_default_flags(CS_TRACE_SALVAGE);
		return 0;
	case ARGP_KEY_ARG:
		if (*file)
			cs_usage_error(state, "unexpected argument '%s'", arg);
		*file = arg;
		return 0;
	case ARGP_KEY_END:
		if (!*file)
			cs_usage_error(state, "no trace file given");
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static long parse_positive(const struct argp_state *state, const char *what,
			   const char *arg)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end)
		cs_usage_error(state, "invalid %s '%s': not a number", what, arg);
	if (v <= 0 || v > INT_MAX)
		cs_usage_error(state, "invalid %s '%s': must be 1..%d", what, arg,
			       INT_MAX);
	return v;
}

static error_t parse_common(int key, char *arg, struct argp_state *state)
{
	struct cs_common *c = state->input;

	switch (key) {
	case ARGP_KEY_INIT:
		/*
		 * getopt already reports a bad option in one line; argp's
		 * extra "Try --help" line goes nowhere, and argp_parse()
		 * returns the error to cs_parse_args() instead of exiting.
		 */
		state->err_stream = NULL;
		return 0;
	case 'j':
		c->json = true;
		return 0;
	case 'v':
		c->verbose = true;
		libbpf_verbose = true;
		return 0;
	case OPT_RAW_TP:
		c->raw_tp = true;
		return 0;
	case 'n':
	case 'u':
	case 'm':
		c->units = cs_parse_units(state, key, &c->units_flag);
		return 0;
	case ARGP_KEY_ARG:
		if (c->nr_args == 0)
			c->interval = parse_positive(state, "interval", arg);
		else if (c->nr_args == 1)
			c->count = parse_positive(state, "count", arg);
		else
			cs_usage_error(state, "unexpected argument '%s'", arg);
		c->nr_args++;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

const struct argp cs_common_argp = {
	.options = common_opts,
	.parser = parse_common,
};

int cs_parse_args(const struct argp *argp, int argc, char **argv, void *input)
{
	int err;

	err = argp_parse(argp, argc, argv, 0, NULL, input);
	if (err) {
		/* getopt printed the reason (unknown option, missing argument) */
		exit(CS_EXIT_USAGE);
	}
	return 0;
}

/* --- start-up probes (no bpf() syscall) --------------------------------- */

static int libbpf_print_fn(enum libbpf_print_level level, const char *fmt,
			   va_list args);

static const char *btf_path(void)
{
	const char *p = getenv("CHAINSCOPE_BTF");

	return p && *p ? p : "/sys/kernel/btf/vmlinux";
}

/* -1: no such type, 0: present with nr_args arguments, 1: other prototype */
static int btf_tp_proto(const struct btf *btf, const char *name, int nr_args)
{
	const struct btf_type *t;
	char tname[128];
	int id;

	snprintf(tname, sizeof(tname), "btf_trace_%s", name);
	id = btf__find_by_name_kind(btf, tname, BTF_KIND_TYPEDEF);
	if (id < 0)
		return -1;
	/* typedef void (*btf_trace_X)(void *__data, args...) */
	t = btf__type_by_id(btf, id);
	t = t ? btf__type_by_id(btf, t->type) : NULL;
	if (!t || !btf_is_ptr(t))
		return 1;
	t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_func_proto(t))
		return 1;
	return btf_vlen(t) == nr_args + 1 ? 0 : 1;
}

static struct btf *probe_btf;	/* kept for cs_btf_has_tp() */

/* Not in 6.1's uapi headers on every distribution */
#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

static bool cap_has(const struct __user_cap_data_struct *d, int cap)
{
	return d[CAP_TO_INDEX(cap)].effective & CAP_TO_MASK(cap);
}

int cs_check_privileges(const char *cmd)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};

	/* glibc has no capget() wrapper; libcap would be a dependency for one call */
	if (syscall(SYS_capget, &hdr, data)) {
		warn("%s: error: insufficient privileges: capget: %s\n", cmd,
		     strerror(errno));
		return CS_EXIT_NO_PRIV;
	}
	if (cap_has(data, CAP_SYS_ADMIN) ||
	    (cap_has(data, CAP_BPF) && cap_has(data, CAP_PERFMON)))
		return CS_EXIT_OK;
	warn("%s: error: insufficient privileges: BPF tracing needs CAP_BPF and "
	     "CAP_PERFMON, or CAP_SYS_ADMIN (effective: CAP_BPF %s, CAP_PERFMON %s)\n",
	     cmd, cap_has(data, CAP_BPF) ? "yes" : "no",
	     cap_has(data, CAP_PERFMON) ? "yes" : "no");
	return CS_EXIT_NO_PRIV;
}

int cs_startup_probes(const char *cmd, const struct cs_tp *tps, int nr_tps)
{
	const char *path = btf_path();
	int i, r;

	r = cs_check_privileges(cmd);
	if (r)
		return r;
	if (access(path, R_OK)) {
		warn("%s: error: no kernel BTF at %s (%s): the kernel needs "
		     "CONFIG_DEBUG_INFO_BTF=y\n", cmd, path, strerror(errno));
		return CS_EXIT_NO_BTF;
	}
	if (!probe_btf) {
		char msg[128];

		/* btf__parse() only reads the file; its complaints are -v only */
		libbpf_set_print(libbpf_print_fn);
		libbpf_quiet = true;
		probe_btf = btf__parse(path, NULL);
		libbpf_quiet = false;
		if (!probe_btf) {
			libbpf_strerror(errno, msg, sizeof(msg));
			warn("%s: error: cannot parse kernel BTF %s: %s\n", cmd, path, msg);
			return CS_EXIT_NO_BTF;
		}
	}
	for (i = 0; i < nr_tps; i++) {
		r = btf_tp_proto(probe_btf, tps[i].name, tps[i].nr_args);
		if (r < 0) {
			warn("%s: error: this kernel has no notifier:%s tracepoint "
			     "(not a chainscope kernel; %s lacks btf_trace_%s)\n",
			     cmd, tps[i].name, path, tps[i].name);
			return CS_EXIT_NO_TP;
		}
		if (r > 0) {
			warn("%s: error: tracepoint notifier:%s has a prototype other "
			     "than the %d arguments this chainscope expects\n", cmd,
			     tps[i].name, tps[i].nr_args);
			return CS_EXIT_NO_TP;
		}
	}
	return CS_EXIT_OK;
}

bool cs_btf_has_tp(const char *name, int nr_args)
{
	return probe_btf && btf_tp_proto(probe_btf, name, nr_args) == 0;
}

bool cs_btf_has_var(const char *name)
{
	return probe_btf && btf__find_by_name_kind(probe_btf, name, BTF_KIND_VAR) > 0;
}

bool cs_probe_only(const char *cmd)
{
	const char *p = getenv("CHAINSCOPE_PROBE_ONLY");

	if (!p || !*p || !strcmp(p, "0"))
		return false;
	warn("%s: start-up probes passed; CHAINSCOPE_PROBE_ONLY is set, "
	     "stopping before any bpf() call\n", cmd);
	return true;
}

bool cs_tp_btf_usable(const char *tp)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = BPF_TRACE_RAW_TP);
	/* r0 = 0; exit */
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int id, fd;

	id = libbpf_find_vmlinux_btf_id(tp, BPF_TRACE_RAW_TP);
	if (id <= 0)
		return false;
	opts.attach_btf_id = id;
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "cs_tp_btf_probe", "GPL", insns,
			   sizeof(insns) / sizeof(insns[0]), &opts);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

__u32 cs_map_entries(void)
{
	const char *p = getenv("CHAINSCOPE_MAP_ENTRIES");
	unsigned long v;
	char *end;

	if (!p || !*p)
		return 0;
	errno = 0;
	v = strtoul(p, &end, 10);
	return errno || *end || v > 1000000 ? 0 : (__u32)v;
}

/* --- libbpf, signals, intervals ------------------------------------------ */

static int libbpf_print_fn(enum libbpf_print_level level, const char *fmt,
			   va_list args)
{
	if ((level == LIBBPF_DEBUG || libbpf_quiet) && !libbpf_verbose)
		return 0;
	return vfprintf(stderr, fmt, args);
}

void cs_setup_libbpf(bool verbose)
{
	libbpf_verbose = verbose;
	libbpf_set_print(libbpf_print_fn);
}

bool cs_last_interval(const struct cs_common *c, long *n)
{
	if (c->count && ++*n >= c->count)
		return true;
	return !c->interval;
}

/* --- symbols ------------------------------------------------------------- */

struct ksyms *cs_load_ksyms(const char *cmd)
{
	struct ksyms *ks = ksyms__load(NULL);

	if (!ks)
		warn("%s: error: cannot read %s: %s\n", cmd, ksyms__default_path(),
		     strerror(errno));
	else if (!ksyms__count(ks))
		/* kptr_restrict hides addresses from a process without CAP_SYSLOG */
		warn("%s: %s shows no addresses to this process (CAP_SYSLOG needed): "
		     "chains and callbacks print as addresses\n", cmd,
		     ksyms__default_path());
	return ks;
}

int cs_resolve(const char *cmd, const struct ksyms *ks, const char *what,
	       const char *arg, __u64 *addr)
{
	unsigned long addrs[8];
	char *end;
	int n, i;

	if (!strncmp(arg, "0x", 2) || !strncmp(arg, "0X", 2)) {
		errno = 0;
		*addr = strtoull(arg, &end, 16);
		if (errno || end == arg + 2 || *end || !*addr) {
			warn("%s: error: invalid %s address '%s'\n", cmd, what, arg);
			return CS_EXIT_USAGE;
		}
		return CS_EXIT_OK;
	}
	n = ksyms__find(ks, arg, addrs, 8);
	if (n == 0) {
		warn("%s: error: %s '%s' is not in %s (give a symbol or 0xADDR)\n",
		     cmd, what, arg, ksyms__default_path());
		return CS_EXIT_USAGE;
	}
	if (n > 1) {
		warn("%s: error: %s '%s' is ambiguous (%d symbols:", cmd, what, arg, n);
		for (i = 0; i < n && i < 8; i++)
			warn(" 0x%lx", addrs[i]);
		warn("); give the address\n");
		return CS_EXIT_USAGE;
	}
	*addr = addrs[0];
	return CS_EXIT_OK;
}

/* --- output ---------------------------------------------------------------- */

const char *cs_units_name(int units)
{
	return units == CS_UNITS_NS ? "nsecs" : units == CS_UNITS_MS ? "msecs" : "usecs";
}

const char *cs_units_suffix(int units)
{
	return units == CS_UNITS_NS ? "ns" : units == CS_UNITS_MS ? "ms" : "us";
}

unsigned long long cs_ns_to_units(__u64 ns, int units)
{
	return units == CS_UNITS_NS ? ns : units == CS_UNITS_MS ? ns / 1000000 : ns / 1000;
}

static const char *const kind_names[] = { "raw", "atomic", "blocking", "srcu" };

const char *cs_kind_name(int kind)
{
	if (kind < 0 || kind >= (int)(sizeof(kind_names) / sizeof(kind_names[0])))
		return "?";
	return kind_names[kind];
}

int cs_kind_parse(const char *s)
{
	int i;

	for (i = 0; i < (int)(sizeof(kind_names) / sizeof(kind_names[0])); i++)
		if (!strcmp(s, kind_names[i]))
			return i;
	return -1;
}

/* One entry of a per-CPU array, a value per CPU (malloc'ed); NULL on error. */
static __u64 *read_percpu(int map_fd, __u32 idx, int *ncpu)
{
	__u64 *vals;

	*ncpu = libbpf_num_possible_cpus();
	if (*ncpu <= 0)
		return NULL;
	vals = calloc(*ncpu, sizeof(*vals));
	if (vals && bpf_map_lookup_elem(map_fd, &idx, vals)) {
		free(vals);
		return NULL;
	}
	return vals;
}

__u64 cs_read_stat(int map_fd, __u32 idx)
{
	int ncpu, i;
	__u64 sum = 0, *vals = read_percpu(map_fd, idx, &ncpu);

	if (!vals)
		return 0;
	for (i = 0; i < ncpu; i++)
		sum += vals[i];
	free(vals);
	return sum;
}

/* CS_STAT_LAST_ERR is per CPU and not a sum: the first CPU's that has one */
static __u64 cs_read_last_err(int map_fd)
{
	int ncpu, i;
	__u64 err = 0, *vals = read_percpu(map_fd, CS_STAT_LAST_ERR, &ncpu);

	if (!vals)
		return 0;
	for (i = 0; i < ncpu && !err; i++)
		err = vals[i];
	free(vals);
	return err;
}

__u64 cs_prog_missed(const struct bpf_program *prog)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	int fd = bpf_program__fd(prog);

	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
		return 0;
	return info.recursion_misses;
}

__u64 cs_read_missed(struct bpf_object *obj)
{
	struct bpf_program *prog;
	__u64 missed = 0;

	bpf_object__for_each_program(prog, obj)
		missed += cs_prog_missed(prog);
	return missed;
}

void cs_read_health(struct bpf_object *obj, int stats_fd, struct cs_health *h)
{
	memset(h, 0, sizeof(*h));
	h->dropped = cs_read_stat(stats_fd, CS_STAT_DROPPED);
	h->failed = cs_read_stat(stats_fd, CS_STAT_FAILED);
	h->unpaired = cs_read_stat(stats_fd, CS_STAT_UNPAIRED);
	h->too_deep = cs_read_stat(stats_fd, CS_STAT_TOO_DEEP);
	h->nested = cs_read_stat(stats_fd, CS_STAT_NESTED);
	h->stale = cs_read_stat(stats_fd, CS_STAT_STALE);
	h->last_err = cs_read_last_err(stats_fd);
	h->missed = cs_read_missed(obj);
}

void cs_report_health(const struct cs_health *now, struct cs_health *prev,
		      bool chain_mode, json_object *json)
{
	unsigned long long dropped = now->dropped - prev->dropped;
	unsigned long long failed = now->failed - prev->failed;
	unsigned long long missed = now->missed - prev->missed;
	unsigned long long unpaired = now->unpaired - prev->unpaired;
	unsigned long long too_deep = now->too_deep - prev->too_deep;
	unsigned long long nested = now->nested - prev->nested;
	unsigned long long stale = now->stale - prev->stale;

	if (json) {
		json_object_object_add(json, "dropped", json_object_new_uint64(dropped));
		json_object_object_add(json, "failed", json_object_new_uint64(failed));
		json_object_object_add(json, "missed", json_object_new_uint64(missed));
		if (chain_mode) {
			json_object_object_add(json, "unpaired", json_object_new_uint64(unpaired));
			json_object_object_add(json, "too_deep", json_object_new_uint64(too_deep));
			json_object_object_add(json, "nested_skipped", json_object_new_uint64(nested));
			json_object_object_add(json, "stale", json_object_new_uint64(stale));
		}
	} else {
		if (dropped)
			printf("WARNING: %llu events dropped (map full)\n", dropped);
		if (failed)
			printf("WARNING: %llu events dropped (map update failed: %s, "
			       "last error %lld)\n", failed,
			       (__s64)now->last_err < 0 ? strerror(-(int)(__s64)now->last_err) :
			       "entry vanished", (long long)now->last_err);
		if (missed)
			printf("WARNING: %llu events missed (BPF recursion protection: "
			       "the event fired while its program was running on that CPU)\n",
			       missed);
		if (chain_mode && unpaired)
			printf("WARNING: %llu chain passes unpaired (call_end without its "
			       "call_begin)\n", unpaired);
		if (chain_mode && too_deep)
			printf("WARNING: %llu chain passes nested deeper than %d, not timed\n",
			       too_deep, CS_MAX_DEPTH);
		if (chain_mode && nested)
			printf("WARNING: %llu chain events in interrupts skipped (they "
			       "interrupted chainscope's own program on that CPU)\n", nested);
		if (chain_mode && stale)
			printf("WARNING: %llu stale chain-pass frames dropped (interrupt "
			       "context, older than 1 s)\n", stale);
	}
	*prev = *now;
}

json_object *cs_json_hist(const __u32 *slots, int nslots)
{
	json_object *arr = json_object_new_array();
	int i, last = log2_hist_last(slots, nslots);

	for (i = 0; i <= last; i++) {
		json_object *b = json_object_new_object();
		unsigned long long lo, hi;

		log2_bucket_range(i, &lo, &hi);
		json_object_object_add(b, "min", json_object_new_uint64(lo));
		json_object_object_add(b, "max", json_object_new_uint64(hi));
		json_object_object_add(b, "count", json_object_new_uint64(slots[i]));
		json_object_array_add(arr, b);
	}
	return arr;
}

json_object *cs_json_root(const char *type, int units)
{
	json_object *root = json_object_new_object();

	json_object_object_add(root, "type", json_object_new_string(type));
	json_object_object_add(root, "time", json_object_new_double(cs_now()));
	json_object_object_add(root, "units", json_object_new_string(cs_units_name(units)));
	return root;
}

json_object *cs_json_addr(__u64 addr)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)addr);
	return json_object_new_string(buf);
}

void cs_gen_init(struct cs_gen_map *g, const struct bpf_map *outer,
		 const struct bpf_map *gen0, const struct bpf_map *gen1)
{
	g->outer_fd = bpf_map__fd(outer);
	g->fd[0] = bpf_map__fd(gen0);
	g->fd[1] = bpf_map__fd(gen1);
	g->active = 0;
}

int cs_gen_swap(struct cs_gen_map *g)
{
	__u32 zero = 0;
	int next = !g->active, err;

	err = bpf_map_update_elem(g->outer_fd, &zero, &g->fd[next], BPF_ANY);
	if (err)
		return err;
	g->active = next;
	return g->fd[!next];
}

/*
 * Take every entry out of a hash map: keys first (deleting while walking
 * would restart the walk), then lookup-and-delete each. Entries are
 * entry_sz bytes, the key at 0 and the value at val_off. Returns the
 * number read or -errno; *out is malloc'ed.
 */
int cs_drain_map(int fd, size_t key_sz, size_t val_off, size_t entry_sz,
		 void **out)
{
	size_t cap = 64, n = 0, i, kept = 0;
	char *keys, *entries, *tmp;
	int err;

	*out = NULL;
	keys = malloc(cap * key_sz);
	if (!keys)
		return -ENOMEM;
	err = bpf_map_get_next_key(fd, NULL, keys);
	while (!err) {
		n++;
		if (n == cap) {
			cap *= 2;
			tmp = realloc(keys, cap * key_sz);
			if (!tmp) {
				free(keys);
				return -ENOMEM;
			}
			keys = tmp;
		}
		err = bpf_map_get_next_key(fd, keys + (n - 1) * key_sz, keys + n * key_sz);
	}
	if (err != -ENOENT) {
		free(keys);
		return err;
	}
	entries = calloc(n ? n : 1, entry_sz);
	if (!entries) {
		free(keys);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		char *e = entries + kept * entry_sz;

		memcpy(e, keys + i * key_sz, key_sz);
		/*
		 * One step, so no update lands between reading and deleting
		 * (hash maps have it since 5.14); else lookup, then delete.
		 */
		err = bpf_map_lookup_and_delete_elem(fd, e, e + val_off);
		if (err && err != -ENOENT) {
			if (bpf_map_lookup_elem(fd, e, e + val_off))
				continue;
			bpf_map_delete_elem(fd, e);
			err = 0;
		}
		if (err)
			continue;	/* deleted meanwhile */
		kept++;
	}
	free(keys);
	*out = entries;
	return (int)kept;
}

void cs_summarize(const __u32 *slots, __u64 count, __u64 max_ns, int units,
		  struct cs_summary *s)
{
	double p50 = log2_hist_percentile(slots, CS_MAX_SLOTS, 50);
	double p99 = log2_hist_percentile(slots, CS_MAX_SLOTS, 99);

	s->count = count;
	s->max = cs_ns_to_units(max_ns, units);
	s->p50 = p50 < 0 ? 0 : (unsigned long long)(p50 + 0.5);
	s->p99 = p99 < 0 ? 0 : (unsigned long long)(p99 + 0.5);
	/* an estimate inside a bucket never exceeds the largest sample */
	if (s->p50 > s->max)
		s->p50 = s->max;
	if (s->p99 > s->max)
		s->p99 = s->max;
}

void cs_json_summary(json_object *o, const struct cs_summary *s, __u64 sum_ns,
		     __u64 max_ns, int units)
{
	json_object_object_add(o, "count", json_object_new_uint64(s->count));
	json_object_object_add(o, "max", json_object_new_uint64(s->max));
	json_object_object_add(o, "sum", json_object_new_uint64(cs_ns_to_units(sum_ns, units)));
	json_object_object_add(o, "p50", json_object_new_uint64(s->p50));
	json_object_object_add(o, "p99", json_object_new_uint64(s->p99));
	json_object_object_add(o, "max_ns", json_object_new_uint64(max_ns));
	json_object_object_add(o, "sum_ns", json_object_new_uint64(sum_ns));
}

void cs_json_sym(json_object *o, const char *field, const struct ksyms *ks,
		 __u64 addr)
{
	char name[256], key[64];
	const struct ksym *sym;

	ksyms__format(ks, addr, name, sizeof(name));
	json_object_object_add(o, field, json_object_new_string(name));
	snprintf(key, sizeof(key), "%s_addr", field);
	json_object_object_add(o, key, cs_json_addr(addr));
	sym = ksyms__map_addr(ks, addr, NULL);
	if (sym && sym->module) {
		snprintf(key, sizeof(key), "%s_module", field);
		json_object_object_add(o, key, json_object_new_string(sym->module));
	}
}

void cs_json_print(json_object *obj)
{
	puts(json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PLAIN));
	fflush(stdout);
	json_object_put(obj);
}

double cs_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void cs_print_time_header(void)
{
	char buf[16];
	time_t t = time(NULL);

	strftime(buf, sizeof(buf), "%H:%M:%S", localtime(&t));
	printf("\n%s\n", buf);
}

/* --- dispatch -------------------------------------------------------------- */

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} cmds[] = {
	{ "latency", cmd_latency, "notifier callback (and chain) latency histograms" },
	{ "contention", cmd_contention, "notifier chain lock waits and top waiters" },
	{ "record", cmd_record, "record every notifier event into a trace file" },
	{ "report", cmd_report, "latency and lock-wait histograms from a trace file" },
	{ "check", cmd_check, "check a trace file against the notifier chain rules" },
	{ "diff", cmd_diff, "compare two JSON results against a latency budget" },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: chainscope COMMAND [OPTION...] [INTERVAL [COUNT]]\n"
		   "Live tools for the chainscope notifier tracepoints.\n\n"
		   "Commands:\n");
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-12s %s\n", cmds[i].name, cmds[i].help);
	fprintf(f, "\n'chainscope COMMAND --help' describes a command.\n\n%s",
		CS_EXIT_DOC);
}

int main(int argc, char **argv)
{
	static char subname[64];
	size_t i;

	if (argc < 2) {
		warn("chainscope: error: no command given (latency, contention, record, report, check, diff; "
		     "see 'chainscope --help')\n");
		return CS_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return CS_EXIT_OK;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("%s\n", argp_program_version);
		return CS_EXIT_OK;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (strcmp(argv[1], cmds[i].name))
			continue;
		/* "chainscope latency" names the command in every message */
		snprintf(subname, sizeof(subname), "chainscope %s", cmds[i].name);
		argv[1] = subname;
		return cmds[i].fn(argc - 1, argv + 1);
	}
	warn("chainscope: error: unknown command '%s' (latency, contention, record, report, check, diff; "
	     "see 'chainscope --help')\n", argv[1]);
	return CS_EXIT_USAGE;
}
