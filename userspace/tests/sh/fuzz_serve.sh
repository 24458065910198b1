#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# A bounded, reproducible fuzz run of what chainscope serve parses from
# outside (tests/fuzz/fuzz_serve.c): the checked-in corpus (tests/fuzz/serve-seeds,
# with one 1 MiB seed), a fixed seed and number of runs, a per-input
# timeout and an RSS limit. "PASS: host.serve.fuzz" or "FAIL: ...: why";
# a failing run keeps its input and log in output/fuzz-serve/.
#
#   tests/sh/fuzz_serve.sh FUZZ-BINARY SEED-DIR
#   (FUZZ_CC, FUZZ_RUNS, MAKE_FUZZ from serve.mk build and run the fuzzer)
set -uo pipefail

FUZZ=${1:?usage: fuzz_serve.sh FUZZ-BINARY SEED-DIR}
SEEDS=$(readlink -f "${2:?}")
PREFIX=host.serve
# shellcheck source=userspace/tests/sh/lib.sh
. "$(dirname "$(readlink -f "$0")")/lib.sh"
trap 'rm -rf "$TMP"' EXIT

if ! fuzz_ready; then
	:
elif [ "$(find "$SEEDS" -type f -size +1000k | wc -l)" = 0 ]; then
	fail fuzz "no seed of about 1 MiB in $SEEDS"
else
	mkdir -p "$TMP/corpus"
	cp "$SEEDS"/* "$TMP/corpus/"
	if "$FUZZ" -artifact_prefix="$TMP/" -runs="${FUZZ_RUNS:-50000}" -seed=1 \
		-timeout=10 -rss_limit_mb=2048 -max_len=1100000 -max_total_time=300 \
		"$TMP/corpus" >"$TMP/fuzzlog" 2>&1 &&
		grep -q "Done ${FUZZ_RUNS:-50000} runs" "$TMP/fuzzlog"; then
		pass fuzz
	else
		keep=${CS_FUZZ_KEEP:-$(dirname "$0")/../../../output/fuzz-serve}
		mkdir -p "$keep" && cp "$TMP"/crash-* "$TMP"/oom-* "$TMP"/timeout-* "$TMP/fuzzlog" \
			"$keep/" 2>/dev/null
		fail fuzz "$(grep -m1 -E 'ERROR|abort|fuzz_serve:' "$TMP/fuzzlog") $(grep -m1 SUMMARY "$TMP/fuzzlog") (input and log kept in $keep)"
	fi
fi
exit $failed
