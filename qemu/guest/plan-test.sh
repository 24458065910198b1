#!/bin/sh
# Guest test plan: run every /chainscope/tests/*.sh whose full name
# ($CS_VARIANT.<script name>) matches $CS_FILTER. A test exits 0 (pass),
# 77 (skip, first line of its output says why) or anything else (fail).
# Results go to /out/results.txt as "PASS: name", "FAIL: name: why",
# "SKIP: name: why"; each test's output to /out/logs/<name>.log.
# A test may add results of its own parts, named $CS_VARIANT.<test>.<part>,
# to /out/results.txt itself (torture.sh does, one per torture test).
# The plan exits 1 when any test failed.
# Last, when $CS_VARIANT.shutdown matches the filter, shutdown.sh prints
# our events on the console until the power-off (the host checks the
# reboot chain in the console log: qemu/shutdown.py).
mkdir -p /out/logs
: > /out/results.txt
# A kernel booted with tp_printk (for shutdown.sh) prints every enabled
# event on the console: not before the end.
[ -w /proc/sys/kernel/tracepoint_printk ] && echo 0 > /proc/sys/kernel/tracepoint_printk
for t in /chainscope/tests/*.sh; do
	name="$CS_VARIANT.$(basename "$t" .sh)"
	# The kunit and torture tests report one result per case; let them
	# run when the filter names one of their cases.
	case "$name" in
	$CS_FILTER) ;;
	*) case "$CS_FILTER" in "$name".*) ;; *) continue ;; esac ;;
	esac
	echo "chainscope-guest: running $name"
	log=/out/logs/$name.log
	sh "$t" > "$log" 2>&1
	rc=$?
	case $rc in
	0) echo "PASS: $name" ;;
	77) echo "SKIP: $name: $(head -n1 "$log")" ;;
	*) echo "FAIL: $name: exit $rc: $(tail -n1 "$log")" ;;
	esac | tee -a /out/results.txt
done
# shellcheck disable=SC2254
case "$CS_VARIANT.shutdown" in $CS_FILTER) sh /chainscope/shutdown.sh ;; esac
! grep -q '^FAIL' /out/results.txt
