#!/bin/sh
# chainscope latency INTERVAL: draining the maps between intervals loses
# and tears nothing. Two caller threads call two chains non-stop while
# latency prints every second; the per-interval counts of a callback
# must add up to the calls cs_loadgen made, and the histogram rows to
# the counts (a torn read shows a count without its bucket, or the
# reverse). -C's whole-pass counts likewise.
. /chainscope/tests/cli-common.inc
stock_expect_exit5 latency 1
loadgen

ctl "add blocking fast"
ctl "add atomic fast"
cs_start iv latency -C 1
ctl "callers blocking 2 0"
ctl "callers atomic 2 0"
sleep 6
ctl stop
# one more interval so the last events are in a printed one
sleep 2
cs_stop

n=$(grep -c '^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]$' "$OUT")
expect_ge "intervals printed" "$n" 4
for chain in blocking atomic; do
	P="cs_loadgen_$chain \\($chain\\) callback: cs_loadgen_cb_fast "
	sum=$(grep -E "^chain: $P" "$OUT" | while read -r line; do field count "$line"; done |
		awk '{ s += $1 } END { print s + 0 }')
	want=$(block_calls "$chain" cs_loadgen_cb_fast)
	expect_ge "$chain: loadgen calls" "$want" 100
	expect_eq "$chain: sum of interval counts = loadgen's calls" "$sum" "$want"
	expect_eq "$chain: histogram rows = counts" "$(rows_from "$P" 0)" "$sum"
	W2="cs_loadgen_$chain \\($chain\\) whole pass"
	psum=$(grep -E "^chain: $W2" "$OUT" | while read -r line; do field count "$line"; done |
		awk '{ s += $1 } END { print s + 0 }')
	expect_eq "$chain: sum of interval pass counts = calls" "$psum" "$want"
	expect_eq "$chain: pass histogram rows = counts" "$(rows_from "$W2" 0)" "$psum"
done
grep -q "WARNING: .* events dropped" "$OUT" && fail "unexpected warning: $(grep WARNING "$OUT")"
cs_cleanup
echo "interval sums equal the totals under concurrent load"
