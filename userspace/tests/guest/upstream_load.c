// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * cs-upstream-load: guest-only test loader for bpf/tests/upstream_notifier
 * .bpf.c, the notifier_run programs written for upstream's prototype.
 *
 *   cs-upstream-load tp_btf|raw_tp -- CMD [ARG...]
 *
 * Loads and attaches the one program of that kind, runs CMD (no shell),
 * detaches, and prints one "COUNT NAME" line per callback that
 * notifier_run reported (NAME from /proc/kallsyms, else the address).
 * Exit: 0 done, 1 load/attach/run failure, 2 usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "upstream_notifier.skel.h"
#include "trace_helpers.h"

static int usage(void)
{
	fprintf(stderr, "usage: cs-upstream-load tp_btf|raw_tp -- CMD [ARG...]\n");
	return 2;
}

static int run(char **argv)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "cs-upstream-load: error: cannot run %s: %s\n",
			argv[0], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static int dump(int fd)
{
	struct ksyms *ksyms = ksyms__load(NULL);
	__u64 key, next, val;
	__u64 *prev = NULL;

	if (!ksyms)
		fprintf(stderr, "cs-upstream-load: warning: no kallsyms: %s\n",
			strerror(errno));
	while (bpf_map_get_next_key(fd, prev, &next) == 0) {
		const struct ksym *sym = NULL;
		unsigned long off = 0;

		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &val))
			continue;
		if (ksyms)
			sym = ksyms__map_addr(ksyms, key, &off);
		if (sym && off == 0)
			printf("%llu %s\n", (unsigned long long)val, sym->name);
		else
			printf("%llu 0x%llx\n", (unsigned long long)val,
			       (unsigned long long)key);
	}
	ksyms__free(ksyms);
	return 0;
}

int main(int argc, char **argv)
{
	struct upstream_notifier_bpf *obj;
	struct bpf_program *prog;
	struct bpf_link *link;
	int err, rc;

	if (argc < 4 || strcmp(argv[2], "--"))
		return usage();
	obj = upstream_notifier_bpf__open();
	if (!obj) {
		fprintf(stderr, "cs-upstream-load: error: open: %s\n", strerror(errno));
		return 1;
	}
	if (!strcmp(argv[1], "tp_btf")) {
		prog = obj->progs.upstream_tp_btf;
		bpf_program__set_autoload(obj->progs.upstream_raw_tp, false);
	} else if (!strcmp(argv[1], "raw_tp")) {
		prog = obj->progs.upstream_raw_tp;
		bpf_program__set_autoload(obj->progs.upstream_tp_btf, false);
	} else {
		upstream_notifier_bpf__destroy(obj);
		return usage();
	}
	err = upstream_notifier_bpf__load(obj);
	if (err) {
		fprintf(stderr, "cs-upstream-load: error: load %s: %s\n", argv[1],
			strerror(-err));
		upstream_notifier_bpf__destroy(obj);
		return 1;
	}
	link = bpf_program__attach(prog);
	if (!link) {
		fprintf(stderr, "cs-upstream-load: error: attach %s: %s\n", argv[1],
			strerror(errno));
		upstream_notifier_bpf__destroy(obj);
		return 1;
	}
	rc = run(argv + 3);
	bpf_link__destroy(link);
	if (rc) {
		fprintf(stderr, "cs-upstream-load: error: %s exited %d\n", argv[3], rc);
		upstream_notifier_bpf__destroy(obj);
		return 1;
	}
	dump(bpf_map__fd(obj->maps.runs));
	upstream_notifier_bpf__destroy(obj);
	return 0;
}
