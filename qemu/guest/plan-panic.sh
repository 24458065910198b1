#!/bin/sh
# Guest plan "panic" (issue 26): the panic chain's pass, on the console.
# shutdown.sh panic arms our events on the console (tp_printk; the boot
# has it on its command line) and lists panic_notifier_list; the results
# disk is written now, as nothing can be written after the panic; the
# panic is announced for the harness (qemu/badness.sh excuses exactly
# that one), through the kernel's log so that it comes before the panic
# on the console; then sysrq c panics. With panic=-1 the kernel reboots
# at once, and QEMU (-no-reboot) exits. The host reads the pass from the
# console (qemu/shutdown.py --panic).
mkdir -p /out/logs
: > /out/results.txt
sh /chainscope/shutdown.sh panic
if [ -f /out/panic/error ]; then
	echo "FAIL: $CS_VARIANT.panic-armed: $(cat /out/panic/error)" | tee -a /out/results.txt
	exit 1
fi
[ -w /proc/sysrq-trigger ] || {
	echo "FAIL: $CS_VARIANT.panic-armed: no /proc/sysrq-trigger (CONFIG_MAGIC_SYSRQ)" |
		tee -a /out/results.txt
	exit 1
}
echo 0 > /out/status
tar -cf /dev/vda -C /out . || echo "chainscope-guest: cannot write results to /dev/vda"
sync
echo "chainscope-guest: expect PANIC: sysrq triggered crash" > /dev/kmsg
echo c > /proc/sysrq-trigger
echo "FAIL: $CS_VARIANT.panic: sysrq c returned" | tee -a /out/results.txt
exit 1
