# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# The Prometheus exposition (openmetrics.c) and chainscope serve: host
# tests. Included at the end of userspace/Makefile (after record.mk).
#
#   .output/cs-om-crafted   the exposition of a row with crafted names
#                           (--raw: unescaped, which promtool must refuse;
#                           --live: serve's counters from synthetic samples)
#   .output/fuzz_openmetrics  libFuzzer target: report --openmetrics end
#                           to end, the exposition's form checked (clang)
#   make test-openmetrics   tests/sh/openmetrics.sh: promtool on report
#                           --openmetrics of generated traces, escaping,
#                           serve --trace over HTTP on 127.0.0.1, a bounded
#                           fuzz run

# The exposition is text: no libbpf linked (om_counters.o, live/'s, uses
# none either)
OM_TEST_OBJS := $(addprefix $(OUTPUT)/core/,openmetrics.o callback_row.o output.o options.o \
	trace_helpers.o safestr.o symbols.o) $(OUTPUT)/live/om_counters.o

$(OUTPUT)/cs-om-crafted: $(OUTPUT)/tests/unit/test_openmetrics.o $(OM_TEST_OBJS) $(TRACEFILE_LINK)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(CFLAGS) $^ $(shell $(PKG_CONFIG) --libs json-c) -lm -o $@

FUZZ_OM_RUNS ?= 5000

# as fuzz_report (report.mk): report/, trace/ and core/, the clock fixed
$(OUTPUT)/fuzz_openmetrics: tests/fuzz/fuzz_openmetrics.c tests/fuzz/fuzz_fixed.c tests/fuzz/fuzz_trace.h \
		$(REPORT_LIB_SRCS) $(wildcard report/*.h trace/*.h core/*.h)
	$(call msg,FUZZ,$@)
	$(Q)$(FUZZ_CC) -g -O1 -std=c11 -D_GNU_SOURCE $(FUZZ_INC) \
		$(shell $(PKG_CONFIG) --cflags json-c) \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-Wl,--wrap=cs_now tests/fuzz/fuzz_openmetrics.c tests/fuzz/fuzz_fixed.c $(REPORT_LIB_SRCS) \
		$(shell $(PKG_CONFIG) --libs json-c) -lm -o $@

.PHONY: test-openmetrics
test: test-openmetrics
test-openmetrics: $(OUTPUT)/chainscope $(OUTPUT)/cs-gentrace $(OUTPUT)/cs-mkreport \
		$(OUTPUT)/cs-om-crafted
	$(Q)FUZZ_CC=$(FUZZ_CC) FUZZ_RUNS=$(FUZZ_OM_RUNS) \
		MAKE_FUZZ="$(MAKE) -s $(OUTPUT)/fuzz_openmetrics" \
		bash tests/sh/openmetrics.sh $(OUTPUT)/chainscope $(OUTPUT)/cs-gentrace \
		$(OUTPUT)/cs-mkreport $(OUTPUT)/cs-om-crafted $(OUTPUT)/fuzz_openmetrics
