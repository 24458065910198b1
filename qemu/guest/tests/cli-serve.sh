#!/bin/sh
# chainscope serve: the live collection behind GET /metrics, scraped on
# the guest's loopback with busybox wget: the load generator's busy
# callback has as many observations as it was called, all in the bucket
# of its delay; other paths are 404, other methods 405. HTTP runs in its
# own process, without a capability (CapEff/CapPrm 0, no_new_privs, not
# root), which ends with serve; no series carries a kernel address. On
# the stock kernel serve runs in probes mode (auto), as latency does.
. /chainscope/tests/cli-common.inc
loadgen
ip link set lo up || fail "cannot bring lo up"

ctl "add blocking busy prio=10 delay_us=3000"
PORT=9469
# collected every second (INTERVAL 1); serve says "serving http://..."
# (not latency's "Tracing") once attached and listening
serve_start 127.0.0.1:$PORT -c cs_loadgen_blocking 1 || fail "$WHY"
# the HTTP process: no capability at all, no way back to one, not root
HPID=$(sed -n 's/.*HTTP in pid \([0-9]*\), without privileges.*/\1/p' "$W/serve.err")
[ -n "$HPID" ] && [ -r "/proc/$HPID/status" ] || fail "no 'HTTP in pid N' line, or no such process"
expect_eq "HTTP process CapEff" "$(sed -n 's/^CapEff:[[:space:]]*//p' "/proc/$HPID/status")" 0000000000000000
expect_eq "HTTP process CapPrm" "$(sed -n 's/^CapPrm:[[:space:]]*//p' "/proc/$HPID/status")" 0000000000000000
expect_eq "HTTP process NoNewPrivs" "$(sed -n 's/^NoNewPrivs:[[:space:]]*//p' "/proc/$HPID/status")" 1
huid=$(awk '/^Uid:/ { print $3 }' "/proc/$HPID/status")
[ "$huid" != 0 ] || fail "the HTTP process runs as root"
expect_eq "HTTP process's parent is serve" "$(awk '/^PPid:/ { print $2 }' "/proc/$HPID/status")" "$CS_PID"
ceff=$(sed -n 's/^CapEff:[[:space:]]*//p' "/proc/$CS_PID/status")
[ "$ceff" != 0000000000000000 ] || fail "the collector has no capability left (CapEff $ceff)"
ctl "call blocking 20"
sleep 3
wget -q -O "$W/metrics" "http://127.0.0.1:$PORT/metrics" || fail "GET /metrics failed"
cp "$W/metrics" /out/logs/serve-metrics.txt 2>/dev/null
SEL='chain="cs_loadgen_blocking",callback="cs_loadgen_cb_busy"'
count=$(grep "^chainscope_callback_duration_seconds_count{" "$W/metrics" | grep "$SEL" |
	awk '{ print $NF }' | head -n 1)
expect_eq "busy callback observations" "$count" 20
expect_eq "busy = loadgen's calls" "$count" "$(block_calls blocking cs_loadgen_cb_busy)"
# 3 ms: nothing at or below 2.048 ms, all at or below +Inf
le2=$(grep "^chainscope_callback_duration_seconds_bucket{" "$W/metrics" | grep "$SEL" |
	grep 'le="0.002048"' | awk '{ print $NF }' | head -n 1)
expect_eq "busy calls at <= 2.048 ms" "${le2:-missing}" 0
inf=$(grep "^chainscope_callback_duration_seconds_bucket{" "$W/metrics" | grep "$SEL" |
	grep 'le="+Inf"' | awk '{ print $NF }' | head -n 1)
expect_eq "busy calls at <= +Inf" "$inf" 20
grep -q '^chainscope_mode_info{' "$W/metrics" || fail "no chainscope_mode_info"
# no kernel address in any series (heads and blocks without a symbol: addr#N)
if grep -E 'ffff[0-9a-f]{12}' "$W/metrics" > "$W/addrs"; then
	fail "a kernel address in the exposition: $(head -n 1 "$W/addrs")"
fi
# counters only grow: a second scrape after more calls
ctl "call blocking 5"
sleep 3
wget -q -O "$W/metrics2" "http://127.0.0.1:$PORT/metrics" || fail "second GET /metrics failed"
count2=$(grep "^chainscope_callback_duration_seconds_count{" "$W/metrics2" | grep "$SEL" |
	awk '{ print $NF }' | head -n 1)
expect_eq "busy observations after 5 more calls" "$count2" 25
if wget -q -O /dev/null "http://127.0.0.1:$PORT/nosuch" 2> "$W/404"; then
	fail "GET /nosuch succeeded"
fi
grep -q '404' "$W/404" || fail "GET /nosuch: not a 404: $(cat "$W/404")"
cs_stop
[ ! -d "/proc/$HPID" ] || fail "the HTTP process $HPID outlived serve"
echo "serve: $count then $count2 observations of the busy callback, 404 elsewhere;" \
	"HTTP in pid $HPID as uid $huid without capabilities, the collector CapEff $ceff"
