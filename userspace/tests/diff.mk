# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# chainscope diff's host tests. Included at the end of userspace/Makefile
# (diff/: DIFF_OBJS there).
#
#   .output/fuzz_diff         libFuzzer target: diff's reader, rules and
#                             verdict on arbitrary bytes (clang, built on
#                             demand by the test)
#   .output/test_diff_stream  diff's reader on long words: bytes copied,
#                             counted (tests/unit/test_diff_stream.c)
#   make test-diff            tests/sh/diff.sh: budgets, input validation,
#                             guards, benchattach's command line and a
#                             bounded fuzz run, all on the host

DIFF_FUZZ_RUNS ?= 20000
# diff/ and the one core/ file it uses (log2 percentiles, units)
DIFF_SRCS = $(patsubst $(OUTPUT)/%.o,%.c,$(DIFF)) core/trace_helpers.c

$(OUTPUT)/fuzz_diff: tests/fuzz/fuzz_diff.c tests/fuzz/fuzz_fixed.c $(DIFF_SRCS) \
		$(wildcard diff/*.h) core/trace_helpers.h | $(OUTPUT)
	$(call msg,FUZZ,$@)
	$(Q)$(FUZZ_CC) -g -O1 -std=c11 -D_GNU_SOURCE $(FUZZ_INC) \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		$(shell $(PKG_CONFIG) --cflags json-c) \
		tests/fuzz/fuzz_diff.c tests/fuzz/fuzz_fixed.c $(DIFF_SRCS) \
		$(shell $(PKG_CONFIG) --libs json-c) -lm -o $@

.PHONY: test-diff
# memcpy and memmove counted: not inlined, and wrapped
$(OUTPUT)/test_diff_stream: tests/unit/test_diff_stream.c $(DIFF_SRCS) \
		$(wildcard diff/*.h) core/trace_helpers.h | $(OUTPUT)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(CFLAGS) -fno-builtin-memcpy -fno-builtin-memmove \
		-Wl,--wrap=memcpy -Wl,--wrap=memmove tests/unit/test_diff_stream.c \
		$(DIFF_SRCS) \
		$(shell $(PKG_CONFIG) --libs json-c) -lm -o $@

test: test-diff
test-diff: $(OUTPUT)/chainscope $(BENCHATTACH) $(OUTPUT)/test_diff_stream
	$(Q)$(OUTPUT)/test_diff_stream
	$(Q)FUZZ_CC=$(FUZZ_CC) FUZZ_RUNS=$(DIFF_FUZZ_RUNS) \
		MAKE_FUZZ="$(MAKE) -s $(OUTPUT)/fuzz_diff" \
		bash tests/sh/diff.sh $(OUTPUT)/chainscope $(BENCHATTACH) $(OUTPUT)/fuzz_diff \
		tests/fuzz/diff-seeds
