// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * chainscope CLI: the start-up probes (privileges, BTF, tracepoints), which
 * make no bpf() call but the tp_btf test load, and the libbpf set-up.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "btf_preempt.h"
#include "chainscope.h"
#include "live.h"
#include "common.h"

static bool libbpf_verbose;	/* -v: show libbpf's debug and probe output */
static bool libbpf_quiet;	/* during the start-up probes */

static int libbpf_print_fn(enum libbpf_print_level level, const char *fmt,
			   va_list args)
{
	if ((level == LIBBPF_DEBUG || libbpf_quiet) && !libbpf_verbose)
		return 0;
	return vfprintf(stderr, fmt, args);
}

static const char *btf_path(void)
{
	const char *p = secure_getenv("CHAINSCOPE_BTF");

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
			     "than the %d arguments this chainscope expects (not a "
			     "chainscope kernel: upstream's events since 6.4 carry only "
			     "cb; --mode probes works here)\n", cmd,
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

const struct btf *cs_kernel_btf(void)
{
	return probe_btf;
}

bool cs_btf_has_var(const char *name)
{
	return probe_btf && btf__find_by_name_kind(probe_btf, name, BTF_KIND_VAR) > 0;
}

/* For bpf/exec_ctx.bpf.h: see btf_preempt_count_off() */
__u64 cs_btf_preempt_count_off(void)
{
	return probe_btf ? btf_preempt_count_off(probe_btf) : 0;
}

bool cs_btf_has_preempt_count(void)
{
	return cs_btf_preempt_count_off() != 0;
}

bool cs_probe_only_set(void)
{
	const char *p = secure_getenv("CHAINSCOPE_PROBE_ONLY");

	return p && *p && strcmp(p, "0");
}

bool cs_probe_only_mode(const char *cmd, int mode)
{
	if (!cs_probe_only_set())
		return false;
	if (mode == CS_MODE_AUTO)
		warn("%s: start-up probes passed; CHAINSCOPE_PROBE_ONLY is set, "
		     "stopping before any bpf() call\n", cmd);
	else
		warn("%s: start-up probes passed (mode %s); CHAINSCOPE_PROBE_ONLY is set, "
		     "stopping before any bpf() call\n", cmd, cs_mode_name(mode));
	return true;
}

bool cs_probe_only(const char *cmd)
{
	return cs_probe_only_mode(cmd, CS_MODE_AUTO);
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

void cs_libbpf_quiet(bool quiet)
{
	libbpf_quiet = quiet;
}

void cs_setup_libbpf(bool verbose)
{
	libbpf_verbose = verbose;
	libbpf_set_print(libbpf_print_fn);
}

int cs_attach_first(const char *cmd, struct bpf_program *prog, struct bpf_link **link)
{
	*link = bpf_program__attach(prog);
	if (!*link) {
		warn("%s: error: failed to attach %s: %s\n", cmd, bpf_program__name(prog),
		     strerror(errno));
		return CS_EXIT_ERROR;
	}
	bpf_program__set_autoattach(prog, false);
	return CS_EXIT_OK;
}
