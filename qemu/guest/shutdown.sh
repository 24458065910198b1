#!/bin/sh
# The last step of the test plan (plan-test.sh), on a kernel booted with
# tp_printk: print our notifier events on the console from here to the
# power-off, so that the host reads the reboot chain's pass from the
# console log (qemu/shutdown.py, "chainscope report --passes --console").
# The reboot notifier chain runs after user space is gone: init's
# "poweroff -f" is busybox's reboot(RB_POWER_OFF), i.e. kernel_power_off(),
# whose kernel_shutdown_prepare(SYSTEM_POWER_OFF) calls reboot_notifier_list
# with SYS_POWER_OFF before device_shutdown() and the power-off handlers.
#
# What it did goes to /out/shutdown/ (the results disk is written after
# this, before the power-off): "armed" (the settings), or "error" (why it
# could not arm); chains.json, the reboot chain as chainscope chains reads
# it, the order the host expects the callbacks to run in.
#
# "shutdown.sh panic" arms the same for the panic chain (the panic plan,
# plan-panic.sh, then panics): /out/panic/, panic_notifier_list.
T=/sys/kernel/tracing
D=/out/shutdown
CHAIN=reboot_notifier_list
UNTIL=power-off
if [ "${1:-}" = panic ]; then
	D=/out/panic
	CHAIN=panic_notifier_list
	UNTIL=panic
fi
mkdir -p $D
err() { echo "$*" > $D/error; echo "chainscope-guest: shutdown: not armed: $*"; exit 0; }

[ -e $T/events/notifier/notifier_return ] ||
	err "no notifier_return event: not a kernel of ours"
[ -w /proc/sys/kernel/tracepoint_printk ] ||
	err "no /proc/sys/kernel/tracepoint_printk (CONFIG_TRACING)"
grep -qw tp_printk /proc/cmdline ||
	err "not booted with tp_printk: the sysctl cannot turn it on (no print iterator)"
chainscope chains -c $CHAIN -j > $D/chains.json 2> $D/chains.err ||
	err "chainscope chains -c $CHAIN failed: $(tail -n 1 $D/chains.err)"
chainscope chains -c $CHAIN > $D/chains.txt 2>&1

# tp_printk lines are printk()s at the default message level: the console
# must show that level (a test may have lowered it)
# (cat, not read: a sysctl file read at an offset other than 0 is empty,
# and busybox's read takes a byte at a time)
# shellcheck disable=SC2046
set -- $(cat /proc/sys/kernel/printk)
con=$1 def=$2
if ! [ "$con" -ge 0 ] 2>/dev/null || ! [ "$def" -ge 0 ] 2>/dev/null; then
	err "/proc/sys/kernel/printk reads '$*'"
fi
[ "$con" -gt "$def" ] || echo $((def + 1)) > /proc/sys/kernel/printk
# Task context only: a console without printk caller ids is one stream,
# and an interrupt's pass printed between two callbacks of the reboot
# chain would read as that pass' end lost (pvclock_gtod_chain, a raw chain
# of the timer interrupt, runs on every tick: ~500 lines a second too).
# common_flags: TRACE_FLAG_HARDIRQ 0x08 | SOFTIRQ 0x10 | NMI 0x40.
filter='!(common_flags & 0x58)'
if echo "$filter" > $T/events/notifier/filter 2>/dev/null; then
	filter="$filter ($(cat $T/events/notifier/notifier_run/filter))"
else
	filter="refused: interrupt-context events print too"
fi
echo 1 > $T/events/notifier/enable || err "cannot enable notifier:*"
echo 1 > /proc/sys/kernel/tracepoint_printk
tp=$(cat /proc/sys/kernel/tracepoint_printk)
[ "$tp" = 1 ] || err "kernel.tracepoint_printk reads '$tp' after writing 1"
{
	echo "kernel $(uname -r)"
	echo "printk $(cat /proc/sys/kernel/printk) (was console $con, default $def)"
	echo "tracepoint_printk $tp"
	echo "events $(cat $T/events/notifier/enable)"
	echo "filter $filter"
} > $D/armed
echo "chainscope-guest: shutdown: notifier:* events on the console (tp_printk) until $UNTIL"
