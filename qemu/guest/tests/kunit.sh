#!/bin/sh
# Load the notifier KUnit suites and hand their KTAP results to the host,
# which reports one result per case ($variant.kunit.<suite>.<case>).
# notifier_kunit.ko (the functional suites) runs on every kernel;
# notifier_trace_kunit.ko (the events) exists for our kernels only.
ko=$(find /lib/modules -name notifier_kunit.ko | head -n1)
[ -n "$ko" ] || { echo "notifier_kunit.ko is not in the initramfs"; exit 1; }
tko=/chainscope/modules/notifier_trace_kunit.ko
case "$CS_VARIANT" in
chainscope*) [ -f "$tko" ] || { echo "$tko is not in the initramfs"; exit 1; } ;;
*) [ ! -f "$tko" ] || { echo "$tko in a $CS_VARIANT initramfs"; exit 1; } ;;
esac
if [ -f "$tko" ]; then
	echo "insmod notifier_trace_kunit.ko"
	insmod "$tko" || { echo "insmod notifier_trace_kunit failed"; exit 1; }
fi
# warn_cases=1: the double-registration cases, whose WARN each announces
# (the console check excuses only announced ones).
echo "insmod notifier_kunit.ko warn_cases=1 ${CS_KUNIT_ARGS:-}"
# shellcheck disable=SC2086
insmod "$ko" warn_cases=1 $CS_KUNIT_ARGS || { echo "insmod notifier_kunit failed"; exit 1; }
mkdir -p /out/kunit
n=0
for d in /sys/kernel/debug/kunit/notifier*; do
	[ -f "$d/results" ] || continue
	cp "$d/results" "/out/kunit/$(basename "$d").ktap"
	n=$((n + 1))
done
rmmod notifier_kunit || { echo "rmmod notifier_kunit failed"; exit 1; }
if [ -f "$tko" ]; then
	rmmod notifier_trace_kunit || { echo "rmmod notifier_trace_kunit failed"; exit 1; }
fi
[ "$n" -gt 0 ] || { echo "no notifier KUnit suite results in debugfs"; exit 1; }
echo "$n notifier KUnit suites ran"
# warn_cases=1 ran the double registrations (announced WARNs), not skipped
# them: their case reports plain "ok" in notifier_api.
grep -Eq "^[[:space:]]*ok [0-9]+ notifier_test_double_register$" /out/kunit/notifier_api.ktap || {
	echo "notifier_test_double_register did not run with warn_cases=1:"
	grep "notifier_test_double_register" /out/kunit/notifier_api.ktap
	exit 1
}
