# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# report's and check's trace.dat input (trace/tracedat.c): host tests,
# generator, fuzz target. Included at the end of userspace/Makefile, after
# record.mk (FUZZ_CC).
#
#   .output/cs-gentracedat   trace.dat files written with libtracecmd's own
#                            writer from a made-up tracefs (tests only)
#   .output/fuzz_tracedat    libFuzzer target: the conversion and the strict
#                            reader on its image, in-process (clang)
#   make test-tracedat       tests/sh/tracedat.sh: the three event sets,
#                            latency, stops, losses, clocks, names, refusals,
#                            crafted files and a bounded fuzz run (host only)

TRACEDAT_LIBS = $(shell $(PKG_CONFIG) --libs libtracecmd libtraceevent)
TRACEDAT_CFLAGS = $(shell $(PKG_CONFIG) --cflags libtracecmd)
# each input forks the confined parser: ~20 a second under ASan
TRACEDAT_FUZZ_RUNS ?= 500

$(OUTPUT)/cs-gentracedat: $(OUTPUT)/tests/gen/gentracedat.o $(OUTPUT)/trace/tracedat_extent.o
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(CFLAGS) $^ $(TRACEDAT_LIBS) -o $@

# Built on demand by the test (which skips it without clang's libFuzzer).
$(OUTPUT)/fuzz_tracedat: tests/fuzz/fuzz_tracedat.c trace/tracedat.c trace/tracedat_child.c $(TRACEFILE_SRCS) \
		core/safestr.c $(wildcard trace/*.h core/*.h) $(BPF_DIR)/record.h | $(OUTPUT)
	$(call msg,FUZZ,$@)
	$(Q)$(FUZZ_CC) -g -O1 -std=c11 -D_GNU_SOURCE $(FUZZ_INC) $(TRACEDAT_CFLAGS) \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		tests/fuzz/fuzz_tracedat.c trace/tracedat.c trace/tracedat_child.c $(TRACEFILE_SRCS) core/safestr.c \
		$(TRACEDAT_LIBS) -o $@

.PHONY: test-tracedat
test: test-tracedat
test-tracedat: $(OUTPUT)/chainscope $(OUTPUT)/cs-gentracedat
	$(Q)FUZZ_CC=$(FUZZ_CC) FUZZ_RUNS=$(TRACEDAT_FUZZ_RUNS) \
		MAKE_FUZZ="$(MAKE) -s $(OUTPUT)/fuzz_tracedat" \
		bash tests/sh/tracedat.sh $(OUTPUT)/chainscope $(OUTPUT)/cs-gentracedat \
		$(OUTPUT)/fuzz_tracedat

# --tracefs (tests/sh/tracefs.sh): the refusals on DIRs of its own, and
# the decoding on a made-up tracefs (cs-gentracedat --tracefs), never the
# host's tracefs; the live reads run in the guests (cli-tracefs)
.PHONY: test-tracefs
test: test-tracefs
test-tracefs: $(OUTPUT)/chainscope $(OUTPUT)/cs-gentracedat
	$(Q)bash tests/sh/tracefs.sh $(OUTPUT)/chainscope $(OUTPUT)/cs-gentracedat

# report --boot and check on boot-time buffers (tests/sh/boot.sh): the
# boot scenarios of cs-gentracedat (trace.dat, made-up tracefs) and of
# genconsole.py, never the host's tracefs
.PHONY: test-boot
test: test-boot
test-boot: $(OUTPUT)/chainscope $(OUTPUT)/cs-gentracedat
	$(Q)bash tests/sh/boot.sh $(OUTPUT)/chainscope $(OUTPUT)/cs-gentracedat \
		tests/gen/genconsole.py $(REPO)/include-trace/trace/events/notifier.h
