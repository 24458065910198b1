#!/bin/sh
# Debug-kernel soak: the notifier KUnit suites with a raised stress count
# (chainscope.kunit=stress_iters=N), under lockdep, PROVE_RCU and KASAN.
CS_FILTER='*' exec sh /chainscope/plan-test.sh
