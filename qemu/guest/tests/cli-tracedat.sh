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

if ! [ -d /sys/kernel/tracing/events/notifier ]; then
	[ "$CS_VARIANT" = stock ] && [ "$(uname -r | awk -F. '{ print $1 * 1000 + $2 }')" -lt 6004 ] &&
		skip "stock $(uname -r) has no notifier events (upstream added them in 6.4)"
	fail "$CS_VARIANT $(uname -r) has no notifier events in tracefs"
fi
if ! command -v trace-cmd > /dev/null; then
	[ -d /chainscope/tools-upstream ] &&
		fail "trace-cmd is missing from an initramfs built with CS_GUEST_TOOLS=upstream"
	skip "trace-cmd is not in this guest's initramfs (only CS_GUEST_TOOLS=upstream guests have it; the debug soak's has not)"
fi
loadgen
rm -f /out/cli-tracedat.*

B=cs_loadgen_blocking
R=cs_loadgen_raw
A=cs_loadgen_atomic
# probes mode (stock) attaches the callbacks of these chains when it
# starts, so the blocks are registered before chainscope record starts
CHAINS="-c $B:blocking -c $R:raw -c $A:atomic"

# Inside trace-cmd's recording: register the blocks (trace.dat sees the
# registrations, so check can seed membership from them), record the
# calls with chainscope, keep the module's counts, unregister.
cat > "$W/calls.sh" <<LOAD
set -e
C=$CTL
echo "call blocking 20 val=1" > \$C
echo "call raw 10" > \$C
echo "robust raw 5 val_up=1 val_down=2" > \$C
echo "call atomic 5" > \$C
echo "irq atomic 20" > \$C
echo "irq raw 10" > \$C
echo "timer atomic 10" > \$C
echo "call srcu 10" > \$C
echo "call blocking 5" > \$C
LOAD
cat > "$W/scenario.sh" <<LOAD
C=$CTL
for b in "blocking busy prio=10 delay_us=300" "blocking fast" "raw fast prio=5" \
	"raw veto" "raw fast2 prio=-1" "atomic nest nest=raw" "atomic fast2" "srcu fast"; do
	echo "add \$b" > \$C || { echo "scenario: add \$b failed"; exit 1; }
done
"$CS" record $CHAINS -c cs_loadgen_srcu:srcu -o "$W/t.cstrace" -- sh "$W/calls.sh" \
	> "$W/rec.out" 2> "$W/rec.err"
rc=\$?
cat $LG/stats > "$W/stats"
echo clear > \$C || { echo "scenario: clear failed"; exit 1; }
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
grep -q "(command exited 0)" "$W/rec.out" || fail "chainscope record's command failed: $(tail -n 1 "$W/rec.out")"
[ -s "$W/t.dat" ] || fail "trace-cmd wrote no $W/t.dat"
mode=$(sed -n 's/^Tracing notifier events into .* (mode \([a-z]*\): .*/\1/p' "$W/rec.err" | head -n 1)
case "$CS_VARIANT.$mode" in
stock.probes | chainscope.tracepoints) ;;
*) fail "chainscope record on $CS_VARIANT used mode '$mode'" ;;
esac
cp "$W/t.dat" /out/cli-tracedat.dat
cp "$W/t.cstrace" /out/cli-tracedat.cstrace
cp "$W/stats" /out/cli-tracedat.stats
{
	echo "variant=$CS_VARIANT"
	echo "release=$(uname -r)"
	echo "mode=$mode"
	echo "trace-cmd=$(trace-cmd --version 2>&1 | sed -n 's/^trace-cmd version //p')"
	grep '^recorded ' "$W/rec.out"
} > /out/cli-tracedat.info
cat /out/cli-tracedat.info
cat /out/cli-tracedat.stats
echo "recorded both: /out/cli-tracedat.dat ($(wc -c < /out/cli-tracedat.dat) bytes), /out/cli-tracedat.cstrace; the host compares them"
cs_cleanup
