#!/usr/bin/env bash
# Host tests of scripts/deps.sh: what it installs must not start or enable
# a service (prometheus alone would listen on 0.0.0.0:9090). The script
# runs against stand-ins for id, dpkg-query, dpkg, apt-get and systemctl
# that log what they are asked; nothing is installed. One PASS/FAIL line
# per case.
set -uo pipefail
R=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

check() { # check NAME STATUS DETAIL
	if [ "$2" = 0 ]; then echo "PASS: host.deps.$1"; else echo "FAIL: host.deps.$1: $3"; fi
}

B=$TMP/bin
mkdir -p "$B" "$TMP/run-systemd"
printf 'libc6\n' >"$TMP/installed"
cat >"$B/id" <<'EOF'
#!/bin/sh
echo 0
EOF
# ${Status} of anything: not installed; ${Package}: the stand-in's list
cat >"$B/dpkg-query" <<EOF
#!/bin/sh
case "\$*" in *Package*) cat "$TMP/installed" ;; esac
exit 0
EOF
cat >"$B/dpkg" <<'EOF'
#!/bin/sh
[ "$1" = -L ] || exit 1
case "$2" in
prometheus) printf '/usr/bin/prometheus\n/lib/systemd/system/prometheus.service\n/lib/systemd/system/prometheus@.service\n' ;;
libc6) printf '/lib/systemd/system/libc-already-here.service\n' ;;
esac
EOF
# install: the policy as seen during the install, then "installs" one
# package plus whatever recommends would have added
cat >"$B/apt-get" <<EOF
#!/bin/sh
echo "apt-get \$*" >>"$TMP/apt.log"
case "\$1" in
update) exit 0 ;;
install)
	if [ -x "\$CS_DEPS_POLICY" ]; then
		"\$CS_DEPS_POLICY" prometheus.service start
		echo "policy-exit \$?" >>"$TMP/apt.log"
	else
		echo "policy-missing" >>"$TMP/apt.log"
	fi
	echo prometheus >>"$TMP/installed"
	case "\$*" in *--no-install-recommends*) ;; *) echo prometheus-node-exporter >>"$TMP/installed" ;; esac
	exit 0 ;;
esac
exit 1
EOF
cat >"$B/systemctl" <<EOF
#!/bin/sh
echo "systemctl \$*" >>"$TMP/systemctl.log"
EOF
chmod 755 "$B"/*

deps() {
	env PATH="$B:$PATH" CS_DEPS_POLICY="$TMP/policy-rc.d" CS_DEPS_SYSTEMD="$TMP/run-systemd" \
		bash "$R/scripts/deps.sh" "$@" >"$TMP/out" 2>&1
}

deps --check
rc=$?
[ "$rc" = 1 ] && grep -q '^missing packages: .*prometheus' "$TMP/out"
check check-lists-missing $? "exit $rc: $(head -c 200 "$TMP/out")"

: >"$TMP/apt.log"
deps
rc=$?
check install-exit-0 "$rc" "exit $rc: $(head -c 300 "$TMP/out")"
inst=$(grep '^apt-get install' "$TMP/apt.log")
grep -q -- ' --no-install-recommends ' <<<"$inst"
check no-recommends $? "install line: $inst"
grep -qx 'policy-exit 101' "$TMP/apt.log"
check policy-denies-starts-during-install $? "$(grep policy "$TMP/apt.log")"
[ ! -e "$TMP/policy-rc.d" ]
check own-policy-removed-after $? "$TMP/policy-rc.d left behind"
units=$(grep 'disable' "$TMP/systemctl.log" 2>/dev/null)
[ "$units" = "systemctl disable --now --quiet prometheus.service" ]
check new-units-disabled $? "systemctl calls: '${units}'"

# a policy-rc.d the system already has is used and kept
printf '#!/bin/sh\nexit 101\n' >"$TMP/policy-rc.d"
chmod 755 "$TMP/policy-rc.d"
printf 'libc6\n' >"$TMP/installed"
deps
[ -x "$TMP/policy-rc.d" ] && grep -qx 'exit 101' "$TMP/policy-rc.d"
check existing-policy-kept $? "the system's policy-rc.d was removed or changed"
rm -f "$TMP/policy-rc.d"

# without systemd running, systemctl is never asked
printf 'libc6\n' >"$TMP/installed"
rm -f "$TMP/systemctl.log"
rmdir "$TMP/run-systemd"
deps
[ ! -e "$TMP/systemctl.log" ]
check no-systemd-no-systemctl $? "$(cat "$TMP/systemctl.log" 2>/dev/null)"
exit 0
