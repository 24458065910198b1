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
 * var:NAME becomes a global int variable NAME (e.g. __preempt_count),
 * placed in a ".data..percpu" section as the kernel's per-CPU variables
 * are (at offsets 0x1000, 0x1008, ...). var:NAME.MEMBER makes NAME a
 * struct like x86's pcpu_hot, whose int MEMBER sits at offset 8 inside
 * an anonymous struct in an anonymous union.
 * func:NAME becomes a global function int NAME(void) (probes mode's
 * chain API, e.g. atomic_notifier_call_chain).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

/* struct NAME { union { struct { long a; int MEMBER; }; char pad[64]; }; } */
static int add_hot_struct(struct btf *btf, const char *name, const char *member)
{
	int lng, chr, arr, in, uni, out;

	lng = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
	chr = btf__add_int(btf, "char", 1, BTF_INT_CHAR);
	arr = btf__add_array(btf, 1, chr, 64);
	in = btf__add_struct(btf, NULL, 16);
	if (lng < 0 || chr < 0 || arr < 0 || in < 0 ||
	    btf__add_field(btf, "a", lng, 0, 0) || btf__add_field(btf, member, 1, 64, 0))
		return -1;
	uni = btf__add_union(btf, NULL, 64);
	if (uni < 0 || btf__add_field(btf, NULL, in, 0, 0) ||
	    btf__add_field(btf, "pad", arr, 0, 0))
		return -1;
	out = btf__add_struct(btf, name, 64);
	if (out < 0 || btf__add_field(btf, NULL, uni, 0, 0))
		return -1;
	return out;
}

int main(int argc, char **argv)
{
	int i, j, void_ptr, proto, fn_ptr, err = 0, vars[64], nr_vars = 0;
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
			char *dot = strchr(argv[i] + 4, '.');
			int type = 1;	/* the int added above */

			if (dot) {
				*dot = '\0';
				type = add_hot_struct(btf, argv[i] + 4, dot + 1);
			}
			if (nr_vars == (int)(sizeof(vars) / sizeof(vars[0])) || type < 0)
				err = 1;
			else
				vars[nr_vars] = btf__add_var(btf, argv[i] + 4,
							     BTF_VAR_GLOBAL_ALLOCATED, type);
			err = err ?: vars[nr_vars++] < 0;
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
	if (nr_vars) {
		err = err ?: btf__add_datasec(btf, ".data..percpu", 0x1000 + 8 * nr_vars) < 0;
		for (j = 0; j < nr_vars; j++)
			err = err ?: btf__add_datasec_var_info(btf, vars[j], 0x1000 + 8 * j, 4) < 0;
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
