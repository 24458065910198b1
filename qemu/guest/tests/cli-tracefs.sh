#!/bin/sh
# report and check --tracefs: the live ring buffer, the notifier:* events
# enabled by hand through tracefs, against 'chainscope record' of the same
# run. Three buffers get the same events: the top one (report -j
# --tracefs, DIR the default), instance cs_rep (report --tracefs DIR:
# text, whose runs: lines are all a stock kernel's events give) and
# instance cs_chk (check --tracefs DIR). The events are on before the
# blocks are registered and chainscope record starts, and still on when
# the buffers are read after it ended: the buffers' window holds the
# recording's, and no wait on a clock decides anything.
#
# Here: each read exits 0 and says it read the ring buffer; a second read
# finds the scenario consumed; refusals (a DIR that is no tracefs, the
# events off, no privileges) each exit with their code and one line.
# On the host (qemu/tracedat_agree.py PREFIX DIR CS cli-tracefs): the
# same callbacks as the .cstrace and the module's counters, counts within
# the losses, check clean (<guest>.cli-tracefs.host.*).
#   /out/cli-tracefs.report.json, .report.err    report -j --tracefs
#   /out/cli-tracefs.report.txt, .report-text.err report --tracefs INSTANCE
#   /out/cli-tracefs.check.txt                   check --tracefs INSTANCE (+ stderr)
#   /out/cli-tracefs.cstrace, .stats, .info      as cli-tracedat's
. /chainscope/tests/cli-common.inc
. /chainscope/tests/kernel-trace.inc

T=/sys/kernel/tracing
R1=$T/instances/cs_rep
R2=$T/instances/cs_chk
R3=$T/instances/cs_loss
top_kb=$(sed "s/.*expanded: \([0-9]*\).*/\1/; s/ .*//" $T/buffer_size_kb)
# the tracefs state goes back as it was on every way out
tf_cleanup() {
	for d in $T $R1 $R2 $R3; do
		[ -d "$d" ] && echo 0 > "$d/events/notifier/enable" 2>/dev/null
	done
	rmdir $R1 $R2 $R3 2>/dev/null
	echo "$top_kb" > $T/buffer_size_kb 2>/dev/null
	echo > $T/trace 2>/dev/null
}
fail() {
	tf_cleanup
	cs_cleanup
	echo "FAIL: $*"
	exit 1
}
kt_need_events
loadgen
rm -f /out/cli-tracefs.*

# buffers: off, emptied, 4 MiB per CPU, local clock, notifier:* on
rmdir $R1 $R2 2>/dev/null
mkdir $R1 $R2 || fail "cannot make the instances"
for d in $T $R1 $R2; do
	echo 0 > $d/tracing_on &&
		echo 4096 > $d/buffer_size_kb &&
		echo local > $d/trace_clock &&
		echo > $d/trace &&
		echo 1 > $d/events/notifier/enable &&
		echo 1 > $d/tracing_on || fail "cannot set up $d"
done
echo "enabled: $(cat $T/events/notifier/enable) in $T, $(cat $R1/events/notifier/enable) in $R1, $(cat $R2/events/notifier/enable) in $R2"

kt_write_calls
echo stop > "$CTL" 2>/dev/null
ctl clear
kt_add_blocks || fail "cannot register the blocks"
kt_record
rc=$?
ctl clear
cat "$W/rec.err" "$W/rec.out"
expect_eq "chainscope record exit" "$rc" 0
kt_mode

# the three reads, each of its own buffer
"$CS" report -j --tracefs > /out/cli-tracefs.report.json 2> /out/cli-tracefs.report.err
rc=$?
cat /out/cli-tracefs.report.err
expect_eq "report -j --tracefs exit" "$rc" 0
grep -q "^chainscope report: $T: tracefs, the live ring buffer (consumed), clock local: " \
	/out/cli-tracefs.report.err || fail "report -j --tracefs: no note that it read $T"
"$CS" report --tracefs $R1 > /out/cli-tracefs.report.txt 2> /out/cli-tracefs.report-text.err
rc=$?
cat /out/cli-tracefs.report-text.err
expect_eq "report --tracefs $R1 exit" "$rc" 0
grep -q "^chainscope report: $R1: tracefs, the live ring buffer (consumed), clock local: " \
	/out/cli-tracefs.report-text.err || fail "report --tracefs $R1: no note that it read it"
"$CS" check --tracefs=$R2 > /out/cli-tracefs.check.txt 2>&1
check_rc=$?
cat /out/cli-tracefs.check.txt
grep -Eq "^chainscope check: note: $R2: (.*ring buffer has no membership snapshot: membership is seeded|upstream's notifier events name no chain)" \
	/out/cli-tracefs.check.txt || fail "check --tracefs: no note on membership"

# consumed: a second read of the same buffer has nothing of the scenario
"$CS" report --tracefs $R1 > "$W/again.txt" 2> "$W/again.err"
rc=$?
cat "$W/again.err"
expect_eq "second report --tracefs $R1 exit" "$rc" 0
grep -q "cs_loadgen_cb_" /out/cli-tracefs.report.txt || fail "the first read has no cs_loadgen callback"
! grep -q "cs_loadgen_cb_" "$W/again.txt" || fail "the second read found the scenario again: not consumed"
echo "ok: the second read of $R1 has none of the scenario's callbacks (consumed)"

# losses: an instance of two pages per CPU (overwrite mode, the default)
# gets a few thousand events more than it holds (stock: notifier_run
# alone, 24 bytes each), all from one task, so the
# writer overruns the reader and its next page carries the missed events
# (the kernel counts them): they must come out as loss markers
rmdir $R3 2>/dev/null
mkdir $R3 || fail "cannot make $R3"
echo 8 > $R3/buffer_size_kb && echo local > $R3/trace_clock &&
	echo 1 > $R3/events/notifier/enable || fail "cannot set up $R3"
ctl "add raw fast"
ctl "call raw 2000"
ctl clear
"$CS" report -j --tracefs $R3 > "$W/loss.json" 2> "$W/loss.err"
rc=$?
echo 0 > $R3/events/notifier/enable
rmdir $R3
cat "$W/loss.err"
expect_eq "report -j --tracefs $R3 (overrun) exit" "$rc" 0
grep -q ': tracefs, the live ring buffer (consumed), clock local: .* [1-9][0-9]* loss markers' "$W/loss.err" ||
	fail "the overrun buffer gave no loss marker"
lost=$(grep -o '"lost":[0-9]*' "$W/loss.json" | head -n 1 | cut -d: -f2)
expect_ge "events lost in the overrun buffer (report -j)" "$lost" 1

# refusals, one line each
expect_exit() { # expect_exit WHAT CODE PATTERN CMD...
	what=$1 want=$2 pat=$3
	shift 3
	"$@" > "$W/x.out" 2> "$W/x.err"
	rc=$?
	cat "$W/x.err"
	expect_eq "$what: exit" "$rc" "$want"
	expect_eq "$what: lines on stderr" "$(wc -l < "$W/x.err")" 1
	grep -Eq -- "$pat" "$W/x.err" || fail "$what: stderr does not match '$pat'"
}
expect_exit "a DIR that is no tracefs" 2 ": --tracefs: not a tracefs directory or instance" \
	"$CS" report --tracefs /tmp
echo 0 > $R2/events/notifier/enable
expect_exit "events off in $R2" 16 "no notifier:\* event is enabled there" "$CS" check --tracefs $R2
expect_exit "as nobody" 3 "--tracefs: cannot read .*: Permission denied: reading \(and consuming\) the ring buffer takes root" \
	/chainscope/bin/setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	--bounding-set=-all -- "$CS" report --tracefs

kt_save cli-tracefs "check_rc=$check_rc"
tf_cleanup
cs_cleanup
echo "read the three buffers; the host compares them with the recording"
