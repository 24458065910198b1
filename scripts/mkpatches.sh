#!/usr/bin/env bash
# make patches: write our series as git format-patch files against the
# pristine linux-source-6.1 tree, prove that they apply in order, and run
# the tree's scripts/checkpatch.pl --strict on each.
#
#   scripts/mkpatches.sh OUTDIR
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(dirname "$HERE")
OUT=${1:?usage: mkpatches.sh OUTDIR}
die() { echo "mkpatches: error: $*" >&2; exit 1; }

SRC=$("$REPO/kernel/build.sh" tree) || die "no kernel tree"
P=$SRC/.chainscope
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
GIT=(git -C "$WORK/series" -c user.name="chainscope developers"
	-c user.email="chainscope@example.org" -c commit.gpgsign=false)

# The base: pristine copies of every file the series touches.
mkdir -p "$WORK/series/kernel" "$WORK/series/lib"
cp "$P/stock/kernel/notifier.c" "$WORK/series/kernel/notifier.c"
cp "$P/pristine/kernel/Makefile" "$WORK/series/kernel/Makefile"
cp "$P/pristine/lib/Kconfig.debug" "$WORK/series/lib/Kconfig.debug"
cp "$SRC/MAINTAINERS" "$WORK/series/MAINTAINERS"
"${GIT[@]}" init -q
"${GIT[@]}" add -A
"${GIT[@]}" commit -q -m base

# Add one F: line to our MAINTAINERS section (created on first use, in
# alphabetical order among the sections).
maintainers_add() {
	python3 - "$WORK/series/MAINTAINERS" "$1" <<'EOF'
import sys
path, newfile = sys.argv[1], sys.argv[2]
title = "NOTIFIER CHAINS AND THEIR TRACEPOINTS"
lines = open(path).read().split("\n")
if title in lines:
    i = lines.index(title) + 1
    while lines[i].strip():
        i += 1
    lines.insert(i, "F:\t" + newfile)
    fs = sorted(l for l in lines[lines.index(title) + 1:i + 1] if l.startswith("F:"))
    j = lines.index(title) + 1
    while not lines[j].startswith("F:"):
        j += 1
    lines[j:j + len(fs)] = fs
else:
    start = lines.index("Maintainers List") if "Maintainers List" in lines else 0
    for i in range(start + 1, len(lines) - 1):
        l = lines[i]
        if (l and l == l.upper() and lines[i - 1] == "" and
                lines[i + 1][:2] in ("M:", "R:", "L:", "S:") and l > title):
            break
    lines[i:i] = [title, "L:\tlinux-kernel@vger.kernel.org", "S:\tMaintained",
                  "F:\t" + newfile, ""]
open(path, "w").write("\n".join(lines))
EOF
}

commit() { # commit SUBJECT BODY
	"${GIT[@]}" add -A
	"${GIT[@]}" commit -q -s -m "$1" -m "$2"
}

mkdir -p "$WORK/series/include/trace/events"
cp "$REPO/include-trace/trace/events/notifier.h" "$WORK/series/include/trace/events/"
maintainers_add include/trace/events/notifier.h
commit "tracing: Add notifier chain tracepoints" \
"Notifier chains are called all over the kernel, and when one is slow or
vetoes an action there is no way to see which callback did it.

Add a notifier trace system. notifier_register, notifier_unregister and
notifier_run keep the names and the leading 'cb' field of the events
that later kernels have, so that existing scripts keep working; they
also carry the chain head, its kind, the block and its priority. New
events report the value a callback returned and the time it took, the
callback that stopped a chain, the begin and end of every pass over a
chain (plain, robust, rollback), refused (un)registrations and the time
spent waiting for the rwsem or mutex of blocking and SRCU chains.

Every event registers through notifier_trace_reg()/notifier_trace_unreg()
so that the call paths can switch to a traced walk with a single static
branch per call."

cp "$REPO/kernel/notifier.c" "$WORK/series/kernel/notifier.c"
maintainers_add kernel/notifier.c
commit "notifier: Rewrite the chain core with tracing built in" \
"Rewrite kernel/notifier.c around one chain walk that is instantiated
twice: a plain walk, used while no notifier event is enabled and costing
one static-branch NOP per call, and a traced walk that emits the
notifier events and measures callback and lock-wait times only for the
events that are enabled.

The API, export kinds and semantics are unchanged: higher priority is
called first and equal priorities in registration order, a return value
with NOTIFY_STOP_MASK ends the walk, robust calls roll back the callbacks
that succeeded, double registration warns and fails with -EEXIST, a taken
unique priority fails with -EBUSY and unregistering an unknown block with
-ENOENT. Locking per chain kind is kept as is: rwsem for blocking chains
(skipped by callers while a chain is empty, and by writers while the
system boots), spinlock plus RCU for atomic chains, mutex plus SRCU for
SRCU chains, nothing for raw chains."

# One compilation unit: the .c and the harness headers that only it
# includes (the notifier_kunit lines of OURS in kernel/build.sh).
for f in kernel/notifier_kunit.c kernel/notifier_kunit_harness.h \
	kernel/notifier_kunit_fixture.h kernel/notifier_kunit_trace.h \
	kernel/notifier_kunit_concurrency.h; do
	cp "$REPO/$f" "$WORK/series/$f"
	maintainers_add "$f"
done
patch -s -p1 -d "$WORK/series" <"$REPO/kernel/patches/0001-notifier-kunit-kconfig.patch"
commit "notifier: Add a KUnit suite" \
"Test every exported notifier function on every chain kind: ordering by
priority and registration, NOTIFY_STOP_MASK and NOTIFY_BAD, robust
rollback, unique priorities, the error returns, the die chain, and
concurrent registration, unregistration and calls from kthreads, hardirq
and timer context, with sleeping and nesting callbacks. When the kernel
has the notifier tracepoints, probes check their fields and order;
otherwise those cases are skipped, so the same suite also runs on a
kernel without them."

rm -rf "$OUT"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
"${GIT[@]}" format-patch -q -o "$OUT" HEAD~3..HEAD

# Each patch applies, in order, to the pristine base.
git clone -q "$WORK/series" "$WORK/check"
git -C "$WORK/check" checkout -q HEAD~3
git -C "$WORK/check" -c user.name=x -c user.email=x@example.org am -q "$OUT"/*.patch ||
	die "the series does not apply to the pristine tree"

status=0
for p in "$OUT"/*.patch; do
	if (cd "$SRC" && ./scripts/checkpatch.pl --strict --quiet "$p") >"$p.checkpatch" 2>&1; then
		echo "checkpatch clean: $(basename "$p")"
		rm -f "$p.checkpatch"
	else
		echo "checkpatch FAILED: $(basename "$p") (see $p.checkpatch)" >&2
		status=1
	fi
done
exit $status
