# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# chainscope diff's core and its host tests. Included at the end of
# userspace/Makefile (diff.o itself is in record.mk's REC_OBJS).
#
#   .output/chainscope        gets diff_input.o diff_rules.o
#   .output/fuzz_diff         libFuzzer target: diff's reader, rules and
#                             verdict on arbitrary bytes (clang, built on
#                             demand by the test)
#   .output/test_diff_stream  diff's reader on long words: bytes copied,
#                             counted (tests/test_diff_stream.c)
#   make test-diff            tests/diff.sh: budgets, input validation,
#                             guards, benchattach's command line and a
#                             bounded fuzz run, all on the host

DIFF_OBJS := diff_input.o diff_row.o diff_keys.o diff_rules.o
DIFF_FUZZ_RUNS ?= 20000

# safestr.o (cs_safe_str) may be listed by check.mk too: $^ and $(sort)
# take it once
REC_OBJS += $(DIFF_OBJS) safestr.o
LDLIBS += -lm
$(OUTPUT)/chainscope: $(addprefix $(OUTPUT)/,$(DIFF_OBJS) safestr.o)
$(OUTPUT)/diff.o $(OUTPUT)/safestr.o: safestr.h
$(OUTPUT)/diff_input.o $(OUTPUT)/diff_row.o: diff_int.h

$(OUTPUT)/fuzz_diff: tests/fuzz_diff.c tests/fuzz_fixed.c diff_input.c diff_row.c diff_keys.c diff_rules.c diff.h diff_int.h | $(OUTPUT)
	$(call msg,FUZZ,$@)
	$(Q)$(FUZZ_CC) -g -O1 -std=c11 -D_GNU_SOURCE -I. \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		$(shell $(PKG_CONFIG) --cflags json-c) \
		tests/fuzz_diff.c tests/fuzz_fixed.c diff_input.c diff_row.c diff_keys.c diff_rules.c \
		$(shell $(PKG_CONFIG) --libs json-c) -lm -o $@

.PHONY: test-diff
# memcpy and memmove counted: not inlined, and wrapped
$(OUTPUT)/test_diff_stream: tests/test_diff_stream.c diff_input.c diff_row.c diff_keys.c \
		diff_rules.c diff.h diff_int.h | $(OUTPUT)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(CFLAGS) -I. -fno-builtin-memcpy -fno-builtin-memmove \
		-Wl,--wrap=memcpy -Wl,--wrap=memmove tests/test_diff_stream.c \
		diff_input.c diff_row.c diff_keys.c diff_rules.c \
		$(shell $(PKG_CONFIG) --libs json-c) -lm -o $@

test: test-diff
test-diff: $(OUTPUT)/chainscope $(BENCHATTACH) $(OUTPUT)/test_diff_stream
	$(Q)$(OUTPUT)/test_diff_stream
	$(Q)FUZZ_CC=$(FUZZ_CC) FUZZ_RUNS=$(DIFF_FUZZ_RUNS) \
		MAKE_FUZZ="$(MAKE) -s $(OUTPUT)/fuzz_diff" \
		bash tests/diff.sh $(OUTPUT)/chainscope $(BENCHATTACH) $(OUTPUT)/fuzz_diff \
		tests/diff-seeds
