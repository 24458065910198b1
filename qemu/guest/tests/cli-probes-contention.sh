#!/bin/sh
# contention in probes mode: no notifier event at all, only
# lock:contention_begin/end on the rwsem inside the -c head (CO-RE
# offset). Stock kernel: auto picks probes and finds the blocking chain
# the loadgen contends (cli-contention.sh's scenario). Our kernel:
# --mode probes next to --mode tracepoints on the same run: the lock
# waits come from the same lock:contention_* in both, so both see the same
# contended acquisitions; only tracepoints mode counts acquisitions.
. /chainscope/tests/cli-common.inc
P_PID=
fail() {
	[ -n "$P_PID" ] && kill -INT "$P_PID" 2>/dev/null && wait "$P_PID" 2>/dev/null
	cs_cleanup
	echo "FAIL: $*"
	exit 1
}
loadgen

ctl "add blocking sleep sleep_ms=5"
if [ "$CS_VARIANT" = stock ]; then
	cs_start probes contention -c cs_loadgen_blocking
else
	cs_start probes contention -c cs_loadgen_blocking --mode probes
fi
P_PID=$CS_PID
grep -q '^Tracing.*(mode probes: lock:contention_begin/end' "$W/probes.err" ||
	fail "no 'mode probes' header: $(cat "$W/probes.err")"
if [ "$CS_VARIANT" != stock ]; then
	cs_start tracepoints contention -c cs_loadgen_blocking --mode tracepoints
	grep -q '^Tracing.*(mode tracepoints: ' "$W/tracepoints.err" ||
		fail "no 'mode tracepoints' header"
fi
ctl "callers blocking 2 0"
i=0
while [ "$(sed -n 's/.*callers_calls=\([0-9]*\).*/\1/p' "$LG/stats")" -lt 10 ]; do
	i=$((i + 1))
	[ $i -lt 1200 ] || fail "callers made no calls within 120 s"
	usleep 100000
done
ctl "writers blocking 1 20"
ctl wait
ctl stop
if [ "$CS_VARIANT" != stock ]; then
	cs_stop
	TOUT=$OUT
fi
CS_PID=$P_PID
CS_NAME=probes
P_PID=
cs_stop
POUT=$OUT

WR='cs_loadgen_blocking \(blocking\) op: write lock: cs_loadgen_blocking '
RD='cs_loadgen_blocking \(blocking\) op: read lock: cs_loadgen_blocking '
hw=$(header "^chain: $WR")
[ -n "$hw" ] || fail "probes: no write section for cs_loadgen_blocking"
expect_ge "probes: contended writes" "$(field contended "$hw")" 1
echo "$hw" | grep -q 'acquisitions=' && fail "probes: acquisitions counted without notifier events"
# a writer waits behind readers holding the rwsem for 5+ ms
expect_ge "probes: write max wait (us)" "$(field max "$hw")" 1000
expect_eq "probes: write histogram total" "$(rows_from "$WR" 0)" "$(field contended "$hw")"
tw=$(awk '/^chain: cs_loadgen_blocking /{ s = 1 } s && /^    cslg_/' "$OUT")
[ -n "$tw" ] || fail "probes: no cslg_* thread among the top waiters"

if [ "$CS_VARIANT" != stock ]; then
	OUT=$TOUT
	thw=$(header "^chain: $WR")
	thr=$(header "^chain: $RD")
	expect_eq "tracepoints: write acquisitions = 2 x 20 cycles" "$(field acquisitions "$thw")" 40
	OUT=$POUT
	hr=$(header "^chain: $RD")
	expect_eq "probes writes = tracepoints' contended writes" \
		"$(field contended "$hw")" "$(field contended "$thw")"
	# (no section: none contended in probes mode)
	pr=$(field contended "$hr")
	tr=$(field contended "$thr")
	expect_eq "probes reads = tracepoints' contended reads" "${pr:-0}" "${tr:-0}"
fi
cs_cleanup
echo "contention finds the contended blocking chain from lock:contention_* alone"
