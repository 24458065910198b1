#!/usr/bin/env bash
# Host tests of qemu/scrape.py, the Prometheus scrape test's host side:
# a real Prometheus (Debian's) on 127.0.0.1 scrapes a stand-in guest
# (qemu/tests/scrape_fake.py) that speaks the guest's protocol. A good one
# passes every check; each way a guest can be wrong fails the check that
# names it, with the message that tells it apart: a guest that never
# listens ("guest unreachable"), a body that is no exposition ("scrape
# error"), a count that is not the loadgen's, p99 below the delay's bucket, a
# guest that reached the host, a forward open beyond loopback.
# Failing cases give up after a few scrapes (CS_SCRAPE_MAX_SCRAPES=6).
set -uo pipefail
Q=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
N=host.scrape

if ! command -v prometheus >/dev/null; then
	echo "FAIL: $N: no prometheus binary (scripts/deps.sh installs Debian's)"
	exit 0
fi

# case NAME BEHAVIOUR CHECK PATTERN: CHECK fails with PATTERN in its message
# (CHECK "-": every check passes and the driver exits 0)
case_() {
	local name=$1 behaviour=$2 check=$3 pat=$4 d=$TMP/$1 rc=0 fake
	mkdir -p "$d"
	python3 "$Q/tests/scrape_fake.py" "$d" "$behaviour" 2>"$d/fake.err" &
	fake=$!
	# failing cases give up after 6 scrapes; the good one has the default
	local max=6
	[ "$check" = - ] && max=120
	CS_SCRAPE_MAX_SCRAPES=$max python3 "$Q/scrape.py" fake "$d" tracepoints \
		>"$d/out" 2>"$d/err" || rc=$?
	touch "$d/guest-ended"
	wait "$fake"
	if [ "$check" = - ]; then
		if [ "$rc" = 0 ] && [ "$(grep -c '^PASS: fake\.scrape\.' "$d/out")" = 11 ] &&
			! grep -q '^FAIL' "$d/out"; then
			echo "PASS: $N.$name: 11 checks pass; rate() x window $(grep -o "= [0-9.]* calls, the loadgen's [0-9]*" "$d/out")"
		else
			echo "FAIL: $N.$name: exit $rc: $(grep -m1 '^FAIL' "$d/out" || tail -n 1 "$d/err")"
		fi
		return
	fi
	local line
	line=$(grep "^FAIL: fake\.scrape\.$check: " "$d/out")
	if [ "$rc" = 1 ] && [ -n "$line" ] && echo "$line" | grep -q -- "$pat"; then
		echo "PASS: $N.$name: $check fails: ${line#*: fake.scrape.$check: }" | cut -c1-200
	else
		echo "FAIL: $N.$name: exit $rc, want $check to fail with '$pat': $(grep -m1 '^FAIL' "$d/out" || tail -n 1 "$d/err")"
	fi
}

# the cases run side by side (each has its own Prometheus and ports)
i=0
while read -r name behaviour check pat; do
	i=$((i + 1))
	case_ "$name" "$behaviour" "$check" "$pat" >"$TMP/result-$i" &
done <<'EOF'
good good - -
unreachable unreachable target-up guest unreachable: 
garbage garbage target-up scrape error: 
wrong-count wrongcount count wrong value: the count is not the loadgen's
fast-bucket fast quantile faster than the loadgen's 20000 us delay can be
breach breach guest-isolated the guest reached 10.0.2.2:
any-address anyaddr hostfwd-loopback also listens on 00000000
EOF
wait
for j in $(seq 1 "$i"); do
	cat "$TMP/result-$j"
done

# docs/fleet.md's scrape config and alert rules, through promtool
python3 - "$Q/../docs/fleet.md" "$TMP" <<'PYEOF'
import re, sys
t = open(sys.argv[1]).read()
blocks = re.findall(r"```yaml\n(.*?)```", t, re.S)
cfg = next(b for b in blocks if "scrape_configs:" in b)
rules = next(b for b in blocks if "groups:" in b)
open(sys.argv[2] + "/fleet-config.yml", "w").write(cfg)
open(sys.argv[2] + "/fleet-rules.yml", "w").write(rules)
PYEOF
for kind in config rules; do
	if msg=$(promtool check "$kind" "$TMP/fleet-$kind.yml" 2>&1); then
		echo "PASS: $N.fleet-$kind: docs/fleet.md's $kind: $(echo "$msg" | grep -m1 SUCCESS | sed 's/^ *//')"
	else
		echo "FAIL: $N.fleet-$kind: docs/fleet.md's $kind: $(echo "$msg" | grep -v '^Checking' | head -n 1)"
	fi
done
