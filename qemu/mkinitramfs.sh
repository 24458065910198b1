#!/usr/bin/env bash
# Build the guest initramfs without root: usr/gen_init_cpio from the kernel
# build writes owners, modes and device nodes from a text list.
#
#   qemu/mkinitramfs.sh ARTIFACTS OUTPUT.cpio.gz [EXTRA_BIN...]
#
# ARTIFACTS is a kernel artifact dir from kernel/build.sh (modules, extra
# modules, build/usr/gen_init_cpio). EXTRA_BIN are host executables copied
# to /chainscope/bin with the shared libraries they need. The image is
# rebuilt only when one of its inputs changed.
#
# CS_GUEST_TOOLS=upstream adds Debian's bpftrace, perf and trace-cmd for
# qemu/guest/tests/upstream-{bpftrace,perf,trace-cmd}.sh. Off by default:
# with bpftrace's LLVM and clang libraries the image grows from 5.5 MB to
# 91 MB (13 MB to 246 MB unpacked), which would slow every boot.
# CS_GUEST_TOOLS=recorders adds perf and trace-cmd only (qemu/bench.sh's
# recorder_compare and its smoke).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
die() { echo "mkinitramfs: error: $*" >&2; exit 1; }

[ $# -ge 2 ] || die "usage: mkinitramfs.sh ARTIFACTS OUTPUT.cpio.gz [EXTRA_BIN...]"
ART=$1
OUT=$2
shift 2
GEN=$ART/build/usr/gen_init_cpio
BUSYBOX=${BUSYBOX:-/bin/busybox}
BPFTOOL=${BPFTOOL:-$(command -v bpftool || echo /usr/sbin/bpftool)}

[ -x "$GEN" ] || die "$GEN missing (kernel not built?)"
grep -qx tar <<<"$("$BUSYBOX" --list)" || die "$BUSYBOX is not a full busybox (install busybox-static)"
[ -x "$BPFTOOL" ] || die "bpftool not found (install bpftool)"

LIST=$(mktemp)
trap 'rm -f "$LIST" "$LIST.ldd"' EXIT
declare -A seen=()

emit_dir() {
	local d=$1 parent
	[ -n "${seen[$d]:-}" ] && return 0
	parent=$(dirname "$d")
	[ "$parent" = / ] || emit_dir "$parent"
	seen[$d]=1
	echo "dir $d 0755 0 0" >>"$LIST"
}

emit_file() { # emit_file GUEST_PATH HOST_PATH MODE
	[ -n "${seen[$1]:-}" ] && return 0
	emit_dir "$(dirname "$1")"
	seen[$1]=1
	echo "file $1 $(readlink -f "$2") $3 0 0" >>"$LIST"
}

# A dynamically linked host binary and every library ldd names.
emit_binary() { # emit_binary GUEST_PATH HOST_PATH
	emit_file "$1" "$2" 0755
	local lib
	ldd "$2" >"$LIST.ldd" 2>/dev/null || true
	for lib in $(grep -o '/[^ ]*' "$LIST.ldd"); do
		emit_file "$lib" "$lib" 0755
	done
}

# Symbolic links are left out: the ones modules_install writes (build,
# source) point into the host's kernel tree, which the guest does not
# have; copied as empty directories they make tools (bpftrace) look for
# kernel headers there.
emit_tree() { # emit_tree GUEST_DIR HOST_DIR
	local f rel
	[ -d "$2" ] || return 0
	while IFS= read -r f; do
		rel=${f#"$2"}
		if [ -d "$f" ]; then
			emit_dir "$1$rel"
		else
			emit_file "$1$rel" "$f" "$([ -x "$f" ] && echo 0755 || echo 0644)"
		fi
	done < <(find "$2" -mindepth 1 ! -type l | sort)
}

emit_dir /dev
echo "nod /dev/console 0600 0 0 c 5 1" >>"$LIST"
echo "nod /dev/null 0666 0 0 c 1 3" >>"$LIST"
emit_file /bin/busybox "$BUSYBOX" 0755
echo "slink /bin/sh busybox 0777 0 0" >>"$LIST"
emit_file /init "$HERE/guest/init" 0755
emit_binary /usr/sbin/bpftool "$BPFTOOL"
# The privilege tests (cli-privileges.sh) need util-linux setpriv, which
# sets capabilities (busybox's cannot), and strace to show no bpf() call.
# /chainscope/bin comes first in PATH, before busybox's applets.
SETPRIV=${SETPRIV:-$(command -v setpriv || true)}
[ -x "$SETPRIV" ] || die "setpriv not found (install util-linux)"
emit_binary /chainscope/bin/setpriv "$SETPRIV"
STRACE=${STRACE:-$(command -v strace || true)}
[ -x "$STRACE" ] && emit_binary /chainscope/bin/strace "$STRACE"
case ${CS_GUEST_TOOLS:-} in
'') ;;
upstream)
	for tool in bpftrace perf trace-cmd; do
		path=$(command -v "$tool") ||
			die "$tool not found (scripts/deps.sh installs it)"
		emit_binary "/chainscope/bin/$tool" "$path"
	done
	# tells the guest's need_tool (upstream/lib.sh) that a missing tool
	# is a failure here, not a skip
	emit_dir /chainscope/tools-upstream
	;;
recorders)
	# perf and trace-cmd alone, for qemu/bench.sh's recorder_compare:
	# a fraction of upstream's size (bpftrace's LLVM is most of it)
	for tool in perf trace-cmd; do
		path=$(command -v "$tool") ||
			die "$tool not found (scripts/deps.sh installs it)"
		emit_binary "/chainscope/bin/$tool" "$path"
	done
	;;
*) die "CS_GUEST_TOOLS='$CS_GUEST_TOOLS': only 'upstream' and 'recorders' are known" ;;
esac
emit_tree /chainscope "$HERE/guest"
emit_tree /lib/modules "$ART/mods/lib/modules"
emit_tree /chainscope/modules "$ART/extra"
for b in "$@"; do
	[ -x "$b" ] || die "$b is not an executable"
	emit_binary "/chainscope/bin/$(basename "$b")" "$b"
done

# Rebuild only when the list or a listed file changed.
key=$( { cat "$LIST"; awk '$1 == "file" {print $3}' "$LIST" | xargs sha256sum; } |
	sha256sum | cut -c1-16)
if [ -f "$OUT" ] && [ "$(cat "$OUT.key" 2>/dev/null)" = "$key" ]; then
	exit 0
fi
mkdir -p "$(dirname "$OUT")"
"$GEN" "$LIST" | gzip -1 >"$OUT.tmp"
mv "$OUT.tmp" "$OUT"
echo "$key" >"$OUT.key"
