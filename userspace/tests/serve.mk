# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# chainscope serve's parsing (serve_parse.c): its fuzz target, on the host,
# without BPF (nothing here needs vmlinux.h). Included at the end of
# userspace/Makefile.
#
#   .output/fuzz_serve      libFuzzer target: --listen and request routing
#   make test-serve-fuzz    tests/sh/fuzz_serve.sh: a bounded, seeded run from
#                           the checked-in corpus (tests/fuzz/serve-seeds)

SERVE_FUZZ_RUNS ?= 50000

$(OUTPUT)/fuzz_serve: tests/fuzz/fuzz_serve.c cmd/serve_parse.c cmd/serve.h | $(OUTPUT)
	$(call msg,FUZZ,$@)
	$(Q)$(FUZZ_CC) -g -O1 -std=c11 -D_GNU_SOURCE $(FUZZ_INC) \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		tests/fuzz/fuzz_serve.c cmd/serve_parse.c -o $@

.PHONY: test-serve-fuzz
test: test-serve-fuzz
test-serve-fuzz:
	$(Q)FUZZ_CC=$(FUZZ_CC) FUZZ_RUNS=$(SERVE_FUZZ_RUNS) \
		MAKE_FUZZ="$(MAKE) -s $(OUTPUT)/fuzz_serve" \
		bash tests/sh/fuzz_serve.sh $(OUTPUT)/fuzz_serve tests/fuzz/serve-seeds
