#!/usr/bin/env bash
# Host tests of qemu/persist.py, the check that qemu/test.sh runs on the
# results of plan persist (6.12's persistent ring buffer across a warm
# reboot): the results of a real run (qemu/tests/data/persist: boot 1's
# chains.json, boot 2's report and what its kernel said, the dmesg lines
# trimmed to the buffer's) pass; each way it can be wrong fails naming it:
# the guest could not arm, boot 2 never ran, the kernel reset the buffer
# (its reason is quoted), the instance moved, report --tracefs failed, no
# reboot pass, another val, another order than chains listed.
set -uo pipefail
Q=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
N=host.persist

# copy CASE: a guest folder for CASE from the real run's results
copy() { mkdir -p "$TMP/$1"; cp -r "$Q/tests/data/persist" "$TMP/$1/"; echo "$TMP/$1/persist"; }
# expect CASE PATTERN: persist.py's one line on CASE's folder matches PATTERN
expect() {
	local out
	out=$(python3 "$Q/persist.py" t "$TMP/$1" 2>&1)
	if [ "$(grep -c '' <<<"$out")" = 1 ] && grep -Eq -- "$2" <<<"$out"; then
		echo "PASS: $N.$1"
	else
		echo "FAIL: $N.$1: want /$2/, got: ${out:0:300}"
	fi
}

copy pass >/dev/null
expect pass '^PASS: t: boot 2 read boot 1.s reboot_notifier_list \(blocking, val=1 SYS_RESTART\) at 8\.023082 s, 1193us: tts_notify_reboot \(prio 0\) 96us ret=0, perf_reboot \(prio -2147483648\) 696us ret=1; in chainscope chains. order; from the persistent buffer at 0x000000003de00000\+0x400000 \(CPUs 0,1 from the previous boot, 2 passes, lost 0\)$'

d=$(copy not-armed); echo "no instance /sys/kernel/tracing/instances/csboot" >"$d/error"
expect not-armed '^FAIL: t: the guest: no instance /sys/kernel/tracing/instances/csboot'

d=$(copy no-boot2); rm "$d/boot2"
expect no-boot2 '^FAIL: t: no boot2 marker'

# what 6.12 says when the validation resets the buffer (ring_buffer.c)
d=$(copy reset)
sed -i 's/Ring buffer meta \[\([01]\)\] is from previous boot!/Ring buffer boot meta [\1] commit buffer out of range/' "$d/kernel-said.txt"
expect reset '^FAIL: t: no CPU.s buffer is from the previous boot: the kernel reset it \(kernel, boot 2: Tracing: mapped boot instance csboot at physical memory 0x000000003de00000 of size 0x400000; Ring buffer boot meta \[0\] commit buffer out of range; '

d=$(copy moved); sed -i 's/0x000000003de00000/0x000000003dc00000/' "$d/dmesg-boot2.txt"
expect moved '^FAIL: t: the instance moved: 0x000000003de00000\+0x400000 on boot 1, 0x000000003dc00000\+0x400000 on boot 2'

d=$(copy report-failed); echo 16 >"$d/report.rc"; echo "chainscope report: error: no notifier:* event is enabled there" >"$d/report.err"
expect report-failed '^FAIL: t: chainscope report --passes -j --tracefs exit 16: chainscope report: error: no notifier:\* event is enabled there'

d=$(copy no-pass); sed -i 's/"reboot_notifier_list"/"other_list"/' "$d/report.json"
expect no-pass '^FAIL: t: 0 reboot_notifier_list passes in the buffer \(lost 0, unpaired 0\); passes: other_list \(blocking, val=1\); restart_prep_handler_list'

d=$(copy power-off); python3 - "$d/report.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["passes"][0]["val"] = 3
json.dump(d, open(sys.argv[1], "w"))
PY
expect power-off '^FAIL: t: the pass is blocking val=3, not blocking val=1 \(SYS_RESTART\)'

d=$(copy order); python3 - "$d/chains.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["chains"][0]["blocks"].reverse()
json.dump(d, open(sys.argv[1], "w"))
PY
expect order "^FAIL: t: ran \[\('tts_notify_reboot', 0\), \('perf_reboot', -2147483648\)\], chainscope chains listed \[\('perf_reboot'"
