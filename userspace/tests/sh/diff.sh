#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Host tests of chainscope diff (budget rules, input validation, guards),
# benchattach's command line, and a bounded fuzz run of diff's core. One
# line per case: "PASS: host.<suite>.<case>", "FAIL: ...: why" or
# "SKIP: ...: why". Nothing here reaches bpf(): diff only reads files,
# and benchattach runs only to its argument errors, with no capabilities
# (so even a regression could not load anything) and, when strace is
# installed, a check that it made no bpf() call.
#
#   tests/sh/diff.sh CHAINSCOPE BENCHATTACH FUZZ-BINARY SEED-DIR
#   (FUZZ_CC, FUZZ_RUNS, MAKE_FUZZ from the Makefile build the fuzzer)
set -uo pipefail

CS=$(readlink -f "${1:?usage: diff.sh CHAINSCOPE BENCHATTACH FUZZ SEEDS}")
BA=$(readlink -f "${2:?}")
FUZZ=${3:?}
SEEDS=$(readlink -f "${4:?}")
PREFIX=host
# shellcheck source=userspace/tests/sh/lib.sh
. "$(dirname "$(readlink -f "$0")")/lib.sh"

# expect NAME RC ERR-REGEX OUT-REGEX CMD...: exit RC, stderr one line
# matching ERR-REGEX (or empty if ''), stdout matching OUT-REGEX (if not '')
expect() {
	local name=$1 want=$2 ere=$3 ore=$4
	shift 4
	run "$@"
	if [ "$rc" != "$want" ]; then
		fail "$name" "exit $rc, want $want: ${err:0:300} ${out:0:600}"
	elif [ -n "$ere" ] && { [ "$(grep -c '' <<<"$err")" != 1 ] ||
				! grep -Eq -- "$ere" <<<"$err"; }; then
		fail "$name" "stderr '${err:0:400}' is not one line matching /$ere/"
	elif [ -z "$ere" ] && [ -n "$err" ]; then
		fail "$name" "unexpected stderr: ${err:0:300}"
	elif [ -n "$ore" ] && ! grep -Eq -- "$ore" <<<"$out"; then
		fail "$name" "stdout does not match /$ore/: ${out:0:800}"
	else
		pass "$name"
	fi
}

# --- fixtures: latency -j objects -------------------------------------------
# cb CHAIN CALLBACK COUNT MAX_US STOP HISTOGRAM-BUCKETS [P50 P99]
cb() {
	local pct=
	[ $# -gt 6 ] && pct=$(printf '"p50":%s,"p99":%s,' "$7" "$8")
	printf '{"chain":"%s","kind":"atomic","callback":"%s","callback_addr":"0xffffffff81000000","count":%s,"max":%s,"sum":1,%s"max_ns":%s000,"sum_ns":1000,"stop":%s,"bad":0,"errno":0,"untimed":0,"histogram":[%s]}' \
		"$1" "$2" "$3" "$4" "$pct" "$4" "$5" "$6"
}
# obj [LOSS-FIELDS] CALLBACKS...: one latency -j interval on one line
obj() {
	local loss=$1 IFS=,
	shift
	printf '{"type":"latency","time":1.5,"units":"usecs",%s"callbacks":[%s]}\n' \
		"${loss:+$loss,}" "$*"
}
H4='{"min":0,"max":1,"count":1},{"min":2,"max":3,"count":3}'	# 4 calls, max 3
H4SLOW='{"min":0,"max":1,"count":0},{"min":2,"max":3,"count":0},{"min":4,"max":7,"count":0},{"min":8,"max":15,"count":0},{"min":16,"max":31,"count":0},{"min":32,"max":63,"count":0},{"min":64,"max":127,"count":0},{"min":128,"max":255,"count":0},{"min":256,"max":511,"count":0},{"min":512,"max":1023,"count":4}'
LOSS0='"dropped":0,"failed":0,"missed":0'
# p50/p99 as cs_summarize() estimates them from the histogram
A=$(cb chain_a cb_a 4 3 0 "$H4" 2 3)
B=$(cb chain_a cb_b 4 3 0 "$H4" 2 3)
BSLOW=$(cb chain_a cb_b 4 900 0 "$H4SLOW" 704 900)
obj "$LOSS0" "$A" "$B" > "$TMP/base.json"
obj "$LOSS0" "$A" "$BSLOW" > "$TMP/slow.json"
obj "$LOSS0" "$A" > "$TMP/gone.json"				# cb_b gone
obj "$LOSS0" > "$TMP/empty.json"				# no callbacks
obj '"dropped":3,"failed":0,"missed":2' "$A" "$B" > "$TMP/lost.json"
obj '"lost":5,"missed":0' "$A" "$B" | sed 's/"latency"/"report"/' > "$TMP/lostrep.json"
obj '"lost":0,"missed":0' "$A" "$B" | sed 's/"latency"/"report"/' > "$TMP/baserep.json"

# --- budget rules --------------------------------------------------------------
D=("$CS" diff)
F=("$TMP/base.json" "$TMP/slow.json")
expect diff.budget-default 1 '' '^budget exceeded: 1 row \(p99:\+20%\)$' "${D[@]}" "${F[@]}"
expect diff.budget-default-word 1 '' '^budget exceeded: 1 row \(p99:\+20%\)$' \
	"${D[@]}" --budget default "${F[@]}"
# min-count:-1 used to read as 2^64-1 and switch every latency rule off
expect diff.budget-negative 2 "invalid budget rule 'min-count:-1': N must not be negative" '' \
	"${D[@]}" --budget 'p99:+20%,min-count:-1' "${F[@]}"
expect diff.budget-empty 2 "empty budget" '' "${D[@]}" --budget '' "${F[@]}"
expect diff.budget-comma 2 "empty rule in budget ','" '' "${D[@]}" --budget ',' "${F[@]}"
expect diff.budget-empty-rule 2 "empty rule in budget 'p99:\+20%,,new-veto'" '' \
	"${D[@]}" --budget 'p99:+20%,,new-veto' "${F[@]}"
expect diff.budget-unknown 2 "unknown budget rule 'new-calback'" '' \
	"${D[@]}" --budget 'p99:+20%,new-calback' "${F[@]}"
expect diff.budget-exponent 2 "invalid budget rule 'p99:\+1e3%': N is not a number" '' \
	"${D[@]}" --budget 'p99:+1e3%' "${F[@]}"
expect diff.budget-hex 2 "invalid budget rule 'max:\+0x10'" '' \
	"${D[@]}" --budget 'max:+0x10' "${F[@]}"
expect diff.budget-min-count-junk 2 "invalid budget rule 'min-count:5x': N is not a number" '' \
	"${D[@]}" --budget 'p99:+20%,min-count:5x' "${F[@]}"
expect diff.budget-min-count-range 2 "invalid budget rule 'min-count:99999999999999999999': N is out of range" '' \
	"${D[@]}" --budget 'p99:+20%,min-count:99999999999999999999' "${F[@]}"
expect diff.budget-unit-unknown 2 "invalid budget rule 'max:\+5xs': unknown unit 'xs'" '' \
	"${D[@]}" --budget 'max:+5xs' "${F[@]}"
expect diff.budget-unit-count 2 "invalid budget rule 'count:\+5ms': count is a number of calls" '' \
	"${D[@]}" --budget 'count:+5ms' "${F[@]}"
# max 3 -> 900 usecs: +500us breaks, +1ms does not
expect diff.budget-unit-us 1 '' '^chain_a +cb_b .*FAIL max:\+500us$' \
	"${D[@]}" --budget 'max:+500us' "${F[@]}"
expect diff.budget-unit-ms 0 '' '^within budget$' "${D[@]}" --budget 'max:+1ms' "${F[@]}"
expect diff.budget-none-left 2 "leaves no rule on" '' \
	"${D[@]}" --budget '-gone-callback,-no-callbacks,-lost-events' "${F[@]}"
expect diff.budget-off-metric 0 '' '^within budget$' "${D[@]}" --budget 'default,-p99' "${F[@]}"

# --- mode (the event source): noted when the two differ, one per file -----------
obj "$LOSS0,\"mode\":\"tracepoints\"" "$A" "$B" > "$TMP/tp.json"
obj "$LOSS0,\"mode\":\"probes\"" "$A" "$B" > "$TMP/pm.json"
obj "$LOSS0,\"mode\":\"x\"" "$A" "$B" > "$TMP/badmode.json"
cat "$TMP/tp.json" "$TMP/pm.json" > "$TMP/twomodes.json"
expect diff.mode-differs 0 '' '^note: BASE is mode tracepoints, NEW mode probes: probes mode' \
	"${D[@]}" "$TMP/tp.json" "$TMP/pm.json"
run "${D[@]}" "$TMP/tp.json" "$TMP/tp.json"
if [ "$rc" = 0 ] && ! grep -q 'note: BASE is mode' <<<"$out"; then
	pass diff.mode-same
else
	fail diff.mode-same "exit $rc: ${out:0:400}"
fi
expect diff.mode-unknown 2 'object 1 \(line 1\): \$\.mode: unknown mode "x" \(tracepoints, probes\)' '' \
	"${D[@]}" "$TMP/tp.json" "$TMP/badmode.json"
expect diff.mode-mixed 2 'object 2 \(line 2\): \$\.mode: "probes", the objects before are "tracepoints"' '' \
	"${D[@]}" "$TMP/tp.json" "$TMP/twomodes.json"
expect diff.budget-effective 1 '' \
	'^units: usecs  budget: p99:\+20%,new-callback,new-veto,gone-callback,no-callbacks,-lost-events$' \
	"${D[@]}" --budget 'default,-lost-events' "${F[@]}"

# --- input validation: exit 2, the file, the object and the JSON path --------
bad() {	# bad NAME ERR-REGEX: NEW is $TMP/bad.json
	expect "diff.input-$1" 2 "$2" '' "${D[@]}" "$TMP/base.json" "$TMP/bad.json"
}
obj "$LOSS0" "$(cb chain_a cb_a -1 3 0 "$H4")" > "$TMP/bad.json"
bad negative-count 'bad.json: object 1 \(line 1\): \$\.callbacks\[0\]\.count: negative \(-1\)'
obj "$LOSS0" "$A" "$(cb chain_a cb_b 4 3 0 '{"min":0,"max":1,"count":-5}')" > "$TMP/bad.json"
bad negative-bucket '\$\.callbacks\[1\]\.histogram\[0\]\.count: negative \(-5\)'
obj "$LOSS0" "$(cb chain_a cb_a 2.5 3 0 "$H4")" > "$TMP/bad.json"
bad fractional-count '\$\.callbacks\[0\]\.count: a fraction, not an integer'
obj "$LOSS0" "$(cb chain_a cb_a '"4"' 3 0 "$H4")" > "$TMP/bad.json"
bad string-count '\$\.callbacks\[0\]\.count: a string, not an integer'
obj "$LOSS0" "$(cb chain_a cb_a 18446744073709551616 3 0 "$H4")" > "$TMP/bad.json"
bad huge-count '\$\.callbacks\[0\]\.count: out of range'
obj "$LOSS0" "$(cb chain_a cb_a 4 3 -1 "$H4")" > "$TMP/bad.json"
bad negative-stop '\$\.callbacks\[0\]\.stop: negative'
obj "$LOSS0" "$A" "$B" | sed 's/"usecs"/"parsecs"/' > "$TMP/bad.json"
cp "$TMP/bad.json" "$TMP/bad2.json"
bad unknown-units '\$\.units: unknown units "parsecs" \(nsecs, usecs, msecs\)'
# the same unknown units in both files used to be compared as usecs
expect diff.input-unknown-units-both 2 'unknown units "parsecs"' '' \
	"${D[@]}" "$TMP/bad2.json" "$TMP/bad.json"
obj "$LOSS0" "$A" | sed 's/"count":4,//' > "$TMP/bad.json"
bad missing-count '\$\.callbacks\[0\]\.count: missing'
obj "$LOSS0" "$A" | sed 's/"stop":0,//' > "$TMP/bad.json"
bad missing-stop '\$\.callbacks\[0\]\.stop: missing'
obj "$LOSS0" "$A" | sed 's/"units":"usecs",//' > "$TMP/bad.json"
bad missing-units '\$\.units: missing'
obj "$LOSS0" "$A" | sed 's/"callbacks":\[/"callbacks":{"x":[/; s/\]}$/]}}/' > "$TMP/bad.json"
bad callbacks-type '\$\.callbacks: an object, not an array'
obj '"dropped":-2,"failed":0,"missed":0' "$A" > "$TMP/bad.json"
bad negative-loss '\$\.dropped: negative \(-2\)'
obj "$LOSS0" "$(cb chain_a cb_a 4 3 0 '{"min":5,"max":9,"count":1}')" > "$TMP/bad.json"
bad bucket-bounds '\$\.callbacks\[0\]\.histogram\[0\]: min 5, max 9 is not a log2 bucket'
# each bucket once, rising, as the writers put them: a repeat or a fall
# would add up to a histogram no tool wrote
obj "$LOSS0" "$(cb chain_a cb_a 4 3 0 '{"min":2,"max":3,"count":2},{"min":2,"max":3,"count":2}' 2 3)" \
	> "$TMP/bad.json"
bad bucket-twice '\$\.callbacks\[0\]\.histogram\[1\]: bucket 2-3 after bucket 2-3: the buckets must rise, each once'
obj "$LOSS0" "$(cb chain_a cb_a 4 3 0 '{"min":2,"max":3,"count":3},{"min":0,"max":1,"count":1}' 2 3)" \
	> "$TMP/bad.json"
bad bucket-falls '\$\.callbacks\[0\]\.histogram\[1\]: bucket 0-1 after bucket 2-3: the buckets must rise'
# a null is valid JSON and no object: said as such, with or without a newline
echo null > "$TMP/bad.json"
bad null-line 'bad.json: object 1 \(line 1\): \$: null, not a JSON object'
printf null > "$TMP/bad.json"
bad null-at-end 'bad.json: object 1 \(line 1\): \$: null, not a JSON object'
obj "$LOSS0" "$(cb 'chain\n!id' cb_a 4 3 0 "$H4")" > "$TMP/bad.json"
bad unprintable-name '\$\.callbacks\[0\]\.chain: byte 0x0a at 5: names are printable ASCII'
{ obj "$LOSS0" "$A"; obj "$LOSS0" "$A" "$(cb chain_a cb_b 4 3 0 '{"min":0,"max":1,"count":-1}')"; } > "$TMP/bad.json"
bad second-object 'bad.json: object 2 \(line 2\): \$\.callbacks\[1\]\.histogram\[0\]\.count: negative'
{ obj "$LOSS0" "$A"; obj "$LOSS0" "$A" | sed 's/"latency"/"report"/'; } > "$TMP/bad.json"
bad mixed-types 'object 2 \(line 2\): \$\.type: "report", the objects before are "latency"'
{ obj "$LOSS0" "$A"; echo ' garbage'; } > "$TMP/bad.json"
bad trailing-garbage 'bad.json: line 2, byte [0-9]+: invalid JSON'
{ obj "$LOSS0" "$A" | tr -d '\n'; echo ']'; } > "$TMP/bad.json"
bad trailing-bracket 'bad.json: line 1, byte [0-9]+: invalid JSON'
{ obj "$LOSS0" "$A"; echo '7'; } > "$TMP/bad.json"
bad trailing-number 'object 2 \(line 2\): \$: an integer, not a JSON object'
obj "$LOSS0" "$A" > "$TMP/whole.json"
head -c 100 "$TMP/whole.json" > "$TMP/bad.json"
bad truncated 'bad.json: line 1, byte 100: truncated: the JSON value from line 1, byte 0 has no end'
printf '  \n\t\n' > "$TMP/bad.json"
bad whitespace-only 'bad.json: no JSON object'
obj "$LOSS0" "$A" | sed 's/"latency"/"contention"/' > "$TMP/bad.json"
bad contention '\$\.type: "contention": diff compares latency -j or report -j output'

# --- pretty-printed input and several intervals ---------------------------
# by hand, so the test does not need python3
cat > "$TMP/pretty.json" <<'J'
{
    "type": "latency",
    "time": 1.5,
    "units": "usecs",
    "dropped": 0, "failed": 0, "missed": 0,
    "callbacks": [
        {
            "chain": "chain_a",
            "callback": "cb_a",
            "count": 4,
            "max": 3,
            "max_ns": 3000,
            "stop": 0,
            "bad": 0,
            "errno": 0,
            "histogram": [
                { "min": 0, "max": 1, "count": 1 },
                { "min": 2, "max": 3, "count": 3 }
            ]
        },
        {
            "chain": "chain_a", "callback": "cb_b", "count": 4, "max": 3,
            "max_ns": 3000, "stop": 0, "bad": 0, "errno": 0,
            "histogram": [ { "min": 0, "max": 1, "count": 1 },
                           { "min": 2, "max": 3, "count": 3 } ]
        }
    ]
}
J
expect diff.input-pretty 0 '' '^\(no differences in 2 rows\)$' "${D[@]}" "$TMP/base.json" "$TMP/pretty.json"
if command -v python3 >/dev/null; then
	python3 -m json.tool "$TMP/slow.json" > "$TMP/slow-pretty.json"
	run "${D[@]}" "${F[@]}"
	want=$out
	expect diff.input-json-tool 1 '' 'FAIL p99' "${D[@]}" "$TMP/base.json" "$TMP/slow-pretty.json"
	[ "$out" = "$want" ] || fail diff.input-json-tool-same "pretty and one-line NEW differ: ${out:0:400}"
else
	skip diff.input-json-tool "python3 not installed"
fi
# two intervals of 2 calls each equal one of 4; pretty or not; CRLF too
A2=$(cb chain_a cb_a 2 3 0 '{"min":0,"max":1,"count":1},{"min":2,"max":3,"count":1}')
A2B=$(cb chain_a cb_a 2 3 0 '{"min":0,"max":1,"count":0},{"min":2,"max":3,"count":2}')
B2=$(cb chain_a cb_b 2 3 0 '{"min":0,"max":1,"count":0},{"min":2,"max":3,"count":2}')
B2B=$(cb chain_a cb_b 2 3 0 '{"min":0,"max":1,"count":1},{"min":2,"max":3,"count":1}')
{ obj "$LOSS0" "$A2" "$B2"; obj "$LOSS0" "$A2B" "$B2B"; } > "$TMP/intervals.json"
expect diff.input-intervals 0 '' '^\(no differences in 2 rows\)$' \
	"${D[@]}" "$TMP/base.json" "$TMP/intervals.json"
sed 's/,"/,\n  "/g; s/$/\r/' "$TMP/intervals.json" > "$TMP/intervals-split.json"
expect diff.input-intervals-split 0 '' '^\(no differences in 2 rows\)$' \
	"${D[@]}" "$TMP/base.json" "$TMP/intervals-split.json"

# --- guards: on by default, named in the verdict, each can be turned off ------
expect diff.gone-callback 1 '' '^chain_a +cb_b .*FAIL gone-callback$' \
	"${D[@]}" "$TMP/base.json" "$TMP/gone.json"
grep -q '^budget exceeded: 1 row (gone-callback)$' <<<"$out" ||
	fail diff.gone-callback-summary "${out:0:400}"
expect diff.gone-callback-off 0 '' '^chain_a +cb_b .* gone$' \
	"${D[@]}" --budget 'default,-gone-callback' "$TMP/base.json" "$TMP/gone.json"
# an explicit budget keeps the guards
expect diff.gone-callback-custom 1 '' 'FAIL gone-callback' \
	"${D[@]}" --budget 'p99:+1000%' "$TMP/base.json" "$TMP/gone.json"
expect diff.no-callbacks 1 '' '^FAIL no-callbacks: .*empty.json has no callbacks' \
	"${D[@]}" "$TMP/empty.json" "$TMP/empty.json"
grep -q '^budget exceeded: no-callbacks$' <<<"$out" || fail diff.no-callbacks-summary "${out:0:400}"
expect diff.no-callbacks-off 0 '' '^within budget$' \
	"${D[@]}" --budget 'default,-no-callbacks' "$TMP/empty.json" "$TMP/empty.json"
expect diff.lost-events 1 '' '^FAIL lost-events: .*lost.json lost events \(dropped 3, missed 2\)' \
	"${D[@]}" "$TMP/base.json" "$TMP/lost.json"
grep -q '^budget exceeded: lost-events$' <<<"$out" || fail diff.lost-events-summary "${out:0:400}"
expect diff.lost-events-report 1 '' '^FAIL lost-events: .*\(lost 5\)' \
	"${D[@]}" "$TMP/baserep.json" "$TMP/lostrep.json"
expect diff.lost-events-off 0 '' '^note: .*lost.json lost events \(dropped 3, missed 2\), rule lost-events is off' \
	"${D[@]}" --budget 'default,-lost-events' "$TMP/base.json" "$TMP/lost.json"
# losses in the second interval only: summed, still a failure
{ obj "$LOSS0" "$A2" "$B2"; obj '"dropped":0,"failed":1,"missed":0' "$A2B" "$B2B"; } > "$TMP/lost2.json"
expect diff.lost-events-interval 1 '' '^FAIL lost-events: .*\(failed 1\)' \
	"${D[@]}" "$TMP/base.json" "$TMP/lost2.json"
# BASE's losses are a note, not a failure
expect diff.lost-events-base 0 '' '^note: .*lost.json \(BASE\) lost events' \
	"${D[@]}" "$TMP/lost.json" "$TMP/base.json"
# several rules at once: each row and the summary name them
expect diff.verdict-all 1 '' '^budget exceeded: 1 row \(gone-callback\), lost-events$' \
	"${D[@]}" "$TMP/base.json" <(obj '"dropped":0,"failed":0,"missed":1' "$A")

# --- rows are (chain, callback, block): report keeps blocks apart, so does diff --
# rb CALLBACK CALLBACK_ADDR NB NB_ADDR COUNT: a report -j row, COUNT calls of 2-3 us
rb() {
	printf '{"chain":"module_notify_list","chain_addr":"0xffffffff82001000","kind":"blocking","callback":"%s","callback_addr":"%s","count":%s,"max":3,"sum":1,"p50":2,"p99":3,"max_ns":3000,"sum_ns":1000,"stop":0,"bad":0,"errno":0,"untimed":0,"histogram":[{"min":0,"max":1,"count":0},{"min":2,"max":3,"count":%s}]%s}' \
		"$1" "$2" "$5" "$5" "${3:+,\"nb\":\"$3\",\"nb_addr\":\"$4\"}"
}
rep() {	# rep ROWS...: one report -j object
	local IFS=,
	printf '{"type":"report","units":"usecs","lost":0,"missed":0,"callbacks":[%s]}\n' "$*"
}
CPU1=$(rb cpu_cb 0xffffffffc0102000 0xffff888000100000 0xffff888000100000 3)
CPU2=$(rb cpu_cb 0xffffffffc0102000 0xffff888000100040 0xffff888000100040 3)
TM1=$(rb trace_module_notify 0xffffffffc0100000 trace_module_nb 0xffffffffc0108000 3)
TM2=$(rb trace_module_notify 0xffffffffc0101000 trace_event_module_nb 0xffffffffc0109000 3)
rep "$CPU1" "$CPU2" "$TM1" "$TM2" > "$TMP/blocks.json"
rep "$CPU1" "$TM1" "$TM2" > "$TMP/blocks-gone.json"
# one of two blocks of cpu_cb is gone: it used to be summed with the other
expect diff.block-gone 1 '' '^module_notify_list +cpu_cb \[nb=0xffff888000100040\] .*FAIL gone-callback$' \
	"${D[@]}" "$TMP/blocks.json" "$TMP/blocks-gone.json"
grep -q '^budget exceeded: 1 row (gone-callback)$' <<<"$out" || fail diff.block-gone-summary "${out:0:600}"
expect diff.block-same 0 '' '^module_notify_list +trace_module_notify \[nb=trace_event_module_nb\] +3 -> 3' \
	"${D[@]}" -a "$TMP/blocks.json" "$TMP/blocks.json"
# the block counts apart: 3 more calls through one block is +100% on that row
rep "$CPU1" "$(rb cpu_cb 0xffffffffc0102000 0xffff888000100040 0xffff888000100040 6)" "$TM1" "$TM2" \
	> "$TMP/blocks-more.json"
expect diff.block-count 1 '' '^module_notify_list +cpu_cb \[nb=0xffff888000100040\] +3 -> 6 \(\+100%\) .*FAIL count:\+50%$' \
	"${D[@]}" --budget 'count:+50%' "$TMP/blocks.json" "$TMP/blocks-more.json"
# another boot: every address moved; named blocks pair by name, a callback's
# only block by being the only one; nothing is gone
rep "$(rb cpu_cb 0xffffffffc0202000 0xffff888000200000 0xffff888000200000 3)" \
    "$(rb trace_module_notify 0xffffffffc0200000 trace_module_nb 0xffffffffc0208000 3)" \
    "$(rb trace_module_notify 0xffffffffc0201000 trace_event_module_nb 0xffffffffc0209000 3)" \
	> "$TMP/blocks-boot2.json"
expect diff.block-other-boot 0 '' '^\(no differences in 3 rows\)$' \
	"${D[@]}" "$TMP/blocks-gone.json" "$TMP/blocks-boot2.json"
# two anonymous blocks of one callback on another boot: which is which is unknown
rep "$(rb cpu_cb 0xffffffffc0202000 0xffff888000200000 0xffff888000200000 3)" \
    "$(rb cpu_cb 0xffffffffc0202000 0xffff888000200040 0xffff888000200040 3)" "$TM1" "$TM2" \
	> "$TMP/blocks-boot2-two.json"
expect diff.block-other-boot-ambiguous 1 '' 'cpu_cb \[nb=0xffff888000100000\] .*FAIL gone-callback$' \
	"${D[@]}" "$TMP/blocks.json" "$TMP/blocks-boot2-two.json"
# rows without a block keep (chain, callback); two functions of one name stay apart
rep "$(rb no_block 0xffffffffc0103000 '' '' 3)" "$(rb no_block 0xffffffffc0104000 '' '' 3)" > "$TMP/nb-none.json"
rep "$(rb no_block 0xffffffffc0103000 '' '' 3)" > "$TMP/nb-none-gone.json"
expect diff.block-none-same-name 1 '' '^module_notify_list +no_block \[cb=0xffffffffc0104000\] .*FAIL gone-callback$' \
	"${D[@]}" "$TMP/nb-none.json" "$TMP/nb-none-gone.json"
rep "$(rb cpu_cb 0xffffffffc0102000 x 0xffff888000100000 3 | sed 's/"nb":"x",//')" > "$TMP/bad.json"
bad block-half '\$\.callbacks\[0\]\.nb: missing \(nb and nb_addr name the block together\)'
rep "$(rb cpu_cb 0xffffffffc0102000 cpu_nb 0xZZ 3)" > "$TMP/bad.json"
bad block-addr '\$\.callbacks\[0\]\.nb_addr: not an address'

# --- the loss counters each producer writes are required ----------------------
obj '"dropped":0,"missed":0' "$A" "$B" > "$TMP/bad.json"
bad loss-latency-failed '\$\.failed: missing \(latency -j writes dropped, failed and missed\)'
obj '"dropped":0,"failed":0' "$A" "$B" > "$TMP/bad.json"
bad loss-latency-missed '\$\.missed: missing'
obj '"missed":0' "$A" "$B" | sed 's/"latency"/"report"/' > "$TMP/bad.json"
bad loss-report-lost '\$\.lost: missing \(report -j writes lost and missed\)'
obj '' "$A" "$B" | sed 's/"type":"latency",//' > "$TMP/bad.json"
bad loss-none 'object 1 \(line 1\): \$: no loss counters'
# what latency -C -j writes on top: read, not refused (a boolean among them)
obj "$LOSS0"',"unpaired":0,"missed_call_begin":0,"missed_call_end":2,"missed_begin_end_differ":true' \
	"$A" "$B" > "$TMP/lat-C.json"
expect diff.loss-latency-C 1 '' '^FAIL lost-events: .*\(missed_call_end 2\)' \
	"${D[@]}" "$TMP/base.json" "$TMP/lat-C.json"

# --- input that contradicts itself is refused, not read one way or another -----
obj "$LOSS0" "$A" "$B" | sed 's/"count":4,/"count":4,"count":4000,/' > "$TMP/bad.json"
bad dup-key 'bad.json: line 1, byte [0-9]+: key "count" twice in one object'
obj "$LOSS0" "$A" "$B" | sed 's/"count":4,/"count":4,"\\u0063ount":4000,/' > "$TMP/bad.json"
bad dup-key-escaped 'key "count" twice in one object'
obj "$LOSS0" "$A" "$B" | sed 's/"units":"usecs",/"units":"usecs","units":"nsecs",/' > "$TMP/bad.json"
bad dup-key-top 'key "units" twice'
# the same key in two objects is not a duplicate
obj "$LOSS0" "$A" "$B" | sed 's/"histogram":\[{"min":0,"max":1,"count":1}/"histogram":[{"min":0,"max":1,"count":1,"x":{"count":1}}/' \
	> "$TMP/nested.json"
expect diff.dup-key-nested 0 '' 'no differences' "${D[@]}" "$TMP/base.json" "$TMP/nested.json"
obj "$LOSS0" "$A" "$B" "$A" > "$TMP/bad.json"
bad dup-row 'object 1 \(line 1\): \$\.callbacks\[2\]: a second row for chain "chain_a", callback "cb_a"'
obj "$LOSS0" "$(cb chain_a cb_a 5 3 0 "$H4" 2 3)" "$B" > "$TMP/bad.json"
bad count-histogram '\$\.callbacks\[0\]\.count: 5, but the histogram holds 4 calls$'
# untimed calls are counted, but have no bucket
obj "$LOSS0" "$(cb chain_a cb_a 6 3 0 "$H4" 2 3 | sed 's/"untimed":0/"untimed":2/')" "$B" > "$TMP/untimed.json"
expect diff.count-untimed 0 '' '^chain_a +cb_a +4 -> 6' "${D[@]}" --budget 'p99:+20%' "$TMP/base.json" "$TMP/untimed.json"
obj "$LOSS0" "$(cb chain_a cb_a 7 3 0 "$H4" 2 3 | sed 's/"untimed":0/"untimed":2/')" "$B" > "$TMP/bad.json"
bad count-untimed-wrong '\$\.callbacks\[0\]\.count: 7, but the histogram holds 4 calls and untimed 2 more'
# a histogram of 1-2 ms with max_ns 100 ns (p99 was clamped to it: within budget)
obj "$LOSS0" "$A" "$(cb chain_a cb_b 4 0 0 '{"min":1024,"max":2047,"count":4}' 0 0 | sed 's/"max_ns":0000/"max_ns":100/')" \
	> "$TMP/bad.json"
bad max-below-histogram '\$\.callbacks\[1\]\.max_ns: 100, below the histogram.s highest non-empty bucket \(1024-2047 usecs\)'
obj "$LOSS0" "$A" "$(cb chain_a cb_b 4 3 0 "$H4" 2 3 | sed 's/"max":3,/"max":1000000,/')" > "$TMP/bad.json"
bad max-vs-max-ns '\$\.callbacks\[1\]\.max: 1000000, but max_ns 3000 is 3 usecs'
obj "$LOSS0" "$A" "$(cb chain_a cb_b 4 3 0 "$H4" 2 1000)" > "$TMP/bad.json"
bad p99-lie '\$\.callbacks\[1\]\.p99: 1000 does not fit the histogram \(2\.\.3'
obj "$LOSS0" "$A" "$(cb chain_a cb_b 4 3 0 "$H4" 0 3)" > "$TMP/bad.json"
bad p50-lie '\$\.callbacks\[1\]\.p50: 0 does not fit the histogram'
obj "$LOSS0" "$A" "$(cb chain_a cb_b 0 3 0 '')" > "$TMP/bad.json"
bad max-no-timed-call '\$\.callbacks\[1\]\.max_ns: 3000 with an empty histogram'

# --- paths are printed escaped: a newline in a name cannot forge a line ------
NL=$'\n'
FORGED="$TMP/x${NL}within budget${NL}.json"
cp "$TMP/lost.json" "$FORGED"
expect diff.path-verdict 1 '' '^FAIL lost-events: .*/x\\x0awithin budget\\x0a\.json lost events' \
	"${D[@]}" "$TMP/base.json" "$FORGED"
grep -q '^within budget$' <<<"$out" && fail diff.path-verdict-forged "a forged line: ${out:0:600}"
echo 'not json' > "$FORGED"
expect diff.path-error 2 '/x\\x0awithin budget\\x0a\.json: line 1, byte 1: invalid JSON' '' \
	"${D[@]}" "$TMP/base.json" "$FORGED"
expect diff.path-missing 2 '/nope\\x0ay\\x1b\[0m: cannot open' '' \
	"${D[@]}" "$TMP/base.json" "$TMP/nope${NL}y"$'\e'"[0m"
expect diff.path-argument 2 "unexpected argument 'c\\\\x0ad'" '' "${D[@]}" a b "c${NL}d"

# --- benchattach: argp, one-line errors, never bpf() ---------------------------
# no capabilities: a benchattach that went on could not load anything
NOCAP=()
if [ "$(id -u)" = 0 ]; then
	if setpriv --bounding-set=-all --inh-caps=-all true 2>/dev/null; then
		NOCAP=(setpriv --bounding-set=-all --inh-caps=-all --)
	else
		skip benchattach "running as root and setpriv cannot drop capabilities"
		BA=
	fi
fi
STRACE=()
if command -v strace >/dev/null && strace -f -qq -e trace=bpf -o /dev/null true 2>/dev/null; then
	STRACE=(strace -f -qq -e trace=bpf -o "$TMP/strace")
fi
if [ -n "$BA" ]; then
	run "${NOCAP[@]}" "$BA" --help
	if [ "$rc" = 0 ] && grep -q -- '--function=FUNCTION' <<<"$out" &&
	   grep -q -- '--mode=MODE' <<<"$out" && grep -q '^Examples:' <<<"$out" &&
	   grep -q 'benchattach -m kprobe -f cs_bench_cb' <<<"$out"; then
		pass benchattach.help
	else
		fail benchattach.help "exit $rc: ${out:0:300} ${err:0:200}"
	fi
	# the getopt version's -h still prints the help
	run "${NOCAP[@]}" "$BA" -h
	if [ "$rc" = 0 ] && grep -q '^Examples:' <<<"$out"; then
		pass benchattach.help-h
	else
		fail benchattach.help-h "exit $rc: ${out:0:300} ${err:0:200}"
	fi
	for args in "" "-v" "-m kprobe"; do
		# shellcheck disable=SC2086 # $args is a list of flags
		"${STRACE[@]}" "${NOCAP[@]}" "$BA" $args > "$TMP/out" 2> "$TMP/stderr"
		rc=$?
		err=$(cat "$TMP/stderr")
		if [ "$rc" = 2 ] && [ "$(grep -c '' <<<"$err")" = 1 ] &&
		   grep -q "^benchattach: error: no function given (-f FUNCTION) (see 'benchattach --help')$" <<<"$err"; then
			pass "benchattach.no-function${args:+-}${args//[ -]/}"
		else
			fail "benchattach.no-function${args:+-}${args//[ -]/}" "exit $rc: ${err:0:300}"
		fi
	done
	for c in "bad-mode|invalid mode 'bogus' \\(fentry, kprobe, kprobe-multi\\)|-f x -m bogus" \
		 "f-and-a|-f and -a exclude each other|-f x -a y" \
		 "empty-list|empty list file name|--attach-time=" \
		 "extra|unexpected argument 'extra'|-f x extra" \
		 "unknown-flag|unrecognized option '--bogus'|-f x --bogus" \
		 "missing-value|option requires an argument -- 'm'|-f x -m" \
		 "empty-function|empty function name|--function="; do
		IFS='|' read -r n e a <<<"$c"
		# shellcheck disable=SC2086 # $a is a list of flags
		"${STRACE[@]}" "${NOCAP[@]}" "$BA" $a > "$TMP/out" 2> "$TMP/stderr"
		rc=$?
		err=$(cat "$TMP/stderr")
		if [ "$rc" = 2 ] && [ "$(grep -c '' <<<"$err")" = 1 ] && grep -Eq -- "$e" <<<"$err"; then
			pass "benchattach.$n"
		else
			fail "benchattach.$n" "exit $rc, want 2 and one line /$e/: ${err:0:300}"
		fi
		if [ -s "$TMP/strace" ] && grep -q 'bpf(' "$TMP/strace"; then
			fail "benchattach.$n-no-bpf" "bpf() called: $(head -n 1 "$TMP/strace")"
		fi
	done
	# what qemu/guest/plan-bench.sh passes still parses (stops before bpf())
	for mode in fentry kprobe kprobe-multi; do
		CHAINSCOPE_PROBE_ONLY=1 "${STRACE[@]}" "${NOCAP[@]}" "$BA" -m "$mode" -f cs_bench_cb \
			> "$TMP/out" 2> "$TMP/stderr"
		rc=$?
		err=$(cat "$TMP/stderr")
		if [ "$rc" = 0 ] && grep -q "^benchattach: mode=$mode function=cs_bench_cb: CHAINSCOPE_PROBE_ONLY=1" <<<"$err"; then
			pass "benchattach.plan-bench-$mode"
		else
			fail "benchattach.plan-bench-$mode" "exit $rc: ${err:0:300}"
		fi
		if [ -s "$TMP/strace" ] && grep -q 'bpf(' "$TMP/strace"; then
			fail "benchattach.plan-bench-$mode-no-bpf" "bpf() called: $(head -n 1 "$TMP/strace")"
		fi
	done
	# -a LIST (attach time): the list is read and checked before any bpf();
	# kprobe-multi resolves the names in kallsyms first
	printf 'cs_bench_cb_000\ncs_bench_cb_001\n' > "$TMP/ba-list"
	printf 'ffffffffc0001000 t cs_bench_cb_000\t[cs_bench]\nffffffffc0001010 t cs_bench_cb_001\t[cs_bench]\n' \
		> "$TMP/ba-ksyms"
	printf 'cs_bench_cb_000\n\ncs_bench_cb_000\n' > "$TMP/ba-twice"
	printf 'cs_bench_cb_000\nx y;z\n' > "$TMP/ba-bad"
	: > "$TMP/ba-empty"
	printf 'cs_bench_cb_000\nnot_there\n' > "$TMP/ba-missing"
	for c in "list-fentry|0|^benchattach: mode=fentry functions=2: CHAINSCOPE_PROBE_ONLY=1|-m fentry -a $TMP/ba-list" \
		 "list-kprobe-multi|0|^benchattach: mode=kprobe-multi functions=2: CHAINSCOPE_PROBE_ONLY=1|-m kprobe-multi -a $TMP/ba-list" \
		 "list-twice|3|ba-twice:3: 'cs_bench_cb_000' listed twice$|-a $TMP/ba-twice" \
		 "list-bad-name|3|ba-bad:2: bad function name 'x y;z'$|-a $TMP/ba-bad" \
		 "list-empty|3|ba-empty' lists no function$|-a $TMP/ba-empty" \
		 "list-unreadable|3|cannot open '.*/nope': No such file|-a $TMP/nope" \
		 "list-not-in-kallsyms|1|'not_there' is not a text symbol in kallsyms|-m kprobe-multi -a $TMP/ba-missing"; do
		IFS='|' read -r n want e a <<<"$c"
		# shellcheck disable=SC2086 # $a is a list of flags
		CHAINSCOPE_PROBE_ONLY=1 CHAINSCOPE_KALLSYMS=$TMP/ba-ksyms "${STRACE[@]}" "${NOCAP[@]}" \
			"$BA" $a > "$TMP/out" 2> "$TMP/stderr"
		rc=$?
		err=$(cat "$TMP/stderr")
		if [ "$rc" = "$want" ] && [ "$(grep -c '' <<<"$err")" = 1 ] && grep -Eq -- "$e" <<<"$err"; then
			pass "benchattach.$n"
		else
			fail "benchattach.$n" "exit $rc, want $want and one line /$e/: ${err:0:300}"
		fi
		if [ -s "$TMP/strace" ] && grep -q 'bpf(' "$TMP/strace"; then
			fail "benchattach.$n-no-bpf" "bpf() called: $(head -n 1 "$TMP/strace")"
		fi
	done
	[ ${#STRACE[@]} = 0 ] && skip benchattach.no-bpf "strace not installed: bpf() calls not traced"
fi

# --- fuzz diff's core ------------------------------------------------------------
if fuzz_ready fuzz.diff; then
	# the committed seeds plus every file above as NEW, default budget
	mkdir -p "$TMP/corpus"
	cp "$SEEDS"/* "$TMP/corpus/"
	for f in "$TMP"/*.json; do
		{ cat "$TMP/base.json"; printf '\0'; cat "$f"; } > "$TMP/corpus/$(basename "$f")"
	done
	# and one large input: a NEW of 1 MB, the objects repeated
	b=$(<"$TMP/base.json")
	{ printf '%s\n\0' "$b"
	  for ((i = 0; i < 1048576; i += ${#b} + 1)); do
		printf '%s\n' "$b"
	  done; } > "$TMP/corpus/large-repeated.json"
	if out=$(bash "$(dirname "$(readlink -f "$0")")/../fuzz/fuzz_run.sh" diff "$FUZZ" "$TMP/corpus"); then
		pass fuzz.diff
	else
		fail fuzz.diff "$out"
	fi
fi

exit $failed
