#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Host tests of chainscope record/report/check/diff and the trace reader.
# One line per case: "PASS: host.<suite>.<case>", "FAIL: ...: why" or
# "SKIP: ...: why". Nothing here loads BPF: check, report and diff only
# read files; record is only run to its argument errors and start-up
# probes (with CHAINSCOPE_PROBE_ONLY=1 as in cli.sh).
#
#   tests/sh/record.sh CHAINSCOPE CS-GENTRACE FUZZ-BINARY
#   (FUZZ_CC, FUZZ_RUNS, MAKE_FUZZ from the Makefile build the fuzzer)
set -uo pipefail

CS=$(readlink -f "${1:?usage: record.sh CHAINSCOPE CS-GENTRACE FUZZ}")
GEN=$(readlink -f "${2:?}")
FUZZ=${3:?}
PREFIX=host
# shellcheck source=userspace/tests/sh/lib.sh
. "$(dirname "$(readlink -f "$0")")/lib.sh"
export CHAINSCOPE_PROBE_ONLY=1

# --- check: a clean trace and one per injected violation ---------------------
"$GEN" clean "$TMP/clean.cstrace" || fail check.generate "cs-gentrace clean failed"
run "$CS" check "$TMP/clean.cstrace"
if [ "$rc" = 0 ] && grep -q ', 0 violations' <<<"$out"; then
	pass check.clean
else
	fail check.clean "exit $rc: ${out:0:400} ${err:0:200}"
fi

for rule in $("$GEN" --list); do
	case $rule in clean|slower|clean-snapshot) continue ;; esac
	"$GEN" "$rule" "$TMP/$rule.cstrace" || { fail "check.$rule" "generator failed"; continue; }
	run "$CS" check "$TMP/$rule.cstrace"
	n=$(grep -c "^event [0-9]*: chain .*: rule " <<<"$out")
	if [ "$rc" != 1 ]; then
		fail "check.$rule" "exit $rc, want 1: ${out:0:300} ${err:0:200}"
	elif ! grep -q "rule $rule: " <<<"$out"; then
		fail "check.$rule" "no 'rule $rule' line: ${out:0:300}"
	elif grep -v "rule $rule: " <<<"$out" | grep -q "^event "; then
		fail "check.$rule" "other rules fired too: ${out:0:400}"
	else
		pass "check.$rule"
	fi
done
# the line names event index, chain and callback
run "$CS" check "$TMP/priority-order.cstrace"
if grep -Eq '^event [0-9]+: chain test_chain: callback cb_a: rule priority-order: priority 10 ran after priority 0' <<<"$out"; then
	pass check.line-format
else
	fail check.line-format "unexpected line: ${out:0:300}"
fi

# --- reader errors: exit 2, the byte offset in the message -------------------
# expect2 NAME PATTERN FILE
expect2() {
	run "$CS" "${CMD:-check}" "$3"
	if [ "$rc" != 2 ]; then
		fail "tracefile.$1" "exit $rc, want 2: ${err:0:300}"
	elif ! grep -Eq -- "$2" <<<"$err"; then
		fail "tracefile.$1" "stderr '$err' does not match /$2/"
	else
		pass "tracefile.$1"
	fi
}
f=$TMP/clean.cstrace
size=$(stat -c %s "$f")
head -c $((size - 100)) "$f" > "$TMP/trunc.cstrace"
expect2 truncated "truncated at byte offset $((size - 108)): no end marker" "$TMP/trunc.cstrace"
head -c 100 "$f" > "$TMP/short.cstrace"
expect2 truncated-header "truncated at byte offset 100: " "$TMP/short.cstrace"
: > "$TMP/empty.cstrace"
expect2 empty "truncated at byte offset 0: " "$TMP/empty.cstrace"
cp "$f" "$TMP/ver.cstrace"
printf '\x04' | dd of="$TMP/ver.cstrace" bs=1 seek=8 conv=notrunc status=none
expect2 wrong-version "wrong version at byte offset 8: version 4, this chainscope reads versions 1..3" "$TMP/ver.cstrace"
cp "$f" "$TMP/magic.cstrace"
printf 'XX' | dd of="$TMP/magic.cstrace" bs=1 seek=0 conv=notrunc status=none
expect2 wrong-magic "wrong magic at byte offset 0: " "$TMP/magic.cstrace"
# record 1's type field: header 256 + record 96 + offset of type (88)
cp "$f" "$TMP/type.cstrace"
printf '\x63' | dd of="$TMP/type.cstrace" bs=1 seek=$((256 + 96 + 88)) conv=notrunc status=none
expect2 corrupted-record "corrupted at byte offset 440: record type 99" "$TMP/type.cstrace"
# the footer's trailer offset, off by one
cp "$f" "$TMP/toff.cstrace"
printf '\x01' | dd of="$TMP/toff.cstrace" bs=1 seek=$((size - 16)) conv=notrunc status=none
expect2 corrupted-trailer-offset "corrupted at byte offset $((size - 16)): trailer offset" "$TMP/toff.cstrace"
# one more record than the trailer counts: insert 96 bytes before the trailer
CMD=report expect2 report-rejects "wrong version at byte offset 8" "$TMP/ver.cstrace"
expect2 missing-file "cannot open" "$TMP/nonexistent"

# --- report --------------------------------------------------------------------
run "$CS" report "$TMP/clean.cstrace"
if [ "$rc" = 0 ] &&
   grep -q '^chain: test_chain (blocking) callback: cb_b  count=9 ' <<<"$out" &&
   grep -q '^chain: test_chain (blocking) op: write  count=3 contended=1' <<<"$out" &&
   grep -Eq '^ +128 -> 255 +: 5 ' <<<"$out" &&
   grep -q 'usecs               : count    distribution' <<<"$out"; then
	pass report.text
else
	fail report.text "exit $rc: ${out:0:600} ${err:0:200}"
fi
run "$CS" report -j "$TMP/clean.cstrace"
if [ "$rc" = 0 ] && [ "$(grep -c '' <<<"$out")" = 1 ] &&
   grep -q '"type":"report"' <<<"$out" &&
   grep -q '"callback":"cb_b","callback_addr":"0xffffffffc0003100","callback_module":"testmod","count":9,' <<<"$out" &&
   grep -q '"bad":1' <<<"$out" && grep -q '"histogram":\[{"min":0,"max":1,' <<<"$out"; then
	pass report.json
else
	fail report.json "exit $rc: ${out:0:600} ${err:0:200}"
fi
echo "$out" > "$TMP/base.json"
run "$CS" report --svg "$TMP/svg" "$TMP/clean.cstrace"
if [ "$rc" = 0 ] && grep -q '<svg' "$TMP/svg/test_chain.svg" 2>/dev/null &&
   grep -q '<svg' "$TMP/svg/nest_chain.svg" 2>/dev/null &&
   grep -q 'cb_b' "$TMP/svg/test_chain.svg"; then
	pass report.svg
else
	fail report.svg "exit $rc: ${err:0:300}; $(ls "$TMP/svg" 2>&1)"
fi

# --- report: the chains' membership at start (snapshot records) --------------
"$GEN" clean-snapshot "$TMP/snap.cstrace"
run "$CS" report "$TMP/snap.cstrace"
if [ "$rc" = 0 ] && grep -q ', 103 events, lost 0, missed 0, mode tracepoints$' <<<"$out" &&
   grep -qx 'chains walked by record (membership from then on): 3' <<<"$out" &&
   grep -qx 'chain: test_chain (blocking) walked at +0.000000 s: 3 blocks' <<<"$out" &&
   [ "$(grep -A3 '^chain: test_chain (blocking) walked' <<<"$out" | tail -n 3 | tr -s ' ')" = \
     "$(printf ' 1. cb_a [nb=0xffff888000001000] priority 10\n 2. cb_b [nb=0xffff888000002000] priority 0\n 3. cb_c [nb=0xffff888000003000] priority 0')" ] &&
   grep -qx 'chain: 0xffffffffc0002100 (blocking) walked at +0.000003 s: 0 blocks' <<<"$out" &&
   grep -q '^chain: test_chain (blocking) callback: cb_b  count=9 ' <<<"$out"; then
	pass report.snapshot-text
else
	fail report.snapshot-text "exit $rc: ${out:0:700} ${err:0:200}"
fi
run "$CS" report -j "$TMP/snap.cstrace"
echo "$out" > "$TMP/snap.json"
if [ "$rc" = 0 ] && [ "$(grep -c '' <<<"$out")" = 1 ] &&
   grep -q '"events":103,"snapshot_records":5,' <<<"$out" &&
   grep -q '"snapshots":\[{"chain":"test_chain","chain_addr":"0xffffffffc0001000","chain_module":"testmod","kind":"blocking","ts_ns":1000000,"stable":true,"length":3,"blocks":\[{"position":0,"callback":"cb_a",' <<<"$out" &&
   grep -q '{"chain":"0xffffffffc0002100","chain_addr":"0xffffffffc0002100","kind":"blocking","ts_ns":1002000,"stable":true,"length":0,"blocks":\[\]}\]}$' <<<"$out" &&
   ! grep -q '"snapshots"' "$TMP/base.json"; then
	pass report.snapshot-json
else
	fail report.snapshot-json "exit $rc: ${out:0:300} ... ${out: -300} ${err:0:200}"
fi
# diff compares the callbacks and ignores the snapshots
run "$CS" diff "$TMP/base.json" "$TMP/snap.json"
if [ "$rc" = 0 ] && grep -q '^within budget' <<<"$out"; then
	pass diff.snapshots-ignored
else
	fail diff.snapshots-ignored "exit $rc: ${out:0:400} ${err:0:200}"
fi

# --- diff ------------------------------------------------------------------------
"$GEN" slower "$TMP/slower.cstrace"
"$CS" report -j "$TMP/slower.cstrace" > "$TMP/new.json"
run "$CS" diff "$TMP/base.json" "$TMP/base.json"
if [ "$rc" = 0 ] && grep -q '^within budget' <<<"$out"; then
	pass diff.same
else
	fail diff.same "exit $rc: ${out:0:400} ${err:0:200}"
fi
run "$CS" diff "$TMP/base.json" "$TMP/new.json"
if [ "$rc" = 1 ] &&
   grep -Eq '^test_chain +cb_b .*FAIL p99:\+20%' <<<"$out" &&
   grep -Eq '^test_chain +cb_c .*FAIL new-veto' <<<"$out" &&
   grep -Eq '^nest_chain +cb_d .*FAIL gone-callback' <<<"$out" &&
   grep -q '^budget exceeded: 3 rows (p99:+20%, new-veto, gone-callback)$' <<<"$out"; then
	pass diff.regression
else
	fail diff.regression "exit $rc: ${out:0:800} ${err:0:200}"
fi
run "$CS" diff --budget 'p99:+1000%,-gone-callback' "$TMP/base.json" "$TMP/new.json"
if [ "$rc" = 0 ]; then pass diff.budget-loose; else fail diff.budget-loose "exit $rc: ${out:0:400}"; fi
# a callback only in NEW
grep -v nothing "$TMP/base.json" | sed 's/"cb_a"/"cb_new"/' > "$TMP/newcb.json"
run "$CS" diff --budget new-callback "$TMP/base.json" "$TMP/newcb.json"
if [ "$rc" = 1 ] && grep -Eq '^test_chain +cb_new .*FAIL new-callback' <<<"$out"; then
	pass diff.new-callback
else
	fail diff.new-callback "exit $rc: ${out:0:400}"
fi
# latency -j lines (several intervals) are summed
cat > "$TMP/lat1.json" <<'J'
{"type":"latency","time":1.0,"units":"usecs","dropped":0,"failed":0,"missed":0,"callbacks":[{"chain":"c","kind":"atomic","callback":"f","count":2,"max":3,"sum":4,"p50":2,"p99":3,"max_ns":3000,"sum_ns":4000,"stop":0,"bad":0,"errno":0,"untimed":0,"histogram":[{"min":0,"max":1,"count":1},{"min":2,"max":3,"count":1}]}]}
{"type":"latency","time":2.0,"units":"usecs","dropped":0,"failed":0,"missed":0,"callbacks":[{"chain":"c","kind":"atomic","callback":"f","count":2,"max":3,"sum":4,"p50":2,"p99":3,"max_ns":3000,"sum_ns":4000,"stop":0,"bad":0,"errno":0,"untimed":0,"histogram":[{"min":0,"max":1,"count":1},{"min":2,"max":3,"count":1}]}]}
J
cat > "$TMP/lat2.json" <<'J'
{"type":"latency","time":1.0,"units":"usecs","dropped":0,"failed":0,"missed":0,"callbacks":[{"chain":"c","kind":"atomic","callback":"f","count":4,"max":900,"sum":4,"p50":600,"p99":900,"max_ns":900000,"sum_ns":4000,"stop":0,"bad":0,"errno":0,"untimed":0,"histogram":[{"min":0,"max":1,"count":0},{"min":2,"max":3,"count":0},{"min":4,"max":7,"count":0},{"min":8,"max":15,"count":0},{"min":16,"max":31,"count":0},{"min":32,"max":63,"count":0},{"min":64,"max":127,"count":0},{"min":128,"max":255,"count":0},{"min":256,"max":511,"count":0},{"min":512,"max":1023,"count":4}]}]}
J
run "$CS" diff -a "$TMP/lat1.json" "$TMP/lat2.json"
if [ "$rc" = 1 ] && grep -Eq '^c +f +4 -> 4 \(\+0%\) .*FAIL p99:\+20%' <<<"$out"; then
	pass diff.latency-lines
else
	fail diff.latency-lines "exit $rc: ${out:0:400} ${err:0:200}"
fi
echo 'not json' > "$TMP/bad.json"
run "$CS" diff "$TMP/base.json" "$TMP/bad.json"
if [ "$rc" = 2 ] && grep -q 'bad.json: line 1, byte 1: invalid JSON' <<<"$err"; then
	pass diff.bad-input
else
	fail diff.bad-input "exit $rc: ${err:0:300}"
fi
run "$CS" diff --budget 'p99:20' "$TMP/base.json" "$TMP/new.json"
if [ "$rc" = 2 ] && grep -q "invalid budget rule 'p99:20'" <<<"$err"; then
	pass diff.bad-budget
else
	fail diff.bad-budget "exit $rc: ${err:0:300}"
fi
sed 's/"units":"usecs"/"units":"nsecs"/; s/"max":900,/"max":900000,/' "$TMP/lat2.json" > "$TMP/ns.json"
run "$CS" diff "$TMP/lat1.json" "$TMP/ns.json"
if [ "$rc" = 2 ] && grep -q 'same -n/-u/-m' <<<"$err"; then
	pass diff.units-mismatch
else
	fail diff.units-mismatch "exit $rc: ${err:0:300}"
fi

# --- record: arguments and start-up (no bpf()) ---------------------------------
run "$CS" record
if [ "$rc" = 2 ] && grep -q 'no output file (-o FILE)' <<<"$err"; then
	pass record.no-output
else
	fail record.no-output "exit $rc: ${err:0:300}"
fi
run "$CS" record -o "$TMP/x" -d 0
if [ "$rc" = 2 ] && grep -q "invalid duration '0'" <<<"$err"; then
	pass record.bad-duration
else
	fail record.bad-duration "exit $rc: ${err:0:300}"
fi
run "$CS" record -o "$TMP/x" extra
if [ "$rc" = 2 ] && grep -q "after '--'" <<<"$err"; then
	pass record.stray-argument
else
	fail record.stray-argument "exit $rc: ${err:0:300}"
fi
run "$CS" record -o "$TMP/x" --
if [ "$rc" = 2 ] && grep -q "no command after '--'" <<<"$err"; then
	pass record.empty-command
else
	fail record.empty-command "exit $rc: ${err:0:300}"
fi
# -c CHAIN needs its kind (probes mode walks it at start)
for args in "-c foo" "-c foo:bogus" "-k raw" "--mode bogus"; do
	# shellcheck disable=SC2086
	run "$CS" record -o "$TMP/x" $args
	case $args in
	"-c foo") want="-c foo: no kind \(-c CHAIN:KIND or -k KIND;" ;;
	"-c foo:bogus") want="-c foo:bogus: no kind \\(-c CHAIN:KIND or -k KIND; KIND: raw" ;;
	"-k raw") want="-k KIND needs -c CHAIN" ;;
	*) want="unknown --mode 'bogus' \(auto, tracepoints, probes\)" ;;
	esac
	if [ "$rc" = 2 ] && [ "$nerr" = 1 ] && grep -Eq -- "$want" <<<"$err" && [ ! -e "$TMP/x" ]; then
		pass "record.args${args// /}"
	else
		fail "record.args${args// /}" "exit $rc: ${err:0:300}"
	fi
done
if [ "$(id -u)" = 0 ]; then
	# the host kernel has no chainscope tracepoints: --mode tracepoints
	# exits 5 like the live tools; auto takes probes (and stops before its
	# bpf() feature probes: CHAINSCOPE_PROBE_ONLY)
	run "$CS" record --mode tracepoints -o "$TMP/x" -d 1
	# (a 6.4+ host has upstream's 3-argument notifier_register: "prototype other")
	if [ "$rc" = 5 ] && grep -Eq 'no notifier:notifier_.* tracepoint|notifier:notifier_.* has a prototype other' <<<"$err" &&
	   [ ! -e "$TMP/x" ]; then
		pass record.host-kernel
	elif [ "$rc" = 4 ]; then
		skip record.host-kernel "no kernel BTF on this host"
	else
		fail record.host-kernel "exit $rc: ${err:0:300}"
	fi
	run "$CS" record -o "$TMP/x" -c cs_nosuch_chain:raw -d 1
	if [ "$rc" = 2 ] && grep -q "cs_nosuch_chain" <<<"$err" && [ ! -e "$TMP/x" ]; then
		pass record.host-kernel-unknown-chain
	elif [ "$rc" = 4 ]; then
		skip record.host-kernel-unknown-chain "no kernel BTF on this host"
	else
		fail record.host-kernel-unknown-chain "exit $rc: ${err:0:300}"
	fi
	run "$CS" record -o "$TMP/x" -d 1
	if [ "$rc" = 0 ] && grep -q "start-up probes passed (mode probes)" <<<"$err" &&
	   [ ! -e "$TMP/x" ]; then
		pass record.host-kernel-auto-probes
	elif [ "$rc" = 4 ]; then
		skip record.host-kernel-auto-probes "no kernel BTF on this host"
	else
		fail record.host-kernel-auto-probes "exit $rc: ${err:0:300}"
	fi
else
	skip record.host-kernel "not root"
fi

# --- fuzz the reader -----------------------------------------------------------
if fuzz_ready fuzz.tracefile; then
	# the seeds: cs-gentrace's scenarios and layouts, the files above and
	# one large deeply nested trace (1 MB: one task nesting 2700 passes)
	mkdir -p "$TMP/corpus"
	"$GEN" --seeds "$TMP/corpus" && "$GEN" --count 2700 deep-closed "$TMP/corpus/large-deep.cstrace"
	cp "$TMP"/trunc.cstrace "$TMP"/ver.cstrace "$TMP"/type.cstrace "$TMP/corpus/"
	if out=$(bash "$(dirname "$(readlink -f "$0")")/../fuzz/fuzz_run.sh" tracefile "$FUZZ" "$TMP/corpus"); then
		pass fuzz.tracefile
	else
		fail fuzz.tracefile "$out"
	fi
fi

exit $failed
