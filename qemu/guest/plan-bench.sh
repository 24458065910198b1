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
