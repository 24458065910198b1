#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Host test of qemu/bench_report.py's extension rows (no guest, no BPF):
# guest result lines with known numbers go through `bench_report.py --ext
# tracing_cost|attach_time`, and the rows and ratios of result.json are
# checked against values worked out by hand; bad guest output must be an
# error. Run by make test (as a host test of qemu/) and by
# userspace/tests/sh/bench_offline.sh (make bench-offline, part of make bench).
#
#   qemu/tests/bench_report.sh [BENCH_REPORT.PY]
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPORT=$(readlink -f "${1:-$HERE/../bench_report.py}")
PREFIX=host.bench-report
# shellcheck source=userspace/tests/sh/lib.sh
. "$HERE/../../userspace/tests/sh/lib.sh"

# results FILE LINE...: one extension boot's guest results.txt
results() {
	local f=$1
	shift
	mkdir -p "$(dirname "$f")"
	printf '%s\n' "$@" > "$f"
}

# jget DIR EXPR: a value of DIR/result.json (EXPR in Python over `r`)
jget() {
	python3 -c 'import json, sys
r = json.load(open(sys.argv[1] + "/result.json"))
v = eval(sys.argv[2])
print(v if not isinstance(v, float) else f"{v:.6g}")' "$1" "$2"
}

# expect_eq NAME DIR EXPR VALUE
expect_eq() {
	local got
	got=$(jget "$2" "$3" 2>&1)
	if [ "$got" = "$4" ]; then
		pass "$1"
	else
		fail "$1" "$3: got '$got', want '$4'"
	fi
}

# --- tracing_cost: ratios against the untraced run, probes row -------------
# call lines: ns per call = min over loops of (ns - ovh) / iters; iters 100,
# ovh 0, K = 16 callbacks. off: 500 ns/call; tracepoints 500 + 16*400;
# probes 500 + 16*1200; fentry 500 + 16*1000; kprobe 500 + 16*1600;
# kpmulti 500 + 16*800.
T=$TMP/tc
R=$T/runs/tracecost/guest/bench/results.txt
callline() { # MODE NS_PER_CALL
	echo "call kind=atomic n=16 iters=100 ovh=0 ns=$(($2 * 100 + 700)),$(($2 * 100)) mode=$1"
}
results "$R" "$(callline off 500)" "$(callline tracepoints 6900)" \
	"$(callline probes 19700)" "$(callline fentry 16500)" \
	"$(callline kprobe 26100)" "$(callline kpmulti 13300)"
run python3 "$REPORT" --ext tracing_cost "$T"
if [ "$rc" = 0 ]; then
	pass tc.parses
	expect_eq tc.off "$T" 'r["raw"]["points"][0]["off_ns_per_call"]' 500
	expect_eq tc.x-off "$T" 'r["raw"]["points"][0]["probes_x_off"]' 39.4
	expect_eq tc.added-probes "$T" 'r["raw"]["points"][0]["probes_added_ns_per_cb"]' 1200
	expect_eq tc.added-kpmulti "$T" 'r["raw"]["points"][0]["kpmulti_added_ns_per_cb"]' 800
	expect_eq tc.b-over-c "$T" 'r["raw"]["points"][0]["b_over_c"]' 0.4
	expect_eq tc.b-over-d "$T" 'r["raw"]["points"][0]["b_over_d"]' 0.25
	expect_eq tc.p-over-b "$T" 'r["raw"]["points"][0]["p_over_b"]' 3
	expect_eq tc.p-over-c "$T" 'r["raw"]["points"][0]["p_over_c"]' 1.2
	expect_eq tc.p-over-e "$T" 'r["raw"]["points"][0]["p_over_e"]' 1.5
	# the probes column of the rendered row: traced ns, xR and +X/cb
	expect_eq tc.probes-cell "$T" 'r["rows"][0][r["columns"].index("p: chainscope latency (probes)")]' \
		'19,700.0 (x39.40; +1200.0/cb = 600.0 instr)'
	expect_eq tc.verdicts "$T" 'r["rows"][0][-2:]' "['ok', 'ok']"
else
	fail tc.parses "exit $rc: $err"
fi

# probes mode did not start: its column says so, the other rows stand
results "$R" "$(callline off 500)" "$(callline tracepoints 6900)" \
	"tcskip mode=probes rc=9" "$(callline fentry 16500)"
run python3 "$REPORT" --ext tracing_cost "$T"
if [ "$rc" = 0 ]; then
	# shellcheck disable=SC2016 # the backquotes are the cell's own
	expect_eq tc.probes-na "$T" 'r["rows"][0][r["columns"].index("p: chainscope latency (probes)")]' \
		'n/a (probes mode not merged: `chainscope latency --mode probes` exit 9)'
	expect_eq tc.probes-na-ratio "$T" 'r["raw"]["points"][0]["p_over_b"]' None
	expect_eq tc.probes-na-b-over-c "$T" 'r["raw"]["points"][0]["b_over_c"]' 0.4
else
	fail tc.probes-na "exit $rc: $err"
fi

# an earlier tree's "latency" lines are the tracepoints column
results "$R" "$(callline off 500)" "$(callline latency 6900)"
run python3 "$REPORT" --ext tracing_cost "$T"
if [ "$rc" = 0 ]; then
	expect_eq tc.latency-alias "$T" 'r["raw"]["points"][0]["tracepoints_added_ns_per_cb"]' 400
else
	fail tc.latency-alias "exit $rc: $err"
fi

# bad guest output: an error naming the problem, no result.json
for c in "no-baseline|no untraced run for atomic n=16|$(callline probes 19700)" \
	 "unknown-mode|unknown mode 'bogus'|$(callline off 500)|$(callline bogus 900)" \
	 "no-ns|call line without ns|call kind=atomic n=16 iters=100 ovh=0 mode=off"; do
	IFS='|' read -r n e l1 l2 <<<"$c"
	rm -f "$T/result.json"
	results "$R" "$l1" ${l2:+"$l2"}
	run python3 "$REPORT" --ext tracing_cost "$T"
	if [ "$rc" = 1 ] && grep -q -- "$e" <<<"$err" && [ ! -e "$T/result.json" ]; then
		pass "tc.bad-$n"
	else
		fail "tc.bad-$n" "exit $rc: $err"
	fi
done

# --- attach_time: phases, medians over repetitions, ratios ---------------
A=$TMP/at
R=$A/runs/attachtime/guest/bench/results.txt
atline() { # MODE N RESOLVE LOAD ATTACH DETACH REP
	echo "attach mode=$1 n=$2 resolve_ns=$3 load_ns=$4 attach_ns=$5 detach_ns=$6 rep=$7"
}
results "$R" \
	"$(atline kprobe-multi 10 1000000 2000000 1000000 500000 0)" \
	"$(atline fentry 10 3000000 20000000 13000000 4000000 0)" \
	"$(atline kprobe 10 0 2000000 6000000 1000000 0)" \
	"$(atline kprobe-multi 1000 3000000 2000000 5000000 1000000 0)" \
	"$(atline kprobe-multi 1000 3000000 2000000 9000000 1000000 1)" \
	"$(atline kprobe-multi 1000 3000000 2000000 7000000 1000000 2)" \
	"$(atline fentry 1000 4000000 1500000000 1300000000 90000000 0)"
run python3 "$REPORT" --ext attach_time "$A"
if [ "$rc" = 0 ]; then
	pass at.parses
	expect_eq at.sizes "$A" '[x["n"] for x in r["raw"]]' '[10, 1000]'
	expect_eq at.kpm-start "$A" 'r["raw"][0]["kprobe-multi"]["start_ns"]' 3000000
	expect_eq at.fentry-ratio "$A" 'r["raw"][0]["fentry_over_kprobe_multi"]' 11
	expect_eq at.kprobe-ratio "$A" 'r["raw"][0]["kprobe_over_kprobe_multi"]' 2.66667
	# median of the three repetitions' attach times (5, 9, 7 ms): 7 ms
	expect_eq at.median "$A" 'r["raw"][1]["kprobe-multi"]["attach_ns"]' 7000000
	expect_eq at.reps "$A" 'r["raw"][1]["kprobe-multi"]["reps"]' 3
	expect_eq at.fentry-ratio-1000 "$A" 'r["raw"][1]["fentry_over_kprobe_multi"]' 311.111
	expect_eq at.missing-mode "$A" 'r["rows"][1][3]' -
	expect_eq at.cell "$A" 'r["rows"][0][1]' \
		'3.0 = 2.0 + 1.0 (300.0 us/cb); resolve 1.0; detach 0.5'
else
	fail at.parses "exit $rc: $err"
fi
for c in "no-lines|no attach lines|call kind=atomic n=1 iters=1 ovh=0 ns=1 mode=off" \
	 "missing-phase|attach line without \\['detach_ns'\\]|attach mode=fentry n=10 resolve_ns=1 load_ns=1 attach_ns=1" \
	 "bad-mode|unknown mode 'uprobe'|$(atline uprobe 10 1 1 1 1 0)" \
	 "bad-number|bad load_ns=x|$(atline fentry 10 1 x 1 1 0)"; do
	IFS='|' read -r n e l <<<"$c"
	rm -f "$A/result.json"
	results "$R" "$l"
	run python3 "$REPORT" --ext attach_time "$A"
	if [ "$rc" = 1 ] && grep -q -- "$e" <<<"$err" && [ ! -e "$A/result.json" ]; then
		pass "at.bad-$n"
	else
		fail "at.bad-$n" "exit $rc: $err"
	fi
done

# --- contention_cost: x off per mode, what contention answered -------------
# call: ns per call = (ns - ovh) / iters, minimum; reg/unreg: median of
# (ns - ovh). off: call 1000, reg 400, unreg 600; tracepoints: call
# 1100 (x1.1), reg 440 (x1.1); probes: the same as off (x1).
C=$TMP/cc
CR=$C/runs/contcost/guest/bench/results.txt
ccall() { echo "call kind=blocking n=16 iters=10 ovh=100 ns=$(($2 * 10 + 100)),$(($2 * 10 + 500)) mode=$1"; }
creg() { echo "reg kind=blocking n=16 reps=3 ovh=0 reg_ns=$2,$2,$(($2 * 9)) unreg_ns=$3,1,$3 mode=$1"; }
results "$CR" "$(ccall off 1000)" "$(creg off 400 600)" \
	"$(ccall tracepoints 1100)" "$(creg tracepoints 440 600)" \
	"$(ccall probes 1000)" "$(creg probes 400 600)" \
	"contend callers=2 writer=1 n=16 ms=200 elapsed_ns=1 calls=30,12 writes=7 mode=tracepoints" \
	"ccanswer mode=tracepoints rd_acq=42 rd_cont=3 wr_acq=14 wr_cont=5 wr_max_us=900 top=cs_bench_w" \
	"contend callers=2 writer=1 n=16 ms=200 elapsed_ns=1 calls=20,20 writes=6 mode=probes" \
	"ccanswer mode=probes rd_acq= rd_cont=2 wr_acq= wr_cont=4 wr_max_us=800 top=cs_bench_w"
run python3 "$REPORT" --ext contention_cost "$C"
if [ "$rc" = 0 ]; then
	pass cc.parses
	expect_eq cc.call-off "$C" '[p["off_ns"] for p in r["raw"]["points"] if p["op"] == "call"][0]' 1000
	expect_eq cc.call-tp "$C" '[p["tracepoints_x_off"] for p in r["raw"]["points"] if p["op"] == "call"][0]' 1.1
	expect_eq cc.reg-tp "$C" '[p["tracepoints_x_off"] for p in r["raw"]["points"] if p["op"] == "reg"][0]' 1.1
	expect_eq cc.unreg-probes "$C" '[p["probes_x_off"] for p in r["raw"]["points"] if p["op"] == "unreg"][0]' 1
	expect_eq cc.cell "$C" '[x for x in r["rows"] if x[0] == "call blocking"][0][3]' '1,100.0 (x1.100)'
	expect_eq cc.answer-calls "$C" 'r["raw"]["answers"]["tracepoints"]["calls"]' 42
	expect_eq cc.answer-probes "$C" 'r["raw"]["answers"]["probes"]["wr_cont"]' 4
	if grep -q 'read acquisitions 42 (cs_bench calls: 42)' "$C/result.json"; then
		pass cc.answer-note
	else
		fail cc.answer-note "$(cat "$C/result.json")"
	fi
else
	fail cc.parses "exit $rc: $err"
fi
# a line without its mode is an error
results "$CR" "$(ccall off 1000)" "call kind=blocking n=16 iters=10 ovh=100 ns=1100"
run python3 "$REPORT" --ext contention_cost "$C"
if [ "$rc" != 0 ] && grep -q 'no or unknown mode' <<<"$err"; then
	pass cc.no-mode
else
	fail cc.no-mode "exit $rc: $err"
fi

# --- recorder_compare: each tool's accounting, the load's count ----------
# rate 500: 200 calls of 4 callbacks in 0.4 s (2,000 load events), every
# recorder exact and loss-free; rate 1000: 400 calls in 0.4 s, each loses.
RC=$TMP/rc
RB=$RC/runs/rcmp/guest/bench
rcfile() { mkdir -p "$RB"; printf '%s\n' "${@:2}" > "$RB/$1"; }
rcline() { # TOOL RATE CALLS BYTES CPU_MS TICKS
	echo "rcmp tool=$1 rate=$2 kind=blocking n=4 rate=$2 ms=400 calls=$3 elapsed_ns=400000000 bytes=$4 cpu_ms=$5 start_ticks=$6"
}
rcsum() { echo "recorded $1 events into /tmp/rc.cstrace (interrupted); lost $2 (ring buffer full), missed 0 (BPF recursion protection), 0 lost in NMI; 1 loss records; 9 symbols; 3 chains walked (0 unstable), 7 snapshot records; mode tracepoints"; }
# the meta line and rate 500, in both fixtures
RC500=("rcmeta cpus=2 mib=4 perf_pages=512 tc_kib=2048 n=4 ms=400 head=ffffffffc0001000 tools=chainscope,perf,trace-cmd"
	"$(rcline chainscope 500 200 200000 1500 50)" "$(rcline perf 500 200 400000 1000 20)"
	"$(rcline trace-cmd 500 200 100000 800 10)")
rcfile rcmp.txt "${RC500[@]}"
rcfile rc-chainscope-500.out "$(rcsum 2010 0)"
rcfile rc-chainscope-500.acct "passes: chain cs_bench_blocking [cs_bench] (blocking) passes=200 robust=0 stopped=0 rollbacks=0 callbacks=800"
rcfile rc-perf-500.count "events=2004 load=2000 load_end=200"
rcfile rc-perf-500.acct "Aggregated stats:" "           SAMPLE events:       2004"
rcfile rc-trace-cmd-500.count "events=2000 load=2000 load_end=200"
rcfile rc-trace-cmd-500.out "CPU: 0" "entries: 0" "overrun: 0" "commit overrun: 0" "dropped events: 0" \
	"CPU: 1" "overrun: 0" "commit overrun: 0" "dropped events: 0"
run python3 "$REPORT" --ext recorder_compare --smoke "$RC"
if [ "$rc" = 0 ]; then
	pass rc.smoke-ok
	expect_eq rc.kept-per-s "$RC" '[p["kept_per_s"] for p in r["raw"]["points"] if p["tool"] == "perf"][0]' 5010
	expect_eq rc.cpu "$RC" '[p["recording_cpu_s"] for p in r["raw"]["points"] if p["tool"] == "chainscope"][0]' 1
	expect_eq rc.cpu-ratio "$RC" 'r["raw"]["summary"]["trace-cmd"]["vs_chainscope"]["cpu_us_per_event"]' 0.7035
	expect_eq rc.bytes "$RC" 'r["raw"]["summary"]["perf"]["bytes_per_event"]' 199.601
	expect_eq rc.loss-free "$RC" 'r["raw"]["summary"]["trace-cmd"]["loss_free_calls_per_s"]' 500
	expect_eq rc.row "$RC" 'r["rows"][1][7]' '200/200; 2,000/2,000 events'
else
	fail rc.smoke-ok "exit $rc: $err"
fi
rcfile rcmp.txt "${RC500[@]}" \
	"$(rcline chainscope 1000 400 380000 2500 50)" "$(rcline perf 1000 400 760000 2000 20)" \
	"$(rcline trace-cmd 1000 400 190000 1200 10)"
rcfile rc-chainscope-1000.out "$(rcsum 3900 100)"
rcfile rc-chainscope-1000.acct "passes: chain cs_bench_blocking [cs_bench] (blocking) passes=390 robust=0 stopped=0 rollbacks=0 callbacks=1560"
rcfile rc-perf-1000.count "events=3950 load=3950 load_end=395"
rcfile rc-perf-1000.acct "           SAMPLE events:       3950" "             LOST events:          1"
rcfile rc-perf-1000.lost "            perf     0 [000]     0.000000: PERF_RECORD_LOST lost 50"
rcfile rc-trace-cmd-1000.count "events=3970 load=3970 load_end=397"
rcfile rc-trace-cmd-1000.out "CPU: 0" "overrun: 30" "commit overrun: 0" "dropped events: 0"
rcfile rc-trace-cmd-1000.lost "CPU:1 [25 EVENTS DROPPED]"
run python3 "$REPORT" --ext recorder_compare --smoke "$RC"
if [ "$rc" = 1 ] && grep -q 'chainscope at 1000 calls/s: lost 100' <<<"$err" &&
	grep -q 'perf at 1000 calls/s: lost 50' <<<"$err" &&
	grep -q 'trace-cmd at 1000 calls/s: lost 30' <<<"$err" &&
	grep -q 'kept 390 of the load.s 400 passes' <<<"$err"; then
	pass rc.smoke-loss
	expect_eq rc.lost-perf "$RC" '[p["lost"] for p in r["raw"]["points"] if p["tool"] == "perf" and p["calls"] == 400][0]' 50
	expect_eq rc.kept-2x "$RC" 'r["raw"]["summary"]["chainscope"]["kept_per_s_at_2x"]' 9750
	expect_eq rc.kept-2x-ratio "$RC" 'r["raw"]["summary"]["trace-cmd"]["vs_chainscope"]["kept_per_s_at_2x"]' 1.01795
else
	fail rc.smoke-loss "exit $rc: $err"
fi
# chainscope-w0 (record --wakeup 0) is read as chainscope is, with
# its ratios against chainscope (batched wakeups): 2,010 events kept of
# 200 calls, CPU 2 s against 1 s
RCW=$TMP/rcw
cp -r "$RC" "$RCW"
RB=$RCW/runs/rcmp/guest/bench
rcfile rcmp.txt "${RC500[@]}" "$(rcline chainscope-w0 500 200 200000 2500 50)"
rcfile rc-chainscope-w0-500.out "$(rcsum 2010 0)"
rcfile rc-chainscope-w0-500.acct "passes: chain cs_bench_blocking [cs_bench] (blocking) passes=200 robust=0 stopped=0 rollbacks=0 callbacks=800"
run python3 "$REPORT" --ext recorder_compare "$RCW"
if [ "$rc" = 0 ]; then
	expect_eq rc.w0-loss-free "$RCW" 'r["raw"]["summary"]["chainscope-w0"]["loss_free_calls_per_s"]' 500
	expect_eq rc.w0-cpu-ratio "$RCW" 'r["raw"]["summary"]["chainscope-w0"]["vs_chainscope"]["cpu_us_per_event"]' 2
	expect_eq rc.w0-row "$RCW" '[x[1] for x in r["rows"]]' "['chainscope', 'chainscope-w0', 'perf', 'trace-cmd']"
else
	fail rc.w0 "exit $rc: $err"
fi
RB=$RC/runs/rcmp/guest/bench
rcfile rc-perf-1000.count "events=3950"
run python3 "$REPORT" --ext recorder_compare "$RC"
if [ "$rc" = 1 ] && grep -q 'no number load= in' <<<"$err"; then
	pass rc.bad-count
else
	fail rc.bad-count "exit $rc: $err"
fi

# --- both render in bench.md without core runs (qemu/bench.sh -s ext) ----
D=$TMP/full
mkdir -p "$D/ext"
cp -r "$T" "$D/ext/tracing_cost"
cp -r "$A" "$D/ext/attach_time"
results "$D/ext/attach_time/runs/attachtime/guest/bench/results.txt" \
	"$(atline kprobe-multi 10 1000000 2000000 1000000 500000 0)"
python3 "$REPORT" --ext attach_time "$D/ext/attach_time" >/dev/null 2>&1
results "$D/ext/tracing_cost/runs/tracecost/guest/bench/results.txt" \
	"$(callline off 500)" "$(callline probes 19700)"
python3 "$REPORT" --ext tracing_cost "$D/ext/tracing_cost" >/dev/null 2>&1
run python3 "$REPORT" "$D"
if [ "$rc" = 0 ] && grep -q '^### (3) Attach time for 10, 100 and 1000 watched callbacks' "$D/bench.md" &&
   grep -q '^| 10 | 3.0 = 2.0 + 1.0 (300.0 us/cb); resolve 1.0; detach 0.5 | - | - | - | - |$' "$D/bench.md" &&
   grep -q 'x39.40; +1200.0/cb' "$D/bench.md"; then
	pass render
else
	fail render "exit $rc: $err $(grep -A3 'Attach time' "$D/bench.md" 2>/dev/null | head -5)"
fi


# --- size part: bloat-o-meter output parsed and rendered -------------------
# bom FILE BEFORE AFTER: a bloat-o-meter -t output with one added and one
# grown function (delta AFTER - BEFORE).
bom() {
	local d=$(($3 - $2))
	printf '%s\n' "add/remove: 1/0 grow/shrink: 1/0 up/down: $d/0 ($d)" \
		"Function                                     old     new   delta" \
		"notifier_walk_traced                           -     $((d - 4))    +$((d - 4))" \
		"raw_notifier_chain_register                   40      44      +4" \
		"Total: Before=$2, After=$3, chg +$(python3 -c "print(f'{100 * ($3 - $2) / $2:.2f}')")%" > "$1"
}
# kdir DIR NS0 NS1: a kernel's bench dir with size results and one icount
# boot per variant: an atomic call on an empty chain at stock 40 ns and
# NS0 ns (chainscope), a raw register at stock 100 ns and NS1 ns.
kdir() {
	local d=$1 v ns reg
	mkdir -p "$d/size"
	bom "$d/size/notifier-text.txt" 2000 3000
	bom "$d/size/vmlinux-text.txt" 5000000 5001000
	printf '%s\n' "   text	   data	    bss	    dec	    hex	filename" \
		"   5952	    332	     16	   6300	   189c	stock/notifier.o" > "$d/size/notifier-size.txt"
	: > "$d/runs.tsv"
	for v in stock chainscope; do
		ns=40 reg=100
		[ "$v" = chainscope ] && ns=$2 reg=$3
		printf 'icount-%s-1\t%s\tbench\t1\t-icount\t0\t5\t0 0 0\n' "$v" "$v" >> "$d/runs.tsv"
		results "$d/runs/icount-$v-1/guest/bench/results.txt" \
			"call kind=atomic n=0 iters=100 ovh=0 ns=$((ns * 100)),$((ns * 100 + 50))" \
			"reg kind=raw n=0 reps=2 ovh=0 reg_ns=$reg,$((reg + 10)) unreg_ns=50,60" \
			"sync reps=1 ovh=0 rcu_ns=1000 srcu_ns=2000"
	done
}
S=$TMP/size
kdir "$S/6.1" 42 105
run python3 "$REPORT" --linux 6.1 "$S/6.1"
if [ "$rc" = 0 ] &&
   grep -q '^# Notifier chain benchmarks: chainscope core vs stock 6.1$' "$S/6.1/bench.md" &&
   grep -q '^| kernel/notifier.o | 2000 | 3000 | +1000 | +50.00% | 1/0 | 1/0 |$' "$S/6.1/bench.md" &&
   grep -q '^| vmlinux | 5000000 | 5001000 | +1000 | +0.02% | 1/0 | 1/0 |$' "$S/6.1/bench.md" &&
   grep -q '^| raw_notifier_chain_register | 40 | 44 | +4 |$' "$S/6.1/bench.md"; then
	pass size.render
else
	fail size.render "exit $rc: $err $(grep -A4 'Text size' "$S/6.1/bench.md" 2>/dev/null | head -6)"
fi
# Targets: a call +1 instruction (2 ns) is within; register 1.05x is.
if grep -q '^| atomic | 0 | 40.0 | 42.0 | 1.0500 | ok |' "$S/6.1/bench.md" &&
   grep -q '^| reg | raw | 0 | 100.0 | 105.0 | 1.0500 | ok |$' "$S/6.1/bench.md"; then
	pass targets.within
else
	fail targets.within "$(grep -E '^\| (atomic|reg) ' "$S/6.1/bench.md")"
fi
kdir "$S/6.12" 44 106
run python3 "$REPORT" --linux 6.12 "$S/6.12"
if [ "$rc" = 0 ] && grep -q '^| atomic | 0 | 40.0 | 44.0 | 1.1000 | MISSED |' "$S/6.12/bench.md" &&
   grep -q '^| reg | raw | 0 | 100.0 | 106.0 | 1.0600 | MISSED |$' "$S/6.12/bench.md"; then
	pass targets.missed
else
	fail targets.missed "exit $rc: $err $(grep -E '^\| (atomic|reg) ' "$S/6.12/bench.md")"
fi
# Not bloat-o-meter output: an error, no report.
B=$TMP/badsize
kdir "$B" 42 105
echo "nm: error" > "$B/size/vmlinux-text.txt"
run python3 "$REPORT" "$B"
if [ "$rc" = 1 ] && grep -q 'vmlinux-text.txt: not bloat-o-meter output' <<<"$err" &&
   [ ! -e "$B/bench.md" ]; then
	pass size.bad
else
	fail size.bad "exit $rc: $err"
fi

# --- merge: both kernels in one bench.md and in the docs region -----------
printf '%s\n' "# Bench" "intro" "<!-- bench:begin -->" "old" "<!-- bench:end -->" "tail" \
	> "$S/docs.md"
run python3 "$REPORT" --command "qemu/bench.sh -d" --merge "6.1=$S/6.1" --merge "6.12=$S/6.12" \
	--docs "$S/docs.md" "$S"
if [ "$rc" = 0 ] &&
   grep -q '^# Notifier chain benchmarks: chainscope core vs stock, Linux 6.1 and Linux 6.12$' "$S/bench.md" &&
   grep -q '^| 6.1 | 0 | 2000 -> 3000 (+1000) | +1000 (+0.02%) |$' "$S/bench.md" &&
   grep -q '^| 6.12 | 2 | 2000 -> 3000 (+1000) | +1000 (+0.02%) |$' "$S/bench.md" &&
   grep -q '^## Linux 6.12: chainscope core vs stock 6.12$' "$S/bench.md" &&
   grep -q '^### 0. Text size: bloat-o-meter, stock -> chainscope$' "$S/bench.md" &&
   grep -q '^### Linux 6.1: chainscope core vs stock 6.1$' "$S/docs.md" &&
   grep -q '^#### 1. Call cost' "$S/docs.md" && ! grep -q '^old$' "$S/docs.md" &&
   [ "$(tail -n1 "$S/docs.md")" = tail ]; then
	pass merge
else
	fail merge "exit $rc: $err $(head -12 "$S/bench.md" 2>/dev/null)"
fi
run python3 "$REPORT" --merge "6.1" "$S"
if [ "$rc" = 1 ] && grep -q "is not KERNEL=DIR" <<<"$err"; then
	pass merge.bad
else
	fail merge.bad "exit $rc: $err"
fi

exit "$failed"
