#!/bin/sh
# latency -C in probes mode (fentry/fexit on the chain API, kprobe.multi
# on the callbacks) on cli-latency-chain.sh's loadgen scenario. Stock
# kernel: auto picks probes, and the numbers are the scenario's exact
# ones. Our kernel: --mode probes and --mode tracepoints run side by side
# on the same calls and must agree: the call/stop/veto/rollback counts,
# the whole-pass counts; in both, every busy callback call lies in a
# bucket at or above the 700 us spin's (512 us).
. /chainscope/tests/cli-common.inc
P_PID=
fail() {
	[ -n "$P_PID" ] && kill -INT "$P_PID" 2>/dev/null && wait "$P_PID" 2>/dev/null
	cs_cleanup
	echo "FAIL: $*"
	exit 1
}


# wait_line FILE PATTERN: until a line of FILE matches (chainscope running)
wait_line() {
	i=0
	while ! grep -q "$2" "$1"; do
		i=$((i + 1))
		[ $i -lt 600 ] || fail "no line '$2' in $1 after 120 s: $(tail -n 3 "$1")"
		usleep 200000
	done
	echo "ok: $(grep "$2" "$1" | head -n 1)"
}

loadgen
# blocks registered before chainscope starts: found by walking the chains
ctl "add blocking sleep prio=10 sleep_ms=5"
ctl "add blocking fast"
ctl "add blocking fast2"
ctl "add atomic nest nest=raw"
# 700 us: cs_loadgen spins on the kernel's clock, so no call is shorter
# and every one is in a bucket >= 512 us. Which bucket is the fullest is
# not asserted: on a loaded host a vCPU that loses its host CPU mid-spin
# stretches calls past 1024 us, any number of them.
ctl "add raw busy delay_us=700"

if [ "$CS_VARIANT" = stock ]; then
	cs_start probes latency -C
else
	cs_start probes latency -C --mode probes
fi
P_PID=$CS_PID
PERR=$W/probes.err
grep -q '^Tracing.*(mode probes: ' "$PERR" || fail "no 'mode probes' in the header: $(cat "$PERR")"
# loadgen's heads are in no table: probes mode finds each on its first
# pass, which is counted, not reported as events
ctl "call blocking 1"
ctl "call atomic 1"
for c in blocking atomic raw; do
	wait_line "$PERR" "probes: watching chain cs_loadgen_$c "
done

if [ "$CS_VARIANT" != stock ]; then
	cs_start tracepoints latency -C --mode tracepoints
	grep -q '^Tracing.*(mode tracepoints: ' "$W/tracepoints.err" ||
		fail "no 'mode tracepoints' in the header"
fi

ctl "call blocking 20"
ctl "call atomic 10"
ctl "irq atomic 20"
ctl "timer raw 30"
# registered while tracing: the register fexit reports the new callback
ctl "add blocking veto prio=-10"
wait_line "$PERR" "probes: watching chain cs_loadgen_blocking.*callback cs_loadgen_cb_veto"
ctl "robust blocking 5 val_up=1 val_down=2"

if [ "$CS_VARIANT" != stock ]; then
	cs_stop
	TOUT=$OUT
fi
CS_PID=$P_PID
CS_NAME=probes
P_PID=
cs_stop
POUT=$OUT

B='cs_loadgen_blocking \(blocking\) whole pass'
A='cs_loadgen_atomic \(atomic\) whole pass'
R='cs_loadgen_raw \(raw\) whole pass'
BUSY='cs_loadgen_raw \(raw\) callback: cs_loadgen_cb_busy '
VETO='cs_loadgen_blocking \(blocking\) callback: cs_loadgen_cb_veto '

# the scenario's numbers (warm-up passes excluded: they were early)
OUT=$POUT
h=$(header "^chain: $B")
[ -n "$h" ] || fail "probes: no whole-pass section for cs_loadgen_blocking"
expect_eq "probes: blocking passes (20 + 5 robust + 5 rollbacks)" "$(field count "$h")" 30
expect_eq "probes: blocking rollbacks" "$(field rollbacks "$h")" 5
expect_eq "probes: blocking stopped" "$(field stopped "$h")" 5
expect_eq "probes: callbacks in blocking passes (20x3 + 5x4 + 5x3)" "$(field callbacks "$h")" 95
expect_eq "probes: atomic passes (task + hardirq)" "$(field count "$(header "^chain: $A")")" 30
expect_eq "probes: raw passes (nested + softirq)" "$(field count "$(header "^chain: $R")")" 60
hb=$(header "^chain: $BUSY")
expect_eq "probes: busy callback count" "$(field count "$hb")" 60
expect_eq "probes: busy callback calls at >= 512 us" "$(rows_from "$BUSY" 512)" 60
hv=$(header "^chain: $VETO")
expect_eq "probes: veto count" "$(field count "$hv")" 5
expect_eq "probes: veto stop+bad+errno" \
	"$(( $(field stop "$hv") + $(field bad "$hv") + $(field errno "$hv") ))" 5
grep -q "NOTE: probes: 1 passes on chain cs_loadgen_blocking before its callbacks were attached" \
	"$POUT" || fail "probes: the warm-up pass of cs_loadgen_blocking is not reported"
grep -q "WARNING: .*\(dropped\|deeper\)" "$POUT" && fail "probes: $(grep WARNING "$POUT")"
# (other chains' notrace callbacks, e.g. kernel/trace's, are named, not fatal)
grep "cannot attach" "$PERR"
grep -q "cannot attach.*cs_loadgen" "$PERR" && fail "probes: $(grep "cannot attach.*cs_loadgen" "$PERR")"

if [ "$CS_VARIANT" != stock ]; then
	for pat in "$B" "$A" "$R"; do
		for f in count stopped rollbacks callbacks; do
			OUT=$TOUT
			t=$(field $f "$(header "^chain: $pat")")
			OUT=$POUT
			expect_eq "tracepoints = probes: $pat $f" "$(field $f "$(header "^chain: $pat")")" "$t"
		done
	done
	for pat in "$BUSY" "$VETO" \
		'cs_loadgen_blocking \(blocking\) callback: cs_loadgen_cb_fast ' \
		'cs_loadgen_atomic \(atomic\) callback: cs_loadgen_cb_nest '; do
		for f in count stop bad errno; do
			OUT=$TOUT
			t=$(field $f "$(header "^chain: $pat")")
			OUT=$POUT
			expect_eq "tracepoints = probes: $pat $f" "$(field $f "$(header "^chain: $pat")")" "$t"
		done
	done
	OUT=$TOUT
	expect_eq "tracepoints: busy callback calls at >= 512 us" "$(rows_from "$BUSY" 512)" 60
fi

# -c: that chain is walked at start (its kind inferred), no pass of it is
# early; the others are ignored, nested passes included
cs_start onlyraw latency -c cs_loadgen_raw --mode probes
ctl "timer raw 7"
ctl "call atomic 3"
cs_stop
expect_eq "probes -c: busy count (7 timer + 3 nested)" "$(field count "$(header "^chain: $BUSY")")" 10
grep -q "cs_loadgen_atomic\|cs_loadgen_blocking" "$OUT" && fail "probes -c: other chains reported"
grep -q "NOTE: probes: .* cs_loadgen_raw before" "$OUT" && fail "probes -c: early passes on the -c chain"
cs_cleanup
echo "probes mode gives the scenario's numbers${CS_VARIANT:+ on $CS_VARIANT}"
