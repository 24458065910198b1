#!/bin/sh
# Stock vs ours: the same cs_loadgen scenario recorded in every mode this
# kernel has (stock: auto = probes; ours: auto = tracepoints, and
# --mode probes side by side), and each recording must give the exact
# numbers the scenario implies, so the modes agree with each other:
#   - record + check: 0 violations on the clean run (which loads and
#     unloads a module too: probes mode leaves out, and counts, the passes
#     of the module chain, which has callbacks it cannot trace), and exactly the
#     membership-enoent violation of the run where cs_loadgen takes a
#     block off its chain behind the API's back (`forget`), then unregisters
#     it (-ENOENT);
#   - report -j: calls, stops (the veto's NOTIFY_BAD), passes, stopped
#     passes and rollbacks per chain;
#   - the busy callback (300 us) in the same log2 bucket in report -j and
#     in a live latency -j of the same mode.
# The JSON goes to /out/agree-MODE.{report,latency}.json, so that the host
# (qemu/agree.sh, from qemu/test.sh) compares stock-probes with
# ours-tracepoints after both guests ran.
. /chainscope/tests/cli-common.inc
loadgen

B=cs_loadgen_blocking
R=cs_loadgen_raw
A=cs_loadgen_atomic
# probes mode attaches the callbacks of these chains before recording
# begins (tracepoints mode records every chain anyway)
CHAINS="-c $B:blocking -c $R:raw -c $A:atomic"

# obj FILE CHAIN CALLBACK: the callbacks[] element (report -j: one line)
obj() {
	awk -v ch="\"$2\"" -v cb="\"callback\":\"$3\"" '{
		sub(/,"snapshots":\[.*/, "")	# report -j: the membership walked at start
		n = split($0, parts, /\{"chain":/)
		for (i = 2; i <= n; i++)
			if (index(parts[i], ch) == 1 && index(parts[i], cb)) { print parts[i]; exit }
	}' "$1"
}

# chain_obj FILE CHAIN: the chains[] element of report -j
chain_obj() {
	sed 's/.*"chains":\[//' "$1" | awk -v ch="\"$2\"" '{
		sub(/,"snapshots":\[.*/, "")
		n = split($0, parts, /\{"chain":/)
		for (i = 2; i <= n; i++) if (index(parts[i], ch) == 1) { print parts[i]; exit }
	}'
}

num() {
	echo "$2" | grep -o "\"$1\":[0-9]*" | head -n 1 | cut -d: -f2
}

# count_from OBJ MIN: calls in the histogram buckets of OBJ starting at
# >= MIN (in the JSON's units: usecs, the default)
count_from() {
	echo "$1" | sed 's/.*"histogram":\[//' |
		grep -o '"min":[0-9]*,"max":[0-9]*,"count":[0-9]*' |
		awk -F'[:,]' -v lo="$2" '$2 + 0 >= lo + 0 { s += $6 } END { print s + 0 }'
}

# The blocks, registered before recording (on stock, probes mode then
# finds every callback at its start: no pass goes unrecorded)
setup() {
	echo stop > "$CTL" 2>/dev/null
	ctl clear
	ctl "add blocking busy prio=10 delay_us=300"
	ctl "add blocking fast"
	ctl "add raw fast prio=5"
	ctl "add raw veto"
	ctl "add raw fast2 prio=-1"
	ctl "add atomic nest nest=raw"
}

cat > "$W/load.sh" <<LOAD
set -e
C=$CTL
echo "call blocking 20 val=1" > \$C
echo "call raw 10" > \$C
echo "robust raw 5 val_up=1 val_down=2" > \$C
echo "call atomic 5" > \$C
echo "call blocking 5" > \$C
# the module chain, whose callbacks include notrace ones (trace_module_notify)
insmod /chainscope/modules/cs_selftest.ko
rmmod cs_selftest
LOAD

# the provocation: a block registered in the recording, taken off its
# chain behind the API's back, then unregistered (-ENOENT)
cat > "$W/forget.sh" <<LOAD
C=$CTL
echo "add blocking fast" > \$C || exit 1
id=\$(cat $LG/last_id)
echo "forget \$id" > \$C || exit 1
echo "del \$id" > \$C 2>/dev/null && exit 1
exit 0
LOAD

# agree MODE [--mode ARG]: the scenario in one mode; MODE is what the
# tools must say they use
agree() {
	mode=$1
	shift
	T=$W/agree-$mode.cstrace
	setup
	"$CS" record "$@" $CHAINS -o "$T" -- sh "$W/load.sh" > "$W/rec.out" 2> "$W/rec.err"
	rc=$?
	cat "$W/rec.err" "$W/rec.out"
	expect_eq "$mode: record exit" "$rc" 0
	grep -q "^Tracing notifier events into $T (mode $mode: " "$W/rec.err" ||
		fail "$mode: record's header does not say mode $mode"
	grep -q "^recorded [0-9]* events into $T (command exited 0); lost 0 .*; mode $mode$" \
		"$W/rec.out" || fail "$mode: record summary: events lost, or not mode $mode"
	check_trace "$T" "$W/rec.out" "$mode clean run"
	# probes mode cannot see the module chain's notrace callbacks: its
	# passes (insmod, rmmod) are counted, not recorded half
	if [ "$mode" = probes ]; then
		n=$(sed -n 's/^NOTE: probes: \([0-9]*\) passes not recorded: their chain has a callback.*/\1/p' "$W/rec.out")
		expect_ge "$mode: module chain passes left out (notrace callbacks)" "$n" 3
	fi
	cp "$T.check" "/out/agree-$mode.check.txt"

	J=/out/agree-$mode.report.json
	"$CS" report -j "$T" > "$J" || fail "$mode: report -j failed"
	"$CS" report "$T" > "/out/agree-$mode.report.txt" || fail "$mode: report failed"
	grep -q "\"mode\":\"$mode\"" "$J" || fail "$mode: report -j does not say mode $mode"
	grep -q '"lost":0,' "$J" || fail "$mode: report says events were lost"

	o=$(obj "$J" $B cs_loadgen_cb_busy)
	expect_eq "$mode: blocking busy calls" "$(num count "$o")" 25
	# the 300 us spin (on the kernel's clock) puts every call at >= 256 us;
	# which bucket is the fullest is not asserted (a loaded host stretches
	# calls past 512 us, any number of them)
	expect_eq "$mode: busy (300 us) calls at >= 256 us in report" "$(count_from "$o" 256)" 25
	expect_eq "$mode: blocking fast calls" "$(num count "$(obj "$J" $B cs_loadgen_cb_fast)")" 25
	# 10 calls + 5 robust + 5 rollbacks + 5 nested in the atomic chain's nest
	expect_eq "$mode: raw fast calls" "$(num count "$(obj "$J" $R cs_loadgen_cb_fast)")" 25
	o=$(obj "$J" $R cs_loadgen_cb_veto)
	expect_eq "$mode: raw veto calls" "$(num count "$o")" 20
	expect_eq "$mode: raw veto vetoes (NOTIFY_BAD)" "$(num bad "$o")" 20
	expect_eq "$mode: raw veto other stops" "$(num stop "$o")/$(num errno "$o")" 0/0
	[ -z "$(obj "$J" $R cs_loadgen_cb_fast2)" ] || fail "$mode: raw fast2 ran after the veto"
	expect_eq "$mode: atomic nest calls" "$(num count "$(obj "$J" $A cs_loadgen_cb_nest)")" 5

	o=$(chain_obj "$J" $B)
	expect_eq "$mode: blocking passes/stopped/rollbacks/callbacks" \
		"$(num passes "$o")/$(num stopped "$o")/$(num rollbacks "$o")/$(num callbacks "$o")" \
		25/0/0/50
	o=$(chain_obj "$J" $R)
	# plain 10 + nested 5 + robust 5; each stopped by the veto; 5 rollbacks
	expect_eq "$mode: raw passes/robust/stopped/rollbacks/callbacks" \
		"$(num passes "$o")/$(num robust "$o")/$(num stopped "$o")/$(num rollbacks "$o")/$(num callbacks "$o")" \
		20/5/20/5/45
	o=$(chain_obj "$J" $A)
	expect_eq "$mode: atomic passes/stopped/callbacks" \
		"$(num passes "$o")/$(num stopped "$o")/$(num callbacks "$o")" 5/0/5

	# the live tool, same mode: the busy callback's calls, as long as in report
	cs_start "lat-$mode" latency -j "$@" -c $B -k blocking -f cs_loadgen_cb_busy
	ctl "call blocking 20 val=1"
	cs_stop
	cp "$OUT" "/out/agree-$mode.latency.json"
	grep -q "\"mode\":\"$mode\"" "$OUT" || fail "$mode: latency -j does not say mode $mode"
	o=$(tail -n 1 "$OUT" | awk -v cb='"callback":"cs_loadgen_cb_busy"' '{
		n = split($0, parts, /\{"chain":/)
		for (i = 2; i <= n; i++) if (index(parts[i], cb)) { print parts[i]; exit }
	}')
	n=$(num count "$o")
	expect_ge "$mode: latency busy calls" "$n" 1
	expect_eq "$mode: latency -j busy calls at >= 256 us" "$(count_from "$o" 256)" "$n"

	# the provocation: check finds exactly it
	setup
	T=$W/forget-$mode.cstrace
	"$CS" record "$@" -c $B:blocking -o "$T" -- sh "$W/forget.sh" > "$W/rec.out" 2> "$W/rec.err"
	rc=$?
	cat "$W/rec.err" "$W/rec.out"
	expect_eq "$mode: record (forget) exit" "$rc" 0
	grep -q "(command exited 0)" "$W/rec.out" || fail "$mode: the forget load failed"
	"$CS" check "$T" > "$T.check" 2>&1
	rc=$?
	cat "$T.check"
	cp "$T.check" "/out/agree-$mode.forget-check.txt"
	expect_eq "$mode: check exit on the provoked violation" "$rc" 1
	expect_eq "$mode: violations" "$(grep -c ' rule ' "$T.check")" 1
	grep -q "callback cs_loadgen_cb_fast: rule membership-enoent: unregister failed with -ENOENT, but the block is on the chain (registered in the trace)" \
		"$T.check" || fail "$mode: not the membership-enoent violation"
	echo "ok: $mode: check finds the block taken off its chain behind the API's back"
}

if [ "$CS_VARIANT" = stock ]; then
	agree probes
else
	agree tracepoints
	agree probes --mode probes
fi
cs_cleanup
echo "every mode gives the scenario's numbers"
