#!/bin/sh
# Programs and parsers written for UPSTREAM's (6.4+) notifier events run
# unchanged: a tp_btf and a raw_tp program on upstream's prototype
# (void *cb) (bpf/tests/upstream_notifier.bpf.c), and a text parser that
# takes the callback name as the first token after "notifier_run: ".
# Skips on a stock kernel before 6.4. The tools' scripts are
# upstream-bpftrace.sh, upstream-perf.sh and upstream-trace-cmd.sh.
. /chainscope/upstream/lib.sh
need_events
grep -q "field:void \\* cb;$(printf '\t')offset:8;" $T/events/notifier/notifier_run/format ||
	fail "notifier_run: cb is not the first field"

for kind in tp_btf raw_tp; do
	cs-upstream-load $kind -- sh $U/trigger.sh >/tmp/up-$kind.txt ||
		fail "$kind: the program for upstream's prototype did not run"
	cp /tmp/up-$kind.txt /out/upstream-$kind.txt
	check_counts "$kind program (void *cb)" /tmp/up-$kind.txt
done

echo > $T/trace
echo 1 > $T/events/notifier/notifier_run/enable
sh $U/trigger.sh
echo 0 > $T/events/notifier/notifier_run/enable
cp $T/trace /out/upstream-trace.txt
sh $U/cbnames.sh </out/upstream-trace.txt >/tmp/up-names.txt
check_names "tracefs text parser" /tmp/up-names.txt
