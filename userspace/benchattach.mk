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

$(OUTPUT)/benchattach.o $(OUTPUT)/benchattach_time.o: $(OUTPUT)/benchattach.skel.h \
	$(BPF_DIR)/benchattach.h benchattach_time.h

$(BENCHATTACH): $(OUTPUT)/benchattach.o $(OUTPUT)/benchattach_time.o $(OUTPUT)/safestr.o
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(CFLAGS) $^ $(LDLIBS) -o $@
