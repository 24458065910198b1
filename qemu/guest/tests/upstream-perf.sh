#!/bin/sh
# 'perf record -e notifier:notifier_run' and 'perf script' with Debian
# 12's perf, parsed by the text parser written for UPSTREAM's (6.4+)
# notifier_run (upstream/cbnames.sh).  perf record needs eventfd(2): on a
# kernel without CONFIG_EVENTFD the test only checks that 'perf stat'
# counts the event, and skips and says so.
. /chainscope/upstream/lib.sh
need_events
need_tool perf
cd /tmp || fail "no /tmp"
if ! perf record -a -e notifier:notifier_run -o /tmp/perf.data -- \
		sh $U/trigger.sh 2>/tmp/perf.err; then
	if grep -q 'eventfd, error: Function not implemented' /tmp/perf.err; then
		echo "perf record needs eventfd(2); this kernel has no CONFIG_EVENTFD:" \
			"$(grep eventfd /tmp/perf.err)"
		# What perf can do here: open and count the event.
		perf stat -x, -a -e notifier:notifier_run -- sh $U/trigger.sh \
			2>/tmp/perf.stat || fail "perf stat: $(tail -n3 /tmp/perf.stat)"
		n=$(grep 'notifier:notifier_run' /tmp/perf.stat | cut -d, -f1)
		[ "${n:-0}" -gt 0 ] 2>/dev/null ||
			fail "perf stat counted no notifier:notifier_run: $(cat /tmp/perf.stat)"
		echo "perf stat: $n notifier:notifier_run events"
		exit 77
	fi
	fail "perf record: $(tail -n5 /tmp/perf.err | tr '\n' ' ')"
fi
echo "perf: $(perf version)"
perf script -i /tmp/perf.data >/tmp/perf.txt 2>/tmp/perf.err ||
	fail "perf script: $(tail -n3 /tmp/perf.err | tr '\n' ' ')"
cp /tmp/perf.txt /out/upstream-perf-script.txt
sh $U/cbnames.sh </tmp/perf.txt >/tmp/perf.names
check_names "perf script parser" /tmp/perf.names
