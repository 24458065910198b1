#!/bin/sh
# Debug-kernel soak: the guest plan, with the notifier KUnit suites at a
# raised stress count (chainscope.kunit=stress_iters=N), under lockdep,
# PROVE_RCU and KASAN. Every test runs unless run.sh -f narrows it
# (make test T='debug.kunit.*' soaks only the KUnit suites).
exec sh /chainscope/plan-test.sh
