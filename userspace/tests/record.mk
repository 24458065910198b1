# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# chainscope record and the trace file: host tests, generator, fuzz target.
# Included at the end of userspace/Makefile (the objects: its lists).
#
#   .output/cs-gentrace       writes synthetic trace files (tests only)
#   .output/fuzz_tracefile    libFuzzer target for the trace reader (clang)
#   make test-record          tests/sh/record.sh: check, report, diff, reader
#                             errors and a bounded fuzz run; tests/sh/tracefile.sh:
#                             format versions, salvage, record's output path;
#                             tests/sh/outfile.sh: who may be written through
#                             (outfile.h); all on the host

# the trace file: reader, writer, the reader's snapshot rules (not the
# commands' trace_cli.o, nor the trace.dat input, which needs libtracecmd)
TRACEFILE_LINK := $(filter-out %/trace_cli.o $(TRACEDAT_OBJS),$(TRACE)) $(OUTPUT)/core/outfile.o
TRACEFILE_SRCS := $(patsubst $(OUTPUT)/%.o,%.c,$(TRACEFILE_LINK))
FUZZ_CC ?= clang-14
FUZZ_RUNS ?= 20000

$(OUTPUT)/cs-gentrace: $(OUTPUT)/tests/gen/gentrace.o $(TRACEFILE_LINK) $(OUTPUT)/core/safestr.o
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(CFLAGS) $^ -o $@

# Built on demand by the test (which skips it without clang's libFuzzer).
$(OUTPUT)/fuzz_tracefile: tests/fuzz/fuzz_tracefile.c $(TRACEFILE_SRCS) core/safestr.c \
		$(wildcard trace/*.h core/*.h) $(BPF_DIR)/record.h | $(OUTPUT)
	$(call msg,FUZZ,$@)
	$(Q)$(FUZZ_CC) -g -O1 -std=c11 -D_GNU_SOURCE $(FUZZ_INC) \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		tests/fuzz/fuzz_tracefile.c $(TRACEFILE_SRCS) core/safestr.c -o $@

.PHONY: test-record
test: test-record
test-record: $(OUTPUT)/chainscope $(OUTPUT)/cs-gentrace $(OUTPUT)/mkbtf
	$(Q)FUZZ_CC=$(FUZZ_CC) FUZZ_RUNS=$(FUZZ_RUNS) MAKE_FUZZ="$(MAKE) -s $(OUTPUT)/fuzz_tracefile" \
		bash tests/sh/record.sh $(OUTPUT)/chainscope $(OUTPUT)/cs-gentrace $(OUTPUT)/fuzz_tracefile
	$(Q)bash tests/sh/tracefile.sh $(OUTPUT)/chainscope $(OUTPUT)/cs-gentrace $(OUTPUT)/mkbtf
	$(Q)bash tests/sh/outfile.sh $(OUTPUT)/chainscope $(OUTPUT)/cs-gentrace
