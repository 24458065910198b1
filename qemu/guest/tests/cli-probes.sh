#!/bin/sh
# The CLI's start-up probes in the guest: exit 5 on the stock kernel for
# both commands; on ours the probes pass, a missing BTF gives 4, a
# non-root user 3, and symbols resolve through /proc/kallsyms (modules
# included). CHAINSCOPE_PROBE_ONLY stops before any bpf() call.
. /chainscope/tests/cli-common.inc

# run_cs CMD...: rc, $W/err
run_cs() {
	"$@" > "$W/out" 2> "$W/err"
	rc=$?
	echo "\$ $* -> exit $rc: $(cat "$W/err")"
}

if [ "$CS_VARIANT" = stock ]; then
	for sub in latency contention; do
		run_cs "$CS" $sub
		expect_eq "stock: $sub exit" "$rc" 5
		grep -q "no notifier:notifier_.* tracepoint" "$W/err" || fail "stock: no tracepoint message"
	done
	run_cs env CHAINSCOPE_BTF=/nonexistent "$CS" latency
	expect_eq "stock: missing BTF exit" "$rc" 4
	echo "stock kernel: exit 5 for both commands"
	exit 0
fi

loadgen
export CHAINSCOPE_PROBE_ONLY=1
run_cs "$CS" latency -C
expect_eq "probes pass (latency -C)" "$rc" 0
grep -q "start-up probes passed" "$W/err" || fail "no 'start-up probes passed'"
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
cs_cleanup
echo "start-up probes behave on the chainscope kernel"
