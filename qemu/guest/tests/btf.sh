#!/bin/sh
# BPF can attach to our events: vmlinux BTF carries their tp_btf types.
fail() { echo "$*"; exit 1; }
[ -f /sys/kernel/btf/vmlinux ] || fail "no /sys/kernel/btf/vmlinux"
bpftool btf dump file /sys/kernel/btf/vmlinux > /tmp/btf.txt ||
	fail "bpftool cannot read vmlinux BTF"
if [ "$CS_VARIANT" = stock ]; then
	! grep -q "btf_trace_notifier_run" /tmp/btf.txt ||
		fail "stock BTF has btf_trace_notifier_run"
	exit 0
fi
for t in btf_trace_notifier_run btf_trace_notifier_return \
	 btf_trace_notifier_call_begin btf_trace_notifier_lock_wait; do
	grep -q "'$t'" /tmp/btf.txt || fail "vmlinux BTF lacks $t"
done
grep -q "NOTIFIER_CHAIN_BLOCKING" /tmp/btf.txt ||
	fail "vmlinux BTF lacks enum notifier_chain_kind"
echo "BTF has the notifier tracepoint types"
