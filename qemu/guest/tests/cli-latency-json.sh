#!/bin/sh
# chainscope latency -j: one JSON object per line (per interval) with the
# documented keys; the numbers agree with the load, and interval/count
# mode prints COUNT lines and exits 0 by itself. No jq in the guest: the
# checks use awk on the single-line objects.
. /chainscope/tests/cli-common.inc
stock_expect_exit5 latency -j
loadgen

# json_ok FILE: every line is one balanced {...} object
json_ok() {
	awk '{
		if ($0 !~ /^\{.*\}$/) { print "line " NR " is not an object"; bad = 1 }
		s = $0; gsub(/"[^"]*"/, "", s)	# drop strings, then count brackets
		o = gsub(/\{/, "", s); c = gsub(/\}/, "", s)
		ob = gsub(/\[/, "", s); cb = gsub(/\]/, "", s)
		if (o != c || ob != cb) { print "line " NR " is unbalanced"; bad = 1 }
	} END { exit bad }' "$1"
}

# cb_obj FILE CALLBACK: the callbacks[] element of CALLBACK (last line)
cb_obj() {
	tail -n 1 "$1" | awk -v cb="\"callback\":\"$2\"" '{
		n = split($0, parts, /\{"chain":/)
		for (i = 2; i <= n; i++) if (index(parts[i], cb)) { print parts[i]; exit }
	}'
}

# num KEY OBJ: first "KEY":number in OBJ
num() {
	echo "$2" | grep -o "\"$1\":[0-9]*" | head -n 1 | cut -d: -f2
}

ctl "add atomic fast"
ctl "add atomic fast2 prio=-1 ret=errno:-22"

cs_start json latency -j -n -k atomic
ctl "call atomic 100 val=7"
cs_stop

json_ok "$OUT" || fail "output is not one JSON object per line"
expect_eq "JSON lines" "$(wc -l < "$OUT")" 1
for k in '"type":"latency"' '"units":"nsecs"' '"dropped":0' '"callbacks":\['; do
	grep -q "$k" "$OUT" || fail "no $k in the JSON"
done
echo "ok: type, units, dropped, callbacks"

o=$(cb_obj "$OUT" cs_loadgen_cb_fast)
[ -n "$o" ] || fail "no callbacks[] element for cs_loadgen_cb_fast"
echo "$o" | grep -q '"chain":' && fail "element split wrong"
echo "cs_loadgen_cb_fast: {\"chain\":$o"
echo "$o" | grep -q '^"cs_loadgen_atomic","chain_addr":"0x[0-9a-f]*","chain_module":"cs_loadgen","kind":"atomic"' ||
	fail "chain name/address/module/kind missing"
echo "$o" | grep -q '"callback_module":"cs_loadgen"' || fail "callback_module missing"
expect_eq "fast count" "$(num count "$o")" 100
hsum=$(echo "$o" | sed 's/.*"histogram":\[//' | grep -o '"count":[0-9]*' |
	cut -d: -f2 | awk '{ s += $1 } END { print s }')
expect_eq "sum of fast histogram buckets" "$hsum" 100
echo "$o" | grep -q '"histogram":\[{"min":0,"max":1,"count":[0-9]*},{"min":2,"max":3,' ||
	fail "histogram is not [{min,max,count},...] from bucket 0"
echo "ok: histogram layout"
max_ns=$(num max_ns "$o")
expect_eq "max (nsecs) = max_ns" "$(num max "$o")" "$max_ns"
[ "$(num p50 "$o")" -le "$max_ns" ] || fail "p50 above max"

o=$(cb_obj "$OUT" cs_loadgen_cb_fast2)
expect_eq "fast2 count" "$(num count "$o")" 100
expect_eq "fast2 errno" "$(num errno "$o")" 100
expect_eq "fast2 stop" "$(num stop "$o")" 0

# -k atomic: no other kind in the output
grep -o '"kind":"[a-z]*"' "$OUT" | grep -qv '"kind":"atomic"' && fail "-k atomic let other kinds through"
echo "ok: only atomic chains"

# interval mode: 3 one-second intervals, then exit 0 without a signal.
# The load is a caller kthread that never sleeps (a shell loop sleeping
# 50 ms can miss a whole interval in a slowed guest), stopped only after
# chainscope exited.
ctl "callers atomic 1 0"
"$CS" latency -j -m 1 3 > "$W/iv.out" 2> "$W/iv.err" &
pid=$!
i=0
while kill -0 $pid 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 600 ] || { kill -INT $pid; fail "latency -j 1 3 still running after 120 s"; }
	usleep 200000
done
wait $pid
rc=$?
ctl stop
cat "$W/iv.out" | cut -c1-300
expect_eq "interval mode exit" "$rc" 0
expect_eq "interval mode lines" "$(wc -l < "$W/iv.out")" 3
json_ok "$W/iv.out" || fail "interval output is not JSON lines"
grep -q '"units":"msecs"' "$W/iv.out" || fail "-m not reflected in units"
# the caller kthread kept the chain busy: every interval saw calls
n=$(grep -c '"callback":"cs_loadgen_cb_fast"' "$W/iv.out")
expect_eq "intervals with cs_loadgen_cb_fast calls" "$n" 3
cs_cleanup
echo "JSON output parses and matches the load"
