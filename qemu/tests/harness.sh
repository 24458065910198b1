#!/usr/bin/env bash
# Host tests of the guest harness's parsers: console badness scan and
# KTAP conversion. Prints one PASS/FAIL line per case.
set -uo pipefail
Q=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

check() { # check NAME CONDITION-RESULT DETAIL
	if [ "$2" = 0 ]; then echo "PASS: host.harness.$1"; else echo "FAIL: host.harness.$1: $3"; fi
}

# --- badness.sh ---------------------------------------------------------
cat >"$TMP/clean.log" <<'LOG'
[    0.000000] Linux version 6.1.192
[    1.234567] chainscope-guest: plan=test
LOG
"$Q/badness.sh" "$TMP/clean.log" >/dev/null
check badness-clean-log-passes $? "clean log flagged"

cat >"$TMP/warn.log" <<'LOG'
[    2.000000] ------------[ cut here ]------------
[    2.000001] cs_selftest: deliberate warning
[    2.000002] WARNING: CPU: 0 PID: 1 at cs_selftest.c:20 cs_selftest_init+0x1/0x2
[    2.000003] Call Trace:
[    2.000009] ---[ end trace 0000000000000000 ]---
LOG
out=$("$Q/badness.sh" "$TMP/warn.log"); rc=$?
[ $rc = 1 ] && grep -q 'WARNING: CPU: 0' <<<"$out"
check badness-unannounced-warn-fails $? "rc=$rc out=$out"

{ echo "[    1.900000] notifier_kunit: expect WARN: cs_selftest: deliberate warning"; cat "$TMP/warn.log"; } >"$TMP/announced.log"
"$Q/badness.sh" "$TMP/announced.log" >/dev/null
check badness-announced-warn-excused $? "announced WARN flagged"

{ echo "[    1.900000] expect WARN: cs_selftest: another text"; cat "$TMP/warn.log"; } >"$TMP/mismatch.log"
out=$("$Q/badness.sh" "$TMP/mismatch.log"); rc=$?
[ $rc = 1 ] && grep -q 'never appeared: cs_selftest: another text' <<<"$out" &&
	grep -q 'WARNING:' <<<"$out"
check badness-announcement-must-match-exactly $? "rc=$rc out=$out"

# One announcement excuses one splat, not two.
{ echo "[    1.900000] expect WARN: cs_selftest: deliberate warning"; cat "$TMP/warn.log" "$TMP/warn.log"; } >"$TMP/twice.log"
out=$("$Q/badness.sh" "$TMP/twice.log"); rc=$?
[ $rc = 1 ] && [ "$(grep -c 'WARNING:' <<<"$out")" = 1 ]
check badness-one-announcement-one-splat $? "rc=$rc out=$out"

for pat in "BUG: KASAN: slab-out-of-bounds in foo+0x1/0x2" \
	"BUG: kernel NULL pointer dereference, address: 0000000000000000" \
	"Oops: 0002 [#1] PREEMPT SMP" "WARNING: suspicious RCU usage" \
	"WARNING: possible circular locking dependency detected" \
	"rcu: INFO: rcu_sched self-detected stall on CPU" \
	"UBSAN: shift-out-of-bounds in lib/foo.c:1:2" \
	"BUG: sleeping function called from invalid context at kernel/notifier.c:1" \
	"INFO: trying to register non-static key." \
	"Kernel panic - not syncing: Fatal exception"; do
	printf '[    3.000000] %s\n' "$pat" >"$TMP/one.log"
	"$Q/badness.sh" "$TMP/one.log" >/dev/null
	[ $? = 1 ]
	check "badness-detects-$(echo "$pat" | tr -cs 'a-zA-Z0-9\n' '-' | cut -c1-30)" $? "not flagged: $pat"
done

# An announced panic (the panic plan's sysrq c) is excused, and only it,
# and only with --panic-ok (run.sh: plans panic and persist).
cat >"$TMP/panic.log" <<'LOG'
[    5.000000] sysrq: Trigger a crash
[    5.000001] Kernel panic - not syncing: sysrq triggered crash
[    5.000002] CPU: 0 PID: 80 Comm: sh Not tainted 6.1.192 #1
[    5.000003] Call Trace:
[    5.000004]  <TASK>
[    5.000005]  panic+0x10c/0x2c4
[    5.000006] notifier_call_begin: head=000000007c1f2a11 kind=atomic val=0 nr_to_call=-1 type=plain
[    5.000007] Kernel Offset: disabled
LOG
B() { "$Q/badness.sh" "$@"; }
out=$(B --panic-ok "$TMP/panic.log"); rc=$?
[ $rc = 1 ] && grep -q 'Kernel panic - not syncing: sysrq triggered crash' <<<"$out"
check badness-unannounced-panic-fails $? "rc=$rc out=$out"
ANN="[    4.900000] chainscope-guest: expect PANIC: sysrq triggered crash"
{ echo "$ANN"; cat "$TMP/panic.log"; } >"$TMP/panic-ok.log"
out=$(B --panic-ok "$TMP/panic-ok.log"); rc=$?
check badness-announced-panic-excused $rc "rc=$rc out=$out"
{ cat "$TMP/panic-ok.log"; echo "[    5.000009] ---[ end Kernel panic - not syncing: sysrq triggered crash ]---"; } >"$TMP/panic-end.log"
out=$(B --panic-ok "$TMP/panic-end.log"); rc=$?
check badness-announced-panic-end-line-excused $rc "rc=$rc out=$out"
out=$(B "$TMP/panic-ok.log"); rc=$?
[ $rc = 1 ] && grep -q 'Kernel panic - not syncing' <<<"$out"
check badness-announced-panic-needs-panic-ok $? "rc=$rc out=$out"
{ echo "[    4.900000] cli-foo: grep output: expect PANIC: sysrq triggered crash"; cat "$TMP/panic.log"; } >"$TMP/panic-unanchored.log"
out=$(B --panic-ok "$TMP/panic-unanchored.log"); rc=$?
[ $rc = 1 ] && grep -q 'Kernel panic' <<<"$out"
check badness-panic-announcement-anchored $? "rc=$rc out=$out"
{ echo "[    4.900000] chainscope-guest: expect PANIC: Fatal exception"; cat "$TMP/panic.log"; } >"$TMP/panic-other.log"
out=$(B --panic-ok "$TMP/panic-other.log"); rc=$?
[ $rc = 1 ] && grep -q 'never appeared: Fatal exception' <<<"$out" &&
	grep -q 'Kernel panic - not syncing: sysrq triggered crash' <<<"$out"
check badness-announced-panic-must-match $? "rc=$rc out=$out"
{ echo "$ANN"; sed '/panic+0x10c/a [    5.000005] WARNING: CPU: 0 PID: 80 at foo.c:1 panic_cb+0x1/0x2' "$TMP/panic.log"; } >"$TMP/panic-warn.log"
out=$(B --panic-ok "$TMP/panic-warn.log"); rc=$?
[ $rc = 1 ] && grep -q 'WARNING: CPU: 0 PID: 80' <<<"$out" && ! grep -q 'Kernel panic' <<<"$out"
check badness-warn-inside-announced-panic-fails $? "rc=$rc out=$out"
{ cat "$TMP/panic-ok.log"; echo "[    5.100000] NMI backtrace for cpu 1"; echo "[    5.100001] Call Trace:"; } >"$TMP/panic-2trace.log"
out=$(B --panic-ok "$TMP/panic-2trace.log"); rc=$?
[ $rc = 1 ] && [ "$(grep -c 'Call Trace:' <<<"$out")" = 1 ]
check badness-second-stack-after-panic-fails $? "rc=$rc out=$out"
{ echo "$ANN"; echo "[    2.000000] chainscope-guest: plan exited 0"; } >"$TMP/panic-none.log"
out=$(B --panic-ok "$TMP/panic-none.log"); rc=$?
[ $rc = 1 ] && grep -q 'announced panic never appeared' <<<"$out"
check badness-announced-panic-missing-fails $? "rc=$rc out=$out"
{ echo "$ANN"; cat "$TMP/panic.log" "$TMP/panic.log"; } >"$TMP/panic-twice.log"
out=$(B --panic-ok "$TMP/panic-twice.log"); rc=$?
[ $rc = 1 ] && grep -q 'Kernel panic' <<<"$out"
check badness-one-announced-panic-only $? "rc=$rc out=$out"

# --- ktap.sh ------------------------------------------------------------
cat >"$TMP/notifier_api.ktap" <<'KTAP'
    # Subtest: notifier_api
    1..4
    ok 1 notifier_test_order
    not ok 2 notifier_test_stop
    ok 3 notifier_test_tp # SKIP notifier tracepoints not present
        # Subtest: notifier_test_param
        ok 1 a
        ok 2 b
    ok 4 notifier_test_param
ok 1 notifier_api
KTAP
out=$("$Q/ktap.sh" chainscope.kunit "$TMP/notifier_api.ktap")
want="PASS: chainscope.kunit.notifier_api.notifier_test_order
FAIL: chainscope.kunit.notifier_api.notifier_test_stop
SKIP: chainscope.kunit.notifier_api.notifier_test_tp: notifier tracepoints not present
PASS: chainscope.kunit.notifier_api.notifier_test_param"
[ "$out" = "$want" ]
check ktap-cases-pass-fail-skip $? "got: $out"

head -n 4 "$TMP/notifier_api.ktap" >"$TMP/crashed.ktap"
out=$("$Q/ktap.sh" x "$TMP/crashed.ktap")
grep -qx 'FAIL: x.crashed: 2 of 4 cases reported (crash?)' <<<"$out"
check ktap-truncated-suite-fails $? "got: $out"

: >"$TMP/empty.ktap"
out=$("$Q/ktap.sh" x "$TMP/empty.ktap")
grep -qx 'FAIL: x.empty: no test case results' <<<"$out"
check ktap-empty-suite-fails $? "got: $out"
