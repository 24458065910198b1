# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# chainscope record / report / check / diff and their host tests.
# Included at the end of userspace/Makefile.
#
#   .output/chainscope        gets record.o record_syms.o report.o check.o diff.o tracefile.o
#   .output/cs-gentrace       writes synthetic trace files (tests only)
#   .output/fuzz_tracefile    libFuzzer target for the trace reader (clang)
#   make test-record          tests/record.sh: check, report, diff, reader
#                             errors and a bounded fuzz run; tests/tracefile.sh:
#                             format versions, salvage, record's output path;
#                             all on the host

REC_OBJS := record.o record_syms.o report.o check.o diff.o tracefile.o
FUZZ_CC ?= clang-14
FUZZ_RUNS ?= 20000

$(OUTPUT)/chainscope: $(addprefix $(OUTPUT)/,$(REC_OBJS))
$(OUTPUT)/record.o: $(OUTPUT)/record.skel.h $(BPF_DIR)/record.h record_syms.h
$(OUTPUT)/record_syms.o: record_syms.h
$(OUTPUT)/tracefile.o $(OUTPUT)/report.o $(OUTPUT)/check.o: $(BPF_DIR)/record.h

$(OUTPUT)/cs-gentrace: tests/gentrace.c $(OUTPUT)/tracefile.o $(OUTPUT)/safestr.o \
		tracefile.h $(BPF_DIR)/record.h | $(OUTPUT)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(CFLAGS) -I. tests/gentrace.c $(OUTPUT)/tracefile.o $(OUTPUT)/safestr.o -o $@

# Built on demand by the test (which skips it without clang's libFuzzer).
$(OUTPUT)/fuzz_tracefile: tests/fuzz_tracefile.c tracefile.c tracefile.h safestr.c safestr.h \
		$(BPF_DIR)/record.h | $(OUTPUT)
	$(call msg,FUZZ,$@)
	$(Q)$(FUZZ_CC) -g -O1 -std=c11 -D_GNU_SOURCE -I. -I$(BPF_DIR) \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		tests/fuzz_tracefile.c tracefile.c safestr.c -o $@

.PHONY: test-record
test: test-record
test-record: $(OUTPUT)/chainscope $(OUTPUT)/cs-gentrace $(OUTPUT)/mkbtf
	$(Q)FUZZ_CC=$(FUZZ_CC) FUZZ_RUNS=$(FUZZ_RUNS) MAKE_FUZZ="$(MAKE) -s $(OUTPUT)/fuzz_tracefile" \
		bash tests/record.sh $(OUTPUT)/chainscope $(OUTPUT)/cs-gentrace $(OUTPUT)/fuzz_tracefile
	$(Q)bash tests/tracefile.sh $(OUTPUT)/chainscope $(OUTPUT)/cs-gentrace $(OUTPUT)/mkbtf
