#!/bin/sh
# The kernel's own trace format against ours, of the same run:
# 'trace-cmd record -e notifier' and 'chainscope record' over one
# cs_loadgen scenario, at the same time. trace-cmd runs the whole
# scenario as its command (it enables the events before it starts it),
# and chainscope record runs the calls as its own (it attaches before
# it starts them): trace-cmd's window holds chainscope's, and no wait
# on a clock decides anything.
#
# The guest only records and says what it did; the files go to /out and
# the host (qemu/tracedat_agree.py, from qemu/test.sh) reads both with
# its own chainscope build: the same callbacks, counts within the losses
# each reports, check clean on both (<guest>.cli-tracedat.host.*).
#   /out/cli-tracedat.dat       trace-cmd record -e notifier
#   /out/cli-tracedat.cstrace   chainscope record (ours: tracepoints, stock: probes)
#   /out/cli-tracedat.stats     cs_loadgen's own per-block call counts
#   /out/cli-tracedat.info      variant, release, mode, the record summary
# Stock 6.1 has no notifier events: skip. A guest without trace-cmd in
# its initramfs (the debug soak's) skips; one built with
# CS_GUEST_TOOLS=upstream fails without it.
. /chainscope/tests/cli-common.inc
. /chainscope/tests/kernel-trace.inc

kt_need_events
if ! command -v trace-cmd > /dev/null; then
	[ -d /chainscope/tools-upstream ] &&
		fail "trace-cmd is missing from an initramfs built with CS_GUEST_TOOLS=upstream"
	skip "trace-cmd is not in this guest's initramfs (only CS_GUEST_TOOLS=upstream guests have it; the debug soak's has not)"
fi
loadgen
rm -f /out/cli-tracedat.*

# Inside trace-cmd's recording, once its recorders read (tc-ready.sh
# says why it waits for them): register the blocks (trace.dat sees the
# registrations, so check can seed membership from them), record the
# calls with chainscope, keep the module's counts, unregister.
kt_write_calls
cat > "$W/scenario.sh" <<LOAD
sh /chainscope/upstream/tc-ready.sh || exit 1
CS=$CS LG=$LG CTL=$CTL W=$W
. /chainscope/tests/kernel-trace.inc
kt_add_blocks || exit 1
kt_record
rc=\$?
echo clear > $CTL || { echo "scenario: clear failed"; exit 1; }
exit \$rc
LOAD

echo stop > "$CTL" 2>/dev/null
ctl clear
cd "$W" || fail "no $W"
# -C local: the default clock, said explicitly (a .cstrace's is monotonic;
# report says which clock a trace.dat used and refuses what it cannot read)
trace-cmd record -q -e notifier -C local -o "$W/t.dat" sh "$W/scenario.sh" \
	> "$W/tc.out" 2> "$W/tc.err"
rc=$?
cat "$W/tc.out" "$W/tc.err" "$W/rec.err" "$W/rec.out"
expect_eq "trace-cmd record (whose command is the scenario) exit" "$rc" 0
# (trace-cmd does not pass on its command's exit status)
! grep '^tc-ready:' "$W/tc.err" || fail "trace-cmd record's scenario did not run"
[ -s "$W/t.dat" ] || fail "trace-cmd wrote no $W/t.dat"
kt_mode
cp "$W/t.dat" /out/cli-tracedat.dat || fail "cannot copy the trace.dat to /out"
kt_save cli-tracedat "trace-cmd=$(trace-cmd --version 2>&1 | sed -n 's/^trace-cmd version //p')"
echo "recorded both: /out/cli-tracedat.dat ($(wc -c < /out/cli-tracedat.dat) bytes), /out/cli-tracedat.cstrace; the host compares them"
cs_cleanup
