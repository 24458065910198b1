#!/usr/bin/env bash
# Install the Debian packages chainscope needs, only those missing.
#   scripts/deps.sh          install what is missing (needs root)
#   scripts/deps.sh --check  list what is missing; exit 1 if anything is
set -euo pipefail
PKGS="linux-source-6.1 linux-source-6.12 build-essential bc bison flex libssl-dev libelf-dev
dwarves cpio xz-utils kmod rsync python3 qemu-system-x86 busybox-static
clang llvm libbpf-dev bpftool zlib1g-dev pkg-config libjson-c-dev strace
libclang-rt-14-dev uthash-dev libfuzzer-14-dev libcap2-bin
bpftrace linux-perf trace-cmd
libmicrohttpd-dev prometheus scdoc bash-completion curl man-db"

missing=()
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
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
if ! apt-get install -y -qq "${missing[@]}" >/tmp/chainscope-apt.log 2>&1; then
	echo "deps.sh: error: apt-get install failed for: ${missing[*]} (log: /tmp/chainscope-apt.log)" >&2
	exit 1
fi
