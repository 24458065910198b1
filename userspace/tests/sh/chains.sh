#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Host tests of `chainscope chains`: option and argument errors, head
# resolution (SYMBOL, MODULE:SYMBOL, 0xADDR) on a synthetic kallsyms, the
# start-up exit codes and --bpf-object. Like tests/sh/cli.sh, every case
# runs with CHAINSCOPE_PROBE_ONLY=1 and, where strace can inject errors,
# under a guard that fails bpf()/perf_event_open()/(f)init_module() with
# EPERM and asserts none was called. The walk itself runs in the guest
# (qemu/guest/tests/cli-chains.sh).
#
#   tests/sh/chains.sh CHAINSCOPE MKBTF
set -uo pipefail
PREFIX=host.chains
. "$(dirname "$0")/lib.sh"

CS=${1:?usage: chains.sh CHAINSCOPE MKBTF}
MKBTF=${2:?usage: chains.sh CHAINSCOPE MKBTF}
chmod 755 "$TMP"
cp "$CS" "$TMP/chainscope" && chmod 755 "$TMP/chainscope" ||
	{ fail setup "cannot copy $CS"; exit 1; }
CS=$TMP/chainscope
export CHAINSCOPE_PROBE_ONLY=1
unset CHAINSCOPE_BTF CHAINSCOPE_KALLSYMS
ROOT=0
[ "$(id -u)" = 0 ] && ROOT=1

KCALLS=bpf,perf_event_open,init_module,finit_module
GUARD=(strace -f -qq -e trace=$KCALLS -e inject=bpf:error=EPERM
       -e inject=perf_event_open:error=EPERM -e inject=init_module:error=EPERM
       -e inject=finit_module:error=EPERM -o "$TMP/kcalls" --)
if ! command -v strace >/dev/null || ! "${GUARD[@]}" true 2>/dev/null; then
	if [ "$ROOT" = 1 ]; then
		skip guard "no strace that injects errors: the CLI is not run as root unguarded"
		exit 0
	fi
	GUARD=()
fi

# expect NAME RC PATTERN CMD...: exit RC, one stderr line matching PATTERN
# (extended regex), no guarded system call
expect() {
	local name=$1 want=$2 pat=$3
	shift 3
	: >"$TMP/kcalls"
	run "${GUARD[@]}" "$@"
	local kc
	kc=$(grep -Em1 "(${KCALLS//,/|})\\(" "$TMP/kcalls")
	if [ -n "$kc" ]; then
		fail "$name" "called into the kernel: $kc"
	elif [ "$rc" != "$want" ]; then
		fail "$name" "exit $rc, want $want (stderr: ${err:0:200})"
	elif [ "$nerr" != 1 ]; then
		fail "$name" "$nerr lines on stderr, want 1: ${err:0:300}"
	elif ! grep -Eq -- "$pat" <<<"$err"; then
		fail "$name" "stderr '$err' does not match /$pat/"
	else
		pass "$name"
	fi
}

# --- usage errors: exit 2, one line -----------------------------------------
expect unknown-option 2 "unrecognized option '--bogus'" "$CS" chains --bogus
expect unknown-kind 2 "unknown -k 'bogus' \(raw, atomic, blocking, srcu\)" \
	"$CS" chains -c x -k bogus
expect kind-without-chain 2 "-k KIND applies to -c heads" "$CS" chains -k atomic
expect unexpected-argument 2 "unexpected argument '5'" "$CS" chains 5
expect missing-chain-arg 2 "requires an argument -- 'c'" "$CS" chains -c
expect empty-chain 2 "empty -c CHAIN" "$CS" chains -c ''
expect no-interval-options 2 "invalid option -- 'm'" "$CS" chains -m
expect kind-one-line 2 "unknown -k 'a\\\\x0ab'" "$CS" chains -c x -k "$(printf 'a\nb')"
# -w SECONDS: 1..INT_MAX, nothing else
W_RANGE="must be 1\\.\\.2147483647 seconds"
expect watch-zero 2 "invalid -w '0': $W_RANGE" "$CS" chains -w 0
expect watch-negative 2 "invalid -w '-3': $W_RANGE" "$CS" chains -w -3
expect watch-long-zero 2 "invalid -w '0': $W_RANGE" "$CS" chains --watch=0
expect watch-over-int 2 "invalid -w '2147483648': $W_RANGE" "$CS" chains -w 2147483648
expect watch-overflow 2 "invalid -w '99999999999999999999': $W_RANGE" \
	"$CS" chains -w 99999999999999999999
expect watch-junk 2 "invalid -w 'abc': not a number of seconds" "$CS" chains -w abc
expect watch-trailing 2 "invalid -w '5x': not a number of seconds" "$CS" chains -w 5x
expect watch-empty 2 "invalid -w '': not a number of seconds" "$CS" chains -w ''
expect watch-one-line 2 "invalid -w '1\\\\x0a2': not a number" "$CS" chains -w "$(printf '1\n2')"
expect watch-missing-arg 2 "requires an argument -- 'w'" "$CS" chains -w
expect mode-without-watch 2 "--mode picks where -w sees events: give -w SECONDS" \
	"$CS" chains --mode probes
expect watch-unknown-mode 2 "unknown --mode 'bogus' \(auto, tracepoints, probes\)" \
	"$CS" chains -w 1 --mode bogus
run "$CS" chains --help
if [ "$rc" = 0 ] && grep -q "^Examples:" <<<"$out" && grep -q "^Exit status:" <<<"$out" &&
	grep -q "10 a -c head does not validate" <<<"$out" &&
	grep -q -- "--all" <<<"$out" && grep -q "MODULE:SYMBOL" <<<"$out" &&
	grep -Eq -- "-w, --watch=SECONDS" <<<"$out" && grep -q -- "--mode=MODE" <<<"$out" &&
	grep -q "chainscope chains -w [0-9]" <<<"$(sed -n '/^Examples:/,/^Exit status/p' <<<"$out")"; then
	pass help
else
	fail help "exit $rc or missing Examples/Exit status/exit 10/--all/-w: ${out:0:200}"
fi
run "$CS" --help
if [ "$rc" = 0 ] && grep -Eq "^  chains +the blocks on notifier chains" <<<"$out"; then
	pass listed-in-top-help
else
	fail listed-in-top-help "exit $rc: ${out:0:300}"
fi

# --- --bpf-object: no privileges, no bpf() ------------------------------------
expect bpf-object-unwritable 6 "cannot write /nonexistent/x.o" \
	"$CS" chains --bpf-object /nonexistent/x.o
mkfifo "$TMP/fifo"
expect bpf-object-fifo 6 "cannot write $TMP/fifo" \
	timeout 120 "$CS" chains --bpf-object "$TMP/fifo"	# (ends a hang; times nothing)
: >"$TMP/kcalls"
run "${GUARD[@]}" "$CS" chains --bpf-object "$TMP/chains.bpf.o"
if [ "$rc" = 0 ] && ! grep -Eq "(${KCALLS//,/|})\\(" "$TMP/kcalls" &&
	[ "$(head -c 4 "$TMP/chains.bpf.o" | od -A n -t x1 | tr -d ' ')" = 7f454c46 ] &&
	{ ! command -v bpftool >/dev/null ||
	  grep -q "DATASEC '.data.in'" <<<"$(bpftool btf dump file "$TMP/chains.bpf.o")"; }; then
	pass bpf-object
else
	fail bpf-object "exit $rc, not an ELF with .data.in: $err"
fi

# --- privileges (3) and BTF (4), in that order, after usage ---------------------
if [ "$ROOT" = 1 ] && command -v setpriv >/dev/null; then
	expect not-root 3 "insufficient privileges" \
		setpriv --reuid=65534 --regid=65534 --clear-groups -- "$CS" chains
	expect usage-before-privileges 2 "-k KIND applies" \
		setpriv --reuid=65534 --regid=65534 --clear-groups -- "$CS" chains -k raw
else
	skip not-root "needs root and setpriv"
fi
if [ "$ROOT" != 1 ]; then
	skip root-probes "not root"
	exit $failed
fi
expect no-btf 4 "no kernel BTF at /nonexistent" env CHAINSCOPE_BTF=/nonexistent "$CS" chains
expect watch-no-btf 4 "no kernel BTF at /nonexistent" \
	env CHAINSCOPE_BTF=/nonexistent "$CS" chains -w 1

# --- resolution on synthetic BTF and kallsyms ------------------------------------
# chains needs no notifier tracepoint: BTF without any passes
"$MKBTF" "$TMP/plain.btf" notifier_register:5 || { fail mkbtf "cannot write BTF"; exit 1; }
cat >"$TMP/kallsyms" <<'K'
ffffffff81000000 T _stext
ffffffff82000000 D reboot_notifier_list
ffffffff82000100 d twice
ffffffff82000200 d twice
ffffffffc0000100 t cs_loadgen_cb_busy	[cs_loadgen]
ffffffffc0002000 d cs_loadgen_blocking	[cs_loadgen]
ffffffffc0004000 d cs_loadgen_blocking	[other]
K
export CHAINSCOPE_BTF=$TMP/plain.btf CHAINSCOPE_KALLSYMS=$TMP/kallsyms
expect probes-pass-without-tracepoints 0 "start-up probes passed" "$CS" chains

# -w: the event source. Ours: tracepoints; stock: probes on the chain
# API; neither: 9; --mode tracepoints without ours: 5.
TPS="notifier_call_begin:7 notifier_register:5 notifier_unregister:5"
TPS="$TPS notifier_register_error:6 notifier_unregister_error:6"
# shellcheck disable=SC2086
"$MKBTF" "$TMP/ours.btf" $TPS func:atomic_notifier_call_chain &&
"$MKBTF" "$TMP/stock.btf" func:atomic_notifier_call_chain &&
"$MKBTF" "$TMP/partial.btf" notifier_call_begin:7 func:atomic_notifier_call_chain ||
	{ fail mkbtf "cannot write BTF"; exit 1; }
expect watch-ours 0 "start-up probes passed \(mode tracepoints\)" \
	env CHAINSCOPE_BTF="$TMP/ours.btf" "$CS" chains -w 1
expect watch-ours-probes 0 "start-up probes passed \(mode probes\)" \
	env CHAINSCOPE_BTF="$TMP/ours.btf" "$CS" chains -w 1 --mode probes
expect watch-stock 0 "start-up probes passed \(mode probes\)" \
	env CHAINSCOPE_BTF="$TMP/stock.btf" "$CS" chains -w 1
expect watch-partial 0 "start-up probes passed \(mode probes\)" \
	env CHAINSCOPE_BTF="$TMP/partial.btf" "$CS" chains --watch 1
expect watch-stock-tracepoints 5 "no notifier:notifier_register tracepoint" \
	env CHAINSCOPE_BTF="$TMP/partial.btf" "$CS" chains -w 1 --mode tracepoints
expect watch-no-api 9 "no event source: .*no function atomic_notifier_call_chain" \
	"$CS" chains -w 1
: >"$TMP/kcalls"
run "${GUARD[@]}" "$CS" chains -c reboot_notifier_list -c cs_loadgen:cs_loadgen_blocking \
	-c 0xffff888001234000 -k blocking
if [ "$rc" = 0 ] && ! grep -Eq "(${KCALLS//,/|})\\(" "$TMP/kcalls" &&
	grep -q "chain reboot_notifier_list is 0xffffffff82000000" <<<"$err" &&
	grep -q "chain cs_loadgen:cs_loadgen_blocking is 0xffffffffc0002000" <<<"$err" &&
	grep -q "chain 0xffff888001234000 is 0xffff888001234000" <<<"$err"; then
	pass resolve
else
	fail resolve "exit $rc: $err"
fi
run "$CS" chains -c other:cs_loadgen_blocking
if [ "$rc" = 0 ] && grep -q "chain other:cs_loadgen_blocking is 0xffffffffc0004000" <<<"$err"; then
	pass other-module
else
	fail other-module "exit $rc: $err"
fi
expect unknown-symbol 2 "chain 'nosuch' is not in .*kallsyms" "$CS" chains -c nosuch
expect ambiguous-symbol 2 "'twice' is ambiguous \(2 symbols" "$CS" chains -c twice
expect ambiguous-without-module 2 "'cs_loadgen_blocking' is ambiguous" \
	"$CS" chains -c cs_loadgen_blocking
expect module-not-loaded 2 "chain 'nomod:cs_loadgen_blocking' is not in /proc/kallsyms" \
	"$CS" chains -c nomod:cs_loadgen_blocking
expect module-unknown-symbol 2 "chain 'cs_loadgen:nosuch' is not in" \
	"$CS" chains -c cs_loadgen:nosuch
expect vmlinux-symbol-is-no-module 2 "chain ':reboot_notifier_list' is not in" \
	"$CS" chains -c :reboot_notifier_list
expect bad-hex 2 "invalid chain address '0xzz'" "$CS" chains -c 0xzz
# kptr_restrict: kallsyms without addresses
sed 's/^[0-9a-f]*/0000000000000000/' "$TMP/kallsyms" >"$TMP/kallsyms0"
expect no-addresses 3 "shows no addresses to this process" \
	env CHAINSCOPE_KALLSYMS="$TMP/kallsyms0" "$CS" chains
exit $failed
