# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# benchattach: funclatency-style fentry/fexit or kprobe/kretprobe timer of
# one kernel function, the reference of the tracing-cost benchmark
# (qemu/bench.sh ext tracing_cost, docs/bench.md). Included at the end of
# userspace/Makefile; shipped in the guest through guest-bins.
#
#   .output/benchattach    from benchattach.c (one function, -f),
#                          benchattach_time.c (attach time, -a) and
#                          bpf/benchattach.bpf.c

BENCHATTACH := $(OUTPUT)/benchattach
BINS += $(BENCHATTACH)

all guest-bins: $(BENCHATTACH)

BENCH_OBJS := $(addprefix $(OUTPUT)/bench/,benchattach.o benchattach_time.o)
$(BENCH_OBJS): | $(OUTPUT)/benchattach.skel.h

$(BENCHATTACH): $(BENCH_OBJS) $(OUTPUT)/core/safestr.o $(OUTPUT)/core/trace_helpers.o
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(CFLAGS) $^ $(LDLIBS) -o $@
