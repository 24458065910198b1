#!/bin/sh
# A full map is never silent: with the statistics maps shrunk to 4
# entries (CHAINSCOPE_MAP_ENTRIES, a testing knob) and 8 distinct event
# values under -a, the CLI prints "WARNING: N events dropped (map full)"
# and JSON carries "dropped": N, per interval. -v shows libbpf's output.
. /chainscope/tests/cli-common.inc
stock_expect_exit5 latency -a
loadgen
ctl "add atomic fast"

load() {
	for v in 1 2 3 4 5 6 7 8; do
		ctl "call atomic 2 val=$v"
	done
}

CHAINSCOPE_MAP_ENTRIES=4 cs_start drop latency -a -c cs_loadgen_atomic
load
cs_stop
expect_eq "sections kept" "$(grep -c '^chain: ' "$OUT")" 4
w=$(grep 'WARNING: .* events dropped (map full)' "$OUT")
[ -n "$w" ] || fail "no 'events dropped (map full)' warning"
n=$(echo "$w" | sed -n 's/WARNING: \([0-9]*\) events.*/\1/p')
expect_eq "dropped events (4 values x 2 calls)" "$n" 8

CHAINSCOPE_MAP_ENTRIES=4 cs_start dropj latency -v -j -a -c cs_loadgen_atomic
load
cs_stop
grep -q '"dropped":8' "$OUT" || fail "JSON lacks \"dropped\":8: $(cut -c1-200 "$OUT")"
echo "ok: JSON dropped = 8"
grep -q '^libbpf: ' "$W/dropj.err" || fail "-v: no libbpf debug output on stderr"
echo "ok: -v shows libbpf output ($(grep -c '^libbpf: ' "$W/dropj.err") lines)"
cs_cleanup
echo "full maps are reported in text and JSON"
