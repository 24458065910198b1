// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * benchattach -a LIST: how long it takes to start and stop tracing N
 * functions with each attach mechanism (qemu/bench.sh, extension
 * attach_time; docs/bench.md):
 *
 *   fentry        fentry + fexit per function: a tracing program is bound
 *                 to its target when it is loaded, so N functions take 2N
 *                 program loads (verifier, JIT) and 2N links, each one a
 *                 BPF trampoline update of its function;
 *   kprobe        kprobe + kretprobe per function: one program pair, 2N
 *                 perf-event kprobe links;
 *   kprobe-multi  one program pair, one kprobe.multi and one
 *                 kretprobe.multi link over all N addresses, cookie =
 *                 the function's index (chainscope's probes mode).
 *
 * Phases, each timed with CLOCK_MONOTONIC and printed in ns:
 *   resolve  names to what the kernel wants: BTF ids (fentry, vmlinux and
 *            module BTF, as libbpf's set_attach_target does), addresses
 *            from kallsyms (kprobe-multi; the probes mode takes them from
 *            the chain walk instead), nothing for kprobe (the kernel
 *            resolves the name);
 *   load     open and load the skeleton, and for fentry the 2(N-1) further
 *            program loads (the skeleton's pair is the first function's);
 *   attach   every link;
 *   detach   closing every link and program.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <uthash.h>

#include "benchattach.h"
#include "benchattach_time.h"
#include "safestr.h"
#include "trace_helpers.h"
#include "benchattach.skel.h"

struct ba_func {
	const char *name;
	size_t idx;
	unsigned long addr;
	__u32 btf_id;
	int btf_fd;		/* 0: vmlinux */
	UT_hash_handle hh;
};

const char *ba_mode_name(enum ba_mode mode)
{
	switch (mode) {
	case BA_MODE_FENTRY:
		return "fentry";
	case BA_MODE_KPROBE:
		return "kprobe";
	case BA_MODE_KPROBE_MULTI:
		return "kprobe-multi";
	}
	return "?";
}

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000000000ULL + (__u64)ts.tv_nsec;
}

static bool name_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!(*s == '_' || *s == '.' || (*s >= '0' && *s <= '9') ||
		      (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
			return false;
	return true;
}

/* The names of LIST, one per line; BA_EXIT_LIST with a message if bad. */
static int read_list(const char *path, char ***namesp, size_t *np)
{
	char esc[CS_SAFE_STR_LEN(64)], esc2[CS_SAFE_STR_LEN(BA_NAME_MAX + 1)];
	struct ba_func *seen = NULL, *f, *tmp;
	char **names = NULL, *line = NULL;
	size_t n = 0, cap = 0, names_cap = 0, lineno = 0;
	int err = BA_EXIT_LIST;
	ssize_t len;
	FILE *fp;

	cs_safe_str(path, esc, sizeof(esc));
	fp = fopen(path, "r");
	if (!fp) {
		fprintf(stderr, "benchattach: error: cannot open '%s': %s\n", esc,
			strerror(errno));
		return BA_EXIT_LIST;
	}
	while ((len = getline(&line, &cap, fp)) >= 0) {
		lineno++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (!len)
			continue;
		if ((size_t)len > BA_NAME_MAX || strlen(line) != (size_t)len ||
		    !name_ok(line)) {
			fprintf(stderr, "benchattach: error: %s:%zu: bad function name '%s'\n",
				esc, lineno, cs_safe_str(line, esc2, sizeof(esc2)));
			goto out;
		}
		if (n == BA_MAX_FUNCS) {
			fprintf(stderr, "benchattach: error: %s: more than %d functions\n",
				esc, BA_MAX_FUNCS);
			goto out;
		}
		HASH_FIND_STR(seen, line, f);
		if (f) {
			fprintf(stderr, "benchattach: error: %s:%zu: '%s' listed twice\n",
				esc, lineno, line);
			goto out;
		}
		if (cs_grow(&names, &names_cap, n + 1, sizeof(*names)))
			goto oom;
		names[n] = strdup(line);
		f = calloc(1, sizeof(*f));
		if (!names[n] || !f) {
			free(names[n]);
			free(f);
			goto oom;
		}
		f->name = names[n++];
		HASH_ADD_KEYPTR(hh, seen, f->name, strlen(f->name), f);
	}
	if (ferror(fp)) {
		fprintf(stderr, "benchattach: error: cannot read '%s'\n", esc);
		goto out;
	}
	if (!n) {
		fprintf(stderr, "benchattach: error: '%s' lists no function\n", esc);
		goto out;
	}
	err = 0;
	goto out;
oom:
	fprintf(stderr, "benchattach: error: out of memory\n");
out:
	HASH_ITER(hh, seen, f, tmp) {
		HASH_DEL(seen, f);
		free(f);
	}
	free(line);
	fclose(fp);
	if (err) {
		while (n)
			free(names[--n]);
		free(names);
		return err;
	}
	*namesp = names;
	*np = n;
	return 0;
}

static int index_names(const char *const *names, size_t n, struct ba_func **hash,
		       struct ba_func **arr)
{
	struct ba_func *f;
	size_t i;

	*arr = calloc(n, sizeof(**arr));
	if (!*arr)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		f = &(*arr)[i];
		f->name = names[i];
		f->idx = i;
		HASH_ADD_KEYPTR(hh, *hash, f->name, strlen(f->name), f);
	}
	return 0;
}

int ba_resolve_addrs(const char *const *names, size_t n, unsigned long *addrs)
{
	struct ba_func *hash = NULL, *arr = NULL, *f;
	char esc[CS_SAFE_STR_LEN(BA_NAME_MAX + 1)];
	const struct ksym *s;
	struct ksyms *ks;
	int err = BA_EXIT_BPF;
	size_t i;

	if (index_names(names, n, &hash, &arr)) {
		fprintf(stderr, "benchattach: error: out of memory\n");
		return BA_EXIT_BPF;
	}
	/* the CLI's reader (core/trace_helpers.c): the same file, the same names */
	ks = ksyms__load(NULL);
	if (!ks) {
		fprintf(stderr, "benchattach: error: cannot open kallsyms: %s\n",
			strerror(errno));
		goto out;
	}
	for (i = 0; (s = ksyms__get(ks, i)); i++) {
		if (s->type != 't' && s->type != 'T')
			continue;
		HASH_FIND_STR(hash, s->name, f);
		if (!f)
			continue;
		if (f->addr && f->addr != s->addr) {
			fprintf(stderr, "benchattach: error: '%s' has two addresses in "
				"kallsyms\n", f->name);
			goto out;
		}
		f->addr = s->addr;
	}
	for (i = 0; i < n; i++) {
		if (!arr[i].addr) {
			fprintf(stderr, "benchattach: error: '%s' is not a text symbol in "
				"kallsyms (or addresses are hidden: run as root)\n",
				cs_safe_str(arr[i].name, esc, sizeof(esc)));
			goto out;
		}
		addrs[i] = arr[i].addr;
	}
	err = 0;
out:
	ksyms__free(ks);
	HASH_CLEAR(hh, hash);	/* the entries are arr's */
	free(arr);
	return err;
}

/* Every FUNC of @btf from type @from on whose name is wanted gets its id. */
static size_t btf_match(const struct btf *btf, __u32 from, int fd, struct ba_func *hash)
{
	__u32 id, cnt = btf__type_cnt(btf);
	const struct btf_type *t;
	struct ba_func *f;
	size_t found = 0;

	for (id = from; id < cnt; id++) {
		t = btf__type_by_id(btf, id);
		if (!btf_is_func(t))
			continue;
		HASH_FIND_STR(hash, btf__name_by_offset(btf, t->name_off), f);
		if (f && !f->btf_id) {
			f->btf_id = id;
			f->btf_fd = fd;
			found++;
		}
	}
	return found;
}

/*
 * BTF id and BTF object of each function: vmlinux first, then every
 * module's split BTF. The fds of the module BTFs used go to @fds (closed
 * by the caller).
 */
static int resolve_btf(struct ba_func *arr, size_t n, int *fds, size_t *nfds)
{
	struct ba_func *hash = NULL;
	struct btf *vmlinux, *mod;
	__u32 id = 0, len;
	size_t found;
	int fd, err = BA_EXIT_BPF;
	char name[64];
	size_t i;

	for (i = 0; i < n; i++)
		HASH_ADD_KEYPTR(hh, hash, arr[i].name, strlen(arr[i].name), &arr[i]);
	vmlinux = btf__load_vmlinux_btf();
	if (!vmlinux) {
		fprintf(stderr, "benchattach: error: no vmlinux BTF: %s\n", strerror(errno));
		goto out;
	}
	found = btf_match(vmlinux, 1, 0, hash);
	while (found < n && !bpf_btf_get_next_id(id, &id)) {
		struct bpf_btf_info info = {};

		fd = bpf_btf_get_fd_by_id(id);
		if (fd < 0)
			continue;	/* gone meanwhile */
		memset(name, 0, sizeof(name));
		info.name = (__u64)(uintptr_t)name;
		info.name_len = sizeof(name);
		len = sizeof(info);
		if (bpf_obj_get_info_by_fd(fd, &info, &len) || !info.kernel_btf ||
		    !strcmp(name, "vmlinux")) {
			close(fd);
			continue;
		}
		mod = btf__load_from_kernel_by_id_split(id, vmlinux);
		if (!mod) {
			close(fd);
			continue;
		}
		i = btf_match(mod, btf__type_cnt(vmlinux), fd, hash);
		btf__free(mod);
		if (!i || *nfds == BA_MAX_FUNCS) {
			close(fd);
			continue;
		}
		fds[(*nfds)++] = fd;
		found += i;
	}
	for (i = 0; i < n; i++) {
		if (!arr[i].btf_id) {
			fprintf(stderr, "benchattach: error: no BTF for function '%s'\n",
				arr[i].name);
			goto out;
		}
	}
	err = 0;
out:
	HASH_CLEAR(hh, hash);
	btf__free(vmlinux);
	return err;
}

/* Room for @need more descriptors. */
static void raise_nofile(size_t need)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r) || r.rlim_cur >= need)
		return;
	r.rlim_cur = need;
	if (r.rlim_max < need)
		r.rlim_max = need;
	setrlimit(RLIMIT_NOFILE, &r);	/* the attach reports EMFILE if not */
}

static void close_all(int *fds, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (fds[i] > 0)
			close(fds[i]);
}

struct ba_run {
	enum ba_mode mode;
	size_t n;
	struct ba_func *funcs;
	struct benchattach_bpf *skel;
	int *progs;		/* fentry: 2n program fds (entry, exit) */
	int *links;		/* 2n link fds (fentry) */
	struct bpf_link **blinks;	/* kprobe: 2n; kprobe-multi: 2 */
	size_t nblinks;
	int btf_fds[BA_MAX_FUNCS];
	size_t nbtf;
	bool measured;		/* all four phases ran */
};

static int load_fentry(struct ba_run *r)
{
	struct bpf_program *p[2] = { r->skel->progs.ba_fentry, r->skel->progs.ba_fexit };
	const enum bpf_attach_type at[2] = { BPF_TRACE_FENTRY, BPF_TRACE_FEXIT };
	size_t i, k;
	int fd;

	for (k = 0; k < 2; k++) {
		const struct bpf_insn *insns = bpf_program__insns(p[k]);
		size_t cnt = bpf_program__insn_cnt(p[k]);

		r->progs[k] = bpf_program__fd(p[k]);
		for (i = 1; i < r->n; i++) {
			LIBBPF_OPTS(bpf_prog_load_opts, o,
				    .expected_attach_type = at[k],
				    .attach_btf_id = r->funcs[i].btf_id,
				    .attach_btf_obj_fd = r->funcs[i].btf_fd);

			fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, bpf_program__name(p[k]),
					   "Dual BSD/GPL", insns, cnt, &o);
			if (fd < 0) {
				fprintf(stderr, "benchattach: error: cannot load %s for %s: %s\n",
					bpf_program__name(p[k]), r->funcs[i].name,
					strerror(errno));
				return BA_EXIT_BPF;
			}
			r->progs[2 * i + k] = fd;
		}
	}
	return 0;
}

static int attach_fentry(struct ba_run *r)
{
	size_t i, k;
	int fd;

	for (i = 0; i < r->n; i++) {
		/* exit first, so no entry is left without its exit */
		for (k = 2; k-- > 0;) {
			fd = bpf_raw_tracepoint_open(NULL, r->progs[2 * i + k]);
			if (fd < 0) {
				fprintf(stderr, "benchattach: error: cannot attach %s to %s: %s\n",
					k ? "fexit" : "fentry", r->funcs[i].name,
					strerror(errno));
				return BA_EXIT_BPF;
			}
			r->links[2 * i + k] = fd;
		}
	}
	return 0;
}

static int attach_kprobe(struct ba_run *r)
{
	struct bpf_link *l;
	size_t i;
	int k;

	for (i = 0; i < r->n; i++) {
		for (k = 1; k >= 0; k--) {
			l = bpf_program__attach_kprobe(k ? r->skel->progs.ba_kretprobe :
						       r->skel->progs.ba_kprobe,
						       k, r->funcs[i].name);
			if (!l) {
				fprintf(stderr, "benchattach: error: cannot attach %s to %s: %s\n",
					k ? "kretprobe" : "kprobe", r->funcs[i].name,
					strerror(errno));
				return BA_EXIT_BPF;
			}
			r->blinks[r->nblinks++] = l;
		}
	}
	return 0;
}

static int attach_kprobe_multi(struct ba_run *r, const unsigned long *addrs)
{
	__u64 *cookies;
	struct bpf_link *l;
	size_t i;
	int k, err = 0;

	cookies = calloc(r->n, sizeof(*cookies));
	if (!cookies)
		return BA_EXIT_BPF;
	for (i = 0; i < r->n; i++)
		cookies[i] = i;
	for (k = 1; k >= 0; k--) {
		LIBBPF_OPTS(bpf_kprobe_multi_opts, o, .addrs = addrs,
			    .cookies = cookies, .cnt = r->n, .retprobe = k);

		l = bpf_program__attach_kprobe_multi_opts(k ? r->skel->progs.ba_kpm_exit :
							  r->skel->progs.ba_kpm_entry,
							  NULL, &o);
		if (!l) {
			fprintf(stderr, "benchattach: error: cannot attach %s over %zu "
				"functions: %s\n", k ? "kretprobe.multi" : "kprobe.multi",
				r->n, strerror(errno));
			err = BA_EXIT_BPF;
			break;
		}
		r->blinks[r->nblinks++] = l;
	}
	free(cookies);
	return err;
}

static void detach(struct ba_run *r)
{
	size_t i;

	if (r->links)
		close_all(r->links, 2 * r->n);
	for (i = 0; i < r->nblinks; i++)
		bpf_link__destroy(r->blinks[i]);
	r->nblinks = 0;
	/* the skeleton's own pair (fentry: index 0, 1) goes with the skeleton */
	if (r->progs)
		close_all(r->progs + 2, 2 * r->n - 2);
	if (r->links)
		memset(r->links, 0, 2 * r->n * sizeof(*r->links));
	if (r->progs)
		memset(r->progs, 0, 2 * r->n * sizeof(*r->progs));
	benchattach_bpf__destroy(r->skel);
	r->skel = NULL;
}

/*
 * CHAINSCOPE_PROBE_ONLY=1: stop before the first bpf() system call, i.e.
 * before resolving BTF ids (fentry), after reading kallsyms (kprobe-multi).
 */
static bool stop_here(const struct ba_run *r, bool probe_only)
{
	if (probe_only)
		fprintf(stderr, "benchattach: mode=%s functions=%zu: CHAINSCOPE_PROBE_ONLY=1, "
			"stopping before bpf()\n", ba_mode_name(r->mode), r->n);
	return probe_only;
}

static int run(struct ba_run *r, __u64 t[5], bool probe_only)
{
	unsigned long *addrs = NULL;
	struct bpf_program *pr;
	size_t i;
	int err = BA_EXIT_BPF;

	if (r->mode == BA_MODE_FENTRY && stop_here(r, probe_only))
		return 0;
	/* resolve */
	t[0] = now_ns();
	if (r->mode == BA_MODE_FENTRY) {
		err = resolve_btf(r->funcs, r->n, r->btf_fds, &r->nbtf);
	} else if (r->mode == BA_MODE_KPROBE_MULTI) {
		const char **names = calloc(r->n, sizeof(*names));

		addrs = calloc(r->n, sizeof(*addrs));
		if (names && addrs) {
			for (i = 0; i < r->n; i++)
				names[i] = r->funcs[i].name;
			err = ba_resolve_addrs(names, r->n, addrs);
		}
		free(names);
	} else {
		err = 0;
	}
	if (err || (r->mode != BA_MODE_FENTRY && stop_here(r, probe_only)))
		goto out;

	/* load */
	err = BA_EXIT_BPF;
	t[1] = now_ns();
	r->skel = benchattach_bpf__open();
	if (!r->skel) {
		fprintf(stderr, "benchattach: error: cannot open BPF object: %s\n",
			strerror(errno));
		goto out;
	}
	bpf_object__for_each_program(pr, r->skel->obj)
		bpf_program__set_autoload(pr, false);
	switch (r->mode) {
	case BA_MODE_FENTRY:
		bpf_program__set_autoload(r->skel->progs.ba_fentry, true);
		bpf_program__set_autoload(r->skel->progs.ba_fexit, true);
		if (bpf_program__set_attach_target(r->skel->progs.ba_fentry, 0,
						   r->funcs[0].name) ||
		    bpf_program__set_attach_target(r->skel->progs.ba_fexit, 0,
						   r->funcs[0].name)) {
			fprintf(stderr, "benchattach: error: set attach target %s failed\n",
				r->funcs[0].name);
			goto out;
		}
		break;
	case BA_MODE_KPROBE:
		bpf_program__set_autoload(r->skel->progs.ba_kprobe, true);
		bpf_program__set_autoload(r->skel->progs.ba_kretprobe, true);
		break;
	case BA_MODE_KPROBE_MULTI:
		bpf_program__set_autoload(r->skel->progs.ba_kpm_entry, true);
		bpf_program__set_autoload(r->skel->progs.ba_kpm_exit, true);
		break;
	}
	if (benchattach_bpf__load(r->skel)) {
		fprintf(stderr, "benchattach: error: cannot load BPF programs: %s\n",
			strerror(errno));
		goto out;
	}
	if (r->mode == BA_MODE_FENTRY) {
		err = load_fentry(r);
		if (err)
			goto out;
	}

	/* attach */
	t[2] = now_ns();
	switch (r->mode) {
	case BA_MODE_FENTRY:
		err = attach_fentry(r);
		break;
	case BA_MODE_KPROBE:
		err = attach_kprobe(r);
		break;
	case BA_MODE_KPROBE_MULTI:
		err = attach_kprobe_multi(r, addrs);
		break;
	}
	if (err)
		goto out;

	/* detach */
	t[3] = now_ns();
	detach(r);
	t[4] = now_ns();
	r->measured = true;
out:
	if (!r->measured)
		detach(r);	/* what failed or was not started */
	free(addrs);
	return err;
}

int ba_attach_time(const char *list, enum ba_mode mode)
{
	const char *probe_only = secure_getenv("CHAINSCOPE_PROBE_ONLY");
	struct ba_run r = { .mode = mode };
	char **names = NULL;
	__u64 t[5] = { 0 };
	size_t i;
	int err;

	err = read_list(list, &names, &r.n);
	if (err)
		return err;
	err = BA_EXIT_BPF;
	r.funcs = calloc(r.n, sizeof(*r.funcs));
	r.progs = mode == BA_MODE_FENTRY ? calloc(2 * r.n, sizeof(*r.progs)) : NULL;
	r.links = mode == BA_MODE_FENTRY ? calloc(2 * r.n, sizeof(*r.links)) : NULL;
	r.blinks = calloc(2 * r.n, sizeof(*r.blinks));
	if (!r.funcs || !r.blinks || (mode == BA_MODE_FENTRY && (!r.progs || !r.links))) {
		fprintf(stderr, "benchattach: error: out of memory\n");
		goto out;
	}
	for (i = 0; i < r.n; i++)
		r.funcs[i].name = names[i];
	raise_nofile(4 * r.n + 64);

	err = run(&r, t, probe_only && !strcmp(probe_only, "1"));
	if (err || !r.measured)
		goto out;
	printf("benchattach: attach mode=%s n=%zu resolve_ns=%llu load_ns=%llu "
	       "attach_ns=%llu detach_ns=%llu\n", ba_mode_name(mode), r.n,
	       (unsigned long long)(t[1] - t[0]), (unsigned long long)(t[2] - t[1]),
	       (unsigned long long)(t[3] - t[2]), (unsigned long long)(t[4] - t[3]));
out:
	close_all(r.btf_fds, r.nbtf);
	free(r.funcs);
	free(r.progs);
	free(r.links);
	free(r.blinks);
	for (i = 0; i < r.n; i++)
		free(names[i]);
	free(names);
	return err;
}
