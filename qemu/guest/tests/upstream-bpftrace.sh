#!/bin/sh
# A bpftrace one-liner written for UPSTREAM's (6.4+) notifier_run, on
# args->cb (upstream/count.bt), runs unchanged with Debian 12's bpftrace.
# The test starts bpftrace, waits until its program is on the tracepoint
# (bpftool perf; bpftrace's "Attaching" line stays in its stdout buffer
# while stdout is a file), runs the trigger and stops bpftrace with
# SIGINT, upon which it prints its maps.
. /chainscope/upstream/lib.sh
need_events
need_tool bpftrace
echo "bpftrace: $(bpftrace --version)"
bpftrace $U/count.bt >/tmp/bt.out 2>/tmp/bt.err &
pid=$!
tries=0
until bpftool perf show 2>/dev/null | grep -q "pid $pid .*notifier_run"; do
	kill -0 $pid 2>/dev/null ||
		fail "bpftrace: died before attaching: $(tail -n3 /tmp/bt.err | tr '\n' ' ')"
	tries=$((tries + 1))
	if [ $tries -gt 600 ]; then
		kill -KILL $pid
		fail "bpftrace: not attached after 600 tries"
	fi
	sleep 1
done
echo "bpftrace: attached after $tries tries"
sh $U/trigger.sh
kill -INT $pid
wait $pid || fail "bpftrace: exit $?: $(tail -n3 /tmp/bt.err | tr '\n' ' ')"
cp /tmp/bt.out /out/upstream-bpftrace.txt
sed -n 's/^@\[\(.*\)\]: \([0-9]*\)$/\2 \1/p' /tmp/bt.out >/tmp/bt.counts
check_counts "bpftrace args->cb" /tmp/bt.counts
