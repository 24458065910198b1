#!/bin/sh
# The CLI's start-up probes and mode choice in the guest. Stock kernel:
# auto picks probes (JSON "mode":"probes"), --mode tracepoints exits 5.
# Ours: auto picks tracepoints, --mode probes works too; a missing BTF
# gives 4, a non-root user 3, and symbols resolve through /proc/kallsyms
# (modules included). CHAINSCOPE_PROBE_ONLY stops before any bpf() call.
. /chainscope/tests/cli-common.inc

# run_cs CMD...: rc, $W/err
run_cs() {
	"$@" > "$W/out" 2> "$W/err"
	rc=$?
	echo "\$ $* -> exit $rc: $(cat "$W/err")"
}

# jmode CMD...: the "mode" of the one JSON line of a 1 s run
jmode() {
	"$@" -j 1 1 > "$W/out" 2> "$W/err" || fail "$* -j 1 1 exited $?: $(tail -n 1 "$W/err")"
	sed -n 's/.*"mode":"\([a-z]*\)".*/\1/p' "$W/out"
}

if [ "$CS_VARIANT" = stock ]; then
	# no notifier tracepoints: auto picks probes; tracepoints is refused
	export CHAINSCOPE_PROBE_ONLY=1
	for sub in latency contention; do
		run_cs "$CS" $sub
		expect_eq "stock: $sub (auto) exit" "$rc" 0
		grep -q "mode probes" "$W/err" || fail "stock: $sub (auto) did not pick probes"
		run_cs "$CS" $sub --mode tracepoints
		expect_eq "stock: $sub --mode tracepoints exit" "$rc" 5
		grep -q "no notifier:notifier_.* tracepoint" "$W/err" || fail "stock: no tracepoint message"
	done
	run_cs env CHAINSCOPE_BTF=/nonexistent "$CS" latency
	expect_eq "stock: missing BTF exit" "$rc" 4
	unset CHAINSCOPE_PROBE_ONLY
	expect_eq "stock: latency JSON mode" "$(jmode "$CS" latency)" probes
	expect_eq "stock: latency -C JSON mode" "$(jmode "$CS" latency -C)" probes
	expect_eq "stock: contention JSON mode" "$(jmode "$CS" contention)" probes
	echo "stock kernel: probes mode by default, exit 5 for --mode tracepoints"
	exit 0
fi

loadgen
export CHAINSCOPE_PROBE_ONLY=1
run_cs "$CS" latency -C
expect_eq "probes pass (latency -C)" "$rc" 0
grep -q "start-up probes passed" "$W/err" || fail "no 'start-up probes passed'"
grep -q "mode tracepoints" "$W/err" || fail "auto did not pick tracepoints on our kernel"
run_cs "$CS" latency -C --mode probes
expect_eq "probes pass (latency -C --mode probes)" "$rc" 0
grep -q "mode probes" "$W/err" || fail "--mode probes not taken"
run_cs "$CS" contention
expect_eq "probes pass (contention)" "$rc" 0
run_cs env CHAINSCOPE_BTF=/nonexistent "$CS" latency
expect_eq "missing BTF exit" "$rc" 4
grep -q "no kernel BTF at /nonexistent" "$W/err" || fail "no BTF message"

want=$(grep -w 'cs_loadgen_blocking' /proc/kallsyms | head -n 1 | cut -d' ' -f1)
run_cs "$CS" latency -c cs_loadgen_blocking -f cs_loadgen_cb_sleep
expect_eq "resolve exit" "$rc" 0
grep -q "chain cs_loadgen_blocking is 0x$want" "$W/err" || fail "cs_loadgen_blocking not resolved to 0x$want"
run_cs "$CS" latency -f no_such_callback_xyz
expect_eq "unknown callback exit" "$rc" 2

if setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	run_cs setpriv --reuid=65534 --regid=65534 --clear-groups "$CS" latency
	expect_eq "not root exit" "$rc" 3
	grep -q "insufficient privileges" "$W/err" || fail "no privileges message"
else
	echo "busybox setpriv cannot drop to uid 65534 here; not-root is covered by host tests"
fi
unset CHAINSCOPE_PROBE_ONLY
expect_eq "latency JSON mode (auto)" "$(jmode "$CS" latency)" tracepoints
expect_eq "latency JSON mode (--mode probes)" "$(jmode "$CS" latency --mode probes)" probes
expect_eq "contention JSON mode (--mode probes)" "$(jmode "$CS" contention --mode probes)" probes
cs_cleanup
echo "start-up probes behave on the chainscope kernel"
