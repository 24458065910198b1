# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# chainscope record / report / check / diff and their host tests.
# Included at the end of userspace/Makefile.
#
#   .output/chainscope        gets record.o record_syms.o report.o check.o diff.o
#                             and the trace file code (TRACEFILE_OBJS)
#   .output/cs-gentrace       writes synthetic trace files (tests only)
#   .output/fuzz_tracefile    libFuzzer target for the trace reader (clang)
#   make test-record          tests/record.sh: check, report, diff, reader
#                             errors and a bounded fuzz run; tests/tracefile.sh:
#                             format versions, salvage, record's output path;
#                             tests/outfile.sh: who may be written through
#                             (outfile.h); all on the host

# the trace file: reader, writer, the reader's snapshot rules
TRACEFILE_OBJS := tracefile.o tracefile_write.o tracefile_snap.o outfile.o
TRACEFILE_SRCS := $(TRACEFILE_OBJS:.o=.c)
TRACEFILE_LINK := $(addprefix $(OUTPUT)/,$(TRACEFILE_OBJS))
REC_OBJS := record.o record_snap.o record_syms.o report.o check.o diff.o $(TRACEFILE_OBJS)
FUZZ_CC ?= clang-14
FUZZ_RUNS ?= 20000

$(OUTPUT)/chainscope: $(addprefix $(OUTPUT)/,$(REC_OBJS))
$(OUTPUT)/record.o: $(OUTPUT)/record.skel.h $(BPF_DIR)/record.h record_syms.h
$(OUTPUT)/record_syms.o: record_syms.h
$(OUTPUT)/record_snap.o: $(BPF_DIR)/record.h
$(TRACEFILE_LINK) $(OUTPUT)/report.o $(OUTPUT)/check.o: $(BPF_DIR)/record.h

$(OUTPUT)/cs-gentrace: tests/gentrace.c $(TRACEFILE_LINK) $(OUTPUT)/safestr.o \
		tracefile.h $(BPF_DIR)/record.h | $(OUTPUT)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(CFLAGS) -I. tests/gentrace.c $(TRACEFILE_LINK) $(OUTPUT)/safestr.o -o $@

# Built on demand by the test (which skips it without clang's libFuzzer).
$(OUTPUT)/fuzz_tracefile: tests/fuzz_tracefile.c $(TRACEFILE_SRCS) tracefile.h safestr.c safestr.h \
		$(BPF_DIR)/record.h | $(OUTPUT)
	$(call msg,FUZZ,$@)
	$(Q)$(FUZZ_CC) -g -O1 -std=c11 -D_GNU_SOURCE -I. -I$(BPF_DIR) \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		tests/fuzz_tracefile.c $(TRACEFILE_SRCS) safestr.c -o $@

.PHONY: test-record
test: test-record
test-record: $(OUTPUT)/chainscope $(OUTPUT)/cs-gentrace $(OUTPUT)/mkbtf
	$(Q)FUZZ_CC=$(FUZZ_CC) FUZZ_RUNS=$(FUZZ_RUNS) MAKE_FUZZ="$(MAKE) -s $(OUTPUT)/fuzz_tracefile" \
		bash tests/record.sh $(OUTPUT)/chainscope $(OUTPUT)/cs-gentrace $(OUTPUT)/fuzz_tracefile
	$(Q)bash tests/tracefile.sh $(OUTPUT)/chainscope $(OUTPUT)/cs-gentrace $(OUTPUT)/mkbtf
	$(Q)bash tests/outfile.sh $(OUTPUT)/chainscope $(OUTPUT)/cs-gentrace
