#!/usr/bin/env bash
# Host test of the guest's upstream text parser (qemu/guest/upstream/
# cbnames.sh) and its check (check_names in lib.sh) on recorded guest
# output (tests/data/upstream/): upstream's own text (stock 6.12) and ours
# (chainscope 6.1), from tracefs and from 'trace-cmd report', must pass;
# the text before commit bb550f5 ("notifier_run: cb=NAME head=...") and a
# text with the name after head= must fail, since a parser written for
# upstream takes the first token after "notifier_run:" as the name.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
G=$HERE/../guest/upstream
D=$HERE/data/upstream
KALLSYMS=$D/kallsyms
# shellcheck source=../guest/upstream/lib.sh
. "$G/lib.sh"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
bad=0

expect() { # expect pass|fail FILE
	local rc=0
	(sh "$G/cbnames.sh" <"$D/$2" >"$TMP/names" && check_names "$2" "$TMP/names") \
		>"$TMP/out" 2>&1 || rc=$?
	if { [ "$1" = pass ] && [ $rc = 0 ]; } || { [ "$1" = fail ] && [ $rc != 0 ]; }; then
		echo "PASS: host.upstream.$2: parser says $1 as expected"
	else
		echo "FAIL: host.upstream.$2: expected $1, got exit $rc: $(tr '\n' ' ' <"$TMP/out")"
		bad=1
	fi
}

expect pass stock-6.12.trace
expect pass stock-6.12.trace-cmd
expect pass chainscope-6.1.trace
expect pass chainscope-6.1.trace-cmd
expect fail before-bb550f5.trace
expect fail cb-not-first.trace
exit $bad
