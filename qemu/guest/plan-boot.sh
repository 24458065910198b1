#!/bin/sh
# Guest plan "boot" (issue 25): what the notifier chains did before any
# tool could run. The boot has our events on from its command line
# (trace_event=..., trace_buf_size=..., qemu/test.sh), a boot of its own
# so that no other test runs with the call key switched on from boot.
# This plan stops the ring buffer at once and brings home, for the host
# (qemu/boot.py) to read with its own chainscope:
#   /out/boot/boot.dat      trace-cmd extract of the boot-time buffer
#   /out/boot/stats         per CPU: entries, overrun (the kernel's loss count)
#   /out/boot/chains.json   chainscope chains of the reboot, module and
#                           netdevice chains: the call order they ended in
#   /out/boot/enabled       which notifier events the command line enabled
#   /out/boot/reenable      the initcall events of event_trace_enable_again
#                           (trace-cmd report -t lines): the stretch in which
#                           the kernel switched all the command line's
#                           events off, then on again, so that a pass
#                           running then can have lost an event (the host
#                           tells check: --gap)
#   /out/boot/error         why not, if it could not
T=/sys/kernel/tracing
D=/out/boot
mkdir -p /out/logs $D
: > /out/results.txt
err() {
	echo "$*" > $D/error
	echo "FAIL: $CS_VARIANT.boot-plan: $*" | tee -a /out/results.txt
	exit 1
}
# stop recording first: what follows must not add to the boot's buffer
echo 0 > $T/tracing_on || err "cannot stop the ring buffer ($T/tracing_on)"
for e in $T/events/notifier/*/enable; do
	echo "$(basename "$(dirname "$e")") $(cat "$e")"
done > $D/enabled
grep -q ' 1$' $D/enabled || err "no notifier event enabled: the command line's trace_event= did not take"
cat $T/buffer_size_kb > $D/buffer_size_kb
for c in $T/per_cpu/cpu*; do
	echo "$(basename "$c") $(tr '\n' ' ' < "$c/stats")"
done > $D/stats
command -v trace-cmd > /dev/null ||
	err "no trace-cmd in the initramfs (the boot guest is built with CS_GUEST_TOOLS=upstream)"
trace-cmd extract -o $D/boot.dat > /out/logs/extract.log 2>&1 ||
	err "trace-cmd extract failed: $(tail -n 1 /out/logs/extract.log)"
# (boot.py judges what is missing here: the check alone fails then)
trace-cmd report -t $D/boot.dat 2> /out/logs/report.err |
	grep -E ' initcall_(start|finish): +func=event_trace_enable_again(\+|[[:space:]]|$)' > $D/reenable
chainscope chains -c reboot_notifier_list -c module_notify_list -c netdev_chain -j \
	> $D/chains.json 2> $D/chains.err ||
	err "chainscope chains failed: $(tail -n 1 $D/chains.err)"
echo "PASS: $CS_VARIANT.boot-plan: $(grep -c ' 1$' $D/enabled) notifier events enabled from the command line; buffer $(cat $D/buffer_size_kb) KiB per CPU" |
	tee -a /out/results.txt
exit 0
