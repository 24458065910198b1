#!/bin/sh
# The notifier tracepoints: present with the contract's fields on the
# chainscope kernel; on stock, upstream's three (6.4+) or none (6.1); and
# real kernel chains fire them.
T=/sys/kernel/tracing
fail() { echo "$*"; exit 1; }
EVENTS="notifier_register notifier_unregister notifier_register_error
notifier_unregister_error notifier_run notifier_return
notifier_call_begin notifier_call_end"

[ -d $T/events ] || fail "tracefs not mounted"
# Upstream added notifier_register, notifier_unregister and notifier_run,
# each with the one field 'void *cb', in 6.4.
UPSTREAM="notifier_register notifier_run notifier_unregister"
major=$(uname -r | cut -d. -f1) minor=$(uname -r | cut -d. -f2)
if [ "$CS_VARIANT" = stock ]; then
	if [ "$major" -lt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -lt 4 ]; }; then
		[ ! -e $T/events/notifier ] ||
			fail "stock $(uname -r) has notifier events: $(ls $T/events/notifier)"
		echo "stock $(uname -r): no notifier events, as expected"
		exit 0
	fi
	have=$(cd $T/events/notifier 2>/dev/null && for e in *; do
		[ -d "$e" ] && echo "$e"; done | sort | tr '\n' ' ')
	[ "$have" = "$UPSTREAM " ] ||
		fail "stock $(uname -r): notifier events '$have', want upstream's '$UPSTREAM'"
	for e in $UPSTREAM; do
		grep -q 'field:void \* cb;' $T/events/notifier/$e/format ||
			fail "notifier:$e has no 'void * cb' field"
	done
	echo > $T/trace
	echo 1 > $T/events/notifier/notifier_run/enable
	ip link set lo down
	ip link set lo up
	echo 0 > $T/events/notifier/notifier_run/enable
	cp $T/trace /out/tracepoints-trace.txt
	grep -q 'notifier_run: rtnetlink_event$' /out/tracepoints-trace.txt ||
		fail "no 'notifier_run: rtnetlink_event' for ip link set lo down/up"
	echo "stock $(uname -r): upstream's $UPSTREAM, as expected;" \
		"$(grep -c 'notifier_run: ' /out/tracepoints-trace.txt) notifier_run events"
	exit 0
fi
have=$(cd $T/events/notifier && for e in *; do
	[ -d "$e" ] && echo "$e"; done | sort | tr '\n' ' ')
want=$(echo $EVENTS | tr ' ' '\n' | sort | tr '\n' ' ')
[ "$have" = "$want" ] || fail "notifier events '$have', want '$want'"
# Scripts written for upstream 6.4 read the field 'cb'.
for e in notifier_register notifier_unregister notifier_run; do
	grep -q 'field:void \* cb;' $T/events/notifier/$e/format ||
		fail "notifier:$e has no 'void * cb' field"
done
# Each event's fields, in order, after the common ones (four classes:
# docs/events.md), and what its text prints: notifier_run and
# notifier_call_begin carry their class's ret (and nr_calls) but do not
# print them.
fields() { # EVENT: its own field names, in order
	sed -n 's/^[[:space:]]*field:.* \([a-z_]*\);.*/\1/p' \
		$T/events/notifier/$1/format | grep -v '^common_' | tr '\n' ' '
}
fmt() { sed -n 's/^print fmt: //p' $T/events/notifier/$1/format; }
MEMBER="cb head nb priority kind "
CALLBACK="cb head nb priority kind val ret "
PASS="head val kind nr_to_call type ret nr_calls "
for e in $EVENTS; do
	case $e in
	notifier_register | notifier_unregister) want=$MEMBER ;;
	*_error) want="${MEMBER}err " ;;
	notifier_run | notifier_return) want=$CALLBACK ;;
	*) want=$PASS ;;
	esac
	[ "$(fields $e)" = "$want" ] ||
		fail "notifier:$e fields '$(fields $e)', want '$want'"
	case $e in
	notifier_run | notifier_call_begin)
		fmt $e | grep -q 'ret=' && fail "notifier:$e prints ret: $(fmt $e)" ;;
	notifier_return) fmt $e | grep -q ' val=%lu ret=%s"' ||
		fail "notifier:$e does not print val and ret: $(fmt $e)" ;;
	notifier_call_end) fmt $e | grep -q ' ret=%s nr_calls=%d"' ||
		fail "notifier:$e does not print ret and nr_calls: $(fmt $e)" ;;
	*_error) fmt $e | grep -q ' err=%d"' || fail "notifier:$e does not print err: $(fmt $e)" ;;
	*) fmt $e | grep -q 'err=' && fail "notifier:$e prints err: $(fmt $e)" ;;
	esac
done

# A real chain: the netdevice notifier chain fires on a link change.
echo > $T/trace
echo 1 > $T/events/notifier/enable
ip link set lo down
ip link set lo up
echo 0 > $T/events/notifier/enable
cp $T/trace /out/tracepoints-trace.txt
grep -q 'notifier_run: [^ ]* head=' /out/tracepoints-trace.txt ||
	fail "no notifier_run events for ip link set lo up"
grep -q 'notifier_call_begin: ' /out/tracepoints-trace.txt ||
	fail "no notifier_call_begin events"
# the texts: run ends at val, return goes on with ret, begin ends at type
grep -q 'notifier_run: [^ ]* head=[^ ]* nb=[^ ]* priority=-\{0,1\}[0-9]* kind=[a-z]* val=[0-9]*$' \
	/out/tracepoints-trace.txt || fail "no notifier_run text ending in val="
grep -q 'notifier_return: [^ ]* head=.* val=[0-9]* ret=[A-Z0-9x]*$' /out/tracepoints-trace.txt ||
	fail "no notifier_return text ending in ret="
grep -q 'notifier_call_begin: head=[^ ]* kind=[a-z]* val=[0-9]* nr_to_call=-\{0,1\}[0-9]* type=[a-z]*$' \
	/out/tracepoints-trace.txt || fail "no notifier_call_begin text ending in type="
grep -q 'notifier_call_end: .* type=[a-z]* ret=[A-Z0-9x]* nr_calls=[0-9]*$' \
	/out/tracepoints-trace.txt || fail "no notifier_call_end text ending in nr_calls="
n=$(grep -c 'notifier_run: ' /out/tracepoints-trace.txt)
echo "ip link set lo down/up: $n notifier_run events"
