// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * mkbtf: write a small raw BTF file for the host CLI tests, standing in
 * for /sys/kernel/btf/vmlinux (via CHAINSCOPE_BTF). Pure user space: the
 * libbpf BTF writer makes no bpf() call.
 *
 *   mkbtf OUT [TRACEPOINT:NR_ARGS | var:NAME | func:NAME ...]
 *
 * Each TRACEPOINT becomes what the kernel's BTF has for a tracepoint:
 * typedef void (*btf_trace_TRACEPOINT)(void *__data, NR_ARGS args...).
 * var:NAME becomes a global int variable NAME (e.g. __preempt_count).
 * func:NAME becomes a global function int NAME(void) (probes mode's
 * chain API, e.g. atomic_notifier_call_chain).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

int main(int argc, char **argv)
{
	int i, j, void_ptr, proto, fn_ptr, err = 0;
	const void *raw;
	struct btf *btf;
	__u32 size;
	FILE *f;

	if (argc < 2) {
		fprintf(stderr, "usage: mkbtf OUT [TRACEPOINT:NR_ARGS...]\n");
		return 2;
	}
	btf = btf__new_empty();
	if (!btf)
		return 1;
	btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	void_ptr = btf__add_ptr(btf, 0);
	for (i = 2; i < argc; i++) {
		char name[256], *colon = strchr(argv[i], ':');
		int nargs = colon ? atoi(colon + 1) : 0;

		if (!strncmp(argv[i], "var:", 4)) {
			/* type 1 is the int added above */
			err = err ?: btf__add_var(btf, argv[i] + 4, BTF_VAR_GLOBAL_ALLOCATED, 1) < 0;
			continue;
		}
		if (!strncmp(argv[i], "func:", 5)) {
			proto = btf__add_func_proto(btf, 1);
			err = err ?: proto < 0;
			err = err ?: btf__add_func(btf, argv[i] + 5, BTF_FUNC_GLOBAL, proto) < 0;
			continue;
		}
		snprintf(name, sizeof(name), "btf_trace_%.*s",
			 colon ? (int)(colon - argv[i]) : (int)strlen(argv[i]), argv[i]);
		proto = btf__add_func_proto(btf, 0);
		err = err ?: btf__add_func_param(btf, "__data", void_ptr) < 0;
		for (j = 0; j < nargs; j++)
			err = err ?: btf__add_func_param(btf, "arg", void_ptr) < 0;
		fn_ptr = btf__add_ptr(btf, proto);
		err = err ?: btf__add_typedef(btf, name, fn_ptr) < 0;
	}
	raw = btf__raw_data(btf, &size);
	if (err || !raw) {
		fprintf(stderr, "mkbtf: cannot build BTF\n");
		return 1;
	}
	f = fopen(argv[1], "w");
	if (!f || fwrite(raw, 1, size, f) != size || fclose(f)) {
		fprintf(stderr, "mkbtf: cannot write %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	btf__free(btf);
	return 0;
}
