#!/usr/bin/env bash
# Install the Debian packages chainscope needs, only those missing.
#   scripts/deps.sh          install what is missing (needs root)
#   scripts/deps.sh --check  list what is missing; exit 1 if anything is
#
# Test dependencies must never open a port on the user's machine (the
# prometheus package alone would start a server on 0.0.0.0:9090). So:
# no recommended packages (prometheus recommends node-exporter), a
# policy-rc.d that denies every service start while apt runs, and the
# systemd units of the packages this run installed are disabled after it.
# CS_DEPS_POLICY (the policy-rc.d path) and CS_DEPS_SYSTEMD (systemd's
# run directory) exist for qemu/tests/deps.sh, which runs this script
# against stand-ins for apt-get, dpkg-query, dpkg and systemctl.
set -euo pipefail
POLICY=${CS_DEPS_POLICY:-/usr/sbin/policy-rc.d}
SYSTEMD_RUN=${CS_DEPS_SYSTEMD:-/run/systemd/system}
PKGS="linux-source-6.1 linux-source-6.12 build-essential bc bison flex libssl-dev libelf-dev
dwarves cpio xz-utils kmod rsync python3 qemu-system-x86 busybox-static
clang llvm libbpf-dev bpftool zlib1g-dev pkg-config libjson-c-dev strace
libclang-rt-14-dev uthash-dev libfuzzer-14-dev libcap2-bin
bpftrace linux-perf trace-cmd
libmicrohttpd-dev prometheus scdoc bash-completion curl man-db
libtracecmd-dev libtraceevent-dev libtracefs-dev"

missing=()
for p in $PKGS; do
	[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = 'install ok installed' ] ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "${1:-}" = --check ]; then
	echo "missing packages: ${missing[*]}"
	exit 1
fi
if [ "$(id -u)" != 0 ]; then
	echo "deps.sh: error: packages missing and not root: apt-get install ${missing[*]}" >&2
	exit 1
fi
echo "deps.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null ||
	{ echo "deps.sh: error: apt-get update failed" >&2; exit 1; }

# No service starts while apt runs (invoke-rc.d and deb-systemd-invoke ask
# policy-rc.d; 101: action forbidden). One the system already has stays.
own_policy=0
if [ ! -e "$POLICY" ]; then
	printf '#!/bin/sh\n# chainscope scripts/deps.sh: no service starts during its apt-get\nexit 101\n' \
		>"$POLICY"
	chmod 755 "$POLICY"
	own_policy=1
fi
trap '[ "$own_policy" = 1 ] && rm -f "$POLICY"' EXIT
before=$(dpkg-query -W -f='${Package}\n' 2>/dev/null | sort)
if ! apt-get install -y -qq --no-install-recommends "${missing[@]}" \
	>/tmp/chainscope-apt.log 2>&1; then
	echo "deps.sh: error: apt-get install failed for: ${missing[*]} (log: /tmp/chainscope-apt.log)" >&2
	exit 1
fi

# Units that the packages new to this system enabled: disabled again
# (and stopped, should one have started despite the policy).
if [ -d "$SYSTEMD_RUN" ] && command -v systemctl >/dev/null; then
	after=$(dpkg-query -W -f='${Package}\n' 2>/dev/null | sort)
	units=()
	while read -r pkg; do
		[ -n "$pkg" ] || continue
		while read -r f; do
			case "$f" in
			/lib/systemd/system/*.service | /lib/systemd/system/*.socket | \
			/lib/systemd/system/*.timer | /usr/lib/systemd/system/*.service | \
			/usr/lib/systemd/system/*.socket | /usr/lib/systemd/system/*.timer)
				case "$f" in *@.*) ;; *) units+=("${f##*/}") ;; esac ;;
			esac
		done <<<"$(dpkg -L "$pkg" 2>/dev/null)"
	done <<<"$(comm -13 <(echo "$before") <(echo "$after"))"
	if [ ${#units[@]} -gt 0 ]; then
		echo "deps.sh: disabling the services just installed: ${units[*]}" >&2
		systemctl disable --now --quiet "${units[@]}" >/dev/null 2>&1 || true
	fi
fi
