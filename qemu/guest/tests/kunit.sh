#!/bin/sh
# Load the notifier KUnit suites and hand their KTAP results to the host,
# which reports one result per case ($variant.kunit.<suite>.<case>).
ko=$(find /lib/modules -name notifier_kunit.ko | head -n1)
[ -n "$ko" ] || { echo "notifier_kunit.ko is not in the initramfs"; exit 1; }
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
[ "$n" -gt 0 ] || { echo "no notifier KUnit suite results in debugfs"; exit 1; }
echo "$n notifier KUnit suites ran"
# warn_cases=1 ran the double registrations (announced WARNs), not skipped
# them: their case reports plain "ok" in notifier_api.
grep -Eq "^[[:space:]]*ok [0-9]+ notifier_test_double_register$" /out/kunit/notifier_api.ktap || {
	echo "notifier_test_double_register did not run with warn_cases=1:"
	grep "notifier_test_double_register" /out/kunit/notifier_api.ktap
	exit 1
}
