#!/bin/sh
# BPF_PROG_TEST_RUN unit tests of the aggregation programs (cs-bpf-unit,
# userspace/tests/guest/bpf_unit.c), and `bpftool prog run` on the pinned
# context-free `ping` program of the test-only object bpf/tests/ping.bpf.c.
# Nothing is attached, so this runs on the stock kernel as well.
fail() { echo "FAIL: $*"; exit 1; }

command -v cs-bpf-unit >/dev/null || fail "cs-bpf-unit is not in the initramfs"
cs-bpf-unit > /tmp/bpf-unit.txt 2>&1
rc=$?
cat /tmp/bpf-unit.txt
cp /tmp/bpf-unit.txt /out/logs/bpf-unit.txt 2>/dev/null
grep -q '^FAIL' /tmp/bpf-unit.txt && fail "$(grep '^FAIL' /tmp/bpf-unit.txt | head -n 1)"
[ "$rc" = 0 ] || fail "cs-bpf-unit exited $rc"
n=$(grep -c '^PASS' /tmp/bpf-unit.txt)
[ "$n" -ge 23 ] || fail "only $n cases passed, want 23"

# bpftool 7.1: `prog run` sends repeat=1 unless told `repeat 0` (6.1's
# raw_tp test run wants 0) and asks for ctx_out whenever ctx_in is given,
# so only a program that reads no context can be run this way.
mkdir -p /sys/fs/bpf
mount | grep -q ' /sys/fs/bpf ' || mount -t bpf bpf /sys/fs/bpf || fail "cannot mount bpffs"
P=/sys/fs/bpf/chainscope_ping
rm -f $P
cs-bpf-unit --pin $P || fail "cs-bpf-unit --pin failed"
out=$(bpftool prog run pinned $P repeat 0 2>&1)
echo "\$ bpftool prog run pinned $P repeat 0"
echo "$out"
echo "$out" | grep -q 'Return value: 42' || { rm -f $P; fail "bpftool prog run: $out"; }
bpftool prog show pinned $P
rm -f $P
# the cost of the lock tracepoint programs on other locks (numbers only)
cs-bpf-unit --bench || fail "cs-bpf-unit --bench failed"
echo "$n BPF unit cases passed; bpftool prog run pinned ... repeat 0 works"
