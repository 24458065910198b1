#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# make fuzz: every fuzz target for FUZZ_SECONDS (300) each, a new seed each
# time, for humans; not part of make test. The corpora grow across runs in
# output/fuzz-corpus/NAME; a crash is kept in output/fuzz-NAME/ and the run
# goes on with the next target. Exit 1 if any target failed.
#
#   tests/fuzz/fuzz_long.sh OUTPUT-DIR (userspace/.output, with the fuzz binaries,
#   cs-gentrace and cs-gencheck built)
set -uo pipefail

out=$(readlink -f "${1:?usage: fuzz_long.sh OUTPUT-DIR}")
here=$(dirname "$(readlink -f "$0")")
keep=$here/../../../output
export FUZZ_SECONDS=${FUZZ_SECONDS:-300}
seeds=$(mktemp -d)
trap 'rm -rf "$seeds"' EXIT

# generated seeds: the scenarios of both generators and the large one
mkdir -p "$seeds/traces"
"$out/cs-gentrace" --seeds "$seeds/traces"
"$out/cs-gentrace" --count 2700 deep-closed "$seeds/traces/large-deep.cstrace"
mkdir -p "$seeds/check"
"$out/cs-gencheck" --seeds "$seeds/check"

failed=0
for t in tracefile report check diff openmetrics; do
	[ -x "$out/fuzz_$t" ] || { echo "SKIP: fuzz.$t: $out/fuzz_$t not built"; continue; }
	case $t in
	diff)	s=("$here/diff-seeds") ;;
	check)	s=("$seeds/traces" "$seeds/check") ;;
	*)	s=("$seeds/traces") ;;
	esac
	mkdir -p "$keep/fuzz-corpus"
	echo "fuzz.$t: $FUZZ_SECONDS s..."
	if r=$(FUZZ_MAX_LEN=${FUZZ_MAX_LEN:-16384} bash "$here/fuzz_run.sh" "$t" "$out/fuzz_$t" \
		"$keep/fuzz-corpus/$t" "${s[@]}"); then
		echo "PASS: fuzz.$t: $r"
	else
		echo "FAIL: fuzz.$t: $r"
		failed=1
	fi
done
exit $failed
