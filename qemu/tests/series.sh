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
sed -i 's/NOTIFIER_CALL_ROLLBACK/NOTIFIER_CALL_UNDO/' "$TMP/fake/kernel/notifier.c"
out=$("$TMP/fake/scripts/series.sh" states 6.1 "$TMP/fakeout" 2>&1)
rc=$?
[ "$rc" = 1 ] && grep -q 'error: 0007-notifier-trace-pass.diff does not revert cleanly' <<<"$out"
check stale-diff-named $? "rc=$rc out=$out"

# series_split.py: the states between the tree's file and ours, on two
# small files (the tree's own file is not needed for this).
sp=$TMP/split
mkdir -p "$sp"
cat >"$sp/stock.c" <<'C'
// SPDX-License-Identifier: GPL-2.0-only
#include <linux/a.h>

/*
 *	Section one routines.
 */

static int old_helper(int x)
{
	return x;
}

int one_register(int x)
{
	return old_helper(x);
}
EXPORT_SYMBOL_GPL(one_register);

int one_call(int x)
{
	return x + 1;
}
EXPORT_SYMBOL_GPL(one_call);
C
cat >"$sp/ours.c" <<'C'
// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the file does.
 */

#include <linux/a.h>
#include <linux/b.h>

/*
 *	Section one
 */

static int new_helper(int x)
{
	return x;
}

int one_call(int x)
{
	return x + 1;
}
EXPORT_SYMBOL_GPL(one_call);

int one_register(int x)
{
	return new_helper(x);
}
EXPORT_SYMBOL_GPL(one_register);
C
printf 'new_helper\none_register  # in place\n-old_helper\n' >"$sp/g1.units"
python3 "$REPO/scripts/series_split.py" "$sp/stock.c" "$sp/ours.c" "$sp/none.c" &&
	cmp -s "$sp/stock.c" "$sp/none.c"
check split-no-group-is-the-tree $? "$(diff "$sp/stock.c" "$sp/none.c" 2>&1 | head -5)"
# the helper goes after the section comment (the unit ours has in front of
# it), the writer is replaced where the tree has it, the old helper goes
python3 "$REPO/scripts/series_split.py" "$sp/stock.c" "$sp/ours.c" "$sp/g1.c" "$sp/g1.units" &&
	[ "$(grep -E '^(static )?int |^/\*|^#' "$sp/g1.c" | tr '\n' '|')" = \
		"#include <linux/a.h>|/*|static int new_helper(int x)|int one_register(int x)|int one_call(int x)|" ] &&
	grep -q 'return new_helper(x);' "$sp/g1.c" && ! grep -q old_helper "$sp/g1.c"
check split-group-in-place $? "$(cat "$sp/g1.c" 2>&1)"
# --move: our order, no line changed
python3 "$REPO/scripts/series_split.py" "$sp/stock.c" "$sp/ours.c" "$sp/mv.c" --move "$sp/g1.units" &&
	[ "$(grep -E '^(static )?int ' "$sp/mv.c" | tr '\n' '|')" = \
		"static int new_helper(int x)|int one_call(int x)|int one_register(int x)|" ] &&
	[ "$(sort "$sp/g1.c" | md5sum)" = "$(sort "$sp/mv.c" | md5sum)" ]
check split-move-changes-no-line $? "$(diff "$sp/g1.c" "$sp/mv.c" 2>&1 | head -10)"
for bad in 'no_such_unit:is no unit of' '-no_such_unit:is no unit of'; do
	printf '%s\n' "${bad%%:*}" >"$sp/bad.units"
	out=$(python3 "$REPO/scripts/series_split.py" "$sp/stock.c" "$sp/ours.c" "$sp/bad.c" "$sp/bad.units" 2>&1)
	rc=$?
	[ "$rc" = 1 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q "${bad#*:}" <<<"$out"
	check "split-unknown-unit-refused.${bad%%:*}" $? "rc=$rc out=$out"
done
# every unit a split patch of the series names is a unit of the rewrite
rewrite=$("$REPO/scripts/series.sh" list rewrite | head -n 1)
names=$(python3 "$REPO/scripts/series_split.py" --units "$TMP/raw61/$rewrite/kernel/notifier.c")
bad=''
for u in "$REPO"/kernel/series/*.units; do
	base=${u##*/}
	while IFS= read -r line; do
		name=$(sed 's/#.*//; s/^ *//; s/ *$//' <<<"$line")
		case "$name" in '' | -*) continue ;; esac
		grep -qxF -- "$name" <<<"$names" || bad="$bad $base:$name"
	done <"$u"
done
[ -n "$names" ] && [ -z "$bad" ]
check split-units-are-ours $? "not a unit of the rewrite:$bad"

# No identity, or a placeholder one, no series: exit 2 with one line
# before anything is written. A repository-local identity would win over
# the crafted global ones.
if [ -n "$(git -C "$REPO" config --local --get user.name 2>/dev/null)" ]; then
	echo "SKIP: host.series.identity: this clone sets user.name itself"
else
	refused() { # refused NAME PATTERN GITCONFIG [ENV...]: exit 2, one line, nothing written
		local name=$1 pat=$2 cfg=$3 out rc
		shift 3
		out=$(env HOME="$TMP" GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL="$cfg" "$@" \
			"$REPO/scripts/mkpatches.sh" "$TMP/patches" 2>&1)
		rc=$?
		[ "$rc" = 2 ] && grep -Eq -- "$pat" <<<"$out" &&
			[ "$(wc -l <<<"$out")" = 1 ] && [ ! -e "$TMP/patches" ]
		check "$name" $? "rc=$rc out=$out"
	}
	ident() { # ident FILE NAME EMAIL: a git config with that identity
		printf '[user]\n\tname = %s\n\temail = %s\n' "$2" "$3" >"$1"
	}
	how="set yours with git config user.name and user.email, or CS_SIGNOFF="
	refused no-identity-refused "no identity for Signed-off-by \(git config has no name or no email\): $how" /dev/null
	for e in a@example.org dev@mail.example.com a@b.invalid a@host.localhost a@x.test \
		maintainers@users.noreply.a-seed.example 12345+me@users.noreply.github.com; do
		ident "$TMP/gc" "A Developer" "$e"
		refused "placeholder-refused.$e" \
			"Signed-off-by would be 'A Developer <$(sed 's/[.+]/\\&/g' <<<"$e")>', a (domain reserved|noreply address).*from git config: $how" \
			"$TMP/gc"
	done
	ident "$TMP/gc" "A Developer" "a@example.org"
	refused signoff-env-checked-too \
		"'Me <me@example.com>', a domain reserved for examples and tests, from CS_SIGNOFF: $how" \
		"$TMP/gc" CS_SIGNOFF="Me <me@example.com>"
	refused signoff-env-malformed "CS_SIGNOFF='me@kernel.org' is not 'Name <email>'" \
		"$TMP/gc" CS_SIGNOFF="me@kernel.org"
	# what is taken: CS_SIGNOFF over git config; -t (make test) a placeholder
	out=$(python3 "$REPO/scripts/series_identity.py" 0 "Ann Dev <ann@kernel.org>" "X" "x@example.org")
	[ "$out" = "Ann Dev"$'\t'"ann@kernel.org" ]
	check signoff-env-wins $? "out=$out"
	out=$(python3 "$REPO/scripts/series_identity.py" 1 "" "chainscope make test" "t@chainscope.invalid")
	[ "$out" = "chainscope make test"$'\t'"t@chainscope.invalid" ]
	check test-run-takes-placeholder $? "out=$out"
fi
