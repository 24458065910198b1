#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Host tests of the chainscope CLI: argument errors, the start-up probes
# and their exit codes. One line per case: "PASS: host.cli.<name>",
# "FAIL: host.cli.<name>: why" or "SKIP: host.cli.<name>: why".
#
#   tests/sh/cli.sh CHAINSCOPE MKBTF
#
# Safety: the host kernel must never get a BPF program. Every case runs
# with CHAINSCOPE_PROBE_ONLY=1, which stops the CLI after its probes and
# before any bpf() system call; the cases that pass the probes do so on
# synthetic BTF and kallsyms files. That is not trusted alone: every
# command runs under strace, which fails bpf(), perf_event_open(),
# init_module() and finit_module() with EPERM before the kernel sees them
# (so even a regression loads nothing), and each case asserts from the
# trace that none of them was called: these are start-up-only paths. As
# root without a strace that can inject errors, nothing runs.
#
# Privileges are capabilities, not the uid: cases drop capabilities with
# setpriv (util-linux). The unprivileged cases run a copy of the binary
# in a fresh world-readable directory, so they work wherever the clone
# lives (a clone under a 0700 directory is unreachable for uid 65534).
set -uo pipefail

CS=${1:?usage: cli.sh CHAINSCOPE MKBTF}
MKBTF=${2:?usage: cli.sh CHAINSCOPE MKBTF}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
chmod 755 "$TMP"
cp "$CS" "$TMP/chainscope" || { echo "FAIL: host.cli.setup: cannot copy $CS"; exit 1; }
chmod 755 "$TMP/chainscope"
CS=$TMP/chainscope
export CHAINSCOPE_PROBE_ONLY=1
unset CHAINSCOPE_BTF CHAINSCOPE_KALLSYMS
failed=0
ROOT=0
[ "$(id -u)" = 0 ] && ROOT=1

pass() { echo "PASS: host.cli.$1"; }
fail() { echo "FAIL: host.cli.$1: $2"; failed=1; }
skip() { echo "SKIP: host.cli.$1: $2"; }

# The guard: what loads anything into the kernel fails with EPERM, never
# reaching it, and is logged (-f: children too, e.g. under setpriv).
KCALLS=bpf,perf_event_open,init_module,finit_module
GUARD=(strace -f -qq -e trace=$KCALLS -e inject=bpf:error=EPERM
       -e inject=perf_event_open:error=EPERM -e inject=init_module:error=EPERM
       -e inject=finit_module:error=EPERM)
if ! command -v strace >/dev/null ||
   ! "${GUARD[@]}" -o /dev/null true 2>/dev/null; then
	if [ "$ROOT" = 1 ]; then
		skip guard "no strace that injects errors: the CLI is not run as root unguarded"
		exit 0
	fi
	GUARD=()
fi

# run CMD...: sets rc, out (stdout), err (stderr), nerr (stderr lines) and
# kcalls: the first guarded system call CMD made ("" if none)
# (as_nobody and the like are shell functions: they put PRE, the guard,
# in front of what they run, since strace cannot run a function)
PRE=()
run() {
	local pre=()

	: >"$TMP/kcalls"
	[ ${#GUARD[@]} != 0 ] && pre=("${GUARD[@]}" -o "$TMP/kcalls" --)
	if [ "$(type -t "$1")" = function ]; then
		PRE=("${pre[@]}")
		out=$("$@" 2>"$TMP/stderr")
	else
		out=$("${pre[@]}" "$@" 2>"$TMP/stderr")
	fi
	rc=$?
	PRE=()
	err=$(cat "$TMP/stderr")
	nerr=$(grep -c '' "$TMP/stderr")
	kcalls=$(grep -Em1 "(${KCALLS//,/|})\\(" "$TMP/kcalls")
}

# expect NAME RC PATTERN CMD...: exit code RC, exactly one stderr line
# matching the extended regex PATTERN.
expect() {
	local name=$1 want=$2 pat=$3
	shift 3
	run "$@"
	if [ -n "$kcalls" ]; then
		fail "$name" "called into the kernel on a start-up-only path: $kcalls"
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

# as_nobody CMD...: run as uid/gid 65534 (we are root) or as we are
as_nobody() {
	if [ "$ROOT" = 1 ]; then
		"${PRE[@]}" setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
	else
		"${PRE[@]}" "$@"
	fi
}

# no_caps CMD...: as root, but with no capability at all
no_caps() {
	"${PRE[@]}" setpriv --inh-caps=-all --ambient-caps=-all --bounding-set=-all -- "$@"
}

# nobody_with CAPS CMD...: uid/gid 65534 with exactly CAPS (e.g. +bpf,+perfmon)
nobody_with() {
	local caps=$1
	shift
	"${PRE[@]}" setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps="$caps" \
		--ambient-caps="$caps" --bounding-set=-all,"$caps" -- "$@"
}

# --- usage errors: exit 2, one line, before anything else -------------------
for sub in latency contention; do
	expect "$sub-unknown-long-option" 2 "unrecognized option '--bogus'" "$CS" $sub --bogus
	expect "$sub-unknown-short-option" 2 "invalid option -- 'x'" "$CS" $sub -x
	expect "$sub-units-m-u" 2 "-m and -u are mutually exclusive" "$CS" $sub -m -u
	expect "$sub-units-n-m" 2 "-n and -m are mutually exclusive" "$CS" $sub -n 1 -m
	expect "$sub-non-numeric-interval" 2 "invalid interval 'abc'" "$CS" $sub abc
	expect "$sub-non-numeric-count" 2 "invalid count '3x'" "$CS" $sub 1 3x
	expect "$sub-negative-count" 2 "invalid option -- '1'" "$CS" $sub 1 -1
	expect "$sub-zero-interval" 2 "invalid interval '0'" "$CS" $sub 0
	expect "$sub-too-many-args" 2 "unexpected argument '3'" "$CS" $sub 1 2 3
	expect "$sub-missing-chain-arg" 2 "requires an argument -- 'c'" "$CS" $sub -c
done
expect latency-unknown-kind 2 "unknown chain kind 'bogus'" "$CS" latency -k bogus
# a newline in an argument must not make a second line of the error
expect usage-error-one-line 2 "unknown chain kind 'a\\\\x0ab'" "$CS" latency -k "$(printf 'a\nb')"
expect unknown-command-one-line 2 "unknown command 'a\\\\x0ab'" "$CS" "$(printf 'a\nb')"
expect latency-missing-kind-arg 2 "requires an argument -- 'k'" "$CS" latency -k
expect contention-has-no-kind 2 "invalid option -- 'k'" "$CS" contention -k blocking
expect no-subcommand 2 "no command given" "$CS"
expect unknown-subcommand 2 "unknown command 'frobnicate'" "$CS" frobnicate
# usage is checked before root
expect usage-before-root 2 "mutually exclusive" as_nobody "$CS" latency -m -u
# serve: its own usage errors, before root as well
expect serve-bad-listen 2 "invalid --listen '1.2.3:80'" as_nobody "$CS" serve --listen 1.2.3:80
expect serve-listen-no-port 2 "invalid --listen '127.0.0.1'" "$CS" serve --listen 127.0.0.1
expect serve-listen-port-range 2 "invalid --listen '127.0.0.1:65536'" \
	"$CS" serve --listen 127.0.0.1:65536
expect serve-json 2 "-j does not apply" "$CS" serve -j
expect serve-trace-with-mode 2 "--trace takes no -c or --mode" \
	"$CS" serve --trace /nonexistent --mode probes
expect serve-trace-unreadable 2 "/nonexistent" "$CS" serve --trace /nonexistent
expect serve-unknown-option 2 "unrecognized option '--bogus'" "$CS" serve --bogus
# the port is digits only (strtol took a sign and blanks)
expect serve-listen-port-sign 2 "invalid --listen '127.0.0.1:\+80'" "$CS" serve --listen 127.0.0.1:+80
expect serve-listen-port-blank 2 "invalid --listen '127.0.0.1: 80'" "$CS" serve --listen '127.0.0.1: 80'
# record --wakeup: a percentage 0..90 (0 is allowed: a wakeup per record)
expect record-wakeup-range 2 "invalid wakeup percentage '91': must be 0..90" \
	"$CS" record -o "$TMP/w.cstrace" --wakeup 91
expect record-wakeup-negative 2 "invalid wakeup percentage '-1': must be 0..90" \
	"$CS" record -o "$TMP/w.cstrace" --wakeup=-1
expect record-wakeup-text 2 "invalid wakeup percentage '25%': must be 0..90" \
	"$CS" record -o "$TMP/w.cstrace" --wakeup 25%
expect latency-show-addresses-alone 2 "--show-addresses applies to --openmetrics only" \
	"$CS" latency --show-addresses
expect latency-openmetrics-json 2 "-j and --openmetrics exclude each other" \
	"$CS" latency -j --openmetrics

# --- help ------------------------------------------------------------------------
run "$CS" --help
if [ "$rc" = 0 ] && [ -z "$kcalls" ] && grep -q "latency" <<<"$out" &&
	grep -q "5  the kernel has no chainscope" <<<"$out"; then
	pass help-top
else
	fail help-top "exit $rc or no command/exit-code list"
fi
# every command's --help ends with an Examples section of its own commands:
# after the Examples: line only indented example lines, nothing else
for sub in "" latency contention record report check diff chains serve; do
	run "$CS" $sub --help
	ex=$(sed -n '/^Examples:/,$p' <<<"$out" | tail -n +2)
	if [ "$rc" = 0 ] && [ -z "$kcalls" ] && grep -q "^  chainscope ${sub:-[a-z]}" <<<"$ex" &&
		! grep -qv '^  ' <<<"$ex"; then
		pass "${sub:-top}-help-ends-with-examples"
	else
		fail "${sub:-top}-help-ends-with-examples" "exit $rc, no Examples section with 'chainscope $sub' lines, or more after it: $(grep -v '^  ' <<<"$ex" | head -2)"
	fi
done
run "$CS" --version
if [ "$rc" = 0 ] && [ -z "$kcalls" ] && grep -q "^chainscope [0-9]" <<<"$out" &&
	grep -Eq "^libbpf [0-9]+\.[0-9]+$" <<<"$out" &&
	grep -q "^modes: tracepoints probes$" <<<"$out"; then
	pass version
else
	fail version "exit $rc or missing version/libbpf/modes lines: ${out:0:200}"
fi
for sub in latency contention; do
	run "$CS" $sub --help
	if [ "$rc" = 0 ] && [ -z "$kcalls" ] && grep -q "^Examples:" <<<"$out" &&
		grep -q "^Exit status:" <<<"$out" &&
		grep -q -- "-j, --json" <<<"$out" && grep -q "3  insufficient privileges" <<<"$out"; then
		pass "$sub-help"
	else
		fail "$sub-help" "exit $rc or missing Examples/Exit status/-j: ${out:0:200}"
	fi
done

# --- insufficient privileges: exit 3 ------------------------------------------------
if [ "$ROOT" = 1 ] && ! command -v setpriv >/dev/null; then
	skip not-root "setpriv not installed"
else
	for sub in latency contention; do
		expect "$sub-not-root" 3 "insufficient privileges: .*CAP_BPF and CAP_PERFMON" \
			as_nobody "$CS" $sub
	done
	expect serve-not-root 3 "insufficient privileges: .*CAP_BPF and CAP_PERFMON" \
		as_nobody "$CS" serve
	# privileges come before BTF
	expect not-root-before-btf 3 "insufficient privileges" \
		as_nobody env CHAINSCOPE_BTF=/nonexistent "$CS" latency
fi
if [ "$ROOT" != 1 ]; then
	skip root-probes "not root: the BTF and tracepoint probes need root"
	exit $failed
fi

# --- no BTF: exit 4 ------------------------------------------------------------------
for sub in latency contention; do
	expect "$sub-no-btf" 4 "no kernel BTF at /nonexistent" env CHAINSCOPE_BTF=/nonexistent "$CS" $sub
done
expect serve-no-btf 4 "no kernel BTF at /nonexistent" env CHAINSCOPE_BTF=/nonexistent "$CS" serve
head -c 100 /dev/urandom >"$TMP/garbage.btf"
expect btf-unparsable 4 "cannot parse kernel BTF" env CHAINSCOPE_BTF="$TMP/garbage.btf" "$CS" latency

# --- a kernel without our tracepoints: exit 5 ------------------------------------------
# The host kernel has no notifier:notifier_return (upstream has only
# notifier_register/unregister/run), so the real probe fails here.
if [ -r /sys/kernel/btf/vmlinux ]; then
	expect latency-host-kernel-no-tracepoints 5 "no notifier:notifier_return tracepoint" \
		"$CS" latency --mode tracepoints
	expect serve-host-kernel-no-tracepoints 5 "no notifier:notifier_return tracepoint" \
		"$CS" serve --mode tracepoints
	expect contention-host-kernel-no-tracepoints 5 "no notifier:notifier_call_end tracepoint" \
		"$CS" contention --mode tracepoints
	# auto: no notifier tracepoints, so probes (stops before its bpf() feature probes)
	expect latency-host-kernel-auto-probes 0 "start-up probes passed \(mode probes\)" "$CS" latency
else
	skip host-kernel-no-tracepoints "host has no /sys/kernel/btf/vmlinux"
fi

# Synthetic BTF: upstream's events only, ours with a wrong prototype (an
# older series' notifier_return, with duration_ns), ours.
"$MKBTF" "$TMP/upstream.btf" notifier_register:5 notifier_unregister:5 notifier_run:6 &&
"$MKBTF" "$TMP/proto.btf" notifier_return:8 notifier_call_end:7 &&
"$MKBTF" "$TMP/ours.btf" notifier_return:7 notifier_call_begin:7 notifier_call_end:7 \
	notifier_register:5 notifier_unregister:5 notifier_register_error:6 notifier_unregister_error:6 contention_begin:2 contention_end:2 var:__preempt_count var:this_cpu_off &&
"$MKBTF" "$TMP/noctx.btf" notifier_return:7 notifier_call_begin:7 notifier_call_end:7 \
	notifier_register:5 notifier_unregister:5 notifier_register_error:6 notifier_unregister_error:6 &&
"$MKBTF" "$TMP/nobase.btf" notifier_return:7 notifier_call_begin:7 notifier_call_end:7 \
	notifier_register:5 notifier_unregister:5 notifier_register_error:6 notifier_unregister_error:6 var:__preempt_count &&
"$MKBTF" "$TMP/noends.btf" notifier_return:7 notifier_register:5 notifier_unregister:5 notifier_register_error:6 notifier_unregister_error:6 &&
"$MKBTF" "$TMP/stock.btf" contention_begin:2 contention_end:2 var:__preempt_count var:this_cpu_off \
	func:atomic_notifier_call_chain &&
"$MKBTF" "$TMP/oursapi.btf" notifier_return:7 notifier_call_begin:7 notifier_call_end:7 \
	notifier_register:5 notifier_unregister:5 notifier_register_error:6 notifier_unregister_error:6 contention_begin:2 contention_end:2 var:__preempt_count var:this_cpu_off \
	func:atomic_notifier_call_chain ||
	{ fail mkbtf "cannot write synthetic BTF"; exit 1; }
expect upstream-btf-no-tracepoints 5 "no notifier:notifier_return tracepoint" \
	env CHAINSCOPE_BTF="$TMP/upstream.btf" "$CS" latency --mode tracepoints
# --mode: auto takes probes without our tracepoints; probes needs the
# chain API in BTF (latency) or lock:contention_* (contention): else 9
expect mode-unknown 2 "unknown --mode 'bogus' \(auto, tracepoints, probes\)" "$CS" latency --mode bogus
expect mode-auto-no-api 9 "no event source: .*no function atomic_notifier_call_chain" \
	env CHAINSCOPE_BTF="$TMP/upstream.btf" "$CS" latency
expect mode-probes-no-api 9 "no event source: .*no function atomic_notifier_call_chain" \
	env CHAINSCOPE_BTF="$TMP/ours.btf" "$CS" latency -C --mode probes
expect mode-probes-no-lock-tps 9 "no event source: .*needs lock:contention_begin/end" \
	env CHAINSCOPE_BTF="$TMP/upstream.btf" "$CS" contention
expect mode-tracepoints-contention 5 "no notifier:notifier_call_end tracepoint" \
	env CHAINSCOPE_BTF="$TMP/stock.btf" "$CS" contention --mode tracepoints
expect mode-auto-stock-latency 0 "start-up probes passed \(mode probes\)" \
	env CHAINSCOPE_BTF="$TMP/stock.btf" "$CS" latency -C
expect mode-auto-stock-contention 0 "start-up probes passed \(mode probes\)" \
	env CHAINSCOPE_BTF="$TMP/stock.btf" "$CS" contention
expect mode-auto-ours 0 "start-up probes passed \(mode tracepoints\)" \
	env CHAINSCOPE_BTF="$TMP/ours.btf" "$CS" latency -C
expect mode-probes-ours 0 "start-up probes passed \(mode probes\)" \
	env CHAINSCOPE_BTF="$TMP/oursapi.btf" "$CS" latency -C --mode probes
expect mode-probes-before-symbols 9 "no function atomic_notifier_call_chain" \
	env CHAINSCOPE_BTF="$TMP/upstream.btf" "$CS" latency -c nosuch
expect wrong-prototype 5 "prototype other than the 7 arguments" \
	env CHAINSCOPE_BTF="$TMP/proto.btf" "$CS" latency
expect chain-mode-needs-call-events 5 "no notifier:notifier_call_begin tracepoint" \
	env CHAINSCOPE_BTF="$TMP/noends.btf" "$CS" latency -C --mode tracepoints
# -C tells interrupt from task context by the kernel's per-CPU preempt
# count: without it in BTF, -C is refused (exit 7), plain latency is not
expect chain-mode-needs-preempt-count 7 "-C needs the kernel's per-CPU preempt count \(__preempt_count or pcpu_hot, and this_cpu_off\)" \
	env CHAINSCOPE_BTF="$TMP/noctx.btf" "$CS" latency -C
# ... and this_cpu_off, which holds the per-CPU base it is read from
expect chain-mode-needs-percpu-base 7 "-C needs the kernel's per-CPU preempt count" \
	env CHAINSCOPE_BTF="$TMP/nobase.btf" "$CS" latency -C
# BTF is checked before tracepoints, tracepoints before symbols
expect btf-before-tracepoints 4 "no kernel BTF" env CHAINSCOPE_BTF=/nonexistent "$CS" latency -c nosuch

# --- the probes pass (synthetic BTF + kallsyms); PROBE_ONLY stops before bpf() ---------
cat >"$TMP/kallsyms" <<'EOF'
ffffffff81000000 T _stext
ffffffff82000000 D reboot_notifier_list
ffffffff82000100 d twice
ffffffff82000200 d twice
ffffffffc0000100 t cs_loadgen_cb_busy	[cs_loadgen]
ffffffffc0002000 d cs_loadgen_blocking	[cs_loadgen]
EOF
export CHAINSCOPE_KALLSYMS=$TMP/kallsyms
expect probes-pass-latency 0 "start-up probes passed" env CHAINSCOPE_BTF="$TMP/ours.btf" "$CS" latency -C
expect probes-pass-contention 0 "start-up probes passed" env CHAINSCOPE_BTF="$TMP/ours.btf" "$CS" contention
expect no-preempt-count-without-C 0 "start-up probes passed" \
	env CHAINSCOPE_BTF="$TMP/noctx.btf" "$CS" latency
run env CHAINSCOPE_BTF="$TMP/ours.btf" "$CS" latency -c cs_loadgen_blocking -f cs_loadgen_cb_busy
if [ "$rc" = 0 ] && [ -z "$kcalls" ] &&
	grep -q "chain cs_loadgen_blocking is 0xffffffffc0002000" <<<"$err" &&
	grep -q "callback cs_loadgen_cb_busy is 0xffffffffc0000100" <<<"$err"; then
	pass resolve-module-symbols
else
	fail resolve-module-symbols "exit $rc: $err"
fi
run env CHAINSCOPE_BTF="$TMP/ours.btf" "$CS" contention -c 0xffff888001234000
if [ "$rc" = 0 ] && [ -z "$kcalls" ] &&
	grep -q "chain 0xffff888001234000 is 0xffff888001234000" <<<"$err"; then
	pass resolve-hex-address
else
	fail resolve-hex-address "exit $rc: $err"
fi
# serve starts up like latency: its -c chains are all resolved first
expect serve-probes-pass 0 "start-up probes passed" \
	env CHAINSCOPE_BTF="$TMP/ours.btf" "$CS" serve -c reboot_notifier_list -c cs_loadgen_blocking
expect serve-unknown-second-chain 2 "chain 'nosuch' is not in .*kallsyms" \
	env CHAINSCOPE_BTF="$TMP/ours.btf" "$CS" serve -c reboot_notifier_list -c nosuch
# without the preempt count serve goes on without chain passes (latency -C: exit 7)
run env CHAINSCOPE_BTF="$TMP/noctx.btf" "$CS" serve
if [ "$rc" = 0 ] && [ -z "$kcalls" ] && [ "$nerr" = 2 ] &&
	grep -q "warning: no chain passes" <<<"$err" &&
	grep -q "start-up probes passed" <<<"$err"; then
	pass serve-no-preempt-count
else
	fail serve-no-preempt-count "exit $rc, want 0 with a warning: ${err:0:300}"
fi
expect unknown-chain-symbol 2 "chain 'nosuch' is not in .*kallsyms" \
	env CHAINSCOPE_BTF="$TMP/ours.btf" "$CS" latency -c nosuch
expect unknown-callback-symbol 2 "callback 'nosuch_cb' is not in" \
	env CHAINSCOPE_BTF="$TMP/ours.btf" "$CS" latency -f nosuch_cb
expect ambiguous-symbol 2 "'twice' is ambiguous \(2 symbols: 0xffffffff82000100 0xffffffff82000200\)" \
	env CHAINSCOPE_BTF="$TMP/ours.btf" "$CS" latency -c twice
expect bad-hex-address 2 "invalid chain address '0xzz'" \
	env CHAINSCOPE_BTF="$TMP/ours.btf" "$CS" latency -c 0xzz

# --- capabilities, not the uid ----------------------------------------------------------
chmod 644 "$TMP"/*.btf "$TMP/kallsyms"
for sub in latency contention; do
	expect "$sub-root-without-caps" 3 "insufficient privileges" no_caps "$CS" $sub
	expect "$sub-nobody-bpf-perfmon" 0 "start-up probes passed" \
		nobody_with +bpf,+perfmon env CHAINSCOPE_BTF="$TMP/ours.btf" "$CS" $sub
done
expect serve-nobody-bpf-perfmon 0 "start-up probes passed" \
	nobody_with +bpf,+perfmon env CHAINSCOPE_BTF="$TMP/ours.btf" "$CS" serve
expect nobody-sys-admin 0 "start-up probes passed" \
	nobody_with +sys_admin env CHAINSCOPE_BTF="$TMP/ours.btf" "$CS" latency -C
expect nobody-bpf-only 3 "effective: CAP_BPF yes, CAP_PERFMON no" \
	nobody_with +bpf env CHAINSCOPE_BTF="$TMP/ours.btf" "$CS" latency
expect nobody-perfmon-only 3 "effective: CAP_BPF no, CAP_PERFMON yes" \
	nobody_with +perfmon env CHAINSCOPE_BTF="$TMP/ours.btf" "$CS" latency
unset CHAINSCOPE_KALLSYMS

# --- the guard itself ------------------------------------------------------------
# It must see a guarded call where there is one: the same strace options,
# with getpid() (harmless) guarded too, on a shell that calls it.
if [ ${#GUARD[@]} != 0 ]; then
	"${GUARD[@]/$KCALLS/$KCALLS,getpid}" -e inject=getpid:error=EPERM -o "$TMP/selftest" \
		-- bash -c 'echo $BASHPID' >/dev/null 2>&1
	if grep -Eq "getpid\\(.*= -1 EPERM \\(Operation not permitted\\) \\(INJECTED\\)" "$TMP/selftest"; then
		pass guard-sees-calls
	else
		fail guard-sees-calls "strace logged no injected getpid(): $(head -c 300 "$TMP/selftest")"
	fi
fi

# --- no bpf() system call without capabilities, even without PROBE_ONLY ---------
if [ ${#GUARD[@]} != 0 ]; then
	# without the capabilities: exit 3, with no bpf() and no BTF read first
	unset CHAINSCOPE_PROBE_ONLY
	"${GUARD[@]/$KCALLS/$KCALLS,capget,openat}" -o "$TMP/strace3.log" \
		setpriv --inh-caps=-all --ambient-caps=-all --bounding-set=-all -- \
		"$CS" latency -C >/dev/null 2>&1
	rc1=$?
	if [ "$rc1" = 3 ] && grep -q 'capget(' "$TMP/strace3.log" &&
		! grep -Eq "(${KCALLS//,/|})\\(|btf/vmlinux" "$TMP/strace3.log"; then
		pass no-caps-exit-before-bpf
	else
		fail no-caps-exit-before-bpf "exit $rc1; $(grep -Eh "(${KCALLS//,/|})\\(|btf" "$TMP/strace3.log" | head -n 2)"
	fi
	export CHAINSCOPE_PROBE_ONLY=1
else
	skip no-caps-exit-before-bpf "strace not installed"
fi

exit $failed
