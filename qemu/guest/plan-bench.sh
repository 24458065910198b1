#!/bin/sh
# Guest plan for qemu/bench.sh: load cs_bench.ko and run its measurements
# (see the top of kernel/modules/cs_bench/cs_bench.c for the commands).
#
# Kernel command line (all optional; defaults in brackets):
#   csbench.stages=LIST   comma list of stages [icount]
#                         icount:     call + reg + sync (boot with
#                                     -icount, -smp 1)
#                         contention: blocking chain, callers x writer x
#                                     tracing, interleaved (plain TCG -smp 2)
#                         tracecost:  call cost per callback with no tracer,
#                                     chainscope latency in tracepoints
#                                     and probes mode, benchattach fentry,
#                                     kprobe and kprobe.multi attached
#                                     (icount, -smp 1; needs CS_GUEST_BINS)
#                         attachtime: benchattach -a: time to attach to and
#                                     detach from N distinct callbacks
#                                     (cs_bench_cb_000..) per mechanism
#                                     (icount, -smp 1; needs CS_GUEST_BINS)
#                         recorder:   chainscope record against a paced
#                                     load of rising rate (plain TCG -smp 2)
#                         contcost:   chainscope contention attached
#                                     (tracepoints, probes) vs not: calls,
#                                     (un)registrations, then what it saw
#                                     of a contend run (icount, -smp 1;
#                                     needs CS_GUEST_BINS; tsizes, chunks,
#                                     reps, cn, cms)
#                         rcmp:       the paced load recorded in turn by
#                                     chainscope record, perf record and
#                                     trace-cmd record at equal buffer
#                                     memory (needs CS_GUEST_BINS and
#                                     CS_GUEST_TOOLS=recorders; rcrates,
#                                     rcms, rcmib, rn)
#                         Add a stage by adding a function stage_NAME.
#   csbench.kinds=LIST    chain kinds [atomic,blocking,raw,srcu]
#   csbench.sizes=LIST    callbacks per chain [0,1,4,16,64,256,1024]
#   csbench.chunks=N      timed loops per call point [15]
#   csbench.reps=N        register/unregister pairs per point [32]
#   csbench.syncreps=N    synchronize_rcu/srcu timings [8]
#   csbench.callers=LIST  contention caller threads [1,2]
#   csbench.cn=N          contention chain length [16]
#   csbench.cms=MS        contention run length [200]
#   csbench.creps=N       contention repetitions [5]
#   csbench.tkinds=LIST   tracecost chain kinds [atomic,blocking]
#   csbench.tsizes=LIST   tracecost chain lengths [16,64]
#   csbench.tmodes=LIST   tracecost tracers
#                         [off,tracepoints,probes,fentry,kprobe,kpmulti]
#   csbench.ans=LIST      attachtime: numbers of callbacks [10,100,1000]
#   csbench.amodes=LIST   attachtime: benchattach -m modes
#                         [kprobe-multi,fentry,kprobe]
#   csbench.areps=N       attachtime: repetitions [1]
#   csbench.akmax=N       attachtime: largest N for mode kprobe [1000]
#   csbench.rates=LIST    recorder: chain calls per second to try
#   csbench.rn=N          recorder: chain length [4]
#   csbench.rms=MS        recorder: run length per rate [2000]
#   csbench.rbuf=MIB      recorder: chainscope record -b [1]
#   csbench.rcrates=LIST  rcmp: chain calls per second to try
#   csbench.rcms=MS       rcmp: run length per rate [1000]
#   csbench.rcmib=MIB     rcmp: total buffer memory of each recorder [4]
#   csbench.rctools=LIST  rcmp: recorders [chainscope,chainscope-w0,perf,
#                         trace-cmd] (chainscope-w0: record --wakeup 0)
#
# Results: /out/bench/results.txt, one cs_bench result line per
# measurement with " trace=off|on rep=R" appended to contention lines;
# /out/bench/meta.txt; the plan exits non-zero on the first failure.
# plan-bench-smoke.sh sets smaller defaults (CSB_* variables) and runs
# this file.
# shellcheck disable=SC2317  # stage_* and helpers are called indirectly
set -eu
D=/sys/kernel/debug/cs_bench
CTL=$D/ctl
T=/sys/kernel/tracing
OUT=/out/bench
mkdir -p "$OUT"
RES=$OUT/results.txt
: > "$RES"

fail() { echo "bench: error: $*"; exit 1; }

STAGES=${CSB_STAGES:-icount}
KINDS=${CSB_KINDS:-atomic,blocking,raw,srcu}
SIZES=${CSB_SIZES:-0,1,4,16,64,256,1024}
CHUNKS=${CSB_CHUNKS:-15}
REPS=${CSB_REPS:-32}
SYNCREPS=${CSB_SYNCREPS:-8}
CALLERS=${CSB_CALLERS:-1,2}
CN=${CSB_CN:-16}
CMS=${CSB_CMS:-200}
CREPS=${CSB_CREPS:-5}
TKINDS=${CSB_TKINDS:-atomic,blocking}
TSIZES=${CSB_TSIZES:-16,64}
TMODES=${CSB_TMODES:-off,tracepoints,probes,fentry,kprobe,kpmulti}
ANS=${CSB_ANS:-10,100,1000}
AMODES=${CSB_AMODES:-kprobe-multi,fentry,kprobe}
AREPS=${CSB_AREPS:-1}
AKMAX=${CSB_AKMAX:-1000}
RATES=${CSB_RATES:-2000,5000,10000,20000,40000,80000}
RN=${CSB_RN:-4}
RMS=${CSB_RMS:-2000}
RBUF=${CSB_RBUF:-1}
RCRATES=${CSB_RCRATES:-5000,10000,20000,40000}
RCMS=${CSB_RCMS:-1000}
RCMIB=${CSB_RCMIB:-4}
RCTOOLS=${CSB_RCTOOLS:-chainscope,chainscope-w0,perf,trace-cmd}
# shellcheck disable=SC2013  # words, not lines
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	csbench.stages=*) STAGES=${arg#*=} ;;
	csbench.kinds=*) KINDS=${arg#*=} ;;
	csbench.sizes=*) SIZES=${arg#*=} ;;
	csbench.chunks=*) CHUNKS=${arg#*=} ;;
	csbench.reps=*) REPS=${arg#*=} ;;
	csbench.syncreps=*) SYNCREPS=${arg#*=} ;;
	csbench.callers=*) CALLERS=${arg#*=} ;;
	csbench.cn=*) CN=${arg#*=} ;;
	csbench.cms=*) CMS=${arg#*=} ;;
	csbench.creps=*) CREPS=${arg#*=} ;;
	csbench.tkinds=*) TKINDS=${arg#*=} ;;
	csbench.tsizes=*) TSIZES=${arg#*=} ;;
	csbench.tmodes=*) TMODES=${arg#*=} ;;
	csbench.ans=*) ANS=${arg#*=} ;;
	csbench.amodes=*) AMODES=${arg#*=} ;;
	csbench.areps=*) AREPS=${arg#*=} ;;
	csbench.akmax=*) AKMAX=${arg#*=} ;;
	csbench.rates=*) RATES=${arg#*=} ;;
	csbench.rn=*) RN=${arg#*=} ;;
	csbench.rms=*) RMS=${arg#*=} ;;
	csbench.rbuf=*) RBUF=${arg#*=} ;;
	csbench.rcrates=*) RCRATES=${arg#*=} ;;
	csbench.rcms=*) RCMS=${arg#*=} ;;
	csbench.rcmib=*) RCMIB=${arg#*=} ;;
	csbench.rctools=*) RCTOOLS=${arg#*=} ;;
	esac
done
list() { echo "$1" | tr , ' '; }

# One cs_bench command; its result line goes to results.txt, with SUFFIX.
bench() { # bench "COMMAND" [SUFFIX]
	echo "$1" > "$CTL" || fail "cs_bench command '$1' failed (see dmesg)"
	line=$(cat "$CTL")
	[ -n "$line" ] || fail "cs_bench command '$1' gave no result"
	echo "$line${2:+ $2}" >> "$RES"
}

# Core cost: every call and (un)registration point, chains only growing,
# so no point pays for tearing a chain down.
stage_icount() {
	for kind in $(list "$KINDS"); do
		for n in $(list "$SIZES"); do
			bench "call $kind $n $CHUNKS"
			bench "reg $kind $n $REPS"
		done
		echo "bench: $kind done"
	done
	bench "sync $SYNCREPS"
}

# Switch every notifier event on or off (no-op on a kernel without them).
tracing() { # tracing on|off
	[ -d "$T/events/notifier" ] || return 0
	case $1 in
	on) echo 1 > "$T/events/notifier/enable" ;;
	off) echo 0 > "$T/events/notifier/enable"; echo > "$T/trace" ;;
	esac
}

# Contention: every configuration once per repetition, interleaved;
# tracing is switched twice per repetition. Switching events patches
# kernel text (text_poke_bp) while the other vCPU runs; with record-cmd
# on, that includes the sched_switch site in __schedule(), and one boot
# hung there under MTTCG (the patching CPU waited forever for the other
# one), so record-cmd is off: only notifier code gets patched.
stage_contention() {
	traces=off
	if [ -d "$T/events/notifier" ]; then
		traces="off on"
		echo 1024 > "$T/buffer_size_kb"
		echo 0 > "$T/options/record-cmd"
	fi
	r=0
	while [ "$r" -lt "$CREPS" ]; do
		for tr in $traces; do
			tracing "$tr"
			for c in $(list "$CALLERS"); do
				for w in 0 1; do
					bench "contend $c $w $CN $CMS" "trace=$tr rep=$r"
				done
			done
			tracing off
		done
		r=$((r + 1))
		echo "bench: contention repetition $r of $CREPS done"
	done
}

# Start a tracer in the background (output in $OUT/NAME.out/.err) and
# return once it says "Tracing" on stderr: with one vCPU the timed loop
# must not start before the programs are attached. A tracer that dies
# during start-up fails the plan, unless TR_OPTIONAL=1: then the exit
# status is in TR_RC and tracer_start returns 1.
TR_PID=
TR_OPTIONAL=0
tracer_start() { # tracer_start NAME COMMAND...
	name=$1
	shift
	: > "$OUT/$name.err"
	"$@" > "$OUT/$name.out" 2> "$OUT/$name.err" &
	TR_PID=$!
	i=0
	while ! grep -q '^Tracing' "$OUT/$name.err"; do
		if ! kill -0 "$TR_PID" 2>/dev/null; then
			TR_RC=0
			wait "$TR_PID" || TR_RC=$?
			TR_PID=
			[ "$TR_OPTIONAL" = 1 ] && return 1
			fail "$* died during start-up: $(tail -n 1 "$OUT/$name.err")"
		fi
		i=$((i + 1))
		[ "$i" -lt 3000 ] || fail "$* not attached after 600 s"
		usleep 200000
	done
}

tracer_stop() {
	[ -n "$TR_PID" ] || return 0
	kill -INT "$TR_PID"
	wait "$TR_PID" || fail "tracer exited $? (see $OUT/*.err)"
	TR_PID=
}

# Per loaded BPF program: its size (bpftool prog show: xlated/jited
# bytes, BPF instructions; the raw JIT image for objdump on the host) and,
# from one more untimed call loop with kernel.bpf_stats_enabled=1, its
# run count and run time (under icount run time = 2 ns per instruction,
# plus the stats' own clock reads).
bpf_costs() { # bpf_costs MODE KIND N
	echo 1 > /proc/sys/kernel/bpf_stats_enabled
	echo "call $2 $3 1" > "$CTL"
	echo 0 > /proc/sys/kernel/bpf_stats_enabled
	bpftool prog show > "$OUT/progs-$1.txt" 2>&1
	# shellcheck disable=SC2013  # one id per line
	for id in $(sed -n 's/^\([0-9]*\): .*/\1/p' "$OUT/progs-$1.txt"); do
		show=$(bpftool prog show id "$id" | tr '\n' ' ')
		pname=$(echo "$show" | sed -n 's/.* name \([^ ]*\) .*/\1/p')
		xl=$(echo "$show" | sed -n 's/.*[[:space:]]xlated \([0-9]*\)B.*/\1/p')
		jb=$(echo "$show" | sed -n 's/.* jited \([0-9]*\)B.*/\1/p')
		rt=$(echo "$show" | sed -n 's/.* run_time_ns \([0-9]*\) .*/\1/p')
		rc=$(echo "$show" | sed -n 's/.* run_cnt \([0-9]*\).*/\1/p')
		# This bpftool has no disassembler (no libbfd): the raw JIT image
		# goes home for objdump; the BPF instructions are counted here.
		bpftool prog dump jited id "$id" file "$OUT/jited-$1-$pname.bin" > /dev/null 2>&1 || true
		bpftool prog dump xlated id "$id" > "$OUT/xlated-$1-$pname.txt" 2>&1 || true
		ni=$(grep -c '^ *[0-9][0-9]*: (' "$OUT/xlated-$1-$pname.txt" || true)
		echo "bpfprog mode=$1 kind=$2 n=$3 id=$id name=$pname xlated_b=${xl:-0} jited_b=${jb:-0} xlated_insns=${ni:-0} run_cnt=${rc:-0} run_time_ns=${rt:-0}" >> "$RES"
	done
}

# probes mode attaches a chain's callbacks once it has seen the chain:
# one untimed call, then wait for chainscope's "watching chain" line, so
# that no timed loop runs before the callbacks are probed.
probes_ready() { # probes_ready TRACER_NAME KIND N
	echo "call $2 $3 1" > "$CTL" || fail "cs_bench command 'call $2 $3 1' failed"
	i=0
	while ! grep -q "watching chain cs_bench_$2" "$OUT/$1.err"; do
		i=$((i + 1))
		[ "$i" -lt 600 ] ||
			fail "probes mode did not attach the callbacks of cs_bench_$2 in 120 s: $(tail -n 1 "$OUT/$1.err")"
		usleep 200000
	done
}

# Tracing cost: the icount call loop of the chain with no tracer and with
# each tracer attached to the empty callback cs_bench_cb. A chainscope
# mode that does not start (probes mode on a CLI without it) is recorded
# as "tcskip mode=M rc=EXIT" and the stage goes on.
stage_tracecost() {
	command -v chainscope > /dev/null || fail "no chainscope binary (CS_GUEST_BINS)"
	command -v benchattach > /dev/null || fail "no benchattach binary (CS_GUEST_BINS)"
	for mode in $(list "$TMODES"); do
		case $mode in
		off) ;;
		tracepoints | probes)
			TR_OPTIONAL=1
			if ! tracer_start "tc-$mode" chainscope latency --mode "$mode" -n \
				-f cs_bench_cb; then
				TR_OPTIONAL=0
				echo "tcskip mode=$mode rc=$TR_RC" >> "$RES"
				echo "bench: tracecost $mode did not start (exit $TR_RC): $(tail -n 1 "$OUT/tc-$mode.err")"
				continue
			fi
			TR_OPTIONAL=0
			;;
		fentry | kprobe) tracer_start "tc-$mode" benchattach -m "$mode" -f cs_bench_cb ;;
		kpmulti) tracer_start "tc-$mode" benchattach -m kprobe-multi -f cs_bench_cb ;;
		*) fail "unknown tracecost mode '$mode'" ;;
		esac
		for kind in $(list "$TKINDS"); do
			[ "$mode" = probes ] && probes_ready "tc-$mode" "$kind" 1
			for n in $(list "$TSIZES"); do
				bench "call $kind $n $CHUNKS" "mode=$mode"
			done
		done
		[ "$mode" = off ] || bpf_costs "$mode" atomic 64
		tracer_stop
		echo "bench: tracecost $mode done"
	done
}

# Attach time: benchattach -a attaches each mechanism's program pair to
# the first N of cs_bench's distinct callbacks cs_bench_cb_000..3ff and
# detaches again; its line "attach mode= n= resolve_ns= load_ns=
# attach_ns= detach_ns=" goes to the results with " rep=R".
stage_attachtime() {
	command -v benchattach > /dev/null || fail "no benchattach binary (CS_GUEST_BINS)"
	awk '$2 ~ /^[tT]$/ && $3 ~ /^cs_bench_cb_[0-9a-f]+$/ { print $3 }' /proc/kallsyms |
		sort > "$OUT/at-all.txt"
	for n in $(list "$ANS"); do
		head -n "$n" "$OUT/at-all.txt" > "$OUT/at-$n.txt"
		[ "$(wc -l < "$OUT/at-$n.txt")" = "$n" ] ||
			fail "cs_bench has $(wc -l < "$OUT/at-all.txt") callbacks cs_bench_cb_*, $n wanted"
	done
	r=0
	while [ "$r" -lt "$AREPS" ]; do
		for n in $(list "$ANS"); do
			for mode in $(list "$AMODES"); do
				[ "$mode" = kprobe ] && [ "$n" -gt "$AKMAX" ] && continue
				e=$OUT/at-$mode-$n-$r.err
				benchattach -m "$mode" -a "$OUT/at-$n.txt" > "$OUT/at.out" 2> "$e" ||
					fail "benchattach -m $mode -a ($n callbacks) failed: $(tail -n 1 "$e")"
				line=$(grep '^benchattach: attach ' "$OUT/at.out") ||
					fail "benchattach -m $mode -a ($n callbacks) printed no attach line"
				echo "${line#benchattach: } rep=$r" >> "$RES"
				echo "bench: attachtime $line"
			done
		done
		r=$((r + 1))
	done
}

# Lock waits' cost and answer: for each mode (no tracer, chainscope
# contention in tracepoints mode on every chain, in probes mode on the
# blocking chain), the blocking chain's call loop and blocking and SRCU
# (un)registrations with the tracer attached ("mode=M" appended); then,
# per traced mode, a fresh tracer over one "contend 2 1 CN CMS" run and a
# line "ccanswer mode=M rd_acq= rd_cont= wr_acq= wr_cont= wr_max_us= top="
# from its output (acquisitions: tracepoints mode only).
cc_field() { # cc_field LINE NAME: NAME=value of a contention header line
	echo "$1" | tr ' ' '\n' | sed -n "s/^$2[=~]\([0-9]*\).*/\1/p" | head -n 1
}
stage_contcost() {
	command -v chainscope > /dev/null || fail "no chainscope binary (CS_GUEST_BINS)"
	for mode in off tracepoints probes; do
		case $mode in
		off) ;;
		tracepoints) tracer_start "cc-$mode" chainscope contention --mode tracepoints -u ;;
		probes) tracer_start "cc-$mode" chainscope contention --mode probes -u \
			-c cs_bench_blocking ;;
		esac
		for n in $(list "$TSIZES"); do
			bench "call blocking $n $CHUNKS" "mode=$mode"
			bench "reg blocking $n $REPS" "mode=$mode"
			bench "reg srcu $n $REPS" "mode=$mode"
		done
		tracer_stop
		[ "$mode" = off ] && continue
		echo reset > "$CTL" || fail "cs_bench reset failed"
		if [ "$mode" = tracepoints ]; then
			tracer_start "cca-$mode" chainscope contention --mode tracepoints -u \
				-c cs_bench_blocking
		else
			tracer_start "cca-$mode" chainscope contention --mode probes -u \
				-c cs_bench_blocking
		fi
		bench "contend 2 1 $CN $CMS" "mode=$mode"
		tracer_stop
		o=$OUT/cca-$mode.out
		rd=$(grep '^chain: cs_bench_blocking (blocking) op: read ' "$o" | head -n 1)
		wr=$(grep '^chain: cs_bench_blocking (blocking) op: write ' "$o" | head -n 1)
		top=$(awk '/^  top waiters:/ { getline; print $1; exit }' "$o")
		# (no section: nothing contended; acquisitions: tracepoints mode only)
		rc_=$(cc_field "$rd" contended) wc_=$(cc_field "$wr" contended) wm_=$(cc_field "$wr" max)
		echo "ccanswer mode=$mode rd_acq=$(cc_field "$rd" acquisitions) rd_cont=${rc_:-0}" \
			"wr_acq=$(cc_field "$wr" acquisitions) wr_cont=${wc_:-0}" \
			"wr_max_us=${wm_:-0} top=${top:-none}" >> "$RES"
		echo reset > "$CTL" || fail "cs_bench reset failed"
		echo "bench: contcost $mode done"
	done
}

# Recorder throughput: for each rate, chainscope record runs while the
# paced load (cs_bench "pace") calls the blocking chain RATE times a
# second; record's summary line has the recorded and lost events.
stage_recorder() {
	command -v chainscope > /dev/null || fail "no chainscope binary (CS_GUEST_BINS)"
	for rate in $(list "$RATES"); do
		f=/tmp/rec.cstrace
		chainscope record -b "$RBUF" -o "$f" -- \
			sh -c "echo 'pace blocking $RN $rate $RMS' > $CTL && cat $CTL > $OUT/pace.txt" \
			> "$OUT/rec-$rate.out" 2> "$OUT/rec-$rate.err" ||
			fail "chainscope record at rate $rate failed: $(tail -n 1 "$OUT/rec-$rate.err")"
		line=$(grep '^recorded' "$OUT/rec-$rate.out" | head -n 1)
		[ -n "$line" ] || fail "no summary line from chainscope record at rate $rate"
		echo "$(cat "$OUT/pace.txt") | $line" >> "$RES"
		rm -f "$f"
		echo "bench: recorder rate $rate done: $line"
	done
}

# Recorder comparison: at each rate, the same paced load (cs_bench "pace",
# as stage_recorder) recorded by each recorder alone, every one given
# RCMIB MiB of buffer in total: chainscope record -b RCMIB (one ring),
# perf record -m RCMIB*1024/4/CPUS pages per CPU, trace-cmd record -b
# RCMIB*1024/CPUS KiB per CPU. Per run a line "rcmp tool= rate= ..." in
# rcmp.txt (apart from results.txt: the core tables refuse unknown lines)
# and the tool's own accounting in rc-TOOL-RATE.* for the host to parse
# (qemu/bench_ext.py): .out/.err of the recorder, .acct (chainscope
# report's passes lines, perf report --stats, trace-cmd report --stat),
# .count ("events= load= load_end=" over perf script / trace-cmd report:
# all notifier events, those of the load's chain, its call_end ones) and
# .lost (perf's LOST lines, trace-cmd's EVENTS DROPPED lines).
RCRES=$OUT/rcmp.txt
# utime+stime (clock ticks) of PID and of its children
tree_ticks() { # tree_ticks PID
	cat /proc/[0-9]*/stat 2>/dev/null | awk -v p="$1" '{
		pid = $1; sub(/^[0-9]+ \(.*\) /, "")
		if (pid == p || $2 == p) t += $12 + $13
	} END { print t + 0 }'
}
# Count the notifier events in a recorder's text output (stdin).
rc_count() { # rc_count TOOL RATE HEAD
	awk -v h="head=(0x)?$3[ ,]" -v lost="$OUT/rc-$1-$2.lost" '
		/ notifier:notifier_[a-z_]*:|[ :]notifier_[a-z_]*: / {
			ev++
			if ($0 ~ h) { ld++; if ($0 ~ /notifier_call_end/) le++ }
			next
		}
		/LOST|EVENTS DROPPED/ { print > lost }
		END { print "events=" ev + 0, "load=" ld + 0, "load_end=" le + 0 }'
}
rcmp_one() { # rcmp_one TOOL RATE
	t=$1 rate=$2 n=rc-$1-$2
	case $t in
	chainscope) f=/tmp/rc.cstrace; set -- chainscope record -b "$RCMIB" -o "$f" ;;
	# the same with a wakeup per record (what batching saves, side by side)
	chainscope-w0) f=/tmp/rc.cstrace; set -- chainscope record -b "$RCMIB" --wakeup 0 -o "$f" ;;
	perf) f=/tmp/rc.perf; set -- perf record -a -e 'notifier:*' -m "$PERF_PAGES" -o "$f" ;;
	trace-cmd) f=/tmp/rc.dat; set -- trace-cmd record -e notifier -b "$TC_KIB" -o "$f" ;;
	*) fail "rcmp: unknown recorder '$t'" ;;
	esac
	rm -f "$f" "$OUT/$n".*
	: > "$OUT/$n.lost"
	# trace-cmd says "Hit Ctrl^C" into a buffered stdout: its readiness
	# is tracing_on going back to 1, which it sets once it has forked its
	# readers, and then each CPU's trace_pipe_raw open (tc-ready.sh)
	[ "$t" = trace-cmd ] && echo 0 > "$T/tracing_on"
	# The subshell's times: the recorder and its reaped children
	(
		"$@" > "$OUT/$n.out" 2> "$OUT/$n.err" &
		echo $! > "$OUT/$n.pid"
		rc=0
		wait $! || rc=$?
		echo "$rc" > "$OUT/$n.rc"
		times > "$OUT/$n.times"
	) &
	wrap=$!
	i=0
	while [ ! -s "$OUT/$n.pid" ]; do usleep 50000; done
	pid=$(cat "$OUT/$n.pid")
	# ready: chainscope says "Tracing"; trace-cmd turned tracing_on on;
	# perf has written its file and stopped growing it for 0.6 s (the
	# threads synthesized: it enables its events right after)
	last=-1 same=0
	while :; do
		kill -0 "$pid" 2>/dev/null ||
			fail "$t record died during start-up: $(tail -n 2 "$OUT/$n.err" | tr '\n' ' ')"
		case $t in
		chainscope*) grep -q '^Tracing' "$OUT/$n.err" && break ;;
		trace-cmd)
			if [ "$(cat "$T/tracing_on")" = 1 ]; then
				sh /chainscope/upstream/tc-ready.sh ||
					fail "trace-cmd record's readers never opened every CPU's buffer"
				break
			fi
			;;
		perf)
			sz=0
			[ -f "$f" ] && sz=$(wc -c < "$f")
			if [ "$sz" -gt 0 ] && [ "$sz" = "$last" ]; then
				same=$((same + 1))
				[ "$same" -lt 3 ] || break
			else
				same=0
			fi
			last=$sz
			;;
		esac
		i=$((i + 1))
		[ "$i" -lt 1200 ] || fail "$t record not ready after 240 s"
		usleep 200000
	done
	sleep 1
	t0=$(tree_ticks "$pid")
	echo "pace blocking $RN $rate $RCMS" > "$CTL" || fail "cs_bench pace failed"
	pace=$(cat "$CTL")
	kill -INT "$pid"
	wait "$wrap" || true
	# 130: perf ends by raising the SIGINT it caught, once its file is
	# complete (the reports below read it whole)
	case $(cat "$OUT/$n.rc") in
	0 | 130) ;;
	*) fail "$t record exited $(cat "$OUT/$n.rc"): $(tail -n 2 "$OUT/$n.err" | tr '\n' ' ')" ;;
	esac
	cpu_ms=$(awk 'NR == 2 {
		ms = 0
		for (i = 1; i <= 2; i++) { split($i, a, "m"); sub(/s$/, "", a[2]); ms += a[1] * 60000 + a[2] * 1000 }
		printf "%d", ms }' "$OUT/$n.times")
	bytes=$(wc -c < "$f")
	case $t in
	chainscope*)
		chainscope report "$f" > /tmp/rc.report 2> "$OUT/$n.report.err" ||
			fail "chainscope report on the recording failed: $(tail -n 1 "$OUT/$n.report.err")"
		grep '^passes: ' /tmp/rc.report > "$OUT/$n.acct" || true
		rm -f /tmp/rc.report
		;;
	perf)
		perf report -i "$f" --stats > "$OUT/$n.acct" 2>&1 ||
			fail "perf report --stats failed: $(tail -n 1 "$OUT/$n.acct")"
		perf script -i "$f" --show-lost-events 2> "$OUT/$n.script.err" |
			rc_count "$t" "$rate" "$HEAD" > "$OUT/$n.count"
		;;
	trace-cmd)
		trace-cmd report -i "$f" --stat > "$OUT/$n.acct" 2>&1 ||
			fail "trace-cmd report --stat failed: $(tail -n 1 "$OUT/$n.acct")"
		trace-cmd report -i "$f" 2> "$OUT/$n.script.err" |
			rc_count "$t" "$rate" "$HEAD" > "$OUT/$n.count"
		;;
	esac
	rm -f "$f"
	[ "$t" = trace-cmd ] && echo 1 > "$T/tracing_on"
	echo "rcmp tool=$t rate=$rate ${pace#pace } bytes=$bytes cpu_ms=$cpu_ms start_ticks=$t0" >> "$RCRES"
	echo "bench: rcmp $t at $rate calls/s: $(cat "$OUT/$n.count" 2>/dev/null) bytes=$bytes cpu_ms=$cpu_ms"
}
stage_rcmp() {
	for b in $(list "$RCTOOLS"); do
		b=${b%-w0}	# chainscope-w0 is chainscope record --wakeup 0
		command -v "$b" > /dev/null || fail "no $b binary (CS_GUEST_BINS, CS_GUEST_TOOLS=recorders)"
	done
	ncpu=$(grep -c ^processor /proc/cpuinfo)
	kib=$((RCMIB * 1024))
	PERF_PAGES=$((kib / 4 / ncpu))
	TC_KIB=$((kib / ncpu))
	[ $((PERF_PAGES * 4 * ncpu)) = "$kib" ] ||
		fail "rcmp: $RCMIB MiB do not split into 4 KiB pages over $ncpu CPUs"
	# the load's chain grown to RN blocks before any recording: no
	# membership events in the recordings, only the load's passes
	echo "pace blocking $RN 1 1" > "$CTL" || fail "cs_bench pace failed"
	HEAD=$(awk '$3 == "cs_bench_blocking" { print $1; exit }' /proc/kallsyms | sed 's/^0*//')
	[ -n "$HEAD" ] || fail "rcmp: cs_bench_blocking not in /proc/kallsyms"
	: > "$RCRES"
	echo "rcmeta cpus=$ncpu mib=$RCMIB perf_pages=$PERF_PAGES tc_kib=$TC_KIB n=$RN ms=$RCMS head=$HEAD tools=$RCTOOLS" >> "$RCRES"
	for rate in $(list "$RCRATES"); do
		for t in $(list "$RCTOOLS"); do
			rcmp_one "$t" "$rate"
		done
	done
}

{
	echo "variant=$CS_VARIANT"
	echo "kernel=$(uname -r)"
	echo "cpus=$(grep -c ^processor /proc/cpuinfo)"
	echo "cmdline=$(cat /proc/cmdline)"
	echo "stages=$STAGES"
	echo "notifier_events=$([ -d "$T/events/notifier" ] && echo yes || echo no)"
} > "$OUT/meta.txt"

insmod /chainscope/modules/cs_bench.ko || fail "insmod cs_bench.ko failed"
[ -e "$CTL" ] || fail "$CTL missing after insmod"
for s in $(list "$STAGES"); do
	type "stage_$s" > /dev/null 2>&1 || fail "unknown stage '$s'"
	echo "bench: stage $s"
	"stage_$s"
done
# Unloading empties every chain (atomic and SRCU: one grace period per
# block) and checks that nothing is left behind.
rmmod cs_bench || fail "rmmod cs_bench failed"
echo "bench: $(wc -l < "$RES") result lines"
exit 0
