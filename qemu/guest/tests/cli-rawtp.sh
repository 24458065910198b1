#!/bin/sh
# The raw_tp fallback (--raw-tp, also chosen automatically when tp_btf
# cannot attach) gives the same numbers as the tp_btf programs.
. /chainscope/tests/cli-common.inc
stock_expect_exit5 latency --raw-tp
loadgen

ctl "add blocking sleep sleep_ms=20"
ctl "add atomic veto ret=stop"
ctl "add blocking fast"

cs_start raw latency --raw-tp -C
ctl "call blocking 20"
ctl "call atomic 15"
cs_stop
grep -q "raw_tp programs" "$W/raw.err" || fail "--raw-tp did not use raw_tp programs"
B='callback: cs_loadgen_cb_sleep '
h=$(header "^chain: cs_loadgen_blocking \(blocking\) $B")
expect_eq "raw_tp: sleep count" "$(field count "$h")" 20
expect_eq "raw_tp: sleep calls at >= 16384 us" "$(rows_from "$B" 16384)" 20
# msleep(20) never returns early: all at >= 16384 us. That they stay below
# 32768 us is not asserted: a late wake-up in a slowed guest moves them up.
echo "raw_tp: sleep in 16384 -> 32767 us: $(bucket_count "$B" 16384) (not asserted: host-dependent)"
h=$(header "^chain: cs_loadgen_atomic \(atomic\) callback: cs_loadgen_cb_veto ")
expect_eq "raw_tp: stop" "$(field stop "$h")" 15
h=$(header "^chain: cs_loadgen_blocking \(blocking\) whole pass")
expect_eq "raw_tp: blocking passes" "$(field count "$h")" 20
expect_eq "raw_tp: callbacks per pass" "$(field callbacks "$h")" 40

cs_start rawc contention --raw-tp
ctl "callers blocking 1 5"
ctl wait
cs_stop
grep -q "raw_tp programs" "$W/rawc.err" || fail "contention --raw-tp did not use raw_tp"
h=$(header "^chain: cs_loadgen_blocking \(blocking\) op: read ")
expect_eq "raw_tp: read acquisitions" "$(field acquisitions "$h")" 5
cs_cleanup
echo "raw_tp fallback matches"
