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
# (No parameters, and no WARN: what needs either is in torture.sh.)
echo "insmod notifier_kunit.ko"
insmod "$ko" || { echo "insmod notifier_kunit failed"; exit 1; }
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
