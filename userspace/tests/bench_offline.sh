#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Offline benchmark (host only, no BPF): events per second of
# `chainscope check` and `chainscope report` on clean generated traces of
# 10^5 and 10^6 events (cs-gencheck bench: 8 CPUs interleaved, N/10
# tasks, N/100 chains of 6 callbacks, nesting, robust passes and their
# rollbacks), and the 10^6/10^5 time ratio (10 when time is linear).
# Wall time is the best of REPEAT runs (default 3); CPU time (user+sys)
# of that run is printed too, as the host may be busy. Before that,
# qemu/tests/bench_report.sh checks the rows qemu/bench_report.py makes of the
# guest benchmarks' output (make bench's extension tables).
#
#   tests/bench_offline.sh CHAINSCOPE CS-GENCHECK
#   (make -C userspace bench-offline; also part of the top-level make bench)
set -euo pipefail

CS=$(readlink -f "${1:?usage: bench_offline.sh CHAINSCOPE CS-GENCHECK}")
GEN=$(readlink -f "${2:?usage: bench_offline.sh CHAINSCOPE CS-GENCHECK}")
REPEAT=${REPEAT:-3}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
TIMEFORMAT='%3R %3U %3S'

# measure CMD N: sets best (wall seconds) and cpu of the best run
measure() {
	local cmd=$1 n=$2 i wall user sys
	best='' cpu=''
	for ((i = 0; i < REPEAT; i++)); do
		if ! { time "$CS" "$cmd" "$TMP/$n.cstrace" >/dev/null 2>"$TMP/err"; } 2>"$TMP/time"; then
			echo "bench_offline.sh: error: chainscope $cmd failed on the $n-event trace: $(head -c 300 "$TMP/err")" >&2
			exit 1
		fi
		read -r wall user sys <"$TMP/time"
		if [ -z "$best" ] || awk -v a="$wall" -v b="$best" 'BEGIN { exit !(a < b) }'; then
			best=$wall
			cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.3f", u + s }')
		fi
	done
}

# The report's rows first: qemu/bench_report.py's extension parsing and
# ratios against known numbers (qemu/tests/bench_report.sh, PASS/FAIL lines).
bash "$(dirname "$(readlink -f "$0")")/../../qemu/tests/bench_report.sh" ||
	{ echo "bench_offline.sh: error: qemu/tests/bench_report.sh failed" >&2; exit 1; }

for n in 100000 1000000; do
	"$GEN" bench "$n" "$TMP/$n.cstrace"
done
for cmd in check report; do
	declare -A t=()
	for n in 100000 1000000; do
		events=$("$CS" check "$TMP/$n.cstrace" | sed -n 's/.*: \([0-9]*\) events, .*/\1/p')
		measure "$cmd" "$n"
		t[$n]=$best
		awk -v c="$cmd" -v n="$events" -v w="$best" -v cpu="$cpu" -v r="$REPEAT" 'BEGIN {
			printf "bench.offline: %-6s %8d events: %6.3f s wall (best of %d), %5.2f M events/s; cpu %6.3f s, %5.2f M events/s\n",
			       c, n, w, r, (w > 0 ? n / w / 1e6 : 0), cpu, (cpu > 0 ? n / cpu / 1e6 : 0) }'
	done
	awk -v c="$cmd" -v a="${t[100000]}" -v b="${t[1000000]}" 'BEGIN {
		printf "bench.offline: %-6s 10^6/10^5 time ratio: %.1f (10 = linear)\n", c, (a > 0 ? b / a : 0) }'
	unset t
done
