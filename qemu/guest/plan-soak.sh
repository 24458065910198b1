#!/bin/sh
# Debug-kernel soak: the whole guest plan, with the notifier KUnit suites
# at a raised stress count (chainscope.kunit=stress_iters=N), under
# lockdep, PROVE_RCU and KASAN.
CS_FILTER='*' exec sh /chainscope/plan-test.sh
