#!/bin/sh
# The notifier tracepoints: present with the contract's fields on the
# chainscope kernel, absent on stock; and real kernel chains fire them.
T=/sys/kernel/tracing
fail() { echo "$*"; exit 1; }
EVENTS="notifier_register notifier_unregister notifier_register_error
notifier_unregister_error notifier_run notifier_return notifier_stop
notifier_call_begin notifier_call_end notifier_lock_wait"

[ -d $T/events ] || fail "tracefs not mounted"
if [ "$CS_VARIANT" = stock ]; then
	[ ! -e $T/events/notifier ] || fail "stock kernel has notifier events"
	echo "stock: no notifier events, as expected"
	exit 0
fi
for e in $EVENTS; do
	[ -f $T/events/notifier/$e/format ] || fail "event notifier:$e missing"
done
# Scripts written for upstream 6.4 read the field 'cb'.
for e in notifier_register notifier_unregister notifier_run; do
	grep -q 'field:void \* cb;' $T/events/notifier/$e/format ||
		fail "notifier:$e has no 'void * cb' field"
done
grep -q 'field:int priority;' $T/events/notifier/notifier_run/format ||
	fail "notifier:notifier_run has no priority field"

# A real chain: the netdevice notifier chain fires on a link change.
echo > $T/trace
echo 1 > $T/events/notifier/enable
ip link set lo down
ip link set lo up
echo 0 > $T/events/notifier/enable
cp $T/trace /out/tracepoints-trace.txt
grep -q 'notifier_run: .*cb=' /out/tracepoints-trace.txt ||
	fail "no notifier_run events for ip link set lo up"
grep -q 'notifier_call_begin: ' /out/tracepoints-trace.txt ||
	fail "no notifier_call_begin events"
n=$(grep -c 'notifier_run: ' /out/tracepoints-trace.txt)
echo "ip link set lo down/up: $n notifier_run events"
