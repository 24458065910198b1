#!/bin/sh
# 'trace-cmd record -e notifier:notifier_run' and 'trace-cmd report' with
# Debian 12's trace-cmd, parsed by the text parser written for UPSTREAM's
# (6.4+) notifier_run (upstream/cbnames.sh). The command waits for
# trace-cmd's recorders before it changes the link (upstream/tc-ready.sh).
. /chainscope/upstream/lib.sh
need_events
need_tool trace-cmd
echo "trace-cmd: $(trace-cmd --version 2>&1 | grep '^trace-cmd version')"
cd /tmp || fail "no /tmp"
trace-cmd record -q -e notifier:notifier_run -o /tmp/trace.dat \
	sh -c "sh $U/tc-ready.sh && sh $U/trigger.sh" >/tmp/tc.err 2>&1 ||
	fail "trace-cmd record: $(tail -n3 /tmp/tc.err | tr '\n' ' ')"
# (trace-cmd does not pass on its command's exit status)
! grep '^tc-ready:' /tmp/tc.err || fail "trace-cmd record's command did not run"
trace-cmd report -i /tmp/trace.dat >/tmp/tc.txt 2>/tmp/tc.err ||
	fail "trace-cmd report: $(tail -n3 /tmp/tc.err | tr '\n' ' ')"
cp /tmp/tc.txt /out/upstream-trace-cmd-report.txt
sh $U/cbnames.sh </tmp/tc.txt >/tmp/tc.names
check_names "trace-cmd report parser" /tmp/tc.names
