# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# report's and check's --console input (trace/console.c): host tests and
# fuzz target. Included at the end of userspace/Makefile, after record.mk
# (FUZZ_CC, TRACEFILE_SRCS).
#
#   tests/gen/genconsole.py  console and tracefs logs printed with the
#                            events' TP_printk formats, read from
#                            include-trace/trace/events/notifier.h
#   .output/fuzz_console     libFuzzer target: the conversion, the strict
#                            reader on its image, and every event printed
#                            back must be a line of the input (clang)
#   make test-console        tests/sh/console.sh: clean logs of every event,
#                            tracefs, caller ids, no times, losses, hashed
#                            pointers, interleaved, cut and truncated lines,
#                            near misses, upstream's events, refusals, the
#                            exports and a bounded fuzz run (host only)

CONSOLE_FUZZ_RUNS ?= 20000

# Built on demand by the test (which skips it without clang's libFuzzer).
$(OUTPUT)/fuzz_console: tests/fuzz/fuzz_console.c tests/fuzz/fuzz_trace.h $(TRACEFILE_SRCS) core/safestr.c \
		$(wildcard trace/*.h core/*.h) $(BPF_DIR)/record.h | $(OUTPUT)
	$(call msg,FUZZ,$@)
	$(Q)$(FUZZ_CC) -g -O1 -std=c11 -D_GNU_SOURCE $(FUZZ_INC) \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		tests/fuzz/fuzz_console.c $(TRACEFILE_SRCS) core/safestr.c -o $@

.PHONY: test-console
test: test-console
test-console: $(OUTPUT)/chainscope $(OUTPUT)/cs-gentracedat
	$(Q)FUZZ_CC=$(FUZZ_CC) FUZZ_RUNS=$(CONSOLE_FUZZ_RUNS) \
		MAKE_FUZZ="$(MAKE) -s $(OUTPUT)/fuzz_console" \
		bash tests/sh/console.sh $(OUTPUT)/chainscope tests/gen/genconsole.py \
		$(REPO)/include-trace/trace/events/notifier.h $(OUTPUT)/fuzz_console \
		$(OUTPUT)/cs-gentracedat
