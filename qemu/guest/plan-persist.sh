#!/bin/sh
# Guest plan "persist" (issue 26): the reboot chain read back from 6.12's
# persistent ring buffer on the next boot. Two boots of one QEMU run
# (run.sh -R: a guest reboot resets the machine, RAM kept), with
#   reserve_mem=4M:4096:cstrace trace_instance=csboot^traceoff@cstrace,notifier
# on the command line (qemu/test.sh): the instance csboot lives in the
# reserved memory, its notifier:* events on and its tracing off on both
# boots: the second boot records nothing into the first one's events, and
# --tracefs finds the events enabled there (it refuses an instance where
# none is, exit 16: in a fresh boot nothing enables them by hand).
#
# Which boot this is comes from the results disk, which outlives the
# reset (RAM may not: that is what is tested): run.sh gives a zeroed one.
#   boot 1 (no archive on /dev/vda): lists reboot_notifier_list
#     (chainscope chains), enables notifier:* in csboot for task context,
#     turns its tracing on, writes its results (persist/boot1) to the disk
#     and reboots warm: reboot -f, i.e. kernel_restart(), whose
#     kernel_restart_prepare() calls reboot_notifier_list with SYS_RESTART.
#   boot 2 (boot 1's archive): brings boot 1's results along, keeps what
#     the kernel said about the buffer (its "Ring buffer ..." lines: from
#     the previous boot, or why it was reset), csboot's trace and
#     last_boot_info, and reads it with chainscope report --passes -j
#     --tracefs; the host checks that (qemu/persist.py). init powers off.
#   boot 3 (boot 2's archive: boot 2 rebooted, e.g. on a panic): stops.
#
# chainscope.persist=panic on the command line (with panic=1): boot 1
# lists panic_notifier_list instead and panics (sysrq c, announced for
# the harness) instead of rebooting; the kernel reboots a second later
# and boot 2 reads the panic chain's pass from the buffer.
I=/sys/kernel/tracing/instances/csboot
D=/out/persist
CHAIN=reboot_notifier_list
MODE=reboot
grep -qw 'chainscope.persist=panic' /proc/cmdline && { CHAIN=panic_notifier_list; MODE=panic; }
mkdir -p /out/logs $D
: > /out/results.txt
fail() {
	echo "FAIL: $CS_VARIANT.persist-$1: $2" | tee -a /out/results.txt
	echo "$2" > $D/error
}

mkdir -p /tmp/prev
tar -xf /dev/vda -C /tmp/prev 2>/dev/null
if [ -f /tmp/prev/persist/boot2 ]; then
	echo "chainscope-guest: persist: a third boot (boot 2 rebooted): powering off"
	cp -a /tmp/prev/. /out/
	fail boot "a third boot: the second one rebooted instead of powering off"
	exit 1
fi

if [ ! -f /tmp/prev/persist/boot1 ]; then
	# boot 1
	dmesg > $D/dmesg-boot1.txt
	[ -d $I ] || { fail armed "no instance $I (reserve_mem/trace_instance not on the command line, or refused: $(grep -E 'boot instance|reserve_mem' $D/dmesg-boot1.txt | tr '\n' ' '))"; exit 1; }
	[ -e $I/events/notifier/notifier_return ] ||
		{ fail armed "no notifier_return event in $I: not a kernel of ours"; exit 1; }
	chainscope chains -c $CHAIN -j > $D/chains.json 2> $D/chains.err ||
		{ fail armed "chainscope chains -c $CHAIN failed: $(tail -n 1 $D/chains.err)"; exit 1; }
	chainscope chains -c $CHAIN > $D/chains.txt 2>&1
	# Task context only: the timer's pvclock_gtod_chain pass would fill
	# the buffer on every tick (TRACE_FLAG_HARDIRQ|SOFTIRQ|NMI = 0x58)
	echo '!(common_flags & 0x58)' > $I/events/notifier/filter ||
		{ fail armed "the filter was refused"; exit 1; }
	echo 1 > $I/events/notifier/enable || { fail armed "cannot enable notifier:* in $I"; exit 1; }
	echo 1 > $I/tracing_on
	{
		echo "kernel $(uname -r)"
		echo "cmdline $(cat /proc/cmdline)"
		echo "events $(cat $I/events/notifier/enable) tracing_on $(cat $I/tracing_on)"
		echo "buffer_size_kb $(cat $I/buffer_size_kb)"
		grep -E 'Tracing: mapped boot instance|reserve_mem' $D/dmesg-boot1.txt
	} > $D/armed
	date +%s > $D/boot1
	tar -cf /dev/vda -C /out . || { fail armed "cannot write the results disk"; exit 1; }
	sync
	echo "mode $MODE" >> $D/armed
	if [ "$MODE" = panic ]; then
		[ -w /proc/sysrq-trigger ] || { fail armed "no /proc/sysrq-trigger (CONFIG_MAGIC_SYSRQ)"; exit 1; }
		# (through the kernel's log: it must come before the panic on the console)
		echo "chainscope-guest: expect PANIC: sysrq triggered crash" > /dev/kmsg
		echo c > /proc/sysrq-trigger
		fail reboot "sysrq c returned"
		exit 1
	fi
	echo "chainscope-guest: persist: notifier:* on in $I; rebooting warm"
	reboot -f
	fail reboot "reboot -f returned"
	exit 1
fi

# boot 2
cp -a /tmp/prev/. /out/
: > /out/results.txt
date +%s > $D/boot2
dmesg > $D/dmesg-boot2.txt
grep -E 'Ring buffer|Tracing: mapped boot instance|boot instance|reserve_mem' \
	$D/dmesg-boot2.txt > $D/kernel-said.txt
[ -d $I ] || { fail read "no instance $I on the second boot"; exit 0; }
cat $I/last_boot_info > $D/last_boot_info.txt 2>&1
cat $I/trace > $D/trace.txt 2>&1		# (does not consume)
cat $I/per_cpu/cpu*/stats > $D/stats.txt 2>&1
chainscope report --passes -j --tracefs $I > $D/report.json 2> $D/report.err
echo $? > $D/report.rc
echo "chainscope-guest: persist: read $I: report exit $(cat $D/report.rc)"
exit 0
