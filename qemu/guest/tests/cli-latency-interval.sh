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
# Not a fixed sleep: the load runs until chainscope printed 4 intervals
# and each chain had 100 calls, however slow the guest (bounded at 300 s).
i=0
while :; do
	n=$(grep -c '^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]$' "$W/iv.out")
	[ "$n" -ge 4 ] && [ "$(block_calls blocking cs_loadgen_cb_fast)" -ge 100 ] &&
		[ "$(block_calls atomic cs_loadgen_cb_fast)" -ge 100 ] && break
	i=$((i + 1))
	[ $i -lt 1500 ] || fail "after 300 s: $n intervals printed, calls $(tail -n 1 "$LG/stats")"
	usleep 200000
done
ctl stop
# ctl stop is synchronous (kthread_stop): no call after it. Ctrl-C during
# an interval's wait drains and prints the rest, but during a drain that
# began before the last calls it ends after that interval: so wait until
# two more intervals are printed (the second one's drain began after the
# stop), not a fixed 2 s.
n0=$(grep -c '^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]$' "$W/iv.out")
i=0
while [ "$(grep -c '^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]$' "$W/iv.out")" -lt $((n0 + 2)) ]; do
	i=$((i + 1))
	[ $i -lt 600 ] || fail "no 2 more intervals printed within 120 s of the stop"
	usleep 200000
done
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
