#!/usr/bin/env bash
# Host tests of qemu/shutdown.py, the reboot-chain check that qemu/test.sh
# runs on a guest's console after it powered off: a power-off console
# (userspace/tests/gen/genconsole.py's "shutdown") with the guest's
# chains.json passes; each way it can be wrong fails naming it: the guest
# did not arm, the pass is missing, the callbacks ran in another order than
# chains lists, priorities rise, a callback has no return, the pass has no
# end, check --console fails. Builds the CLI if it is not built.
set -uo pipefail
Q=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REPO=$(dirname "$Q")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
CS=$REPO/userspace/.output/chainscope
N=host.shutdown

if ! make -s -C "$REPO/userspace" .output/chainscope >"$TMP/build" 2>&1; then
	echo "FAIL: $N.build: make -C userspace .output/chainscope: $(tail -n 1 "$TMP/build")"
	exit 0
fi
python3 "$REPO/userspace/tests/gen/genconsole.py" "$REPO/include-trace/trace/events/notifier.h" \
	shutdown "$TMP/console.log" || { echo "FAIL: $N.gen: genconsole.py shutdown failed"; exit 0; }

# guest DIR [CALLBACK:PRIO...]: an armed guest whose chains.json lists these blocks
guest() {
	local d=$1 cb blocks="" sep=""
	shift
	mkdir -p "$d/shutdown"
	echo "tracepoint_printk 1" >"$d/shutdown/armed"
	for cb in "$@"; do
		blocks+="$sep{\"priority\":${cb#*:},\"callback\":\"${cb%%:*}\",\"nb\":\"0xff1\"}"
		sep=,
	done
	echo "{\"type\":\"chains\",\"chains\":[{\"chain\":\"reboot_notifier_list\",\"kind\":\"blocking\",\"blocks\":[$blocks]}]}" \
		>"$d/shutdown/chains.json"
}
# expect CASE PATTERN DIR LOG [CHAINSCOPE]: shutdown.py's one line matches PATTERN
expect() {
	local out
	out=$(python3 "$Q/shutdown.py" t "$3" "$4" "${5:-$CS}" 2>&1)
	if [ "$(grep -c '' <<<"$out")" = 1 ] && grep -Eq -- "$2" <<<"$out"; then
		echo "PASS: $N.$1"
	else
		echo "FAIL: $N.$1: want /$2/, got: ${out:0:300}"
	fi
}
ORDER="tts_notify_reboot:0 perf_reboot:-2147483648"

# shellcheck disable=SC2086
guest "$TMP/ok" $ORDER
expect pass '^PASS: t: reboot_notifier_list \(blocking, val=3\) at 229\.000000 s, 1249us: tts_notify_reboot \(prio 0\) 1204us ret=0, perf_reboot \(prio -2147483648\) 37us ret=0; in chainscope chains. order; check --console clean$' \
	"$TMP/ok" "$TMP/console.log"

mkdir -p "$TMP/err/shutdown"
echo "not booted with tp_printk" >"$TMP/err/shutdown/error"
expect not-armed '^FAIL: t: the guest did not arm: not booted with tp_printk$' "$TMP/err" "$TMP/console.log"
expect no-results '^FAIL: t: no armed shutdown in the guest' "$TMP/nothing" "$TMP/console.log"

guest "$TMP/other" tts_notify_reboot:0 perf_reboot:-2147483648 fw_shutdown_notify:0
expect missing '^FAIL: t: 0 blocking passes with val=3 \(SYS_POWER_OFF\) running reboot_notifier_list' \
	"$TMP/other" "$TMP/console.log"

guest "$TMP/reversed" perf_reboot:-2147483648 tts_notify_reboot:0
expect order "^FAIL: t: ran \[\('tts_notify_reboot', 0\), \('perf_reboot', -2147483648\)\], chainscope chains lists" \
	"$TMP/reversed" "$TMP/console.log"

# the events themselves in rising priority (and chains.json alike)
sed 's/priority=-2147483648/priority=5/' "$TMP/console.log" >"$TMP/rise.log"
guest "$TMP/rise" tts_notify_reboot:0 perf_reboot:5
expect priorities '^FAIL: t: priorities rise in run order: \[0, 5\] \(guest: tracepoint_printk 1\)$' "$TMP/rise" "$TMP/rise.log"

grep -v 'notifier_return: tts_notify_reboot' "$TMP/console.log" >"$TMP/noret.log"
expect no-return '^FAIL: t: callbacks without a run time or return: tts_notify_reboot \(guest: tracepoint_printk 1\)$' \
	"$TMP/ok" "$TMP/noret.log"

grep -v 'notifier_call_end: head=00000000c0ffee11' "$TMP/console.log" >"$TMP/noend.log"
expect no-end "^FAIL: t: reboot_notifier_list's pass has no end" "$TMP/ok" "$TMP/noend.log"

# check --console failing (a CLI whose check exits 1)
printf '#!/bin/sh\n[ "$1" = check ] && { echo "1 violation"; exit 1; }\nexec "%s" "$@"\n' "$CS" \
	>"$TMP/cs-check-fails"
chmod +x "$TMP/cs-check-fails"
expect check '^FAIL: t: chainscope check --console exit 1: 1 violation \(guest: tracepoint_printk 1\)$' "$TMP/ok" "$TMP/console.log" \
	"$TMP/cs-check-fails"

expect no-console '^FAIL: t: chainscope report --passes --console exit 12: .*cannot read' "$TMP/ok" "$TMP/none.log"

# --panic, on a real 6.1 panic boot's console (qemu/tests/data/panic-61:
# plan-panic.sh's results and the console's last lines)
P=$Q/tests/data/panic-61
expect_panic() { # expect_panic NAME REGEX CONSOLE
	local out
	out=$(python3 "$Q/shutdown.py" --panic t "$P/guest" "$3" "$CS" 2>&1)
	if [ "$(grep -c '' <<<"$out")" = 1 ] && grep -Eq -- "$2" <<<"$out"; then
		echo "PASS: $N.$1"
	else
		echo "FAIL: $N.$1: want /$2/, got: ${out:0:300}"
	fi
}
expect_panic panic-pass '^PASS: t: panic_notifier_list \(atomic, val=0\) at 7\.210784 s, 1871us: trace_panic_handler \(prio 150\) 407us ret=1, rcu_panic \(prio 0\) 104us ret=0, dump_kernel_offset \(prio 0\) 144us ret=0; in chainscope chains. order; check --console clean$' \
	"$P/console.log"
# every line of the pass with one timestamp: a clock that stood still
sed -E '/notifier_/s/^\[ *[0-9]+\.[0-9]+\]/[    7.210784]/' "$P/console.log" >"$TMP/frozen.log"
expect_panic panic-frozen-clock "^FAIL: t: panic_notifier_list's pass took 0 us: the console's clock stood still" \
	"$TMP/frozen.log"
grep -v 'notifier_run: rcu_panic' "$P/console.log" >"$TMP/panic-norun.log"
expect_panic panic-callback-missing '^FAIL: t: 0 atomic passes with val=0 \(panic\(\).s 0\) running panic_notifier_list.s trace_panic_handler,rcu_panic,dump_kernel_offset' \
	"$TMP/panic-norun.log"
