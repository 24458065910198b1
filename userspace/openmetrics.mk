# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# The Prometheus exposition (openmetrics.c) and chainscope serve: host
# tests. Included at the end of userspace/Makefile (after record.mk).
#
#   .output/cs-om-crafted   the exposition of a row with crafted names
#                           (--raw: unescaped, which promtool must refuse;
#                           --live: serve's counters from synthetic samples)
#   make test-openmetrics   tests/openmetrics.sh: promtool on report
#                           --openmetrics of generated traces, escaping,
#                           serve --trace over HTTP on 127.0.0.1

OM_TEST_OBJS := $(addprefix $(OUTPUT)/,openmetrics.o omlive.o cbrow.o output.o options.o \
	trace_helpers.o safestr.o probes.o symbols.o btf_helpers.o)

$(OUTPUT)/cs-om-crafted: tests/test_openmetrics.c $(OM_TEST_OBJS) $(TRACEFILE_LINK) \
		openmetrics.h omlive.h latrun.h contrun.h cbrow.h | $(OUTPUT)
	$(call msg,BINARY,$@)
	$(Q)$(CC) $(CFLAGS) -I. tests/test_openmetrics.c $(OM_TEST_OBJS) $(TRACEFILE_LINK) \
		$(LDLIBS) -o $@

.PHONY: test-openmetrics
test: test-openmetrics
test-openmetrics: $(OUTPUT)/chainscope $(OUTPUT)/cs-gentrace $(OUTPUT)/cs-mkreport \
		$(OUTPUT)/cs-om-crafted
	$(Q)bash tests/openmetrics.sh $(OUTPUT)/chainscope $(OUTPUT)/cs-gentrace \
		$(OUTPUT)/cs-mkreport $(OUTPUT)/cs-om-crafted
