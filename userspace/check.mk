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
#                           report on generated 10^5 and 10^6-event traces

$(OUTPUT)/chainscope: $(OUTPUT)/checker.o $(OUTPUT)/check_pass.o
$(OUTPUT)/checker.o $(OUTPUT)/check_pass.o $(OUTPUT)/check.o: $(BPF_DIR)/record.h
