#!/usr/bin/env bash
# Benchmarks: the chainscope notifier core against stock, on Linux 6.1
# and 6.12, each against its own stock kernel (make bench).
#
#   qemu/bench.sh [options]
#     -K LIST      kernels, comma list of 6.1, 6.12 (default: $CS_KERNEL
#                  if set, else 6.1,6.12); each is built and booted with
#                  CS_KERNEL set to it, and measured into DIR/<kernel>/
#     -o DIR       output folder (default output/bench; --smoke:
#                  output/bench-smoke)
#     -n N         icount boots per variant (default 2)
#     -c N         contention boots per variant (default 5)
#     -s LIST      parts to run, comma list of: icount, contention, ext,
#                  disasm, size (default all). The report is always
#                  written, from whatever DIR/<kernel>/runs holds.
#     -e LIST      extensions to run with part ext, comma list of:
#                  tracing_cost, attach_time, recorder_throughput,
#                  contention_cost, recorder_compare (default all)
#     -k VAR=DIR   boot the kernel artifacts in DIR (kernel/build.sh
#                  layout, e.g. a copy of its out dir with a rebuilt
#                  extra/cs_bench.ko) for variant VAR instead of building
#                  it; repeatable; needs a single kernel (-K)
#     -d           also copy the tables into docs/bench.md (between its
#                  bench:begin/end markers)
#     --smoke      tiny configuration for make test: one icount boot per
#                  variant and kernel running every stage with a few
#                  sizes, plus the size part; prints "PASS: bench.smoke"
#                  or "FAIL: bench.smoke: why". Both kernels unless -K or
#                  CS_KERNEL names one (~20 s of boots per kernel). The
#                  first kernel's chainscope boot also runs a short
#                  recorder_compare (one low rate, each recorder once)
#                  and fails unless each kept exactly the load's events
#                  with no loss.
#
# Parts:
#   icount      ns per call_chain, register and unregister cost for every
#               chain kind and size, in-kernel (cs_bench.ko), booted with
#               "-icount shift=1,sleep=off -smp 1": guest time then counts
#               instructions (2 ns each), exactly and reproducibly. Boots
#               alternate stock, chainscope, stock, chainscope.
#   contention  blocking-chain callers (1, 2 threads) with and without a
#               writer, tracing off (both) and on (chainscope only), plain
#               TCG -smp 2, interleaved repetitions in each boot; boots
#               alternate as above.
#   ext         measurements with the chainscope CLI (chainscope kernel,
#               CLI and benchattach from make -C userspace guest-bins):
#               tracing_cost: ns added per traced callback by chainscope
#               latency in tracepoints and probes mode, fentry/fexit,
#               kprobe/kretprobe and kprobe.multi (icount, -smp 1);
#               attach_time: time to attach to and detach from 10, 100,
#               1000 distinct callbacks with one kprobe.multi link pair,
#               fentry/fexit per callback, kprobe/kretprobe per callback
#               (icount, -smp 1);
#               recorder_throughput: events/s chainscope record keeps
#               without loss (plain TCG, -smp 2); contention_cost:
#               chainscope contention attached in tracepoints and probes
#               mode vs not (calls, (un)registrations) and what it saw
#               of a callers + writer run (icount, -smp 1);
#               recorder_compare: the same paced load recorded in turn
#               by chainscope record, perf record -e 'notifier:*' and
#               trace-cmd record -e notifier at equal buffer memory, at
#               rising rates: loss from each tool's own accounting,
#               events kept per second, the recorder's guest CPU, file
#               bytes per event (plain TCG, -smp 2). Output: DIR/ext/NAME/
#               (result.json, runs/, runs.tsv). CS_BENCH_REC_RATES=LIST
#               overrides the chain calls/s tried by recorder_throughput,
#               CS_BENCH_RCMP_RATES=LIST those of recorder_compare.
#   disasm      the notifier functions of both shipped kernels, from
#               bzImage + System.map, for the cost analysis.
#   size        host only: scripts/bloat-o-meter (from the kernel tree)
#               of kernel/notifier.o and of vmlinux, stock against
#               chainscope, from the objects kernel/build.sh keeps in
#               each out dir (DIR/<kernel>/size/).
#   Part ext runs on the first kernel of -K only (it measures the CLI,
#   not the core).
#
# Output, per kernel K: DIR/K/bench.json (every raw repetition and the
# summary), DIR/K/bench.md (the tables), DIR/K/runs/* (each boot:
# console, guest results), DIR/K/runs.tsv (boot order, exit code, wall
# time, host load). DIR/bench.md: the kernels' tables one after the
# other (and docs/bench.md with -d).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(dirname "$HERE")
die() { echo "bench.sh: error: $*" >&2; exit 1; }
log() { echo "[$(date +%H:%M:%S)] bench.sh: $*" >&2; }

SMOKE=0 DOCS=0 OUT='' NICOUNT=2 NCONT=5 PARTS=icount,contention,ext,disasm,size
KERNELS=${CS_KERNEL:-6.1,6.12}
EXTENSIONS="tracing_cost attach_time recorder_throughput contention_cost recorder_compare"
declare -A ART=()
ARGS="$*"
case " $ARGS " in *" --smoke "*) SMOKE=1 ;; esac

# In smoke mode every failure becomes one FAIL line on stdout.
smoke_fail() {
	SMOKE_REPORTED=1
	echo "FAIL: bench.smoke: $*"
	exit 1
}
if [ "$SMOKE" = 1 ]; then
	die() { echo "bench.sh: error: $*" >&2; smoke_fail "$*"; }
	# Any other failure under set -e still gets its FAIL line.
	trap 'rc=$?; [ $rc = 0 ] || [ "${SMOKE_REPORTED:-}" ] || echo "FAIL: bench.smoke: bench.sh exit $rc (see its stderr)"' EXIT
fi

while [ $# -gt 0 ]; do
	case $1 in
	--smoke) SMOKE=1 ;;
	-d) DOCS=1 ;;
	-o) OUT=${2:?-o needs a folder}; shift ;;
	-n) NICOUNT=${2:?-n needs a number}; shift ;;
	-c) NCONT=${2:?-c needs a number}; shift ;;
	-s) PARTS=${2:?-s needs a list}; shift ;;
	-K) KERNELS=${2:?-K needs a list}; shift ;;
	-e)
		EXT_LIST=${2:?-e needs a list}
		for e in ${EXT_LIST//,/ }; do
			case " $EXTENSIONS " in *" $e "*) ;;
			*) die "unknown extension '$e' ($EXTENSIONS)" ;;
			esac
		done
		EXTENSIONS=${EXT_LIST//,/ }
		shift
		;;
	-k)
		KV=${2:?-k needs VARIANT=DIR}
		case ${KV%%=*} in stock | chainscope) ;;
		*) die "-k '$KV': variant must be stock or chainscope" ;;
		esac
		[ -f "${KV#*=}/bzImage" ] || die "-k '$KV': no bzImage in that folder"
		ART[${KV%%=*}]=$(cd "${KV#*=}" && pwd)
		shift
		;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option '$1' (see qemu/bench.sh --help)" ;;
	esac
	shift
done
[[ "$NICOUNT" =~ ^[0-9]+$ ]] || die "-n '$NICOUNT' is not a number"
[[ "$NCONT" =~ ^[0-9]+$ ]] || die "-c '$NCONT' is not a number"
for p in ${PARTS//,/ }; do
	case $p in icount | contention | ext | disasm | size) ;;
	*) die "unknown part '$p' (icount, contention, ext, disasm, size)" ;;
	esac
done
KERNELS=${KERNELS//,/ }
[ -n "${KERNELS// /}" ] || die "-K: no kernel"
for k in $KERNELS; do
	case $k in 6.1 | 6.12) ;;
	*) die "unknown kernel '$k' (6.1, 6.12)" ;;
	esac
done
# shellcheck disable=SC2086 # one word per kernel
set -- $KERNELS
[ ${#ART[@]} = 0 ] || [ $# = 1 ] ||
	die "-k needs a single kernel (-K 6.1 or -K 6.12)"
FIRST_KERNEL=$1
# One test or bench run at a time per kernel cache (see qemu/test.sh).
if [ -z "${CS_TEST_LOCK_HELD:-}" ]; then
	mkdir -p "${CHAINSCOPE_CACHE:-/var/cache/chainscope}"
	exec 8>"${CHAINSCOPE_CACHE:-/var/cache/chainscope}/.test.lock"
	flock -n 8 || { echo "bench.sh: waiting for another test run" >&2; flock 8; }
fi

ICOUNT_QEMU="-icount shift=1,sleep=off"
VARIANTS="stock chainscope"
if [ "$SMOKE" = 1 ]; then
	OUT=${OUT:-$REPO/output/bench-smoke}
	PARTS=icount,disasm,size
	NICOUNT=1
	DOCS=0
fi
OUT=${OUT:-$REPO/output/bench}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
TOPOUT=$OUT
has_part() { case ",$PARTS," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }

# The kernels the parts need: ext boots only the chainscope kernel.
build_kernels() {
	local v
	VARIANTS="stock chainscope"
	if ! has_part icount && ! has_part contention && ! has_part disasm &&
		! has_part size; then
		VARIANTS=chainscope
	fi
	for v in $VARIANTS; do
		[ -n "${ART[$v]:-}" ] ||
			ART[$v]=$("$REPO/kernel/build.sh" build "$v" normal) ||
			die "kernel build failed ($v)"
		[ -f "${ART[$v]}/extra/cs_bench.ko" ] ||
			die "${ART[$v]}/extra/cs_bench.ko missing (kernel/modules/cs_bench not built?)"
	done
}

# Boot VARIANT with PLAN; results in DIR/runs/NAME. Appends to runs.tsv.
# BOOT_RECORDERS=1: with the chainscope CLI, perf and trace-cmd in the
# guest (the smoke's recorder_compare stage).
boot() { # boot NAME VARIANT PLAN SMP TIMEOUT QEMU_ARGS KERNEL_ARGS
	local name=$1 variant=$2 plan=$3 smp=$4 timeout=$5 qargs=$6 kargs=$7
	local dir=$OUT/runs/$name rc=0 t0 load bins='' tools=''
	if [ "${BOOT_RECORDERS:-0}" = 1 ]; then
		bins=$(make -s -C "$REPO/userspace" guest-bins | tr '\n' ' ') ||
			die "make -C userspace guest-bins failed"
		tools=recorders
	fi
	load=$(cut -d' ' -f1-3 /proc/loadavg)
	t0=$(date +%s)
	log "boot $name ($variant, plan $plan, -smp $smp${qargs:+, $qargs})"
	CS_GUEST_BINS=$bins CS_GUEST_TOOLS=$tools CS_SMP=$smp \
		"$HERE/run.sh" -k "${ART[$variant]}" -p "$plan" -o "$dir" \
		-t "$timeout" -q "$qargs" -a "$kargs" "$variant" \
		>"$OUT/runs/$name.log" 2>&1 || rc=$?
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$variant" "$plan" "$smp" \
		"$qargs" "$rc" "$(($(date +%s) - t0))" "$load" >>"$OUT/runs.tsv"
	[ "$rc" = 0 ] || die "boot $name failed (run.sh exit $rc): $(grep -m1 'error:' "$OUT/runs/$name.log" | sed 's/^run.sh: error: //') $(grep -m1 '^  console:' "$OUT/runs/$name.log" | sed 's/^ *//')"
}

# Part icount: stock, chainscope, stock, chainscope, ...
# The smoke boot also runs a short contention stage, so that its output
# is parsed too (its numbers mean nothing under icount).
# The first kernel's chainscope smoke boot also runs the recorder_compare
# stage, short (one low rate, each recorder once): smoke_rcmp checks it.
SMOKE_RCMP_ARGS="csbench.rcrates=500 csbench.rcms=400 csbench.rcmib=4 csbench.rn=4"
part_icount() {
	local i v plan=bench stages=icount
	[ "$SMOKE" = 1 ] && plan=bench-smoke stages=icount,contention
	for i in $(seq 1 "$NICOUNT"); do
		for v in $VARIANTS; do
			if [ "$SMOKE" = 1 ] && [ "$v" = chainscope ] &&
				[ "$CS_KERNEL" = "$FIRST_KERNEL" ]; then
				BOOT_RECORDERS=1 boot "icount-$v-$i" "$v" "$plan" 1 600 \
					"$ICOUNT_QEMU" "csbench.stages=$stages,rcmp $SMOKE_RCMP_ARGS"
				continue
			fi
			boot "icount-$v-$i" "$v" "$plan" 1 600 "$ICOUNT_QEMU" \
				"csbench.stages=$stages"
		done
	done
}

# The smoke's recorder_compare: the stage's output of the chainscope boot
# through the extension's builder, which checks (--smoke) that every
# recorder kept exactly the load generator's events and lost none; the
# report then renders its table like any extension's.
smoke_rcmp() {
	local ed=$OUT/ext/recorder_compare err
	rm -rf "$ed"
	mkdir -p "$ed/runs"
	ln -s ../../../runs/icount-chainscope-1 "$ed/runs/icount-chainscope-1"
	err=$(python3 "$HERE/bench_report.py" --ext recorder_compare --smoke "$ed" 2>&1) ||
		die "recorder_compare: ${err#bench_report.py: error: }"
}

# Part contention: plain TCG, real parallelism, many interleaved
# repetitions. Host load matters here: runs.tsv records it per boot.
part_contention() {
	local i v
	for i in $(seq 1 "$NCONT"); do
		for v in $VARIANTS; do
			boot "contention-$v-$i" "$v" bench 2 600 "" \
				"csbench.stages=contention csbench.creps=6 csbench.cms=250"
		done
	done
}

# ---------------------------------------------------------------------
# Extension point: measurements made with the chainscope CLI.
#
# Each ext_NAME below is called with a folder DIR/ext/NAME/ (empty on
# entry). To report results, write DIR/ext/NAME/result.json:
#   {"title": "...", "columns": ["...", ...], "rows": [[...], ...],
#    "notes": ["...", ...], "raw": <anything>}
# qemu/bench_report.py renders it as a table in bench.md (section
# "Extensions") and keeps it under "extensions" in bench.json. A guest
# stage goes into qemu/guest/plan-bench.sh as a function stage_NAME and
# is run with boot ... "csbench.stages=NAME"; the CLI binaries reach the
# guest through CS_GUEST_BINS (see qemu/run.sh, qemu/test.sh).
# Until an ext_NAME writes its result.json, the report says "not
# measured yet".

# Boot for an extension: like boot(), but into DIR/ext/NAME/runs and
# DIR/ext/NAME/runs.tsv (the core tables only read DIR/runs.tsv), with the
# chainscope CLI and benchattach in the guest.
ext_boot() { # ext_boot EXTDIR NAME VARIANT SMP TIMEOUT QEMU_ARGS KERNEL_ARGS
	local ed=$1 name=$2 variant=$3 smp=$4 timeout=$5 qargs=$6 kargs=$7
	local dir=$ed/runs/$name rc=0 t0 load bins
	bins=$(make -s -C "$REPO/userspace" guest-bins | tr '\n' ' ') ||
		die "make -C userspace guest-bins failed"
	mkdir -p "$ed/runs"
	load=$(cut -d' ' -f1-3 /proc/loadavg)
	t0=$(date +%s)
	log "boot ext $name ($variant, -smp $smp${qargs:+, $qargs}, $kargs)"
	CS_GUEST_BINS=$bins CS_GUEST_TOOLS=${EXT_GUEST_TOOLS:-} CS_SMP=$smp \
		"$HERE/run.sh" -k "${ART[$variant]}" -p bench \
		-o "$dir" -t "$timeout" -q "$qargs" -a "$kargs" "$variant" \
		>"$ed/runs/$name.log" 2>&1 || rc=$?
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$variant" "$smp" "$qargs" \
		"$rc" "$(($(date +%s) - t0))" "$load" >>"$ed/runs.tsv"
	[ "$rc" = 0 ] || die "ext boot $name failed (run.sh exit $rc): see $ed/runs/$name.log and $dir/console.log"
}

# (2) Tracing cost per callback: chainscope latency attached vs
# fentry/fexit vs kprobe/kretprobe on the chainscope kernel. One icount
# boot (-smp 1): the cs_bench call loop over K empty callbacks with no
# tracer, then with each tracer attached to the callback (cs_bench_cb).
ext_tracing_cost() {
	ext_boot "$1" tracecost chainscope 1 900 "$ICOUNT_QEMU" \
		"csbench.stages=tracecost csbench.tkinds=atomic,blocking csbench.tsizes=16,64"
	python3 "$HERE/bench_report.py" --ext tracing_cost "$1" ||
		die "bench_report.py --ext tracing_cost failed"
}

# (3) Attach time for 10, 100 and 1000 watched callbacks: one
# kprobe.multi/kretprobe.multi link pair with cookies (chainscope's probes
# mode) against fentry/fexit and kprobe/kretprobe per callback, on
# cs_bench's distinct callbacks cs_bench_cb_000..3ff. One icount boot
# (-smp 1): times are guest instructions, as in the other icount tables.
# kprobe per callback (a reference only) stops at 100: at 1000 it alone
# added ~1.5 minutes to the boot.
ext_attach_time() {
	ext_boot "$1" attachtime chainscope 1 900 "$ICOUNT_QEMU" \
		"csbench.stages=attachtime csbench.ans=10,100,1000 csbench.areps=1 csbench.akmax=100"
	python3 "$HERE/bench_report.py" --ext attach_time "$1" ||
		die "bench_report.py --ext attach_time failed"
}

# (4) Recorder throughput: chainscope record against a paced load of
# rising rate, plain TCG -smp 2 (absolute rates are TCG rates).
EXT_REC_RATES=${CS_BENCH_REC_RATES:-2000,5000,10000,20000,25000,30000,35000,40000,80000,160000}
ext_recorder_throughput() {
	ext_boot "$1" recorder chainscope 2 900 "" \
		"csbench.stages=recorder csbench.rates=$EXT_REC_RATES csbench.rn=4 csbench.rms=2000 csbench.rbuf=1"
	python3 "$HERE/bench_report.py" --ext recorder_throughput "$1" ||
		die "bench_report.py --ext recorder_throughput failed"
}

# (5) Lock waits: chainscope contention takes them from
# lock:contention_begin/end in both modes. One icount boot (-smp 1): the
# blocking chain's call loop and blocking/SRCU (un)registrations with no
# tracer, with contention in tracepoints mode and in probes mode, then
# a callers + writer run per mode and what contention saw of it.
ext_contention_cost() {
	ext_boot "$1" contcost chainscope 1 900 "$ICOUNT_QEMU" \
		"csbench.stages=contcost csbench.tsizes=1,16 csbench.cn=16 csbench.cms=200"
	python3 "$HERE/bench_report.py" --ext contention_cost "$1" ||
		die "bench_report.py --ext contention_cost failed"
}

# (6) Three recorders, one event stream: the paced load of (4) at rising
# rates, recorded in turn by chainscope record (twice: its batched
# wakeups, and --wakeup 0 as chainscope-w0), perf record and trace-cmd
# record, each with RCMP_MIB MiB of buffer in total (plain TCG -smp 2;
# perf and trace-cmd from the host's Debian packages,
# CS_GUEST_TOOLS=recorders).
EXT_RCMP_RATES=${CS_BENCH_RCMP_RATES:-5000,10000,20000,40000,80000}
RCMP_MIB=4
ext_recorder_compare() {
	EXT_GUEST_TOOLS=recorders ext_boot "$1" rcmp chainscope 2 2700 "" \
		"csbench.stages=rcmp csbench.rcrates=$EXT_RCMP_RATES csbench.rn=4 csbench.rcms=1000 csbench.rcmib=$RCMP_MIB"
	python3 "$HERE/bench_report.py" --ext recorder_compare "$1" ||
		die "bench_report.py --ext recorder_compare failed"
}

part_ext() {
	local e
	for e in $EXTENSIONS; do
		rm -rf "$OUT/ext/$e"
		mkdir -p "$OUT/ext/$e"
		"ext_$e" "$OUT/ext/$e"
	done
}

# ---------------------------------------------------------------------
# Part disasm: the shipped notifier code of each variant. The build
# folder is shared by the variants, so notifier.o there is whichever was
# built last; the bzImage is what was booted. Disassemble its stripped
# vmlinux between System.map symbols.
DISASM_SYMS="atomic_notifier_call_chain blocking_notifier_call_chain
raw_notifier_call_chain srcu_notifier_call_chain notifier_call_chain
atomic_notifier_chain_register atomic_notifier_chain_unregister
blocking_notifier_chain_register blocking_notifier_chain_unregister
raw_notifier_chain_register raw_notifier_chain_unregister
srcu_notifier_chain_register srcu_notifier_chain_unregister
notifier_chain_register notifier_chain_unregister notifier_update
notifier_link notifier_unlink atomic_chain_update blocking_chain_update
srcu_chain_update __srcu_read_lock __srcu_read_unlock down_read up_read
down_write up_write ktime_get"
part_disasm() {
	local v src vml map sym start end
	src=$(tree_dir) || die "no kernel tree"
	for v in $VARIANTS; do
		vml=$OUT/disasm/vmlinux-$v
		map=${ART[$v]}/System.map
		mkdir -p "$OUT/disasm"
		"$src/scripts/extract-vmlinux" "${ART[$v]}/bzImage" >"$vml" ||
			die "cannot extract vmlinux from ${ART[$v]}/bzImage"
		: >"$OUT/disasm/$v.txt"
		for sym in $DISASM_SYMS; do
			start=$(awk -v s="$sym" '$3 == s && $2 ~ /^[tT]$/ {print $1; exit}' "$map")
			[ -n "$start" ] || continue
			end=$(awk -v a="$start" '$1 > a && (e == "" || $1 < e) {e = $1} END {print e}' "$map")
			{
				echo "== $sym ($start..$end)"
				objdump -d --no-show-raw-insn --start-address="0x$start" \
					--stop-address="0x$end" "$vml" | tail -n +8
				echo
			} >>"$OUT/disasm/$v.txt"
		done
		rm -f "$vml"
	done
}

# The kernel tree, for its scripts: read only, so without build.sh's lock
# (which a kernel build holds for minutes) when the tree is unpacked.
tree_dir() {
	local src
	src=$(dirname "$(dirname "$("$REPO/kernel/build.sh" outdir stock)")")/src
	if [ -f "$src/.chainscope/unpacked" ]; then
		echo "$src"
	else
		"$REPO/kernel/build.sh" tree
	fi
}

# Part size: bloat-o-meter of the notifier object and of vmlinux, stock
# -> chainscope. Host only. kernel/build.sh keeps both files in each out
# dir (the build dir holds only the variant built last); artifacts from
# -k without them leave the part out, with a note in the report.
part_size() {
	local src bom v
	src=$(tree_dir) || die "no kernel tree"
	bom=$src/scripts/bloat-o-meter
	rm -rf "$OUT/size"
	mkdir -p "$OUT/size"
	for v in stock chainscope; do
		if [ ! -f "${ART[$v]}/notifier.o" ]; then
			echo "${ART[$v]} has no notifier.o (built before kernel/build.sh kept it)" \
				>"$OUT/size/missing.txt"
			log "size: skipped, see $OUT/size/missing.txt"
			return 0
		fi
	done
	local s=${ART[stock]} c=${ART[chainscope]}
	python3 "$bom" -t "$s/notifier.o" "$c/notifier.o" >"$OUT/size/notifier-text.txt" ||
		die "bloat-o-meter failed on notifier.o"
	python3 "$bom" -c "$s/notifier.o" "$c/notifier.o" >"$OUT/size/notifier-all.txt" ||
		die "bloat-o-meter failed on notifier.o"
	# vmlinux too where both out dirs have it (-k artifacts may not).
	if [ -f "$s/vmlinux.nodebug" ] && [ -f "$c/vmlinux.nodebug" ]; then
		python3 "$bom" -t "$s/vmlinux.nodebug" "$c/vmlinux.nodebug" \
			>"$OUT/size/vmlinux-text.txt" || die "bloat-o-meter failed on vmlinux"
	fi
	size "$s/notifier.o" "$c/notifier.o" | sed "s|$s/|stock/|; s|$c/|chainscope/|" \
		>"$OUT/size/notifier-size.txt" || die "size(1) failed"
	for v in stock chainscope; do
		cat "${ART[$v]}/.done" >"$OUT/size/$v.build"
	done
}

# ---------------------------------------------------------------------
start=$(date +%s)
if [ "$SMOKE" = 1 ]; then
	CMD="qemu/bench.sh $ARGS"
else
	CMD=${CS_BENCH_CMD:-qemu/bench.sh${ARGS:+ $ARGS}}
fi
# One kernel: build, boot, report into $OUT/$CS_KERNEL.
bench_kernel() {
	local k=$1 parts_all=$PARTS v
	export CS_KERNEL=$k
	OUT=$TOPOUT/$k
	mkdir -p "$OUT"
	# The CLI measurements (ext) run on the first kernel only.
	if [ "$k" != "$FIRST_KERNEL" ]; then
		PARTS=$(echo ",$PARTS," | sed 's/,ext,/,/; s/^,//; s/,$//')
	fi
	if [ -n "$PARTS" ]; then
		build_kernels
		if has_part icount || has_part contention; then
			# Fresh boots replace only the parts being rerun.
			mkdir -p "$OUT/runs"
			touch "$OUT/runs.tsv"
		fi
		if has_part icount; then
			rm -rf "$OUT"/runs/icount-*
			sed -i '/^icount-/d' "$OUT/runs.tsv"
			part_icount
			if [ "$SMOKE" = 1 ] && [ "$k" = "$FIRST_KERNEL" ]; then
				smoke_rcmp
			fi
		fi
		if has_part contention; then
			rm -rf "$OUT"/runs/contention-*
			sed -i '/^contention-/d' "$OUT/runs.tsv"
			part_contention
		fi
		has_part ext && part_ext
		has_part disasm && part_disasm
		has_part size && part_size
	fi
	PARTS=$parts_all

	log "report ($k)"
	local args=(--command "$CMD" --qemu-icount "$ICOUNT_QEMU" --linux "$k")
	for v in $VARIANTS; do
		[ -n "${ART[$v]:-}" ] && args+=(--kernel "$v=$(cat "${ART[$v]}/.done")")
	done
	[ "$SMOKE" = 1 ] && args+=(--smoke)
	python3 "$HERE/bench_report.py" "${args[@]}" "$OUT" ||
		die "bench_report.py failed on $OUT"
	# The next kernel builds its own artifacts (-k takes one kernel).
	[ "$KARGS" = 1 ] || ART=()
}

KARGS=0
[ ${#ART[@]} = 0 ] || KARGS=1
for k in $KERNELS; do
	bench_kernel "$k"
done
OUT=$TOPOUT
merge=()
for k in $KERNELS; do
	merge+=(--merge "$k=$OUT/$k")
done
[ "$DOCS" = 1 ] && merge+=(--docs "$REPO/docs/bench.md")
python3 "$HERE/bench_report.py" --command "$CMD" "${merge[@]}" "$OUT" ||
	die "bench_report.py --merge failed on $OUT"
log "done in $(($(date +%s) - start)) s: $OUT/bench.md, $OUT/*/bench.json"
if [ "$SMOKE" = 1 ]; then
	SMOKE_REPORTED=1
	echo "PASS: bench.smoke"
else
	cat "$OUT/bench.md"
fi
