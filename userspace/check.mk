# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# chainscope check: the rules (checker.c, shared with the fuzz target),
# their host tests and the offline benchmark. Included at the end of
# userspace/Makefile, after record.mk (FUZZ_CC, FUZZ_RUNS).
#
#   .output/chainscope      links checker.o check_pass.o (check.c: the CLI)
#   .output/cs-gencheck     crafted traces for check; `bench N FILE`
#   .output/fuzz_check      libFuzzer target: check end to end (clang)
#   make test-check         tests/check.sh: every rule, nesting, orphans,
#                           loss gaps, a bounded fuzz run (host only)
#   make bench-offline      tests/bench_offline.sh: events/s of check and
#                           report on generated 10^5 and 10^6-event traces,
#                           after qemu/tests/bench_report.sh (a host test of
#                           qemu/bench_report.py, run by make test)

# safestr.o: cs_safe_str(), shared by every command that prints a path
REC_OBJS += checker.o check_pass.o check_snap.o safestr.o
$(OUTPUT)/chainscope: $(OUTPUT)/checker.o $(OUTPUT)/check_pass.o $(OUTPUT)/check_snap.o \
	$(OUTPUT)/safestr.o
$(OUTPUT)/safestr.o: safestr.h
$(OUTPUT)/checker.o $(OUTPUT)/check_pass.o $(OUTPUT)/check_snap.o $(OUTPUT)/check.o: \
	$(BPF_DIR)/record.h

GENCHECK_SRCS := tests/gencheck.c tests/gencheck_bench.c tests/gencheck_snap.c \
	tests/gencheck_order.c
$(OUTPUT)/cs-gencheck: $(GENCHECK_SRCS) tests/gencheck.h $(TRACEFILE_LINK) $(OUTPUT)/safestr.o \
		tracefile.h $(BPF_DIR)/record.h | $(OUTPUT)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(CFLAGS) -I. $(GENCHECK_SRCS) $(TRACEFILE_LINK) $(OUTPUT)/safestr.o -o $@

# Built on demand by the test (which skips it without clang's libFuzzer).
$(OUTPUT)/fuzz_check: tests/fuzz_check.c checker.c check_pass.c checker.h \
		checker_int.h check_snap.c safestr.c safestr.h $(TRACEFILE_SRCS) tracefile.h \
		$(BPF_DIR)/record.h | $(OUTPUT)
	$(call msg,FUZZ,$@)
	$(Q)$(FUZZ_CC) -g -O1 -std=c11 -D_GNU_SOURCE -I. -I$(BPF_DIR) \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		tests/fuzz_check.c checker.c check_pass.c check_snap.c safestr.c \
		$(TRACEFILE_SRCS) -o $@

.PHONY: test-check bench-offline
test: test-check
test-check: $(OUTPUT)/chainscope $(OUTPUT)/cs-gencheck $(OUTPUT)/cs-gentrace
	$(Q)FUZZ_CC=$(FUZZ_CC) FUZZ_RUNS=$(FUZZ_RUNS) \
		MAKE_FUZZ="$(MAKE) -s $(OUTPUT)/fuzz_check" \
		bash tests/check.sh $(OUTPUT)/chainscope $(OUTPUT)/cs-gencheck \
		$(OUTPUT)/cs-gentrace $(OUTPUT)/fuzz_check

bench-offline: $(OUTPUT)/chainscope $(OUTPUT)/cs-gencheck $(OUTPUT)/cs-gentrace
	$(Q)bash tests/bench_offline.sh $(OUTPUT)/chainscope $(OUTPUT)/cs-gencheck \
		$(OUTPUT)/cs-gentrace
