#!/bin/sh
# Privileges are capabilities, not uid 0. With no capability at all (uid
# 0 kept) the CLI exits 3 before any bpf() call; as uid 65534 with exactly
# CAP_BPF + CAP_PERFMON, and RLIMIT_MEMLOCK 0, latency -C and contention
# attach and count. 6.1 charges BPF memory to the memory cgroup, not to
# RLIMIT_MEMLOCK, and libbpf then leaves the limit alone: no
# CAP_SYS_RESOURCE needed. Symbol names need CAP_SYSLOG (kptr_restrict):
# without it chains and callbacks print as addresses, and -c/-f take
# 0xADDR. Uses util-linux setpriv from the initramfs (busybox's cannot
# set capabilities).
. /chainscope/tests/cli-common.inc

SP=/chainscope/bin/setpriv
[ -x "$SP" ] || fail "util-linux setpriv is not in the initramfs (qemu/mkinitramfs.sh)"

# no capabilities, uid 0 kept
cat > "$W/nocaps" <<EOF2
#!/bin/sh
exec $SP --inh-caps=-all --ambient-caps=-all --bounding-set=-all -- "\$@"
EOF2
# uid 65534 with exactly CAP_BPF + CAP_PERFMON, no locked memory allowed
cat > "$W/nobody" <<EOF2
#!/bin/sh
ulimit -l 0 || exit 99
exec $SP --reuid=65534 --regid=65534 --clear-groups --inh-caps=+bpf,+perfmon \
	--ambient-caps=+bpf,+perfmon --bounding-set=-all,+bpf,+perfmon -- "\$@"
EOF2
chmod 755 "$W/nocaps" "$W/nobody"
caps=$("$W/nobody" sh -c 'id -u; grep -E "^Cap(Eff|Bnd)" /proc/self/status' | tr '\n' ' ')
echo "as nobody: uid, CapEff, CapBnd: $caps"
# CAP_PERFMON is bit 38, CAP_BPF 39: 0xc0 << 32
echo "$caps" | grep -q "^65534 CapEff:[[:space:]]*000000c000000000 " ||
	fail "setpriv did not give exactly CAP_BPF + CAP_PERFMON: $caps"

for args in "latency -C" contention; do
	# shellcheck disable=SC2086
	"$W/nocaps" "$CS" $args > "$W/out" 2> "$W/err"
	rc=$?
	cat "$W/err"
	expect_eq "no capabilities: $args exit" "$rc" 3
	grep -q "insufficient privileges: .*CAP_BPF and CAP_PERFMON" "$W/err" ||
		fail "no 'insufficient privileges' message"
	expect_eq "no capabilities: $args stderr lines" "$(wc -l < "$W/err")" 1
done
if command -v strace > /dev/null; then
	strace -f -qq -e trace=bpf -o "$W/strace" "$W/nocaps" "$CS" latency -C > /dev/null 2>&1
	rc=$?
	expect_eq "no capabilities under strace: exit" "$rc" 3
	grep -q 'bpf(' "$W/strace" && fail "bpf() called without capabilities: $(grep 'bpf(' "$W/strace" | head -n 1)"
	echo "ok: no bpf() call without capabilities"
else
	echo "strace not in the initramfs: 'before any bpf()' is shown by the host test"
fi

if [ "$CS_VARIANT" = stock ]; then
	# (auto would pick probes mode and run: the tracepoints are asked for)
	"$W/nobody" "$CS" latency --mode tracepoints > "$W/out" 2> "$W/err"
	rc=$?
	cat "$W/err"
	expect_eq "stock: nobody with bpf+perfmon passes privileges, then exit" "$rc" 5
	exit 0
fi

loadgen
ctl "add blocking fast"
H=$(grep -w cs_loadgen_blocking /proc/kallsyms | head -n 1 | cut -d' ' -f1)
F=$(grep -w cs_loadgen_cb_fast /proc/kallsyms | head -n 1 | cut -d' ' -f1)
[ -n "$H" ] && [ -n "$F" ] || fail "cs_loadgen symbols not in /proc/kallsyms"
# names if this uid may see kallsyms addresses, else the addresses
HP="(cs_loadgen_blocking|0x$H)"
FP="(cs_loadgen_cb_fast|0x$F)"

CS_REAL=$CS
printf '#!/bin/sh\nexec %s %s "$@"\n' "$W/nobody" "$CS_REAL" > "$W/cs-nobody"
chmod 755 "$W/cs-nobody"
CS=$W/cs-nobody
cs_start nobody-latency latency -C -c "0x$H"
ctl "call blocking 7"
cs_stop
h=$(grep -E "^chain: $HP \(blocking\) callback: $FP " "$OUT" | head -n 1)
[ -n "$h" ] || fail "no callback row for cs_loadgen_cb_fast"
expect_eq "nobody: callback count" "$(field count "$h")" 7
h=$(grep -E "^chain: $HP \(blocking\) whole pass" "$OUT" | head -n 1)
expect_eq "nobody: whole passes" "$(field count "$h")" 7

ctl "add blocking sleep sleep_ms=2"
cs_start nobody-contention contention -c "0x$H"
ctl "call blocking 5"
ctl "writers blocking 1 3"
ctl wait
cs_stop
h=$(grep -E "^chain: $HP \(blocking\) op: read " "$OUT" | head -n 1)
expect_eq "nobody: read acquisitions" "$(field acquisitions "$h")" 5
h=$(grep -E "^chain: $HP \(blocking\) op: write " "$OUT" | head -n 1)
expect_eq "nobody: write acquisitions" "$(field acquisitions "$h")" 6
CS=$CS_REAL
cs_cleanup
echo "capabilities, not uid: no caps exit 3; uid 65534 with CAP_BPF+CAP_PERFMON traces"
