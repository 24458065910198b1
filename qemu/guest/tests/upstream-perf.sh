#!/bin/sh
# 'perf record -e notifier:notifier_run' and 'perf script' with Debian
# 12's perf, parsed by the text parser written for UPSTREAM's (6.4+)
# notifier_run (upstream/cbnames.sh). The guests have CONFIG_EVENTFD,
# which perf record needs: any failure to record is a failure.
. /chainscope/upstream/lib.sh
need_events
need_tool perf
cd /tmp || fail "no /tmp"
perf record -a -e notifier:notifier_run -o /tmp/perf.data -- \
	sh $U/trigger.sh 2>/tmp/perf.err ||
	fail "perf record: $(tail -n5 /tmp/perf.err | tr '\n' ' ')"
echo "perf: $(perf version)"
perf script -i /tmp/perf.data >/tmp/perf.txt 2>/tmp/perf.err ||
	fail "perf script: $(tail -n3 /tmp/perf.err | tr '\n' ' ')"
cp /tmp/perf.txt /out/upstream-perf-script.txt
sh $U/cbnames.sh </tmp/perf.txt >/tmp/perf.names
check_names "perf script parser" /tmp/perf.names
