#!/bin/bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# The dependency rule of userspace/ (README.md, tests/sh/layout.py):
# first that each kind of violation is caught, on crafted copies; then the
# tree as it is.
#
#   tests/sh/layout.sh USERSPACE_DIR OUTPUT_DIR NM OBJECT...
PREFIX=host.layout
# shellcheck source=userspace/tests/sh/lib.sh
. "$(dirname "$(readlink -f "$0")")/lib.sh"
CHECK="$(dirname "$(readlink -f "$0")")/layout.py"
SRC=$(readlink -f "${1:?usage: layout.sh USERSPACE_DIR OUTPUT_DIR NM OBJECT...}")
OUT=${2:?}
NM=${3:?}
shift 3

# A copy of the sources' folders (no objects, no tests), and the bpf/ that
# layout.py reads beside it
copy_tree() {
	rm -rf "$TMP/t"
	mkdir -p "$TMP/t/userspace"
	cp -r "$SRC/../bpf" "$TMP/t/bpf"
	for d in core trace live check diff report cmd bench; do
		cp -r "$SRC/$d" "$TMP/t/userspace/$d"
	done
	cp "$SRC/main.c" "$TMP/t/userspace/"
}

# crafted NAME WANT-PATTERN: layout.py on $TMP/t fails with a line
# matching WANT-PATTERN (the objects are the real ones: symbols pass)
crafted() {
	run python3 "$CHECK" "$TMP/t/userspace" "$OUT" "$NM" "$@"
}
expect_violation() {
	local name=$1 pat=$2

	if [ "$rc" = 1 ] && grep -Eq -- "$pat" <<<"$out"; then
		pass "crafted.$name"
	else
		fail "crafted.$name" "exit $rc, want 1 and /$pat/: ${out:0:300} ${err:0:200}"
	fi
}

copy_tree
echo '#include "tracefile.h"' >>"$TMP/t/userspace/core/output.c"
crafted "$@"
expect_violation core-includes-trace 'core/output.c: "tracefile.h" is trace/.s: core may use nothing'

copy_tree
echo '#include "../bpf/common.h"' >>"$TMP/t/userspace/report/svg.c"
crafted "$@"
expect_violation relative-path 'report/svg.c: "../bpf/common.h": a path'

copy_tree
echo '#include <bpf/libbpf.h>' >>"$TMP/t/userspace/check/checker.c"
crafted "$@"
expect_violation libbpf-in-analysis 'check/checker.c: <bpf/libbpf.h>: only cmd/, live/ and bench/'

copy_tree
echo '#include "latency.skel.h"' >>"$TMP/t/userspace/diff/diff_row.c"
crafted "$@"
expect_violation skeleton-in-analysis 'diff/diff_row.c: "latency.skel.h": a skeleton'

copy_tree
echo '#include "lat_collect.h"' >>"$TMP/t/userspace/report/svg.c"
crafted "$@"
expect_violation analysis-includes-live 'report/svg.c: "lat_collect.h" is live/.s'

# Symbols: an object of report/ (it calls into trace/) shown to the check
# as if it were core/'s
copy_tree
mkdir -p "$TMP/o/core"
objs=()
for o in "$@"; do
	case $o in
	*/report/svg_timeline.o) cp "$o" "$TMP/o/core/svg_timeline.o"; objs+=("$TMP/o/core/svg_timeline.o") ;;
	*/core/*) cp "$o" "$TMP/o/core/"; objs+=("$TMP/o/core/$(basename "$o")") ;;
	*/trace/*) mkdir -p "$TMP/o/trace"; cp "$o" "$TMP/o/trace/"; objs+=("$TMP/o/trace/$(basename "$o")") ;;
	esac
done
run python3 "$CHECK" "$SRC" "$TMP/o" "$NM" "${objs[@]}"
expect_violation symbol-from-higher-folder 'core/svg_timeline.o: uses cs_[a-z_]+ from trace/: core may use nothing'

# A header of core/ declaring what live/ defines: cmd/, or anything that
# reaches core/, could call it past the rule
copy_tree
echo 'int cs_lat_start(void *run, void **out);' >>"$TMP/t/userspace/core/trace_helpers.h"
crafted "$@"
expect_violation header-declares-higher 'core/trace_helpers.h: declares cs_lat_start, which live/ defines'

# libbpf called from core/ through a prototype of its own, no header
mkdir -p "$TMP/o2/core"
printf 'int bpf_map_update_elem(int, const void *, const void *, unsigned long long);\nint cs_x(void);\nint cs_x(void) { return bpf_map_update_elem(0, 0, 0, 0); }\n' \
	>"$TMP/o2/x.c"
if ${CC:-cc} -c -o "$TMP/o2/core/x.o" "$TMP/o2/x.c"; then
	run python3 "$CHECK" "$SRC" "$TMP/o2" "$NM" "$TMP/o2/core/x.o"
	expect_violation libbpf-symbol-in-core "core/x.o: uses libbpf's bpf_map_update_elem"
else
	fail crafted.libbpf-symbol-in-core "cannot compile the crafted object"
fi

# The tree as it is: layout.py's own PASS/FAIL lines
python3 "$CHECK" "$SRC" "$OUT" "$NM" "$@" || failed=1
exit $failed
