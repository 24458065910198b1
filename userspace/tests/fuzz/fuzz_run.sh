#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# One libFuzzer run of a chainscope fuzz target, the same way for every
# target (tracefile, report, check, diff, openmetrics):
#
#   tests/fuzz/fuzz_run.sh NAME FUZZ-BINARY CORPUS-DIR [SEED-DIR-OR-FILE...]
#
# The seeds (the checked-in corpus tests/fuzz/corpus/NAME, what the suite
# generated, among them one large deeply nested input) are copied into
# CORPUS-DIR, which the run then adds to.
#
# make test (FUZZ_SECONDS unset): a fixed seed (-seed=1) and run count
# (FUZZ_RUNS), no time limit but -timeout per input, so the same commit
# always runs the same inputs and gets the same verdict. Addresses are
# made the same in every run too (setarch -R, where it works): libFuzzer's
# comparison tracing takes compared values, addresses among them, into
# its dictionary.
#
# make fuzz (FUZZ_SECONDS=N): N seconds, a new seed each time, for humans.
#
# Both: -timeout (FUZZ_TIMEOUT s an input), -rss_limit_mb (FUZZ_RSS_MB),
# -max_len (FUZZ_MAX_LEN, 8192): a longer seed (the large one) first
# runs whole, once. Prints one line: what the run did, or its
# error and libFuzzer's SUMMARY; a failing run keeps its crashing input
# and log in FUZZ_KEEP (default output/fuzz-NAME/) and exits 1.
set -uo pipefail

name=${1:?usage: fuzz_run.sh NAME FUZZ CORPUS [SEEDS...]}
fuzz=${2:?}
corpus=${3:?}
shift 3
here=$(dirname "$(readlink -f "$0")")
keep=${FUZZ_KEEP:-$here/../../../output/fuzz-$name}
log=$corpus.log
art=$corpus.artifacts

mkdir -p "$corpus" "$art" || exit 1
for s in "$here/corpus/$name" "$@"; do
	if [ -d "$s" ]; then
		cp -r "$s/." "$corpus/" || exit 1
	elif [ -e "$s" ]; then
		cp "$s" "$corpus/" || exit 1
	fi
done

maxlen=${FUZZ_MAX_LEN:-8192}
args=(-artifact_prefix="$art/" -timeout="${FUZZ_TIMEOUT:-30}"
      -rss_limit_mb="${FUZZ_RSS_MB:-2048}" -print_final_stats=1)
if [ -n "${FUZZ_SECONDS:-}" ]; then
	run=(-max_total_time="$FUZZ_SECONDS" -seed=0)
else
	run=(-runs="${FUZZ_RUNS:-5000}" -seed=1)
fi
norand=()
if setarch -R true 2>/dev/null; then
	norand=(setarch -R)
fi
# a seed longer than FUZZ_MAX_LEN (the large one) runs whole once; the
# mutations start from its first FUZZ_MAX_LEN bytes, as libFuzzer cuts it
big=()
while IFS= read -r -d '' f; do
	big+=("$f")
done < <(find "$corpus" -type f -size +"$maxlen"c -print0 | sort -z)
rc=0
if [ "${#big[@]}" -gt 0 ]; then
	"${norand[@]}" "$fuzz" "${args[@]}" -runs=1 -max_len=$((1 << 30)) "${big[@]}" \
		>"$log" 2>&1
	rc=$?
fi
if [ "$rc" = 0 ]; then
	"${norand[@]}" "$fuzz" "${args[@]}" "${run[@]}" -max_len="$maxlen" "$corpus" >>"$log" 2>&1
	rc=$?
fi
if [ "$rc" = 0 ]; then
	echo "$(grep -m1 '^Done' "$log"), ${#big[@]} large seed(s) whole, corpus $(ls "$corpus" | wc -l) inputs"
	exit 0
fi
mkdir -p "$keep" && cp "$art"/* "$log" "$keep/" 2>/dev/null
echo "$(grep -m1 -E 'ERROR|abort|fuzz_[a-z]*:' "$log") $(grep -m1 SUMMARY "$log")" \
	"(exit $rc; input and log kept in $keep)"
exit 1
