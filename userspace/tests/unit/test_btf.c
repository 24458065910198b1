// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Host unit test of btf_preempt.c: the per-CPU offset of x86's
 * preempt_count as bpf/exec_ctx.bpf.h needs it, from kernel-shaped BTF
 * built in memory with libbpf's BTF writer (no bpf() call).
 */
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>

#include "btf_preempt.h"

static int failed;

#define CHECK_EQ(name, got, want)						\
	do {									\
		unsigned long long g_ = (got), w_ = (want);			\
		if (g_ == w_)							\
			printf("PASS: host.btf.%s\n", name);			\
		else {								\
			printf("FAIL: host.btf.%s: got 0x%llx, want 0x%llx\n",	\
			       name, g_, w_);					\
			failed = 1;						\
		}								\
	} while (0)

/* VARS: "name@off" per-CPU ints; HOT: offset of a 6.12-style pcpu_hot, or -1 */
static struct btf *kernel_btf(const char *const *vars, int nr, long hot_off,
			      const char *hot_member)
{
	struct btf *btf = btf__new_empty();
	int i, ints = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	int ids[8], offs[8], n = 0, lng, chr, arr, in, uni, out;

	for (i = 0; i < nr; i++) {
		char name[64];
		int off;

		if (sscanf(vars[i], "%63[^@]@%i", name, &off) != 2)
			return NULL;
		ids[n] = btf__add_var(btf, name, BTF_VAR_GLOBAL_ALLOCATED, ints);
		offs[n++] = off;
	}
	if (hot_off >= 0) {
		/* struct pcpu_hot { union { struct { void *t; int pc; int cpu; }; u8 pad[64]; }; } */
		lng = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
		chr = btf__add_int(btf, "u8", 1, 0);
		arr = btf__add_array(btf, ints, chr, 64);
		in = btf__add_struct(btf, NULL, 16);
		btf__add_field(btf, "current_task", lng, 0, 0);
		btf__add_field(btf, hot_member, ints, 64, 0);
		btf__add_field(btf, "cpu_number", ints, 96, 0);
		uni = btf__add_union(btf, NULL, 64);
		btf__add_field(btf, NULL, in, 0, 0);
		btf__add_field(btf, "pad", arr, 0, 0);
		out = btf__add_struct(btf, "pcpu_hot", 64);
		btf__add_field(btf, NULL, uni, 0, 0);
		ids[n] = btf__add_var(btf, "pcpu_hot", BTF_VAR_GLOBAL_ALLOCATED, out);
		offs[n++] = hot_off;
	}
	btf__add_datasec(btf, ".data..percpu", 0x40000);
	for (i = 0; i < n; i++)
		btf__add_datasec_var_info(btf, ids[i], offs[i], 4);
	return btf;
}

int main(void)
{
	const char *v61[] = { "this_cpu_off@0x1b208", "__preempt_count@0x1b210" };
	const char *v612[] = { "this_cpu_off@0x1b208" };
	const char *nobase[] = { "__preempt_count@0x1b210" };
	struct btf *b;

	b = kernel_btf(v61, 2, -1, NULL);
	CHECK_EQ("preempt-count-6.1", btf_preempt_count_off(b), 0x1b210);
	btf__free(b);

	/* pcpu_hot.preempt_count: inside an anonymous struct in an anonymous union */
	b = kernel_btf(v612, 1, 0x21c40, "preempt_count");
	CHECK_EQ("preempt-count-6.12-pcpu-hot", btf_preempt_count_off(b), 0x21c48);
	btf__free(b);

	b = kernel_btf(v612, 1, 0x21c40, "other");
	CHECK_EQ("pcpu-hot-without-member", btf_preempt_count_off(b), 0);
	btf__free(b);

	b = kernel_btf(nobase, 1, -1, NULL);
	CHECK_EQ("no-this-cpu-off", btf_preempt_count_off(b), 0);
	btf__free(b);

	b = kernel_btf(NULL, 0, -1, NULL);
	CHECK_EQ("no-percpu-section", btf_preempt_count_off(b), 0);
	btf__free(b);
	return failed;
}
