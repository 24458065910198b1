#!/bin/sh
# make demo: real kernel chains firing on the chainscope kernel, seen
# through the notifier tracepoints (tracefs), with callbacks and chain
# heads symbolized by the kernel (%ps, from kallsyms).
T=/sys/kernel/tracing
[ -d $T/events/notifier ] || { echo "demo: this kernel has no notifier tracepoints"; exit 1; }
# Booted with tp_printk: events print to the console only at the end.
echo 0 > /proc/sys/kernel/tracepoint_printk
echo 4096 > $T/buffer_size_kb
echo > $T/trace
echo 1 > $T/events/notifier/enable

echo "== demo: insmod/rmmod a module (module notifier chain)"
insmod /chainscope/modules/cs_selftest.ko
rmmod cs_selftest
echo "== demo: ip link set lo down/up (netdevice notifier chain)"
ip link set lo down
ip link set lo up
echo 0 > $T/events/notifier/enable
cp $T/trace /out/demo-trace.txt

echo
echo "== notifier_run events by chain and callback (count, head, cb)"
awk '/ notifier_run: / {
	h = ""; c = ""
	for (i = 1; i <= NF; i++) {
		if ($i ~ /^head=/) h = substr($i, 6)
		if ($i ~ /^cb=/) c = substr($i, 4)
	}
	n[h " " c]++
}
END { for (k in n) printf "%6d  %s\n", n[k], k }' /out/demo-trace.txt | sort -rn | head -n 25
echo
echo "== chain calls by chain (count, head, kind): empty chains included"
awk '/ notifier_call_begin: / {
	h = ""; k = ""
	for (i = 1; i <= NF; i++) {
		if ($i ~ /^head=/) h = substr($i, 6)
		if ($i ~ /^kind=/) k = substr($i, 6)
	}
	n[h " " k]++
}
END { for (c in n) printf "%6d  %s\n", n[c], c }' /out/demo-trace.txt | sort -rn | head -n 12
echo
echo "== one netdevice chain call, event by event (full trace: guest/demo-trace.txt)"
awk '/notifier_call_begin: head=netdev_chain/ && !done { on = 1 }
on { print; if ($0 ~ /notifier_call_end: head=netdev_chain/) { on = 0; done = 1 } }' \
	/out/demo-trace.txt | sed -E 's/^ *//; s/ +/ /g' | cut -c1-160 | head -n 40

# chainscope latency/contention on generated load plus real chains.
# Text goes to the terminal; JSON to /out (host: output/.../guest/).
if command -v chainscope >/dev/null 2>&1; then
	C=/sys/kernel/debug/cs_loadgen/ctl
	insmod /chainscope/modules/cs_loadgen.ko
	echo "add blocking busy prio=10 delay_us=300" > $C
	echo "add blocking sleep prio=5 sleep_ms=2" > $C
	echo "add blocking fast prio=0" > $C
	echo "add blocking veto prio=-5" > $C
	echo "add atomic fast prio=0" > $C
	echo "add atomic busy2 prio=-1 delay_us=50" > $C
	pids=
	for t in "latency:latency" "latency -j:latency.json" \
		 "contention:contention" "contention -j:contention.json" \
		 "record -o /out/demo.cstrace:record"; do
		f=/out/${t#*:}
		# shellcheck disable=SC2086
		chainscope ${t%%:*} > "$f.out" 2> "$f.err" &
		pids="$pids $!"
		i=0
		until grep -q '^Tracing' "$f.err"; do
			i=$((i + 1))
			[ $i -lt 600 ] || { echo "demo: chainscope $t did not start"; cat "$f.err"; exit 1; }
			usleep 100000
		done
	done
	echo
	echo "== load: 2 callers x 50 calls and a register/unregister writer on cs_loadgen_blocking,"
	echo "   200 hardirq calls of cs_loadgen_atomic, module load, link down/up"
	echo "callers blocking 2 50" > $C
	echo "writers blocking 1 20" > $C
	echo "irq atomic 200" > $C
	insmod /chainscope/modules/cs_selftest.ko && rmmod cs_selftest
	ip link set lo down
	ip link set lo up
	echo wait > $C
	# shellcheck disable=SC2086
	kill -INT $pids
	wait
	mv /out/latency.json.out /out/latency.json
	mv /out/contention.json.out /out/contention.json
	echo
	echo "== chainscope latency (per chain and callback; usecs)"
	cat /out/latency.out
	echo
	echo "== chainscope contention (rwsem/mutex waits per chain, readers vs writers)"
	cat /out/contention.out
	echo
	echo "== chainscope record + check: every event of the run, checked offline"
	cat /out/record.out
	chainscope check /out/demo.cstrace | tail -n 3
	echo "stop" > $C
	echo "clear" > $C
	rmmod cs_loadgen
fi

# Which PM notifier slows a suspend (issue 28): cs_pmtest's three PM
# notifiers across one suspend-to-idle cycle, run with pm_test=freezer
# (QEMU wakes no guest from a real one; guest/tests/suspend.sh says why).
if command -v chainscope >/dev/null 2>&1 && [ -w /sys/power/pm_test ]; then
	echo
	echo "== suspend: the PM chain's passes across echo freeze > /sys/power/state (pm_test=freezer);"
	echo "   cs_pmtest waits 20, 5 and 40 ms at priorities 10, 0 and -10"
	insmod /chainscope/modules/cs_pmtest.ko
	chainscope record -o /out/demo-suspend.cstrace > /out/demo-suspend.out 2> /out/demo-suspend.err &
	pid=$!
	i=0
	until grep -q '^Tracing' /out/demo-suspend.err; do
		i=$((i + 1))
		[ $i -lt 600 ] || { echo "demo: chainscope record did not start"; cat /out/demo-suspend.err; exit 1; }
		usleep 100000
	done
	D=/sys/module/suspend/parameters/pm_test_delay
	old=$(cat $D)
	echo freezer > /sys/power/pm_test
	echo 0 > $D
	echo freeze > /sys/power/state || echo "demo: the suspend cycle failed"
	echo none > /sys/power/pm_test
	echo "$old" > $D
	kill -INT $pid
	wait $pid
	chainscope report --passes /out/demo-suspend.cstrace |
		awk '/^pass / { p = ($4 == "pm_chain_head") } p'
	rmmod cs_pmtest
fi

echo
echo "== power-off: our events on the console until the end (tp_printk); make demo reads the reboot chain's pass back from it"
sh /chainscope/shutdown.sh
exit 0
