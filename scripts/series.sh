#!/usr/bin/env bash
# The states of our files after each patch of the series (kernel/series/).
#
#   scripts/series.sh states [--raw] KVER OUTDIR
#       write OUTDIR/NAME/{kernel/notifier.c,include/trace/events/notifier.h}
#       for every rewrite/step/nfc patch NAME: the files as they are after
#       that patch, for tree KVER (6.1 or 6.12).  --raw leaves out the
#       tree's adaptations (kernel/series/KVER/NAME.diff and
#       kernel/patches/KVER/core/*.patch): the states the .diff files
#       describe, for editing.
#   scripts/series.sh refresh DIR
#       rewrite kernel/series/NAME.diff from edited raw states in DIR
#       (written by states --raw); the last state must be the repo's files
#   scripts/series.sh list [KIND]
#       the patch names in order (of one kind only, if given)
#   scripts/series.sh files
#       the names of the patches that change our files (rewrite, nfc,
#       step): one state each
#
# The last state is the repo's kernel/notifier.c and trace header; every
# earlier one is the next one with NAME.diff reverted.  A diff that no
# longer reverts cleanly (the core changed under it) is an error naming
# the patch: export the raw states, carry the change into the states it
# belongs to, and refresh.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(dirname "$HERE")
S=$REPO/kernel/series
die() { echo "series.sh: error: $*" >&2; exit 1; }

# Our files, "repo path:tree path".
FILES="kernel/notifier.c:kernel/notifier.c
include-trace/trace/events/notifier.h:include/trace/events/notifier.h"

list() { # list [KIND]
	[ -f "$S/series" ] || die "$S/series missing"
	awk -v k="${1:-}" '!/^#/ && NF { if (k == "" || $2 == k) print $1 }' "$S/series"
}

# The patches that change our files: every rewrite, nfc and step patch.
file_patches() {
	awk '!/^#/ && NF && ($2 == "rewrite" || $2 == "step" || $2 == "nfc") { print $1 }' \
		"$S/series"
}

apply_diff() { # apply_diff DIR DIFF [-R]
	local dir=$1 diff=$2
	shift 2
	patch -s -p1 -F0 -d "$dir" --no-backup-if-mismatch -r - "$@" <"$diff" \
		>/dev/null
}

cmd_states() {
	local raw=0
	if [ "${1:-}" = --raw ]; then
		raw=1
		shift
	fi
	[ $# = 2 ] || die "usage: series.sh states [--raw] KVER OUTDIR"
	local kver=$1 out=$2 names=() i n next p from to
	case "$kver" in 6.1 | 6.12) ;; *) die "KVER '$kver': 6.1 or 6.12" ;; esac
	mapfile -t names < <(file_patches)
	[ ${#names[@]} -gt 0 ] || die "no rewrite/step patches in $S/series"
	mkdir -p "$out"
	# The last state: our files.
	n=${names[-1]}
	rm -rf "${out:?}/$n"
	while IFS=: read -r from to; do
		mkdir -p "$out/$n/$(dirname "$to")"
		cp "$REPO/$from" "$out/$n/$to"
	done <<<"$FILES"
	# Each earlier state: the next one with the next patch's diff reverted.
	for ((i = ${#names[@]} - 2; i >= 0; i--)); do
		n=${names[$i]}
		next=${names[$((i + 1))]}
		[ -f "$S/$next.diff" ] || die "$next: $S/$next.diff missing"
		rm -rf "${out:?}/$n"
		cp -r "$out/$next" "$out/$n"
		apply_diff "$out/$n" "$S/$next.diff" -R ||
			die "$next.diff does not revert cleanly on our files: the core changed under it (see scripts/series.sh)"
	done
	[ "$raw" = 1 ] && return 0
	# The tree's adaptations, then the tree's core patches (as build.sh).
	for n in "${names[@]}"; do
		if [ -f "$S/$kver/$n.diff" ]; then
			apply_diff "$out/$n" "$S/$kver/$n.diff" ||
				die "kernel/series/$kver/$n.diff does not apply to the state after $n"
		fi
		for p in "$REPO/kernel/patches/$kver/core"/*.patch; do
			[ -f "$p" ] || continue
			patch -s -p1 -d "$out/$n" --no-backup-if-mismatch -r - <"$p" >/dev/null ||
				die "core patch $(basename "$p") does not apply to the state after $n"
		done
	done
}

cmd_refresh() {
	[ $# = 1 ] || die "usage: series.sh refresh DIR"
	local dir=$1 names=() i n prev from to tmp
	mapfile -t names < <(file_patches)
	n=${names[-1]}
	while IFS=: read -r from to; do
		cmp -s "$REPO/$from" "$dir/$n/$to" ||
			die "$dir/$n/$to differs from $from: the last state must be the repo's file"
	done <<<"$FILES"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' RETURN
	for ((i = 1; i < ${#names[@]}; i++)); do
		prev=${names[$((i - 1))]}
		n=${names[$i]}
		rm -rf "$tmp/a" "$tmp/b"
		cp -r "$dir/$prev" "$tmp/a"
		cp -r "$dir/$n" "$tmp/b"
		(cd "$tmp" && git diff --no-index --no-prefix a b) >"$S/$n.diff.new" || true
		[ -s "$S/$n.diff.new" ] || die "$n changes nothing"
		mv "$S/$n.diff.new" "$S/$n.diff"
		echo "series.sh: wrote kernel/series/$n.diff"
	done
}

cmd=${1:-}
shift || true
case "$cmd" in
states) cmd_states "$@" ;;
refresh) cmd_refresh "$@" ;;
list) list "$@" ;;
files) file_patches ;;
*) die "usage: series.sh {states [--raw] KVER OUTDIR|refresh DIR|list [KIND]|files}" ;;
esac
