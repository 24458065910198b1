#!/bin/sh
# BPF can attach to our events: vmlinux BTF carries their tp_btf types.
fail() { echo "$*"; exit 1; }
[ -f /sys/kernel/btf/vmlinux ] || fail "no /sys/kernel/btf/vmlinux"
bpftool btf dump file /sys/kernel/btf/vmlinux > /tmp/btf.txt ||
	fail "bpftool cannot read vmlinux BTF"
if [ "$CS_VARIANT" = stock ]; then
	# upstream has notifier_register/unregister/run (cb only) from 6.4 on
	kv=$(uname -r | awk -F. '{ print $1 * 1000 + $2 }')
	! grep -q "btf_trace_notifier_call_begin" /tmp/btf.txt ||
		fail "stock BTF has chainscope's btf_trace_notifier_call_begin"
	if [ "$kv" -ge 6004 ]; then
		grep -q "'btf_trace_notifier_run'" /tmp/btf.txt ||
			fail "stock $(uname -r) BTF lacks upstream's btf_trace_notifier_run"
		echo "stock $(uname -r): upstream's notifier events only"
	else
		! grep -q "btf_trace_notifier_run" /tmp/btf.txt ||
			fail "stock $(uname -r) BTF has btf_trace_notifier_run"
		echo "stock $(uname -r): no notifier events"
	fi
	exit 0
fi
for t in btf_trace_notifier_run btf_trace_notifier_return \
	 btf_trace_notifier_call_begin; do
	grep -q "'$t'" /tmp/btf.txt || fail "vmlinux BTF lacks $t"
done
grep -q "NOTIFIER_CHAIN_BLOCKING" /tmp/btf.txt ||
	fail "vmlinux BTF lacks enum notifier_chain_kind"
echo "BTF has the notifier tracepoint types"
