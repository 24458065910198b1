#!/usr/bin/env bash
# Turn KUnit KTAP results into chainscope result lines.
#
#   qemu/ktap.sh PREFIX SUITE.ktap...
#
# One line per test case: "PASS: PREFIX.<suite>.<case>", "SKIP: ...: why"
# or "FAIL: ...". A suite whose plan ("1..N") announces more cases than it
# reported, or that reported none, adds a FAIL line for the suite.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: ktap.sh PREFIX SUITE.ktap..." >&2; exit 2; }
prefix=$1
shift
for f in "$@"; do
	suite=$(basename "$f" .ktap)
	awk -v p="$prefix.$suite" '
	# Case lines are indented one level below the suite; deeper lines
	# belong to parameterised cases and are summed up by their parent.
	/^    1\.\.[0-9]+/ { plan = substr($1, 4) + 0; next }
	/^    (not )?ok [0-9]+ / {
		line = substr($0, 5)
		pass = (line ~ /^ok/)
		sub(/^(not )?ok [0-9]+ (- )?/, "", line)
		name = line; why = ""
		if (match(line, / # SKIP ?/)) {
			name = substr(line, 1, RSTART - 1)
			why = substr(line, RSTART + RLENGTH)
			print "SKIP: " p "." name ": " why
		} else if (pass) {
			print "PASS: " p "." name
		} else {
			print "FAIL: " p "." name
		}
		n++
		next
	}
	END {
		if (n == 0)
			print "FAIL: " p ": no test case results"
		else if (plan > n)
			print "FAIL: " p ": " n " of " plan " cases reported (crash?)"
	}' "$f"
done
