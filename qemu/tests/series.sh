#!/usr/bin/env bash
# Host tests of the patch series' sources (kernel/series/): every state
# derives from our files on both trees, and make patches refuses to sign
# off without an identity. Prints one PASS/FAIL/SKIP line per case.
set -uo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

check() { # check NAME RC DETAIL
	if [ "$2" = 0 ]; then echo "PASS: host.series.$1"; else echo "FAIL: host.series.$1: $3"; fi
}

for kver in 6.1 6.12; do
	k=${kver//./}
	out=$("$REPO/scripts/series.sh" states "$kver" "$TMP/$k" 2>&1)
	check "states-$k" $? "$out"
	last=$("$REPO/scripts/series.sh" files | tail -n 1)
	# the raw last state is our files; the tree's is them plus its core patches
	out=$("$REPO/scripts/series.sh" states --raw "$kver" "$TMP/raw$k" 2>&1) &&
		cmp -s "$TMP/raw$k/$last/kernel/notifier.c" "$REPO/kernel/notifier.c" &&
		cmp -s "$TMP/raw$k/$last/include/trace/events/notifier.h" \
			"$REPO/include-trace/trace/events/notifier.h"
	check "last-state-is-ours-$k" $? "$out"
	# every patch changes something, and only our two files
	bad=''
	prev=''
	for n in $("$REPO/scripts/series.sh" files); do
		extra=$(cd "$TMP/$k/$n" && find . -type f | sort | grep -v -x -e ./kernel/notifier.c \
			-e ./include/trace/events/notifier.h)
		[ -z "$extra" ] || bad="$bad $n:$extra"
		if [ -n "$prev" ] && diff -rq "$TMP/$k/$prev" "$TMP/$k/$n" >/dev/null; then
			bad="$bad $n:no-change"
		fi
		prev=$n
	done
	[ -z "$bad" ]
	check "states-change-our-files-$k" $? "$bad"
	# the trace header arrives with the first tracing patch (6.1) or is
	# upstream's until then (6.12: no state before it carries ours)
	first=$(find "$TMP/$k" -mindepth 1 -maxdepth 1 -printf '%f\n' | sort)
	first=${first%%$'\n'*}
	[ ! -e "$TMP/$k/$first/include/trace/events/notifier.h" ]
	check "first-state-without-our-header-$k" $? "$first has a header of ours"
done

# A diff that no longer reverts is named (the core changed under it).
mkdir -p "$TMP/fake"
cp -r "$REPO/scripts" "$REPO/kernel" "$REPO/include-trace" "$TMP/fake/"
sed -i 's/notifier_rwsem_take_timed/notifier_rwsem_take_slowly/' "$TMP/fake/kernel/notifier.c"
out=$("$TMP/fake/scripts/series.sh" states 6.1 "$TMP/fakeout" 2>&1)
rc=$?
[ "$rc" = 1 ] && grep -q 'error: 0007-notifier-trace-lock-wait.diff does not revert cleanly' <<<"$out"
check stale-diff-named $? "rc=$rc out=$out"

# No identity, no series: exit 2 before anything is written.
if [ -n "$(git -C "$REPO" config --local --get user.name 2>/dev/null)" ]; then
	echo "SKIP: host.series.no-identity: this clone sets user.name itself"
else
	out=$(HOME=$TMP GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null \
		"$REPO/scripts/mkpatches.sh" "$TMP/patches" 2>&1)
	rc=$?
	[ "$rc" = 2 ] && grep -q 'no identity for Signed-off-by: set git config user.name and user.email' <<<"$out" &&
		[ "$(wc -l <<<"$out")" = 1 ] && [ ! -e "$TMP/patches" ]
	check no-identity-refused $? "rc=$rc out=$out"
fi
