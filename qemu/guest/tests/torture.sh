#!/bin/sh
# The notifier torture module (kernel/modules/notifier_torture): load it
# with every test and report one result per test, which the module prints
# as "notifier_torture: result NAME PASS|FAIL|SKIP[: DETAIL]", as
# "$CS_VARIANT.torture.NAME" lines of /out/results.txt (the plan adds
# this script's own, $CS_VARIANT.torture).  A test that printed no line,
# or a load whose status disagrees with the results, fails.
#
# warn_cases=1 runs double_register, whose WARN the module announces
# ("expect WARN: ..."): the console check excuses that one splat only.
# On our kernels the refused registration must also have emitted the
# notifier_register_error event for the module's callback, with the
# head, block and priority the module printed and err=-17 (the pointers
# as the kernel prints them: hashed, or "(____ptrval____)" while the
# hash key is not ready, as in a guest short of entropy; the priority
# is one no other block has): result
# $CS_VARIANT.torture.double_register_event (skipped on stock kernels,
# which have no such event).
#
# On our kernels every notifier event is enabled (in the main trace
# buffer) while the module runs, so that all its tests, the stress ones
# above all, go through the traced walk with every event attached; the
# refused registration's event is read from a trace instance of its own
# that only notifier_register_error writes to, which the stress events
# cannot overwrite.
#
# CS_TORTURE_ARGS (chainscope.torture=P=V,... on the kernel command line)
# adds module parameters, e.g. stress_iters for the debug soak.
ko=/chainscope/modules/notifier_torture.ko
T=/sys/kernel/tracing
EV=$T/events/notifier/notifier_register_error
TESTS="stress_raw stress_atomic stress_blocking stress_srcu hardirq softirq
writer_blocking_register_waits writer_blocking_unregister_waits
writer_srcu_register_proceeds writer_srcu_unregister_waits
writer_atomic_register_proceeds writer_atomic_unregister_waits
die_int3 power_off double_register"
P=$CS_VARIANT.torture
fail() { echo "$*"; exit 1; }
result() { echo "$1: $P.$2${3:+: $3}" | tee -a /out/results.txt; }

[ -f "$ko" ] || fail "$ko is not in the initramfs"
case "$CS_VARIANT" in
chainscope*) event=1 ;;
*) event=0 ;;
esac
I=$T/instances/notifier_torture
if [ $event = 1 ]; then
	[ -d $EV ] || fail "no $EV on a $CS_VARIANT kernel"
	[ -d $I ] || mkdir $I || fail "cannot create the trace instance $I"
	echo > $I/trace
	echo 1 > $I/events/notifier/notifier_register_error/enable ||
		fail "cannot enable notifier_register_error in $I"
	echo > $T/trace
	echo 1 > $T/events/notifier/enable || fail "cannot enable the notifier events"
fi
echo "insmod notifier_torture.ko warn_cases=1 ${CS_TORTURE_ARGS:-}"
# shellcheck disable=SC2086
insmod "$ko" warn_cases=1 $CS_TORTURE_ARGS
rc=$?
if [ $event = 1 ]; then
	echo 0 > $T/events/notifier/enable
	echo 0 > $I/events/notifier/notifier_register_error/enable
fi
# The kernel log since this load's "start:" line.
dmesg | awk '/notifier_torture: start:/ { n = 0 } { l[++n] = $0 }
	END { for (i = 1; i <= n; i++) print l[i] }' > /tmp/torture.log
grep 'notifier_torture: ' /tmp/torture.log > /out/torture-dmesg.txt
grep -q 'notifier_torture: start:' /tmp/torture.log || fail "insmod exit $rc, and the module printed nothing"
# "VERDICT NAME DETAIL" for each result line
awk '{ i = index($0, "notifier_torture: result "); if (!i) next
	s = substr($0, i + 25); name = s; sub(/ .*/, "", name)
	rest = substr(s, length(name) + 2); v = rest; sub(/:.*/, "", v)
	d = index(rest, ": ") ? substr(rest, index(rest, ": ") + 2) : ""
	print v, name, d }' /tmp/torture.log > /tmp/torture.results
bad=0
for t in $TESTS; do
	line=$(awk -v t="$t" '$2 == t' /tmp/torture.results)
	n=$(awk -v t="$t" '$2 == t' /tmp/torture.results | wc -l)
	if [ "$n" != 1 ]; then
		result FAIL "$t" "$n result lines, want 1"
		bad=1
		continue
	fi
	v=${line%% *}
	d=${line#"$v $t"}
	d=${d# }
	case "$v" in
	PASS | SKIP) result "$v" "$t" "$d" ;;
	*) result FAIL "$t" "$d"; bad=1 ;;
	esac
done
extra=$(awk -v ts=" $(echo "$TESTS" | tr '\n' ' ') " 'index(ts, " " $2 " ") == 0 { print $2 }' /tmp/torture.results)
[ -z "$extra" ] || { echo "results of unknown tests: $extra"; bad=1; }

# The refused registration, as notifier_register_error printed it.
if [ $event = 1 ]; then
	cp $I/trace /out/torture-trace.txt
	rmdir $I
	want=$(sed -n 's/^.*notifier_torture: double_register: event: //p' /tmp/torture.log)
	n=$(awk -v w="$want" '{ i = index($0, ": notifier_register_error: ")
		if (i && substr($0, i + 27) == w) n++ } END { print n + 0 }' /out/torture-trace.txt)
	if [ -z "$want" ]; then
		result FAIL double_register_event "the module named no refused registration"
		bad=1
	elif [ "$n" = 1 ]; then
		result PASS double_register_event "$want"
	else
		result FAIL double_register_event "$n events '$want' (trace: $(grep -c notifier_register_error /out/torture-trace.txt) notifier_register_error lines)"
		bad=1
	fi
else
	result SKIP double_register_event "no notifier_register_error event on a $CS_VARIANT kernel"
fi

# The tests ran through the traced walk: the last one's call is in the
# main buffer (the stress tests' events may have overwritten the rest).
# Read while the module is loaded, as the events name its callbacks.
if [ $event = 1 ]; then
	runs=$(grep -c ': notifier_run: nt_count_cb \[notifier_torture\]' $T/trace)
	echo > $T/trace
fi

# The load fails exactly when a test failed.
if [ $rc = 0 ]; then
	rmmod notifier_torture || fail "rmmod notifier_torture failed"
	[ $bad = 0 ] || fail "insmod succeeded, but a check failed"
else
	[ $bad = 1 ] || fail "insmod exit $rc, but no test failed"
	fail "tests failed (insmod exit $rc)"
fi
if [ $event = 1 ]; then
	[ "$runs" -gt 0 ] || fail "no notifier_run event of nt_count_cb in $T/trace"
	echo "traced walk: $runs notifier_run events of nt_count_cb in the main buffer"
fi
grep 'notifier_torture: end:' /tmp/torture.log | sed 's/^.*notifier_torture: //'
