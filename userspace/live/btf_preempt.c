// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* chainscope user-space helpers: facts read from the kernel's BTF. */
#include <string.h>
#include <bpf/btf.h>

#include "btf_preempt.h"

/* The offset in bytes of member NAME in struct/union ID, anonymous members searched. */
static long btf_member_off(const struct btf *btf, __u32 id, const char *name, int depth)
{
	const struct btf_type *t = btf__type_by_id(btf, btf__resolve_type(btf, id));
	const struct btf_member *m;
	long off;
	int i;

	if (!t || !(btf_is_struct(t) || btf_is_union(t)) || depth > 4)
		return -1;
	for (i = 0, m = btf_members(t); i < btf_vlen(t); i++, m++) {
		const char *mn = btf__name_by_offset(btf, m->name_off);

		if (btf_member_bitfield_size(t, i))
			continue;
		if (mn && !strcmp(mn, name))
			return btf_member_bit_offset(t, i) / 8;
		if (mn && *mn)
			continue;
		off = btf_member_off(btf, m->type, name, depth + 1);
		if (off >= 0)
			return btf_member_bit_offset(t, i) / 8 + off;
	}
	return -1;
}

/* The offset of per-CPU variable VAR in .data..percpu, or -1. */
static long btf_percpu_var_off(const struct btf *btf, const char *var, __u32 *type)
{
	const struct btf_var_secinfo *vsi;
	const struct btf_type *sec, *v;
	int id, i;

	id = btf__find_by_name_kind(btf, ".data..percpu", BTF_KIND_DATASEC);
	if (id <= 0)
		return -1;
	sec = btf__type_by_id(btf, id);
	for (i = 0, vsi = btf_var_secinfos(sec); i < btf_vlen(sec); i++, vsi++) {
		v = btf__type_by_id(btf, vsi->type);
		if (!v || !btf_is_var(v) || strcmp(btf__name_by_offset(btf, v->name_off), var))
			continue;
		if (type)
			*type = v->type;
		return vsi->offset;
	}
	return -1;
}

/*
 * x86: the per-CPU offset of preempt_count, in __preempt_count up to 6.1,
 * in the preempt_count member of pcpu_hot from 6.2; 0 if the BTF has
 * neither, or lacks this_cpu_off, which bpf/exec_ctx.bpf.h adds to it.
 */
__u64 btf_preempt_count_off(const struct btf *btf)
{
	long off, m;
	__u32 type;

	if (btf_percpu_var_off(btf, "this_cpu_off", NULL) < 0)
		return 0;
	off = btf_percpu_var_off(btf, "__preempt_count", NULL);
	if (off > 0)
		return off;
	off = btf_percpu_var_off(btf, "pcpu_hot", &type);
	if (off < 0)
		return 0;
	m = btf_member_off(btf, type, "preempt_count", 0);
	return m < 0 || off + m <= 0 ? 0 : (__u64)(off + m);
}
