#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the chainscope guest kernels from Debian's linux-source-6.1 or
# linux-source-6.12 (CS_KERNEL=6.1, the default, or CS_KERNEL=6.12).
#
#   kernel/build.sh build VARIANT [FLAVOR]   VARIANT: chainscope | stock
#                                             FLAVOR:  normal (default) | debug
#   kernel/build.sh check OBJ                 compile one object (e.g.
#                                             kernel/notifier.o), chainscope
#   kernel/build.sh tree                      unpack only; print the tree
#   kernel/build.sh stage                     our sources as this tree gets
#                                             them (core patches applied)
#   kernel/build.sh config [FLAVOR]           unpack + configure; print build dir
#   kernel/build.sh outdir VARIANT [FLAVOR]   print the artifact dir
#   kernel/build.sh notrace-check             compile our kernel/notifier.o
#                                             with CONFIG_TRACEPOINTS=n and
#                                             check that nothing of tracing
#                                             is left in it
#
# Cache layout (CHAINSCOPE_CACHE, default /var/cache/chainscope):
#   linux-<srckey>/src                  pristine tree + kernel/patches,
#                                       .chainscope/stock/ keeps the tree's
#                                       own files we replace
#   linux-<srckey>/build-<flavor>-<cfgkey>  O= build directory
#   linux-<srckey>/out/<flavor>-<variant>/  bzImage, System.map, vmlinux.h,
#                                       modules, notifier.o and
#                                       vmlinux.nodebug (symbols, no
#                                       DWARF); valid when .done holds the
#                                       hash of the notifier sources built
#   current-<CS_KERNEL> -> linux-<srckey>
# srckey hashes the package version, our patches and TREE_FORMAT; cfgkey
# hashes the config fragments of the flavor.  Patches and fragments are
# shared (kernel/patches/*.patch, kernel/config/<flavor>.config) plus
# per tree (kernel/patches/<CS_KERNEL>/, kernel/config/<flavor>-<CS_KERNEL>.config). Variants share one build
# directory: switching swaps kernel/notifier.c and rebuilds incrementally.
# Every step writes its stamp last, so an interrupted step is redone.
set -euo pipefail

TREE_FORMAT=1	# bump when the unpack/patch steps below change
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(dirname "$HERE")
CACHE=${CHAINSCOPE_CACHE:-/var/cache/chainscope}
JOBS=${JOBS:-$(($(nproc) + 1))}
KVER=${CS_KERNEL:-6.1}
case "$KVER" in
6.1 | 6.12) ;;
*) echo "build.sh: error: CS_KERNEL=$KVER: not a kernel we build (6.1, 6.12)" >&2; exit 2 ;;
esac
TARBALL=${LINUX_TARBALL:-/usr/src/linux-source-$KVER.tar.xz}
PKG=linux-source-$KVER
# Files of ours that land in the tree, "repo path:tree path".
OURS="kernel/notifier.c:kernel/notifier.c
kernel/notifier_kunit.c:kernel/notifier_kunit.c
kernel/notifier_trace_kunit.c:kernel/notifier_trace_kunit.c
include-trace/trace/events/notifier.h:include/trace/events/notifier.h"
# The core: what the stock variant takes back from the tree (or removes,
# where the tree has no such file).  The KUnit suite stays in both.
CORE="kernel/notifier.c:kernel/notifier.c
include-trace/trace/events/notifier.h:include/trace/events/notifier.h"

die() { echo "build.sh: error: $*" >&2; exit 1; }
log() { echo "[$(date +%H:%M:%S)] build.sh: $*" >&2; }

hash_files() { cat "$@" | sha256sum | cut -c1-12; }

pkg_version() {
	dpkg-query -W -f='${Version}' "$PKG" 2>/dev/null ||
		die "$PKG is not installed (run: make deps)"
}

# The patches for this tree, in order: shared ones, then its own.  One
# named after a patch of the series (kernel/series/series) is that
# patch's hunk of a tree file (the core's enums in <linux/notifier.h>):
# make patches folds it into that patch; here both variants get it.
tree_patches() {
	ls "$REPO"/kernel/patches/*.patch "$REPO/kernel/patches/$KVER"/*.patch \
		2>/dev/null || true
}

srckey() {
	{ echo "$TREE_FORMAT"; pkg_version; cat $(tree_patches); } |
		sha256sum | cut -c1-12
}

flavor_frags() {
	local f frags=""
	case "$1" in
	normal) set -- base ;;
	debug) set -- base debug ;;
	notrace) set -- notrace ;;
	*) die "unknown flavor '$1' (normal, debug, notrace)" ;;
	esac
	for f in "$@"; do
		frags="$frags $REPO/kernel/config/$f.config"
		[ -f "$REPO/kernel/config/$f-$KVER.config" ] &&
			frags="$frags $REPO/kernel/config/$f-$KVER.config"
	done
	echo $frags
}

TOP="$CACHE/linux-$(srckey)"
SRC="$TOP/src"

# Unpack the pristine tree once, apply our patches, keep the stock files.
ensure_tree() {
	[ -f "$SRC/.chainscope/unpacked" ] && return 0
	[ -r "$TARBALL" ] || die "$TARBALL missing (apt-get install $PKG)"
	mkdir -p "$TOP"
	local tmp="$TOP/src.tmp"
	rm -rf "$tmp" "$SRC"
	log "unpacking $TARBALL ($(pkg_version)) into $TOP"
	mkdir -p "$tmp"
	tar -xJf "$TARBALL" -C "$tmp" --strip-components=1 ||
		die "cannot unpack $TARBALL"
	local want
	want=$(make -s -C "$tmp" kernelversion)
	case "$want" in
	"$KVER".*) ;;
	*) die "$TARBALL holds Linux $want, expected $KVER.x" ;;
	esac
	# The tree's own versions of the core files we replace (6.12 has an
	# include/trace/events/notifier.h of its own, 6.1 has none).
	local from to
	while IFS=: read -r from to; do
		[ -f "$tmp/$to" ] || continue
		mkdir -p "$tmp/.chainscope/stock/$(dirname "$to")"
		cp "$tmp/$to" "$tmp/.chainscope/stock/$to"
	done <<<"$CORE"
	# Pristine copies of every file our patches touch (for make patches).
	local p f
	for p in $(tree_patches); do
		for f in $(sed -n 's|^+++ b/||p' "$p"); do
			[ -f "$tmp/.chainscope/pristine/$f" ] && continue
			mkdir -p "$tmp/.chainscope/pristine/$(dirname "$f")"
			cp "$tmp/$f" "$tmp/.chainscope/pristine/$f"
		done
		patch -s -p1 -d "$tmp" < "$p" || die "patch $(basename "$p") does not apply"
	done
	touch "$tmp/.chainscope/unpacked"
	mv "$tmp" "$SRC"
	ln -sfn "$TOP" "$CACHE/current-$KVER"
}

# Copy $1 to $2 only when the content differs, so make sees no change
# (and rebuilds nothing) when nothing changed.
install_if_changed() {
	if ! cmp -s "$1" "$2"; then
		mkdir -p "$(dirname "$2")"
		cp "$1" "$2"
	fi
}

# Our files as this tree gets them: the repo's, with the tree's core
# patches (kernel/patches/<CS_KERNEL>/core/*.patch) applied, in $TOP/stage.
stage_ours() {
	local st="$TOP/stage" from to p
	rm -rf "$st"
	mkdir -p "$st"
	while IFS=: read -r from to; do
		if [ -f "$REPO/$from" ]; then
			mkdir -p "$st/$(dirname "$to")"
			cp "$REPO/$from" "$st/$to"
		elif [ "${1:-}" != partial ]; then
			die "$from is missing"
		fi
	done <<<"$OURS"
	for p in "$REPO/kernel/patches/$KVER/core"/*.patch; do
		[ -f "$p" ] || continue
		patch -s -p1 -d "$st" --no-backup-if-mismatch <"$p" ||
			die "core patch $(basename "$p") does not apply to our sources"
	done
}

# Put the notifier core of VARIANT into the tree.
install_variant() {
	local from to
	stage_ours "${2:-}"
	while IFS=: read -r from to; do
		[ -f "$TOP/stage/$to" ] && install_if_changed "$TOP/stage/$to" "$SRC/$to"
	done <<<"$OURS"
	case "$1" in
	chainscope) ;;
	stock)
		while IFS=: read -r from to; do
			if [ -f "$SRC/.chainscope/stock/$to" ]; then
				install_if_changed "$SRC/.chainscope/stock/$to" "$SRC/$to"
			else
				rm -f "$SRC/$to"
			fi
		done <<<"$CORE"
		;;
	*) die "unknown variant '$1' (chainscope, stock)" ;;
	esac
}

variant_hash() {
	local files=() from to
	while IFS=: read -r from to; do
		[ -f "$SRC/$to" ] && files+=("$SRC/$to")
	done <<<"$OURS"
	{
		echo "$1 $2"
		cat "${files[@]}" $(flavor_frags "$2")
		find "$REPO/kernel/modules" -type f -print0 2>/dev/null | sort -z |
			xargs -0 -r cat
	} | sha256sum | cut -c1-12
}

builddir() {
	echo "$TOP/build-$1-$(hash_files $(flavor_frags "$1"))"
}

# tinyconfig + fragments + olddefconfig, then prove every option survived.
ensure_config() {
	local flavor=$1 b
	b=$(builddir "$flavor")
	[ -f "$b/.chainscope-configured" ] && return 0
	mkdir -p "$b"
	log "configuring $flavor kernel in $b"
	# merge_config.sh leaves temporary files in its working directory.
	# shellcheck disable=SC2046
	(
		cd "$b" &&
		make -s -C "$SRC" O="$b" tinyconfig &&
		"$SRC/scripts/kconfig/merge_config.sh" -m -O "$b" "$b/.config" \
			$(flavor_frags "$flavor") &&
		make -s -C "$SRC" O="$b" olddefconfig
	) >"$b/config.log" 2>&1 || die "configuring failed; see $b/config.log"
	local missing=() opt val got
	while IFS='=' read -r opt val; do
		case "$opt" in CONFIG_*) ;; *) continue ;; esac
		if [ "$val" = n ]; then
			grep -q "^$opt=" "$b/.config" && missing+=("$opt=n")
			continue
		fi
		got=$(sed -n "s/^$opt=//p" "$b/.config")
		[ "$got" = "$val" ] || missing+=("$opt=$val(got:${got:-unset})")
	done < <(cat $(flavor_frags "$flavor"))
	[ ${#missing[@]} -eq 0 ] ||
		die "config options dropped by olddefconfig: ${missing[*]}"
	touch "$b/.chainscope-configured"
	# Builds of this flavor from older fragments are dead weight (~2 GB).
	local d
	for d in "$TOP/build-$flavor"-*; do
		[ "$d" = "$b" ] || rm -rf "$d"
	done
}

# Our out-of-tree modules (kernel/modules/NAME/), built against the tree
# as it is now, i.e. against the variant just built.  On our variant
# also the KUnit suite of the notifier events (kernel/notifier_trace_kunit.c):
# the series builds it in the tree (its last patch's Kconfig symbol),
# but the tree patches that both variants share (kernel/patches/) have
# only the functional suite's, which must build on stock too; so here it
# is built from the same source as a module of its own.
build_ext_modules() {
	local b=$1 dest=$2 variant=$3 m name d
	mkdir -p "$dest"
	if [ "$variant" = chainscope ]; then
		d="$b/chainscope-ext/notifier_trace_kunit"
		mkdir -p "$d"
		cp "$SRC/kernel/notifier_trace_kunit.c" "$d/"
		echo 'obj-m += notifier_trace_kunit.o' >"$d/Makefile"
		make -C "$SRC" O="$b" M="$d" -j"$JOBS" W=1 modules >"$d/build.log" 2>&1 ||
			{ cat "$d/build.log" >&2; die "module notifier_trace_kunit failed to build"; }
		cp "$d/notifier_trace_kunit.ko" "$dest/"
	fi
	for m in "$REPO"/kernel/modules/*/; do
		[ -f "$m/Makefile" ] || continue
		name=$(basename "$m")
		d="$b/chainscope-ext/$name"
		mkdir -p "$d"
		rsync -a --delete --exclude='*.o' --exclude='*.ko' --exclude='.*.cmd' \
			"$m" "$d/"
		make -C "$SRC" O="$b" M="$d" -j"$JOBS" modules >"$d/build.log" 2>&1 ||
			{ cat "$d/build.log" >&2; die "module $name failed to build"; }
		cp "$d"/*.ko "$dest/"
	done
}

cmd_build() {
	local variant=${1:-chainscope} flavor=${2:-normal}
	ensure_tree
	install_variant "$variant"
	local out="$TOP/out/$flavor-$variant" h
	h=$(variant_hash "$variant" "$flavor")
	# An out dir from before it kept notifier.o is rebuilt once.
	if [ "$(cat "$out/.done" 2>/dev/null)" = "$h" ] &&
		[ -f "$out/notifier.o" ]; then
		echo "$out"
		return 0
	fi
	ensure_config "$flavor"
	local b
	b=$(builddir "$flavor")
	log "building $flavor/$variant kernel (make -j$JOBS, log: $b/build.log)"
	if ! make -C "$SRC" O="$b" -j"$JOBS" bzImage modules >"$b/build.log" 2>&1; then
		grep -E 'error|Error' "$b/build.log" | head -20 >&2
		die "kernel build failed ($flavor/$variant); see $b/build.log"
	fi
	rm -rf "$out"
	mkdir -p "$out"
	cp "$b/arch/x86/boot/bzImage" "$b/System.map" "$b/.config" "$out/"
	# The variants share the build dir: keep this one's notifier object
	# and symbols for size comparisons (qemu/bench.sh, bloat-o-meter).
	cp "$b/kernel/notifier.o" "$out/"
	objcopy --strip-debug "$b/vmlinux" "$out/vmlinux.nodebug"
	make -s -C "$SRC" O="$b" INSTALL_MOD_PATH="$out/mods" \
		INSTALL_MOD_STRIP=1 modules_install >/dev/null
	build_ext_modules "$b" "$out/extra" "$variant"
	bpftool btf dump file "$b/vmlinux" format c >"$out/vmlinux.h" ||
		die "no BTF in $b/vmlinux"
	ln -sfn "$b" "$out/build"
	echo "$h" >"$out/.done"
	log "$flavor/$variant ready in $out"
	echo "$out"
}

cmd_check() {
	[ $# -ge 1 ] || die "usage: build.sh check OBJ..."
	ensure_tree
	install_variant chainscope partial
	ensure_config normal
	make -C "$SRC" O="$(builddir normal)" -j"$JOBS" W=1 "$@"
}

# Without CONFIG_TRACEPOINTS the static keys, their hooks and every traced
# variant must compile away, leaving only the plain walks: no symbol of
# tracing, no static-branch site (__jump_table) in kernel/notifier.o.
cmd_notrace_check() {
	local b obj syms bad
	ensure_tree
	install_variant chainscope
	ensure_config notrace
	b=$(builddir notrace)
	log "compiling kernel/notifier.o with CONFIG_TRACEPOINTS=n (log: $b/build.log)"
	if ! make -C "$SRC" O="$b" -j"$JOBS" W=1 kernel/notifier.o >"$b/build.log" 2>&1; then
		grep -E 'error|warning' "$b/build.log" | head -20 >&2
		die "kernel/notifier.o does not compile with CONFIG_TRACEPOINTS=n"
	fi
	if grep -E 'notifier\.c:[0-9]+:[0-9]+: warning' "$b/build.log" >&2; then
		die "kernel/notifier.c has W=1 warnings with CONFIG_TRACEPOINTS=n"
	fi
	obj="$b/kernel/notifier.o"
	syms=$(nm "$obj" | awk '{ print $NF }')
	bad=$(echo "$syms" | grep -E '_traced$|trace|tracepoint' || true)
	[ -z "$bad" ] || die "tracing left in notifier.o without CONFIG_TRACEPOINTS: $(echo $bad)"
	if grep -q '__jump_table' <<<"$(objdump -h "$obj")"; then
		die "notifier.o has static-branch sites without CONFIG_TRACEPOINTS"
	fi
	echo "$obj: $(echo "$syms" | grep -c 'notifier') notifier symbols, none of tracing, no __jump_table"
}

main() {
	local cmd=${1:-}
	shift || true
	mkdir -p "$CACHE"
	case "$cmd" in
	outdir)
		echo "$TOP/out/${2:-normal}-${1:-chainscope}"
		return 0
		;;
	esac
	# One kernel build at a time on this machine.
	exec 9>"$CACHE/.lock"
	flock 9
	case "$cmd" in
	build) cmd_build "$@" ;;
	check) cmd_check "$@" ;;
	notrace-check) cmd_notrace_check ;;
	tree) ensure_tree && echo "$SRC" ;;
	stage) ensure_tree && stage_ours && echo "$TOP/stage" ;;
	config) ensure_tree && ensure_config "${1:-normal}" && builddir "${1:-normal}" ;;
	*) die "usage: build.sh {build VARIANT [FLAVOR]|check OBJ|tree|outdir VARIANT [FLAVOR]}" ;;
	esac
}

main "$@"
