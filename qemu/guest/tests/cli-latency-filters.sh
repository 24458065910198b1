#!/bin/sh
# chainscope latency filters: -c (symbol and 0xADDR), -f, -k, and -a
# (one histogram per event value). Filtered-out events never show up.
. /chainscope/tests/cli-common.inc
stock_expect_exit5 latency -c cs_loadgen_atomic
loadgen

ctl "add atomic fast"
ctl "add atomic fast2"
ctl "add raw fast"
ctl "add blocking fast2"

load() {
	ctl "call atomic 10 val=3"
	ctl "call atomic 5 val=5"
	ctl "call raw 7"
	ctl "call blocking 4"
}

# -c by symbol: only the atomic chain
cs_start c latency -c cs_loadgen_atomic
load
cs_stop
expect_eq "-c: sections" "$(grep -c '^chain: ' "$OUT")" 2
expect_eq "-c: other chains" "$(grep '^chain: ' "$OUT" | grep -vc 'cs_loadgen_atomic')" 0
h=$(header "callback: cs_loadgen_cb_fast2 ")
expect_eq "-c: fast2 count" "$(field count "$h")" 15

# -c by address, from /proc/kallsyms
addr=$(grep -w 'cs_loadgen_raw' /proc/kallsyms | head -n 1 | cut -d' ' -f1)
[ -n "$addr" ] || fail "cs_loadgen_raw not in /proc/kallsyms"
cs_start caddr latency -c "0x$addr"
load
cs_stop
expect_eq "-c 0xADDR: sections" "$(grep -c '^chain: ' "$OUT")" 1
h=$(header "^chain: cs_loadgen_raw \(raw\) callback: cs_loadgen_cb_fast ")
expect_eq "-c 0xADDR: raw fast count" "$(field count "$h")" 7

# -f: one callback symbol, on every chain
cs_start f latency -f cs_loadgen_cb_fast2
load
cs_stop
expect_eq "-f: sections" "$(grep -c '^chain: ' "$OUT")" 2
expect_eq "-f: atomic fast2" "$(field count "$(header 'cs_loadgen_atomic .*cs_loadgen_cb_fast2 ')")" 15
expect_eq "-f: blocking fast2" "$(field count "$(header 'cs_loadgen_blocking .*cs_loadgen_cb_fast2 ')")" 4

# -k raw
cs_start k latency -k raw
load
cs_stop
expect_eq "-k raw: non-raw sections" "$(grep '^chain: ' "$OUT" | grep -vc '(raw)')" 0
expect_eq "-k raw: raw fast" "$(field count "$(header 'cs_loadgen_raw .*cs_loadgen_cb_fast ')")" 7

# -a: per event value
cs_start a latency -a -c cs_loadgen_atomic -f cs_loadgen_cb_fast
load
cs_stop
expect_eq "-a: val=3" "$(field count "$(header 'cs_loadgen_cb_fast val=3 ')")" 10
expect_eq "-a: val=5" "$(field count "$(header 'cs_loadgen_cb_fast val=5 ')")" 5
expect_eq "-a: sections" "$(grep -c '^chain: ' "$OUT")" 2

# an unknown symbol is a usage error, before anything is loaded
"$CS" latency -c no_such_chain_xyz > "$W/o" 2> "$W/e"
rc=$?
cat "$W/e"
expect_eq "-c unknown symbol exit" "$rc" 2
grep -q "chain 'no_such_chain_xyz' is not in /proc/kallsyms" "$W/e" || fail "no message for an unknown chain"
cs_cleanup
echo "filters select exactly the chains, callbacks, kinds and values asked for"
