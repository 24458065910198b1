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
echo
echo "== power-off: the reboot notifier chain, printed live (tp_printk)"
echo 1 > $T/events/notifier/notifier_run/enable
echo 1 > /proc/sys/kernel/tracepoint_printk
exit 0
