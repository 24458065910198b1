#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Offline benchmark (host only, no BPF): events per second of
# `chainscope check` and `chainscope report` on clean generated traces of
# 10^5 and 10^6 events (cs-gencheck bench: 8 CPUs interleaved, N/10
# tasks, N/100 chains of 6 callbacks, nesting, robust passes and their
# rollbacks), and the 10^6/10^5 time ratio (10 when time is linear).
# Then crafted inputs of 1 MB and 10 MB (with CS-GENTRACE): one task
# nesting passes (cs-gentrace deep-closed) through report's --folded,
# --perfetto and --svg, and one 7-digit token through diff: wall time and
# peak RSS (/usr/bin/time), their 10 MB/1 MB ratios (10 = linear) and
# peak RSS over the input's size (the goal: under 10x).
# Wall time is the best of REPEAT runs (default 3); CPU time (user+sys)
# of that run is printed too, as the host may be busy. Before that,
# qemu/tests/bench_report.sh checks the rows qemu/bench_report.py makes of the
# guest benchmarks' output (make bench's extension tables).
#
#   tests/sh/bench_offline.sh CHAINSCOPE CS-GENCHECK [CS-GENTRACE]
#   (make -C userspace bench-offline; also part of the top-level make bench)
set -euo pipefail

CS=$(readlink -f "${1:?usage: bench_offline.sh CHAINSCOPE CS-GENCHECK}")
GEN=$(readlink -f "${2:?usage: bench_offline.sh CHAINSCOPE CS-GENCHECK}")
GENTRACE=${3:+$(readlink -f "$3")}
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
bash "$(dirname "$(readlink -f "$0")")/../../../qemu/tests/bench_report.sh" ||
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

# --- crafted inputs: 1 MB and 10 MB, time and peak RSS ---------------------------
# crafted NAME FILE1 FILE10 CMD...: CMD FILE (a {} in CMD is the file)
crafted() {
	local name=$1 f1=$2 f10=$3 f out w m i kb=()
	shift 3
	declare -A wall=() rss=() size=()
	for f in "$f1" "$f10"; do
		out=()
		for i in "$@"; do
			out+=("${i//\{\}/$f}")
		done
		rm -rf "$TMP/out"
		if ! /usr/bin/time -f '%e %M' -o "$TMP/time" "${out[@]}" >/dev/null 2>"$TMP/err"; then
			echo "bench_offline.sh: error: $name failed: $(head -c 300 "$TMP/err")" >&2
			exit 1
		fi
		read -r w m <"$TMP/time"
		wall[$f]=$w rss[$f]=$m size[$f]=$(( $(stat -c %s "$f") / 1024 ))
	done
	awk -v n="$name" -v w1="${wall[$f1]}" -v w10="${wall[$f10]}" -v r1="${rss[$f1]}" \
	    -v r10="${rss[$f10]}" -v s1="${size[$f1]}" -v s10="${size[$f10]}" 'BEGIN {
		printf "bench.crafted: %-28s 1 MB: %6.2f s, peak RSS %5.0f MB (%4.1fx the input); " \
		       "10 MB: %6.2f s, peak RSS %5.0f MB (%4.1fx); 10 MB/1 MB: time %s, RSS %.1f (10 = linear)\n",
		       n, w1, r1 / 1024, r1 / s1, w10, r10 / 1024, r10 / s10,
		       (w1 > 0.05 ? sprintf("%.1f", w10 / w1) : "-"), r10 / r1 }'
}
if [ -n "$GENTRACE" ] && [ -x /usr/bin/time ]; then
	# 384 bytes a level: 2730 levels are 1 MB
	"$GENTRACE" --count 2730 deep-closed "$TMP/deep1.cstrace"
	"$GENTRACE" --count 27300 deep-closed "$TMP/deep10.cstrace"
	for m in folded perfetto svg; do
		crafted "report --$m (nesting)" "$TMP/deep1.cstrace" "$TMP/deep10.cstrace" \
			"$CS" report --$m "$TMP/out" {}
	done
	head -c 1048576 /dev/zero | tr '\0' 7 >"$TMP/token1.json"
	head -c 10485760 /dev/zero | tr '\0' 7 >"$TMP/token10.json"
	# diff exits 2 on a number (not an object): that is the point, the
	# cost of reading it
	crafted "diff (one token)" "$TMP/token1.json" "$TMP/token10.json" \
		sh -c '"$0" diff "$1" "$1"; [ $? = 2 ]' "$CS" {}
else
	echo "bench.crafted: skipped (no CS-GENTRACE or /usr/bin/time)"
fi
