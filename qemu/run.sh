#!/usr/bin/env bash
# Boot one chainscope guest under QEMU/TCG and bring its results home.
#
#   qemu/run.sh [options] VARIANT [FLAVOR]
#     -p PLAN      guest plan: test (default), demo, or any qemu/guest/plan-*.sh
#     -f GLOB      only guest tests whose full name matches GLOB
#     -o DIR       output folder (default output/<flavor>-<variant>-<plan>)
#     -t SECONDS   hard timeout; the guest is killed after it (default 600)
#     -a ARGS      extra kernel command line
#     -q ARGS      extra QEMU arguments (e.g. "-icount shift=1,sleep=off")
#     -k DIR       boot the kernel artifacts in DIR (kernel/build.sh layout)
#                  instead of building VARIANT
#     -v           copy the guest console to the terminal
#     -R           warm reboot: a guest reboot resets the machine (QEMU's
#                  default) instead of ending QEMU (-no-reboot); RAM is
#                  kept across that reset. The plan must power off on a
#                  later boot (plan persist does, and stops a third one);
#                  a panic (panic=-1) reboots too, and -t bounds a loop.
#
# Results: the guest writes /out as a tar archive onto a raw virtio disk
# (DIR/results.img); this script unpacks it into DIR/guest/. The guest's
# plan status is DIR/guest/status. Console: DIR/console-<time>.log, with
# DIR/console.log pointing at the latest.
#
# Exit: 0 plan passed, 1 plan reported failures, 3 guest hung (killed),
# 4 guest died without reporting (panic), 5 console badness, 2 usage.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(dirname "$HERE")
die() { echo "run.sh: error: $*" >&2; exit 2; }
log() { echo "[$(date +%H:%M:%S)] run.sh: $*" >&2; }

PLAN=test FILTER='*' OUT='' TIMEOUT=600 APPEND='' QEXTRA='' VERBOSE=0 ART='' NOREBOOT=-no-reboot
while getopts 'p:f:o:t:a:q:k:vR' opt; do
	case $opt in
	p) PLAN=$OPTARG ;;
	f) FILTER=$OPTARG ;;
	o) OUT=$OPTARG ;;
	t) TIMEOUT=$OPTARG ;;
	a) APPEND=$OPTARG ;;
	q) QEXTRA=$OPTARG ;;
	k) ART=$OPTARG ;;
	v) VERBOSE=1 ;;
	R) NOREBOOT='' ;;
	*) die "see the usage at the top of $0" ;;
	esac
done
shift $((OPTIND - 1))
VARIANT=${1:-}
FLAVOR=${2:-normal}
[ -n "$VARIANT" ] || die "usage: run.sh [options] VARIANT [FLAVOR]"
[[ "$TIMEOUT" =~ ^[0-9]+$ ]] || die "timeout '$TIMEOUT' is not a number of seconds"
[ -f "$HERE/guest/plan-$PLAN.sh" ] || die "no guest plan '$PLAN' (qemu/guest/plan-$PLAN.sh)"
OUT=${OUT:-$REPO/output/$FLAVOR-$VARIANT-$PLAN}
# a run that fails before the boot leaves no earlier run's results behind
# for a checker to read
mkdir -p "$OUT"
rm -rf "$OUT/guest" "$OUT/results.img" "$OUT/console.log" "$OUT/badness.txt"

if [ -z "$ART" ]; then
	ART=$("$REPO/kernel/build.sh" build "$VARIANT" "$FLAVOR") ||
		die "kernel build failed ($FLAVOR/$VARIANT)"
fi
[ -f "$ART/bzImage" ] || die "no bzImage in $ART"
mkdir -p "$OUT"
# shellcheck disable=SC2086
"$HERE/mkinitramfs.sh" "$ART" "$OUT/initramfs.cpio.gz" ${CS_GUEST_BINS:-} ||
	die "initramfs build failed"

rm -rf "$OUT/guest" "$OUT/results.img"
mkdir -p "$OUT/guest"
truncate -s 256M "$OUT/results.img"
STAMP=$(date +%Y%m%d-%H%M%S)
CONSOLE=$OUT/console-$STAMP.log
ln -sfn "$(basename "$CONSOLE")" "$OUT/console.log"

QEMU_PID=''
cleanup() {
	[ -n "$QEMU_PID" ] && kill "$QEMU_PID" 2>/dev/null || true
}
trap cleanup EXIT INT TERM

# Multi-threaded TCG races when one vCPU patches code another one runs
# (QEMU 7.2's cross-vCPU code modification; LKML 2023-07 "qemu-x86_64
# booting with 8.0.0 still see int3"): 6.12 guests died now and then
# with "Oops: int3" at a jump label or fentry site (2 of ~10 boots), and
# a 6.1 guest stalled in chainscope.cli-probes-latency, where kprobe.multi
# patches a callback's fentry site while the other vCPU calls it (an RCU
# stall at cs_loadgen_cb_fast2+0x0 once, a silent hang until the
# timeout another time). One host thread that runs the vCPUs in turn
# cannot race, and measured no slower here (a chainscope plan: 206 s of
# guest time with one thread per vCPU on 6.1, 203 s with one thread on
# 6.12): every guest uses it (CS_TCG_THREAD=multi|single overrides).
TCG_THREAD=single
TCG_THREAD=${CS_TCG_THREAD:-$TCG_THREAD}
# QEMU refuses multi-threaded TCG with -icount ("No MTTCG when icount is
# enabled"): instruction counting runs every vCPU on one thread.
case " $QEXTRA " in
*" -icount "*)
	[ "$TCG_THREAD" = multi ] && [ -n "${CS_TCG_THREAD:-}" ] &&
		die "CS_TCG_THREAD=multi: QEMU has no multi-threaded TCG with -icount"
	TCG_THREAD=single
	;;
esac

# No network unless asked for (-q with -netdev: the scrape test's NIC):
# without -nic none QEMU would add a NIC on unrestricted user networking.
case " $QEXTRA " in
*" -netdev "*) ;;
*) QEXTRA="-nic none $QEXTRA" ;;
esac

log "booting $FLAVOR/$VARIANT, plan $PLAN (timeout ${TIMEOUT}s, tcg thread=$TCG_THREAD${NOREBOOT:+, }${NOREBOOT:-, warm reboots}, console $CONSOLE)"
# shellcheck disable=SC2086
timeout -k 5 "$TIMEOUT" qemu-system-x86_64 \
	-accel tcg,thread="$TCG_THREAD" -cpu max -smp "${CS_SMP:-2}" -m "${CS_MEM:-1G}" \
	-kernel "$ART/bzImage" -initrd "$OUT/initramfs.cpio.gz" \
	-append "console=ttyS0 panic=-1 oops=panic loglevel=7 chainscope.plan=$PLAN chainscope.variant=$VARIANT chainscope.filter=$FILTER $APPEND" \
	-drive "file=$OUT/results.img,format=raw,if=virtio" \
	-display none -serial stdio -monitor none $NOREBOOT $QEXTRA \
	</dev/null >"$CONSOLE" 2>&1 &
QEMU_PID=$!
if [ "$VERBOSE" = 1 ]; then
	tail -n +1 -f --pid="$QEMU_PID" "$CONSOLE" &
fi
rc=0
wait "$QEMU_PID" || rc=$?
QEMU_PID=''
sleep 0.2

tar -xf "$OUT/results.img" -C "$OUT/guest" 2>/dev/null || true
status=$(cat "$OUT/guest/status" 2>/dev/null || true)

bad=0
# the plans that panic on purpose may announce it (badness.sh --panic-ok)
panic_ok=()
case "$PLAN" in panic | persist) panic_ok=(--panic-ok) ;; esac
"$HERE/badness.sh" "${panic_ok[@]}" "$CONSOLE" >"$OUT/badness.txt" || bad=1

if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	echo "run.sh: error: $FLAVOR/$VARIANT guest hung: killed after ${TIMEOUT}s (console: $CONSOLE)" >&2
	exit 3
fi
if [ "$bad" = 1 ]; then
	echo "run.sh: error: $FLAVOR/$VARIANT console badness (console: $CONSOLE):" >&2
	sed 's/^/  /' "$OUT/badness.txt" >&2
	exit 5
fi
if [ -z "$status" ]; then
	echo "run.sh: error: $FLAVOR/$VARIANT guest died without reporting a status (qemu exit $rc; console: $CONSOLE)" >&2
	tail -n 5 "$CONSOLE" | sed 's/^/  /' >&2
	exit 4
fi
log "$FLAVOR/$VARIANT plan $PLAN exited $status"
[ "$status" = 0 ] || exit 1
exit 0
