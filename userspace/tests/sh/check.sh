#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Host tests of `chainscope check` on crafted traces (tests/gen/gencheck.c):
# nesting, orphans, the rules, loss gaps, ordering semantics, the help
# text, and a bounded libFuzzer run of check end to end. One line per
# case: "PASS: host.check.<case>", "FAIL: ...: why" or "SKIP: ...: why".
# (tests/sh/record.sh covers the rules injected by tests/gen/gentrace.c.)
#
#   tests/sh/check.sh CHAINSCOPE CS-GENCHECK CS-GENTRACE FUZZ-BINARY
#   (FUZZ_CC, FUZZ_RUNS, MAKE_FUZZ from the Makefile build the fuzzer)
set -uo pipefail

CS=$(readlink -f "${1:?usage: check.sh CHAINSCOPE CS-GENCHECK CS-GENTRACE FUZZ}")
GEN=$(readlink -f "${2:?}")
GENTRACE=$(readlink -f "${3:?}")
FUZZ=${4:?}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PREFIX=host.check
# shellcheck source=userspace/tests/sh/lib.sh
. "$(dirname "$(readlink -f "$0")")/lib.sh"

# expect SCENARIO RC "RULE..." [ERE...]: check's exit code, exactly these
# rules among the violation lines (sorted, one each unless repeated), and
# each ERE found in the output
expect() {
	local name=$1 want_rc=$2 want_rules=$3 got_rules re
	shift 3
	if ! "$GEN" "$name" "$TMP/$name.cstrace" 2>"$TMP/generr"; then
		fail "$name" "generator: $(cat "$TMP/generr")"
		return
	fi
	run "$CS" check "$TMP/$name.cstrace"
	got_rules=$(sed -n 's/^event [0-9]*: chain .*: callback .*: rule \([a-z-]*\): .*/\1/p' \
		<<<"$out" | sort | tr '\n' ' ' | sed 's/ $//')
	if [ "$rc" != "$want_rc" ]; then
		fail "$name" "exit $rc, want $want_rc: ${out:0:600} ${err:0:200}"
		return
	fi
	if [ "$got_rules" != "$want_rules" ]; then
		fail "$name" "rules '$got_rules', want '$want_rules': ${out:0:600}"
		return
	fi
	for re in "$@"; do
		if ! grep -Eq -- "$re" <<<"$out"; then
			fail "$name" "no /$re/ in: ${out:0:600}"
			return
		fi
	done
	pass "$name"
}

# --- nesting: no false violations -------------------------------------------
expect nest-rollback 0 "" ', 5 passes checked, 0 violations'
expect nest-same-chain 0 "" ', 6 passes checked, 0 violations'

# --- orphans: counted, never paired with a deeper pass ----------------------
expect orphan-nested 0 "" \
	'orphans: 3 events .*\(1 runs, 1 returns, 0 stops, 1 ends\)$' \
	', 1 passes checked, 0 violations'
expect orphan-before 0 "" \
	'orphans: 6 events .*\(2 runs, 2 returns, 1 stops, 1 ends\)$'

# --- stray events: nothing but an unrecorded nested pass (or a gap) may ------
# --- interleave with an open recorded pass ---------------------------------
expect stray-return 1 "stray-event" \
	'^event 6: chain test_chain: callback cb_b: rule stray-event: notifier_return \(val 3\) fits no open pass of its task: the innermost is the plain pass of event 4, in a callback$'
expect stray-end-type 1 "stray-event" 'rule stray-event: call_end .* robust pass of event 4, between callbacks'
expect stray-end-val 1 "stray-event" 'rule stray-event: call_end \(val 7\)'
# only a pass that ran nothing may end while A runs: its nr_calls says 1
expect stray-end-inflight 1 "end-ret nr-calls" 'call_end says nr_calls=1, 0 callbacks ran'
expect stray-nested-midtrace 1 "stray-event" \
	'^event 6: .*callback cb_b: rule stray-event: notifier_run .* in a callback, and passes still begin later$'
expect rollback-begin-dropped 0 "" ', 3 passes checked, 0 violations'
expect rollback-begin-dropped-plain 1 "missing-rollback stray-event" \
	'^event 13: .*callback cb_a: rule stray-event: notifier_run \(val 4\)'
expect orphan-nested-same 0 "" ', 1 passes checked, 0 violations' \
	'orphans: 5 events .*\(2 runs, 2 returns, 0 stops, 1 ends\)$'

# --- the rules added ----------------------------------------------------------
expect missing-rollback 1 "missing-rollback" \
	'^event 10: chain test_chain: callback -: rule missing-rollback: robust pass stopped \(ret 0x8002 after 2 callbacks\)'
# the recording may end between a robust pass and its rollback: counted, like open passes
expect missing-rollback-at-end 0 "" \
	', 0 violations \(0 passes open when the trace ends, 1 stopped robust passes awaiting their rollback\)'
expect missing-rollback-nested 1 "missing-rollback" 'the callback it ran in returned'
expect end-ret-stop 1 "end-ret" 'call_end says stopped \(ret 0x8001\)'
expect end-ret-unstopped 1 "end-ret" 'call_end says not stopped \(ret 0x1\)'
expect end-ret-value 1 "end-ret" 'call_end ret 0x1, the last callback \(event 7\) returned 0x0'
expect end-ret-empty 1 "end-ret" 'no callback ran \(NOTIFY_DONE\)'
expect registration-order-apart 1 "registration-order" \
	'^event 11: chain test_chain: callback cb_b: rule registration-order: priority 0: block registered at event 1 ran after the one registered at event 2'
expect registration-order-prio 1 "priority-order registration-order" \
	'callback cb_b: rule registration-order: '
expect rollback-stopped 0 ""
expect rollback-order 1 "priority-order rollback" \
	'callback cb_b: rule rollback: rollback callback 1 is not callback 1'
expect stop-event 1 "stop-event"
expect nr-to-call 1 "nr-to-call"

# --- probes recordings (header source 1): what they cannot know -------------
# a rollback's nr_to_call of -1 is unknown there, a violation in a
# tracepoint recording; the runs of the rollback are judged all the same
expect probes-rollback-unknown 0 "" ', 2 passes checked, 0 violations' \
	'probes recording: nr_to_call unknown'
expect rollback-unknown 1 "rollback" 'rollback pass has nr_to_call=-1'
expect probes-rollback-unknown-long 1 "rollback" 'ran 2 callbacks, .* so want 1'
expect probes-nr-to-call 1 "nr-to-call"
# registrations recorded at the fexit: two tasks' may come out of link order
expect probes-reg-two-tasks 0 "" ', 1 passes checked, 0 violations'
expect reg-two-tasks 1 "registration-order" 'callback cb_c: rule registration-order'
expect probes-reg-one-task 1 "registration-order" 'callback cb_c: rule registration-order'

# report says the mode and counts each chain's passes; a source that no
# writer uses is refused like any corruption (the field is at byte 176)
run "$CS" report -j "$TMP/probes-rollback-unknown.cstrace"
if [ "$rc" = 0 ] && grep -q '"mode":"probes"' <<<"$out" &&
   grep -Eq '"chains":\[\{"chain":"test_chain",[^}]*"kind":"blocking","passes":1,"robust":1,"stopped":1,"rollbacks":1,"callbacks":3\}\]' <<<"$out"; then
	pass probes-report-json
else
	fail probes-report-json "exit $rc: ${out:0:600} ${err:0:200}"
fi
run "$CS" report "$TMP/probes-rollback-unknown.cstrace"
if [ "$rc" = 0 ] && grep -q ', mode probes$' <<<"$out" &&
   grep -q '^NOTE: a probes recording: lock waits of the -c or well-known chains only' <<<"$out" &&
   grep -q '^passes: chain test_chain (blocking) passes=1 robust=1 stopped=1 rollbacks=1 callbacks=3$' <<<"$out"; then
	pass probes-report-text
else
	fail probes-report-text "exit $rc: ${out:0:600} ${err:0:200}"
fi
run "$CS" report -j "$TMP/rollback-unknown.cstrace"
if [ "$rc" = 0 ] && grep -q '"mode":"tracepoints"' <<<"$out"; then
	pass tracepoints-report-mode
else
	fail tracepoints-report-mode "exit $rc: ${out:0:300}"
fi
cp "$TMP/probes-rollback-unknown.cstrace" "$TMP/source2.cstrace"
printf '\002' | dd of="$TMP/source2.cstrace" bs=1 seek=176 conv=notrunc status=none
run "$CS" check "$TMP/source2.cstrace"
if [ "$rc" = 2 ] && grep -q 'corrupted at byte offset 176: event source 2' <<<"$err"; then
	pass source-unknown
else
	fail source-unknown "exit $rc: ${err:0:300}"
fi

# --- loss gaps: pairing rules suspended where events were lost ---------------
expect gap-excused 0 "" \
	'gaps: 3 loss markers \(4 events lost\): 3 passes excused from the pairing rules'
expect gap-any-cpu 0 "" \
	'gaps: 1 loss markers \(2 events lost\): 1 passes excused .*, 3 orphan events put down to gaps' \
	'orphans: 0 events'
expect gap-other-cpu 1 "nr-calls" '0 passes excused'
# a miss's marker comes at the recorder's next poll: passes that ended
# within the window before it are excused, older ones are not
expect gap-missed-late 0 "" '1 passes excused'
expect gap-missed-old 1 "nr-calls" '^event 9: .*rule nr-calls: plain pass of event 4:' '1 passes excused'
# lost on a CPU the trace never shows the pass on (it migrated), marker later
expect gap-migrate 0 "" '1 passes excused from the pairing rules, 1 orphan events put down to gaps'
"$GEN" gap-zero "$TMP/gap-zero.cstrace"
run "$CS" check "$TMP/gap-zero.cstrace"
if [ "$rc" = 2 ] || { [ "$rc" = 1 ] && grep -q 'rule nr-calls: ' <<<"$out"; }; then
	pass gap-zero	# refused by the reader, or excusing nothing
else
	fail gap-zero "exit $rc: ${out:0:400} ${err:0:200}"
fi
# --gap FROM,TO: a stretch nothing in the trace marks (a boot's re-enable of
# trace_event=); gap-missed-old's first pass (0.001004 s, 5 us) has lost a run
run "$CS" check --gap 0.001005,0.001006 "$TMP/gap-missed-old.cstrace"
if [ "$rc" = 0 ] &&
   grep -q 'gaps: 1 loss markers (2 events lost) and 1 given (--gap): 2 passes excused' <<<"$out"; then
	pass gap-given-excuses
else
	fail gap-given-excuses "exit $rc: ${out:0:600} ${err:0:200}"
fi
run "$CS" check --gap 0.3,0.4 --gap 0,0.001003 "$TMP/gap-missed-old.cstrace"
if [ "$rc" = 1 ] && grep -q '^event 9: .*rule nr-calls: plain pass of event 4:' <<<"$out" &&
   grep -q 'and 2 given (--gap): 1 passes excused' <<<"$out"; then
	pass gap-given-elsewhere
else
	fail gap-given-elsewhere "exit $rc: ${out:0:600} ${err:0:200}"
fi
for g in 2,1 1 1, ,1 x,1 1.0000000001,2 0.5,0.6s 18446744074,18446744074 -1,2; do
	expect_exit "gap-bad.$g" 2 "^chainscope check: error: --gap '.*': want FROM,TO, seconds" \
		"$CS" check --gap "$g" "$TMP/gap-missed-old.cstrace"
done
# a gap that meets no record (a typo, another clock) would still excuse
# what is judged at the trace's edges: refused
for g in 1000,1000 0,0.000001; do
	expect_exit "gap-outside.$g" 2 "^chainscope check: error: --gap [0-9.,]+: outside the trace's records \(0\.001000000 to 0\.601018000 s in its clock\)$" \
		"$CS" check --gap "$g" "$TMP/gap-missed-old.cstrace"
done
expect_exit gap-too-many 2 '^chainscope check: error: --gap: at most 16' \
	"$CS" check $(for i in $(seq 17); do printf -- '--gap %d,%d ' "$i" "$i"; done) \
	"$TMP/gap-missed-old.cstrace"

# membership events may have been lost: what was known before is not trusted
expect gap-reregister 0 "" ', 1 passes checked, 0 violations'
expect gap-register 0 "" ', 1 passes checked, 0 violations'

# --- ordering semantics: publication before register, unregister before the grace period
expect publish-window 0 "" ', 3 passes checked, 0 violations'
expect republished 0 "" ', 1 passes checked, 0 violations'
expect republished-midpass 0 "" ', 1 passes checked, 0 violations'
# (tests/gen/gencheck_order.c) the file is in ring-reservation order: a pass
# whose call_begin follows a block's unregister event cannot reach it
expect order-register-midpass 0 "" ', 2 passes checked, 0 violations'
expect order-run-before-register 0 "" ', 1 passes checked, 0 violations'
expect order-unregister-midpass 0 "" ', 1 passes checked, 0 violations'
expect order-unregistered-before-pass 1 "run-after-unregister" \
	'^event 11: chain test_chain: callback cb_e: rule run-after-unregister: ran in the pass of event 4, after its unregister at event 3, and was not registered again$'
expect order-judged-at-enoent 1 "run-after-unregister" \
	'^event 9: chain test_chain: callback cb_c: rule run-after-unregister: ran in the pass of event 4, after its unregister at event 3, and was not registered again$'
expect order-rollback-after-unregister 1 "run-after-unregister" \
	'^event 12: chain test_chain: callback cb_a: rule run-after-unregister: ran in the pass of event 11, after its unregister at event 10, and was not registered again$'
# only a register event settles such a run in a probes recording, whose
# membership records (the API's fexit, after the lock) of two writers may
# come out of order; the tracepoint twin is judged at the -ENOENT
expect order-enoent-then-register 1 "run-after-unregister" \
	'^event 9: chain test_chain: callback cb_c: rule run-after-unregister: ran in the pass of event 4, after its unregister at event 3, and was not registered again$'
expect probes-order-enoent-then-register 0 "" ', 1 passes checked, 0 violations'
# a pass whose call_begin was dropped (recorder stopping) began after the
# run of the callback it nests in, and no sooner: judged from there
expect order-phantom-unregister 0 "" ', 1 passes checked, 0 violations' \
	'orphans: 3 events .*\(1 runs, 1 returns, 0 stops, 1 ends\)$'
expect order-phantom-unregister-before 1 "run-after-unregister" \
	'^event 7: chain nest_chain: callback cb_d: rule run-after-unregister: ran in a pass without call_begin, nested in the callback of event 6, after its unregister at event 4, and was not registered again$'

# --- snapshots (version 3): membership and order from the first event --------
# each +nosnap twin holds the same events without the snapshot records:
# what check judged before snapshots existed
snapline='snapshots: [0-9]+ chains \(0 unstable, [0-9]+ blocks\)'
expect snap-clean 0 "" ', 4 passes checked, 0 violations' "$snapline"
expect snap-order 1 "registration-order" \
	'^event 8: chain test_chain: callback cb_c: rule registration-order: priority 0: block listed by the snapshot at event 1 ran after the one listed by the snapshot at event 2 \(event 6\)$'
expect snap-order+nosnap 0 "" ', 1 passes checked, 0 violations'
expect snap-unlisted-first 1 "run-not-member" \
	"^event 7: chain test_chain: callback cb_e: rule run-not-member: ran in the pass of event 4, but the chain's snapshot \(event 0\) does not list it"
expect snap-unlisted-first+nosnap 0 "" ', 1 passes checked, 0 violations'
expect snap-unlisted-registered 0 "" ', 2 passes checked, 0 violations'
expect snap-register-listed 1 "membership-register registration-order" \
	'rule membership-register: registered, but it is on the chain since event 1 \(the chain.s snapshot lists it\)'
expect snap-register-slack 0 "" ', 2 passes checked, 0 violations'
expect snap-unregister-unlisted 1 "membership-unregister" "snapshot \(event 0\) does not list it"
expect snap-enoent 1 "membership-enoent" 'the chain.s snapshot lists it'
expect snap-eexist 1 "membership-eexist" 'snapshot \(event 0\) does not list the block'
# an unstable walk: C before B and no E, but said as unknown, not violations
expect snap-unstable 0 "" 'snapshots: 1 chains \(1 unstable, 3 blocks\) .*; 2 judgements unknown'
expect snap-before-walk 0 "" ', 1 passes checked, 0 violations'
expect snap-midtrace 1 "run-not-member" '^event 16: .*callback cb_b: rule run-not-member: .*snapshot \(event 11\)'
expect snap-phantom-unlisted 1 "run-not-member" \
	"^event 8: chain test_chain: callback cb_e: rule run-not-member: ran in a pass without call_begin, nested in the callback of event 5, but the chain's snapshot \(event 0\) does not list it and no notifier_register added it$"
expect snap-phantom-unlisted+nosnap 0 "" ', 1 passes checked, 0 violations'
expect snap-only 1 "" 'rule no-events: the trace has no notifier event \(0 loss markers, 5 snapshot records\)'
# a salvaged trace (no end time bounds it) whose snapshot is stamped
# 256 ns short of 2^64: the events after it in the file predate the walk,
# so an -EEXIST of a block it does not list is not judged (the slack
# added to the walk's time must not wrap around)
snapwrap() {
	printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
"$GENTRACE" --unfinished clean-snapshot "$TMP/snapwrap.cstrace"
for i in 0 1 2; do
	snapwrap "$TMP/snapwrap.cstrace" $((256 + i * 96)) '\x00\xff\xff\xff\xff\xff\xff\xff'
done
# record 94 (register -EEXIST of cb_a): a block the snapshot does not list
snapwrap "$TMP/snapwrap.cstrace" $((256 + 94 * 96 + 24)) '\x00\x34\x00\xc0\xff\xff\xff\xff'
snapwrap "$TMP/snapwrap.cstrace" $((256 + 94 * 96 + 32)) '\x00\x50\x00\x00\x80\x88\xff\xff'
run "$CS" check --salvage "$TMP/snapwrap.cstrace"
if [ "$rc" = 0 ] && grep -q ', 0 violations' <<<"$out"; then
	pass snap-ts-wrap
else
	fail snap-ts-wrap "exit $rc: ${out:0:400}"
fi

# --- nothing recorded is not a pass --------------------------------------------
for name in no-events only-loss; do
	"$GEN" "$name" "$TMP/$name.cstrace"
	run "$CS" check "$TMP/$name.cstrace"
	if [ "$rc" = 1 ] && grep -q '^event -: chain -: callback -: rule no-events: the trace has no notifier event' <<<"$out" &&
	   grep -q ', 1 violation ' <<<"$out"; then
		pass "$name"
	else
		fail "$name" "exit $rc: ${out:0:400} ${err:0:200}"
	fi
done

# --- the longest name the reader takes is printed whole -----------------------
long="cb_e_$(printf 'a%.0s' $(seq 1 505))z\\+0xffffffffffffffff"
expect long-name 1 "run-after-stop" "callback $long: rule run-after-stop: "

# --- a symbol name from the trace cannot forge an output line ----------------
"$GEN" forged-name "$TMP/forged.cstrace"
run "$CS" check "$TMP/forged.cstrace"
if [ "$rc" = 2 ] && grep -q 'forged.cstrace: ' <<<"$err"; then
	pass forged-name	# the reader refuses such names
elif [ "$rc" = 1 ] && [ "$(grep -c '^event ' <<<"$out")" = 1 ] &&
     grep -q 'callback cb_e\\x0aevent 0: .*rule run-after-stop' <<<"$out"; then
	pass forged-name
else
	fail forged-name "exit $rc: ${out:0:400} ${err:0:200}"
fi

# --- a path cannot forge an output line ---------------------------------------
bad="$TMP/x
y: 0 violations
.cstrace"
cp "$TMP/missing-rollback.cstrace" "$bad"
run "$CS" check "$bad"
if [ "$rc" = 1 ] && ! grep -q '^y: ' <<<"$out" && ! grep -q '^\.cstrace' <<<"$out" &&
   [ "$(grep -c 'x\\x0ay: 0 violations\\x0a\.cstrace: ' <<<"$out")" = 2 ]; then
	pass path-in-summary
else
	fail path-in-summary "exit $rc: ${out:0:600}"
fi
run "$CS" check "$bad.missing"
if [ "$rc" = 2 ] && [ "$(grep -c '' <<<"$err")" = 1 ] && grep -q 'x\\x0ay: 0 violations' <<<"$err"; then
	pass path-in-error
else
	fail path-in-error "exit $rc: ${err:0:400}"
fi

# --- -q: the violations only -------------------------------------------------
run "$CS" check -q "$TMP/missing-rollback.cstrace"
if [ "$rc" = 1 ] && [ "$(grep -c '' <<<"$out")" = 1 ] && grep -q '^event 10: ' <<<"$out"; then
	pass quiet
else
	fail quiet "exit $rc: ${out:0:400}"
fi

# --- a clean generated trace at scale: many tasks, CPUs interleaved ---------
"$GEN" bench 100000 "$TMP/bench.cstrace"
run "$CS" check "$TMP/bench.cstrace"
if [ "$rc" = 0 ] && grep -Eq ': 1000[0-9]{2} events, [0-9]+ passes checked, 0 violations \(0 passes' <<<"$out" &&
   grep -q 'orphans: 0 events' <<<"$out"; then
	pass bench-clean
else
	fail bench-clean "exit $rc: ${out:0:400} ${err:0:200}"
fi

# --- out of memory is not "violations": exit 8 ---------------------------------
# Lower the address-space limit until the trace cannot even be read (exit
# 2): on the way, check itself runs out (exit 8), never exit 1 or a crash.
oom() { (ulimit -v "$1" && "$CS" check -q "$TMP/bench.cstrace" >/dev/null 2>"$TMP/oomerr"); echo $?; }
kb=131072 seen='' bad=''
while [ "$kb" -gt 4096 ] && [ "$(oom "$kb")" = 0 ]; do kb=$((kb - 4096)); done
for ((kb += 4096; kb > 4096; kb -= 128)); do
	rc=$(oom "$kb")
	case $rc in
	0) ;;
	8) seen+=" $kb"
	   [ "$(grep -c '' "$TMP/oomerr")" = 1 ] && grep -q 'Cannot allocate memory' "$TMP/oomerr" ||
		bad+=" $kb:$(head -c 200 "$TMP/oomerr")" ;;
	2) break ;;
	*) bad+=" $kb:exit$rc" ;;
	esac
done
if [ -n "$seen" ] && [ -z "$bad" ]; then
	pass out-of-memory
else
	fail out-of-memory "exit 8 at:${seen:- none}; wrong:${bad:- none}"
fi

# --- every rule is documented -------------------------------------------------
rules="priority-order registration-order run-after-stop stop-event nr-calls
nr-to-call end-ret begin-without-end missing-rollback rollback
run-after-unregister run-not-member membership-register membership-unregister
membership-eexist membership-enoent stray-event no-events"
help=$("$CS" check --help 2>&1)
missing=''
for r in $rules; do
	grep -Eq "^ +$r " <<<"$help" || missing+=" help:$r"
	grep -q -- "$r" "$HERE/../../record.md" || missing+=" record.md:$r"
done
for w in 'notifier_register fires after the block is published' Orphans Gaps \
	'within 500 ms before its marker' '8 out of memory' 'Snapshots: record walks'; do
	grep -q "$w" <<<"$help" || missing+=" help:'$w'"
done
if [ -z "$missing" ]; then
	pass documented
else
	fail documented "not documented:$missing"
fi

# --- check and report count the same events ---------------------------------------
# Recorded traces with snapshot records: check's "N events" is report's
# "events" (the records but the snapshots'), not every record.
for f in "$HERE"/../data/real-*.cstrace; do
	n=$(basename "$f" .cstrace)
	read -r want snaps < <("$CS" report -j "$f" | python3 -c \
		'import json, sys; r = json.load(sys.stdin); print(r["events"], r.get("snapshot_records", 0))')
	got=$("$CS" check "$f" | sed -n 's/^.*: \([0-9]*\) events, .*/\1/p' | head -n 1)
	if [ -n "$want" ] && [ "$got" = "$want" ]; then
		pass "events-as-report.$n"
	else
		fail "events-as-report.$n" "check says '$got' events, report '$want' ($snaps snapshot records)"
	fi
done

# --- fuzz check end to end -------------------------------------------------------
if fuzz_ready; then
	# the seeds: both generators' scenarios and one large deeply nested
	# trace (1 MB: one task nesting 2700 passes)
	mkdir -p "$TMP/corpus"
	"$GEN" --seeds "$TMP/corpus" && "$GENTRACE" --seeds "$TMP/corpus" &&
		"$GENTRACE" --count 2700 deep-closed "$TMP/corpus/large-deep.cstrace"
	if out=$(bash "$HERE/../fuzz/fuzz_run.sh" check "$FUZZ" "$TMP/corpus"); then
		pass fuzz
	else
		fail fuzz "$out"
	fi
fi

exit $failed
