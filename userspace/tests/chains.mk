# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# chainscope chains: host tests (tests/sh/chains.sh; never reach bpf()).
#   make test-chains
.PHONY: test-chains
test: test-chains
test-chains: $(OUTPUT)/chainscope $(OUTPUT)/mkbtf
	$(Q)bash tests/sh/chains.sh $(OUTPUT)/chainscope $(OUTPUT)/mkbtf
