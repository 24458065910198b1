#!/bin/sh
# Debug-kernel soak: the guest plan, with the notifier torture module at
# a raised stress count (chainscope.torture=stress_iters=N), under
# lockdep, PROVE_RCU and KASAN. Every test runs unless run.sh -f narrows
# it (make test T='debug.torture*' soaks only the torture tests).
exec sh /chainscope/plan-test.sh
