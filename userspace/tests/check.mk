# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# chainscope check: host tests of the rules (check/, shared with the fuzz
# target) and the offline benchmark. Included at the end of
# userspace/Makefile, after record.mk (FUZZ_CC, FUZZ_RUNS).
#
#   .output/cs-gencheck     crafted traces for check; `bench N FILE`
#   .output/fuzz_check      libFuzzer target: check end to end (clang)
#   make test-check         tests/sh/check.sh: every rule, nesting, orphans,
#                           loss gaps, a bounded fuzz run (host only)
#   make bench-offline      tests/sh/bench_offline.sh: events/s of check and
#                           report on generated 10^5 and 10^6-event traces,
#                           after qemu/tests/bench_report.sh (a host test of
#                           qemu/bench_report.py, run by make test)

GENCHECK_OBJS := $(addprefix $(OUTPUT)/tests/gen/,gencheck.o gencheck_bench.o \
	gencheck_snap.o gencheck_order.o)
$(OUTPUT)/cs-gencheck: $(GENCHECK_OBJS) $(TRACEFILE_LINK) $(OUTPUT)/core/safestr.o
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(CFLAGS) $^ -o $@

# Built on demand by the test (which skips it without clang's libFuzzer).
CHECK_SRCS = $(patsubst $(OUTPUT)/%.o,%.c,$(CHECK))
$(OUTPUT)/fuzz_check: tests/fuzz/fuzz_check.c $(CHECK_SRCS) core/safestr.c \
		core/trace_helpers.c $(TRACEFILE_SRCS) \
		$(wildcard check/*.h trace/*.h core/*.h) $(BPF_DIR)/record.h | $(OUTPUT)
	$(call msg,FUZZ,$@)
	$(Q)$(FUZZ_CC) -g -O1 -std=c11 -D_GNU_SOURCE $(FUZZ_INC) \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		tests/fuzz/fuzz_check.c $(CHECK_SRCS) core/safestr.c core/trace_helpers.c \
		$(TRACEFILE_SRCS) -o $@

.PHONY: test-check bench-offline
test: test-check
test-check: $(OUTPUT)/chainscope $(OUTPUT)/cs-gencheck $(OUTPUT)/cs-gentrace
	$(Q)FUZZ_CC=$(FUZZ_CC) FUZZ_RUNS=$(FUZZ_RUNS) \
		MAKE_FUZZ="$(MAKE) -s $(OUTPUT)/fuzz_check" \
		bash tests/sh/check.sh $(OUTPUT)/chainscope $(OUTPUT)/cs-gencheck \
		$(OUTPUT)/cs-gentrace $(OUTPUT)/fuzz_check

bench-offline: $(OUTPUT)/chainscope $(OUTPUT)/cs-gencheck $(OUTPUT)/cs-gentrace
	$(Q)bash tests/sh/bench_offline.sh $(OUTPUT)/chainscope $(OUTPUT)/cs-gencheck \
		$(OUTPUT)/cs-gentrace
