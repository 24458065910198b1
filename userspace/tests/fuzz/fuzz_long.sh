#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# make fuzz: every fuzz target for FUZZ_SECONDS (300) each, a new seed each
# time, for humans; not part of make test. The corpora grow across runs in
# output/fuzz-corpus/NAME; a crash is kept in output/fuzz-NAME/ and the run
# goes on with the next target. Exit 1 if any target failed.
#
#   tests/fuzz/fuzz_long.sh OUTPUT-DIR (userspace/.output, with the fuzz binaries,
#   cs-gentrace, cs-gencheck and cs-gentracedat built)
#
# tracedat runs each input in the confined child, as the commands do
# (FUZZ_TRACEDAT_CHILD=1; FUZZ_TRACEDAT_CHILD=0 runs it in process, where
# libtracecmd itself fails within seconds: tests/fuzz/fuzz_tracedat.c).
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
mkdir -p "$seeds/tracedat"
"$out/cs-gentracedat" --seeds "$seeds/tracedat"

failed=0
for t in tracefile report check diff openmetrics tracedat; do
	[ -x "$out/fuzz_$t" ] || { echo "SKIP: fuzz.$t: $out/fuzz_$t not built"; continue; }
	case $t in
	diff)	s=("$here/diff-seeds") ;;
	check)	s=("$seeds/traces" "$seeds/check") ;;
	tracedat) s=("$seeds/tracedat" "$here/../data/tracedat-crash-close.dat") ;;
	*)	s=("$seeds/traces") ;;
	esac
	mkdir -p "$keep/fuzz-corpus"
	echo "fuzz.$t: $FUZZ_SECONDS s..."
	env=()
	[ "$t" = tracedat ] && env=(FUZZ_TRACEDAT_CHILD="${FUZZ_TRACEDAT_CHILD:-1}" FUZZ_RSS_MB=0
				  FUZZ_MAX_LEN=32768)
	if r=$(env FUZZ_MAX_LEN="${FUZZ_MAX_LEN:-16384}" "${env[@]}" bash "$here/fuzz_run.sh" "$t" "$out/fuzz_$t" \
		"$keep/fuzz-corpus/$t" "${s[@]}"); then
		echo "PASS: fuzz.$t: $r"
	else
		echo "FAIL: fuzz.$t: $r"
		failed=1
	fi
done
exit $failed
