# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# chainscope report: its generator, fuzz target and host tests.
# Included at the end of userspace/Makefile (after record.mk).
#
#   .output/cs-mkreport     trace files for the report tests (crafted names,
#                           repeated callback names, benchmark traces)
#   .output/fuzz_report     libFuzzer target: report end to end (clang)
#   make test-report        tests/sh/report.sh: crafted traces and paths, the
#                           repeated-name rows, a bounded fuzz run and a
#                           benchmark line (events/s, 10^5 vs 10^6 events)
#   make test-timeline      tests/sh/timeline.sh: --perfetto (validated by
#                           tests/sh/trace_event_check.py), --folded and the
#                           SVGs' timeline and legend, generated and recorded

FUZZ_REPORT_RUNS ?= 5000

$(OUTPUT)/cs-mkreport: $(OUTPUT)/tests/gen/mkreport.o $(TRACEFILE_LINK) $(OUTPUT)/core/safestr.o
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(CFLAGS) $^ -o $@

# report/, trace/ and core/, instrumented: what cs_report_run() runs,
# without the command line, BPF or libbpf. cs_now() (the JSON's "time") is wrapped with a constant: an output whose
# length changed with the clock changed the coverage, and so the inputs a
# run with a fixed seed tried (the same commit failed once in a while).
$(OUTPUT)/fuzz_report: tests/fuzz/fuzz_report.c tests/fuzz/fuzz_fixed.c tests/fuzz/fuzz_trace.h \
		$(REPORT_LIB_SRCS) $(wildcard report/*.h trace/*.h core/*.h)
	$(call msg,FUZZ,$@)
	$(Q)$(FUZZ_CC) -g -O1 -std=c11 -D_GNU_SOURCE $(FUZZ_INC) \
		$(shell $(PKG_CONFIG) --cflags json-c) \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-Wl,--wrap=cs_now tests/fuzz/fuzz_report.c tests/fuzz/fuzz_fixed.c $(REPORT_LIB_SRCS) \
		$(shell $(PKG_CONFIG) --libs json-c) -lm -o $@

.PHONY: test-report test-timeline
test: test-report test-timeline
test-timeline: $(OUTPUT)/chainscope $(OUTPUT)/cs-gentrace $(OUTPUT)/cs-mkreport
	$(Q)bash tests/sh/timeline.sh $(OUTPUT)/chainscope $(OUTPUT)/cs-gentrace $(OUTPUT)/cs-mkreport

test-report: $(OUTPUT)/chainscope $(OUTPUT)/cs-mkreport $(OUTPUT)/cs-gentrace
	$(Q)FUZZ_CC=$(FUZZ_CC) FUZZ_RUNS=$(FUZZ_REPORT_RUNS) \
		MAKE_FUZZ="$(MAKE) -s $(OUTPUT)/fuzz_report" \
		bash tests/sh/report.sh $(OUTPUT)/chainscope $(OUTPUT)/cs-mkreport \
		$(OUTPUT)/fuzz_report $(OUTPUT)/cs-gentrace

# report --passes: tests/sh/passes.sh (console logs of genconsole.py, the
# 6.12 tracefs text, generated traces)
.PHONY: test-passes
test: test-passes
test-passes: $(OUTPUT)/chainscope $(OUTPUT)/cs-gentrace
	$(Q)bash tests/sh/passes.sh $(OUTPUT)/chainscope tests/gen/genconsole.py \
		$(REPO)/include-trace/trace/events/notifier.h $(OUTPUT)/cs-gentrace
