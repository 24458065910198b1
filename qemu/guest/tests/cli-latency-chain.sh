#!/bin/sh
# chainscope latency -C: whole chain passes (call_begin -> call_end) are
# paired per task and execution context: plain passes, a chain nested in
# a callback of another, passes from hardirq (irq_work) and softirq
# (hrtimer), and robust calls with their rollback pass.
. /chainscope/tests/cli-common.inc
stock_expect_exit5 latency -C
loadgen

ctl "add blocking sleep prio=10 sleep_ms=20"
ctl "add blocking fast"
ctl "add blocking fast2"
ctl "add atomic nest nest=raw"
ctl "add raw busy delay_us=500"

cs_start chain latency -C
ctl "call blocking 20"
ctl "call atomic 10"
ctl "irq atomic 50"
ctl "timer raw 30"
ctl "add blocking veto prio=-10"
ctl "robust blocking 5 val_up=1 val_down=2"
cs_stop

P='cs_loadgen_blocking \(blocking\) whole pass'
h=$(header "^chain: $P")
[ -n "$h" ] || fail "no whole-pass section for cs_loadgen_blocking"
# 20 plain passes + 5 robust val_up passes + 5 rollbacks
expect_eq "blocking passes" "$(field count "$h")" 30
expect_eq "blocking rollbacks" "$(field rollbacks "$h")" 5
expect_eq "blocking stopped (vetoed val_up passes)" "$(field stopped "$h")" 5
# 20 x 3 callbacks, 5 x 4 (veto last), 5 x 3 rolled back
expect_eq "callbacks run in blocking passes" "$(field callbacks "$h")" 95
# every pass runs the 20 ms sleeping callback (timers run on the guest
# clock, so this holds on a loaded host too; rollbacks included)
expect_eq "blocking passes >= 16384 us" "$(rows_from "$P" 16384)" 30

A='cs_loadgen_atomic \(atomic\) whole pass'
R='cs_loadgen_raw \(raw\) whole pass'
ha=$(header "^chain: $A")
hr=$(header "^chain: $R")
# atomic: 10 from a task, 50 from hardirq; each nests one raw pass
expect_eq "atomic passes (task + hardirq)" "$(field count "$ha")" 60
expect_eq "raw passes (nested + softirq)" "$(field count "$hr")" 90
# Every raw pass holds a 500 us busy wait (cs_loadgen spins on the
# kernel's clock), and every atomic pass nests a raw pass: none of them
# can be shorter than 256 us. Nesting also shows in the per-callback
# view: the nest callback's time holds the raw pass's, so every nest call
# is at >= 256 us and the longest at >= 500 us. (Not compared with the
# busy callback's p50: that is interpolated inside a log2 bucket and,
# with the timer-driven busy calls stretched differently, can exceed
# every nested call.)
expect_eq "raw passes >= 256 us" "$(rows_from "$R" 256)" 90
expect_eq "atomic passes (nesting a raw pass) >= 256 us" "$(rows_from "$A" 256)" 60
NEST='cs_loadgen_atomic \(atomic\) callback: cs_loadgen_cb_nest '
hn=$(header "^chain: $NEST")
expect_eq "nest callback count" "$(field count "$hn")" 60
expect_eq "nest callbacks (holding a raw pass) >= 256 us" "$(rows_from "$NEST" 256)" 60
expect_ge "nest callback max (us)" "$(field max "$hn")" 500

# the per-callback view still works next to it
h=$(header "^chain: cs_loadgen_raw \(raw\) callback: cs_loadgen_cb_busy ")
expect_eq "raw busy callback count" "$(field count "$h")" 90
expect_eq "raw busy count = loadgen's calls" "$(field count "$h")" "$(block_calls raw cs_loadgen_cb_busy)"

grep -q "WARNING: .*\(dropped\|deeper\)" "$OUT" && fail "unexpected warning: $(grep WARNING "$OUT")"
# Other chains (the timekeeping pvclock_gtod_chain runs on every tick)
# run in interrupts that can land while our programs run; such events are
# skipped or missed and the tool says so. That is reported, not a failure.
grep WARNING "$OUT"
echo "ok: nothing dropped, nothing too deep"

# The call_begin and call_end programs' recursion misses are compared and
# reported (text: a WARNING only when they differ; JSON: always).
if grep -q "WARNING: BPF recursion protection skipped" "$OUT"; then
	grep "WARNING: BPF recursion protection skipped" "$OUT"
fi
cs_start chainj latency -C -j
ctl "call blocking 3"
cs_stop
for k in missed_call_begin missed_call_end; do
	grep -q "\"$k\":[0-9]" "$OUT" || fail "JSON has no $k"
done
b=$(sed -n 's/.*"missed_call_begin":\([0-9]*\).*/\1/p' "$OUT")
e=$(sed -n 's/.*"missed_call_end":\([0-9]*\).*/\1/p' "$OUT")
if [ "$b" = "$e" ]; then
	grep -q '"missed_begin_end_differ":false' "$OUT" || fail "differ flag not false for $b/$e"
else
	grep -q '"missed_begin_end_differ":true' "$OUT" || fail "differ flag not true for $b/$e"
fi
echo "ok: JSON reports call_begin/call_end misses ($b/$e)"
cs_cleanup
echo "whole-pass latency pairs nested, irq, softirq and robust passes"
