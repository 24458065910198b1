#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Host tests of the trace file format's compatibility and salvage rules
# and of record's output-first start-up (userspace/record.md, "File
# format"). One line per case: "PASS: host.tracefile.<case>", "FAIL: ...:
# why" or "SKIP: ...: why". Nothing here reaches bpf(): report and check
# only read files, and record is stopped by its output path or by
# CHAINSCOPE_PROBE_ONLY=1 (as in cli.sh).
#
#   tests/sh/tracefile.sh CHAINSCOPE CS-GENTRACE MKBTF
set -uo pipefail

CS=$(readlink -f "${1:?usage: tracefile.sh CHAINSCOPE CS-GENTRACE MKBTF}")
GEN=$(readlink -f "${2:?}")
MKBTF=$(readlink -f "${3:?}")
DATA=$(dirname "$(readlink -f "$0")")/../data
PREFIX=host.tracefile
# shellcheck source=userspace/tests/sh/lib.sh
. "$(dirname "$(readlink -f "$0")")/lib.sh"
export CHAINSCOPE_PROBE_ONLY=1

# poke FILE OFFSET BYTE-ESCAPES: overwrite bytes in place
poke() {
	printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# count JSON NAME: the "count" of callback NAME in a report -j line
count() {
	grep -o "\"callback\":\"$2\",[^{]*\"count\":[0-9]*" <<<"$1" | sed 's/.*://'
}

# counts JSON: "events cb_a cb_b cb_c cb_d lost missed"
counts() {
	echo "$(grep -o '"events":[0-9]*' <<<"$1" | sed 's/.*://')" \
	     "$(count "$1" cb_a) $(count "$1" cb_b) $(count "$1" cb_c) $(count "$1" cb_d)" \
	     "$(grep -o '"lost":[0-9]*' <<<"$1" | sed 's/.*://')" \
	     "$(grep -o '"missed":[0-9]*' <<<"$1" | sed 's/.*://')"
}

# expect2 NAME PATTERN CMD...: exit 2 and one stderr line matching PATTERN
expect2() {
	local name=$1 pat=$2
	shift 2
	run "$@"
	if [ "$rc" != 2 ]; then
		fail "$name" "exit $rc, want 2: ${err:0:300}"
	elif [ "$nerr" != 1 ]; then
		fail "$name" "$nerr lines on stderr, want 1: ${err:0:300}"
	elif ! grep -Eq -- "$pat" <<<"$err"; then
		fail "$name" "stderr '$err' does not match /$pat/"
	else
		pass "$name"
	fi
}

# the reference: today's writer, the clean scenario
"$GEN" clean "$TMP/clean.cstrace" || fail generate "cs-gentrace clean failed"
run "$CS" report -j "$TMP/clean.cstrace"
ref=$(counts "$out")
if [ "$rc" = 0 ] && [ "$ref" = "110 12 9 7 2 0 0" ]; then
	pass reference
else
	fail reference "exit $rc, counts '$ref' (want '110 12 9 7 2 0 0'): ${err:0:200}"
fi
hdr=$(head -c 20 "$TMP/clean.cstrace" | od -A n -t u4 -j 8 | tr -s ' ')
if [ "$hdr" = " 3 256 96" ]; then
	pass writes-version-3
else
	fail writes-version-3 "version, header size, record size are '$hdr'"
fi

# --- version 1 stays readable ---------------------------------------------------
# tests/data/v1-clean.cstrace was written by the version-1 writer (cs-gentrace
# clean at commit 3d86fca); today's writer must still produce it byte for byte.
V1=$DATA/v1-clean.cstrace
run "$CS" report -j "$V1"
got=$(counts "$out")
if [ "$rc" = 0 ] && [ "$got" = "110 12 9 7 2 0 0" ] &&
   grep -q '"op":"read","count":5,' <<<"$out" && grep -q '"op":"write","count":3,' <<<"$out"; then
	pass v1-fixture-report
else
	fail v1-fixture-report "exit $rc, counts '$got': ${err:0:300}"
fi
run "$CS" check "$V1"
if [ "$rc" = 0 ] && grep -q '^.*: 110 events, .* 0 violations' <<<"$out"; then
	pass v1-fixture-check
else
	fail v1-fixture-check "exit $rc: ${out:0:300} ${err:0:200}"
fi
if "$GEN" --version 1 clean "$TMP/v1.cstrace" && cmp -s "$TMP/v1.cstrace" "$V1"; then
	pass v1-writer-unchanged
else
	fail v1-writer-unchanged "cs-gentrace --version 1 clean differs from $V1"
fi
# version 1's two pad bytes (now reason and __pad) are not looked at
cp "$V1" "$TMP/v1pad.cstrace"
poke "$TMP/v1pad.cstrace" $((256 + 94)) '\x07\x09'
poke "$TMP/v1pad.cstrace" $((256 + 5 * 96 + 94)) '\x02'
run "$CS" report -j "$TMP/v1pad.cstrace"
if [ "$rc" = 0 ] && [ "$(counts "$out")" = "110 12 9 7 2 0 0" ]; then
	pass v1-pad-ignored
else
	fail v1-pad-ignored "exit $rc: ${err:0:300}"
fi
# ... but version 1 has no loss record (type 10, at offset 88 of a record)
cp "$V1" "$TMP/v1loss.cstrace"
poke "$TMP/v1loss.cstrace" $((256 + 2 * 96 + 88)) '\x0a'
expect2 v1-no-loss-record \
	"corrupted at byte offset $((256 + 2 * 96 + 88)): record type 10 .*version 1" \
	"$CS" report "$TMP/v1loss.cstrace"
# version 2 checks them: reason only in a loss record, __pad zero
cp "$TMP/clean.cstrace" "$TMP/reason.cstrace"
poke "$TMP/reason.cstrace" $((256 + 94)) '\x01'
expect2 v2-reason-outside-loss "corrupted at byte offset $((256 + 94)): loss reason 1" \
	"$CS" check "$TMP/reason.cstrace"
cp "$TMP/clean.cstrace" "$TMP/v4.cstrace"
poke "$TMP/v4.cstrace" 8 '\x04'
expect2 future-version "wrong version at byte offset 8: version 4, this chainscope reads versions 1..3" \
	"$CS" report "$TMP/v4.cstrace"

# --- version 2 stays readable ---------------------------------------------------
# tests/data/v2-loss.cstrace was written by the version-2 writer (cs-gentrace
# loss at commit 94a091c); today's writer must still produce it byte for byte.
V2=$DATA/v2-loss.cstrace
run "$CS" report -j "$V2"
if [ "$rc" = 0 ] && [ "$(counts "$out")" = "34 3 3 3  9 3" ]; then
	pass v2-fixture-report
else
	fail v2-fixture-report "exit $rc, counts '$(counts "$out")': ${err:0:300}"
fi
run "$CS" check "$V2"
if [ "$rc" = 0 ] && grep -q ': 34 events, 3 passes checked, 0 violations' <<<"$out" &&
   grep -q 'gaps: 3 loss markers (12 events lost)' <<<"$out"; then
	pass v2-fixture-check
else
	fail v2-fixture-check "exit $rc: ${out:0:300} ${err:0:200}"
fi
if "$GEN" --version 2 loss "$TMP/v2.cstrace" && cmp -s "$TMP/v2.cstrace" "$V2"; then
	pass v2-writer-unchanged
else
	fail v2-writer-unchanged "cs-gentrace --version 2 loss differs from $V2"
fi
# ... but version 2 has no snapshot record (type 11, at offset 88 of a record)
cp "$V2" "$TMP/v2snap.cstrace"
poke "$TMP/v2snap.cstrace" $((256 + 2 * 96 + 88)) '\x0b'
expect2 v2-no-snapshot-record \
	"corrupted at byte offset $((256 + 2 * 96 + 88)): record type 11 .*version 2" \
	"$CS" check "$TMP/v2snap.cstrace"
if ! "$GEN" --version 2 clean-snapshot "$TMP/v2s.cstrace" 2>/dev/null; then
	pass v2-writer-refuses-snapshot
else
	fail v2-writer-refuses-snapshot "cs-gentrace wrote snapshot records into a version-2 file"
fi

# --- snapshot records (version 3): each refused with its byte offset ---------
# bad-snap-*: tests/gen/gentrace.c; record i starts at 256 + 96 * i
snapbad() {
	"$GEN" "$1" "$TMP/$1.cstrace" || { fail "$1" "generator failed"; return; }
	expect2 "$1" "$2" "$CS" check "$TMP/$1.cstrace"
}
snapbad bad-snap-order "corrupted at byte offset $((256 + 96 + 80)): snapshot of head 0xffffffffc0001000: position 2 where position 1 is due \(out of order\)$"
snapbad bad-snap-length "corrupted at byte offset $((256 + 96 + 84)): snapshot of head 0xffffffffc0001000, position 1: its length disagrees with position 0's$"
snapbad bad-snap-dup "corrupted at byte offset $((256 + 2 * 96 + 32)): snapshot of head 0xffffffffc0001000 lists block 0xffff888000002000 twice \(positions 1 and 2\)$"
snapbad bad-snap-head "corrupted at byte offset $((256 + 5 * 96 + 16)): head 0xffffffffc0002000 has a snapshot already \(byte offset $((256 + 3 * 96))\)$"
snapbad bad-snap-cut "corrupted at byte offset $((256 + 2 * 96 + 88)): snapshot of head 0xffffffffc0001000 \(from byte offset 256\) cut short: position 2 of 3 is due, this is lock_wait$"
snapbad bad-snap-prio "corrupted at byte offset $((256 + 96 + 72)): snapshot of head 0xffffffffc0001000, position 1: priority 10 after priority 0"
snapbad bad-snap-state "corrupted at byte offset $((256 + 76)): snapshot state 2 \(0 stable, 1 unstable\)$"
snapbad bad-snap-end "corrupted at byte offset $((256 + 16 * 96)): snapshot of head 0xffffffffc0002000 \(from byte offset $((256 + 15 * 96))\) cut short: the records end at position 1 of 2$"
# a field only events have, in a snapshot record (pid, at 64)
"$GEN" clean-snapshot "$TMP/snapfield.cstrace"
poke "$TMP/snapfield.cstrace" $((256 + 64)) '\x01'
expect2 snap-event-field "corrupted at byte offset $((256 + 64)): snapshot record with a field set that only events have" \
	"$CS" report "$TMP/snapfield.cstrace"
# a snapshot walked before the recording started (record walks after
# cs_trace_begin()): record 4 is the empty chain's, its ts at 0
"$GEN" clean-snapshot "$TMP/snapearly.cstrace"
poke "$TMP/snapearly.cstrace" $((256 + 4 * 96)) '\x00\x00\x00\x00\x00\x00\x00\x00'
expect2 snap-before-start "corrupted at byte offset $((256 + 4 * 96)): snapshot of head 0xffffffffc0002100 walked at 0 ns, before the recording started \(999500 ns\)$" \
	"$CS" check "$TMP/snapearly.cstrace"
# ... or after it ended: record takes the trailer's end time after its
# last walk (the empty chain's record 4, its ts at 2^64-1)
"$GEN" clean-snapshot "$TMP/snaplate.cstrace"
poke "$TMP/snaplate.cstrace" $((256 + 4 * 96)) '\xff\xff\xff\xff\xff\xff\xff\xff'
expect2 snap-after-end "corrupted at byte offset $((256 + 4 * 96)): snapshot of head 0xffffffffc0002100 walked at 18446744073709551615 ns, after the recording ended \([0-9]+ ns\)$" \
	"$CS" check "$TMP/snaplate.cstrace"
# a probes recording (header source 1) has lock waits from
# lock:contention_*, contended ones only: a 0-ns wait there (`clean` is a
# tracepoints recording of our core's notifier_lock_wait, with uncontended
# acquisitions as 0 ns) is refused, named with its offset; with every
# wait made 1 ns or more the same recording reads
"$GEN" clean "$TMP/probeslock.cstrace"
poke "$TMP/probeslock.cstrace" 176 '\x01'
run "$CS" report "$TMP/probeslock.cstrace"
# record 0 is a lock wait of 0 ns: its duration_ns at 256 + 56
if [ "$rc" = 2 ] && grep -Eq 'corrupted at byte offset 312: a lock wait of 0 ns in a probes recording \(its lock waits are contended acquisitions\)$' <<<"$err" &&
   [ "$(wc -l <<<"$err")" = 1 ]; then
	pass probes-lock-wait-0ns-refused
else
	fail probes-lock-wait-0ns-refused "exit $rc: ${err:0:300}"
fi
nrec=$(( ($(stat -c %s "$TMP/probeslock.cstrace") - 256) / 96 ))	# (up to the trailer)
i=0
while [ $i -lt "$nrec" ]; do
	off=$((256 + i * 96))
	[ "$(dd if="$TMP/probeslock.cstrace" bs=1 skip=$off count=7 status=none | tr -d '\000')" = CSTRAIL ] && break
	# type (u16 at 88) 9 = lock wait, duration_ns (u64 at 56) 0: make it 1
	if [ "$(od -An -tu2 -j $((off + 88)) -N2 "$TMP/probeslock.cstrace" | tr -d ' ')" = 9 ] &&
	   [ "$(od -An -tu8 -j $((off + 56)) -N8 "$TMP/probeslock.cstrace" | tr -d ' ')" = 0 ]; then
		poke "$TMP/probeslock.cstrace" $((off + 56)) '\x01'
	fi
	i=$((i + 1))
done
run "$CS" report "$TMP/probeslock.cstrace"
if [ "$rc" = 0 ] && grep -q '^chain: test_chain .*op: read' <<<"$out"; then
	pass probes-lock-wait-contended-read
else
	fail probes-lock-wait-contended-read "exit $rc: ${err:0:300} ${out:0:300}"
fi
# salvage: a snapshot cut short by the recorder's death is dropped whole
"$GEN" --unfinished bad-snap-end "$TMP/snapcut.cstrace"
run "$CS" check --salvage "$TMP/snapcut.cstrace"
if [ "$rc" = 0 ] && grep -q 'salvaged 15 whole records; dropped 96 bytes from byte offset 1696;' <<<"$err" &&
   grep -q ': 15 events, 1 passes checked, 0 violations' <<<"$out"; then
	pass salvage-drops-cut-snapshot
else
	fail salvage-drops-cut-snapshot "exit $rc: ${out:0:300} ${err:0:300}"
fi
# the clean trace with snapshots: same callbacks as with register events
"$GEN" clean-snapshot "$TMP/cs.cstrace"
run "$CS" report -j "$TMP/cs.cstrace"
if [ "$rc" = 0 ] && [ "$(count "$out" cb_a) $(count "$out" cb_b) $(count "$out" cb_c) $(count "$out" cb_d)" = "12 9 7 2" ]; then
	pass snapshot-report-counts
else
	fail snapshot-report-counts "exit $rc: ${out:0:300} ${err:0:200}"
fi

# --- a newer writer's larger records: read at their stride, tail ignored ----------
"$GEN" --record-size 136 clean "$TMP/wide.cstrace"
# what a newer writer would put in the tail: not zero
for i in 0 1 50 109; do
	poke "$TMP/wide.cstrace" $((256 + i * 136 + 96)) '\xde\xad\xbe\xef\x01\x02\x03\x04'
done
run "$CS" report -j "$TMP/wide.cstrace"
wide_json=$out
"$CS" report -j "$TMP/clean.cstrace" > "$TMP/clean.json"
if [ "$rc" = 0 ] && [ "$(counts "$out")" = "$ref" ] &&
   diff <(sed 's/"file":"[^"]*",//' "$TMP/clean.json") \
	<(sed 's/"file":"[^"]*",//' <<<"$wide_json") >/dev/null; then
	pass wider-records-report
else
	fail wider-records-report "exit $rc, counts '$(counts "$out")': ${err:0:300}"
fi
run "$CS" check "$TMP/wide.cstrace"
if [ "$rc" = 0 ] && grep -q ': 110 events, .* 0 violations' <<<"$out"; then
	pass wider-records-check
else
	fail wider-records-check "exit $rc: ${out:0:300} ${err:0:200}"
fi
cp "$TMP/clean.cstrace" "$TMP/narrow.cstrace"
poke "$TMP/narrow.cstrace" 16 '\x5f'
expect2 narrower-records "corrupted at byte offset 16: record size 95, want at least 96" \
	"$CS" report "$TMP/narrow.cstrace"

# --- the trailer's end time ---------------------------------------------------------
"$GEN" --end-ns 1 clean "$TMP/end.cstrace"
# trailer at 256 + 110 * 96; end_ns at offset 40 in it
expect2 end-before-start \
	"corrupted at byte offset $((256 + 110 * 96 + 40)): recording ends \(1 ns\) before it starts" \
	"$CS" check "$TMP/end.cstrace"

# --- in-stream loss records ------------------------------------------------------------
"$GEN" loss "$TMP/loss.cstrace"
run "$CS" report -j "$TMP/loss.cstrace"
if [ "$rc" = 0 ] && [ "$(counts "$out")" = "34 3 3 3  9 3" ]; then
	pass loss-records
else
	fail loss-records "exit $rc, counts '$(counts "$out")': ${err:0:300}"
fi
# a loss record's reason is 0..2
cp "$TMP/loss.cstrace" "$TMP/badreason.cstrace"
# the ring-full loss record is record 15 (7 registrations and lock waits, a pass of 8)
poke "$TMP/badreason.cstrace" $((256 + 15 * 96 + 94)) '\x03'
expect2 loss-reason-range "corrupted at byte offset $((256 + 15 * 96 + 94)): loss reason 3" \
	"$CS" report "$TMP/badreason.cstrace"

# a loss record is what the recorder writes: n >= 1, only ts/cpu/val/type/reason
# set, ring-full and NMI on a real CPU, recursion misses on CPU_ANY (0xffffffff).
# Records 15 (ring-full, CPU 0, 7), 24 (NMI, CPU 1, 2), 25 (missed, CPU_ANY, 3).
R15=$((256 + 15 * 96)) R24=$((256 + 24 * 96)) R25=$((256 + 25 * 96))
TR=$((256 + 34 * 96))	# the trailer: lost at +24, missed at +32
cp "$TMP/loss.cstrace" "$TMP/loss0.cstrace"
poke "$TMP/loss0.cstrace" $((R15 + 40)) '\x00'
expect2 loss-zero "corrupted at byte offset $((R15 + 40)): loss record of 0 events" \
	"$CS" check "$TMP/loss0.cstrace"
for f in 8:task 16:head 24:cb 32:nb 48:lock 56:duration 64:pid 72:priority \
	 76:ret 80:nr_calls 84:nr_to_call 90:kind 91:call_type 92:lock_op 93:ctx; do
	cp "$TMP/loss.cstrace" "$TMP/lossf.cstrace"
	poke "$TMP/lossf.cstrace" $((R24 + ${f%%:*})) '\x01'
	expect2 "loss-field-${f#*:}" \
		"corrupted at byte offset $((R24 + ${f%%:*})): loss record with a field set" \
		"$CS" report "$TMP/lossf.cstrace"
done
cp "$TMP/loss.cstrace" "$TMP/lossmc.cstrace"
poke "$TMP/lossmc.cstrace" $((R25 + 68)) '\x02\x00\x00\x00'
expect2 loss-missed-on-cpu "corrupted at byte offset $((R25 + 68)): missed loss record on a CPU" \
	"$CS" check "$TMP/lossmc.cstrace"
cp "$TMP/loss.cstrace" "$TMP/lossra.cstrace"
poke "$TMP/lossra.cstrace" $((R15 + 68)) '\xff\xff\xff\xff'
expect2 loss-ring-full-on-any "corrupted at byte offset $((R15 + 68)): ring-full loss record on no CPU" \
	"$CS" check "$TMP/lossra.cstrace"

# the loss records add up to the trailer's totals (record writes a record for
# every pending count at the end), without wrapping
cp "$TMP/loss.cstrace" "$TMP/losstl.cstrace"
poke "$TMP/losstl.cstrace" $((TR + 24)) '\x08'
expect2 loss-sum-lost "corrupted at byte offset $((TR + 24)): trailer counts 8 lost events, the ring-full and NMI loss records add up to 9" \
	"$CS" report "$TMP/losstl.cstrace"
cp "$TMP/loss.cstrace" "$TMP/losstm.cstrace"
poke "$TMP/losstm.cstrace" $((TR + 32)) '\x00'
expect2 loss-sum-missed "corrupted at byte offset $((TR + 32)): trailer counts 0 missed events, the recursion-miss loss records add up to 3" \
	"$CS" check "$TMP/losstm.cstrace"
# 2^64-1 + 2 lost: wraps to 1; the trailer says 1
cp "$TMP/loss.cstrace" "$TMP/losswrap.cstrace"
poke "$TMP/losswrap.cstrace" $((R15 + 40)) '\xff\xff\xff\xff\xff\xff\xff\xff'
poke "$TMP/losswrap.cstrace" $((TR + 24)) '\x01'
expect2 loss-sum-overflow "corrupted at byte offset $((R24 + 40)): loss records add up to more than 2\^64-1 lost" \
	"$CS" check "$TMP/losswrap.cstrace"
"$GEN" --unfinished loss "$TMP/losswrapcut.cstrace"
poke "$TMP/losswrapcut.cstrace" $((R15 + 40)) '\xff\xff\xff\xff\xff\xff\xff\xff'
expect2 salvage-loss-sum-overflow "corrupted at byte offset $((R24 + 40)): loss records add up to more than 2\^64-1 lost" \
	"$CS" report --salvage "$TMP/losswrapcut.cstrace"

# --- salvage: a recording cut short ----------------------------------------------------
# salvage NAME FILE WANT-COUNTS DROPPED: strict refuses, --salvage reads
salvage() {
	local name=$1 f=$2 want=$3 dropped=$4
	run "$CS" report -j "$f"
	if [ "$rc" != 2 ] || ! grep -q 'truncated\|corrupted' <<<"$err"; then
		fail "salvage-$name" "without --salvage: exit $rc (want 2): ${err:0:200}"
		return
	fi
	run "$CS" report -j --salvage "$f"
	if [ "$rc" != 0 ]; then
		fail "salvage-$name" "report --salvage: exit $rc: ${err:0:300}"
	elif [ "$(counts "$out")" != "$want" ]; then
		fail "salvage-$name" "counts '$(counts "$out")', want '$want'"
	elif [ "$nerr" != 1 ] || ! grep -Eq "salvaged [0-9]+ whole records; dropped $dropped bytes .*symbols and loss totals are unavailable" <<<"$err"; then
		fail "salvage-$name" "notice: '$err'"
	else
		run "$CS" check --salvage "$f"
		# (check may add its own warning about the losses)
		if [ "$rc" = 0 ] && grep -q "salvaged .* dropped $dropped bytes" <<<"$err" &&
		   grep -q ' 0 violations' <<<"$out"; then
			pass "salvage-$name"
		else
			fail "salvage-$name" "check --salvage: exit $rc: ${out:0:200} ${err:0:300}"
		fi
	fi
}
# (no trailer: no symbols, so callbacks show as addresses)
"$GEN" --unfinished clean "$TMP/killed.cstrace"
salvage killed "$TMP/killed.cstrace" "110     0 0" 0
"$GEN" --partial 61 clean "$TMP/partial.cstrace"
salvage partial-record "$TMP/partial.cstrace" "110     0 0" 61
# the recorder died while writing the trailer
head -c $((256 + 110 * 96 + 30)) "$TMP/clean.cstrace" > "$TMP/midtrailer.cstrace"
salvage mid-trailer "$TMP/midtrailer.cstrace" "110     0 0" 30
# cut short at any byte of the records: every whole one is kept
head -c $((256 + 40 * 96 + 17)) "$TMP/clean.cstrace" > "$TMP/cut40.cstrace"
run "$CS" check --salvage "$TMP/cut40.cstrace"
if [ "$rc" != 2 ] && grep -q '^.*: 40 events' <<<"$out" && grep -q 'salvaged 40 whole records; dropped 17 bytes from byte offset 4096' <<<"$err"; then
	pass salvage-cut-records
else
	fail salvage-cut-records "exit $rc: ${out:0:200} ${err:0:300}"
fi
# wider records and loss records: lost/missed summed from the loss records
"$GEN" --record-size 136 --partial 100 loss "$TMP/wideloss.cstrace"
salvage wide-loss "$TMP/wideloss.cstrace" "34     9 3" 100
# a complete file reads as usual, without a notice
run "$CS" report -j --salvage "$TMP/clean.cstrace"
if [ "$rc" = 0 ] && [ "$nerr" = 0 ] && [ "$(counts "$out")" = "$ref" ] &&
   grep -q '"callback":"cb_a"' <<<"$out"; then
	pass salvage-complete-file
else
	fail salvage-complete-file "exit $rc, counts '$(counts "$out")': ${err:0:300}"
fi
# corruption is not a cut: still refused, with its offset
cp "$TMP/killed.cstrace" "$TMP/killedbad.cstrace"
poke "$TMP/killedbad.cstrace" $((256 + 3 * 96 + 88)) '\x63'
expect2 salvage-keeps-corruption "corrupted at byte offset $((256 + 3 * 96 + 88)): record type 99" \
	"$CS" check --salvage "$TMP/killedbad.cstrace"
expect2 salvage-bad-header "wrong magic at byte offset 0" \
	"$CS" report --salvage "$DATA/../sh/tracefile.sh"
# a file that ends in a valid end marker finished: what is wrong with it is an
# error with --salvage too, not a cut to read around
expect2 salvage-finished-end-before-start \
	"corrupted at byte offset $((256 + 110 * 96 + 40)): recording ends \(1 ns\) before it starts" \
	"$CS" report --salvage "$TMP/end.cstrace"
cp "$TMP/clean.cstrace" "$TMP/nrrec.cstrace"
poke "$TMP/nrrec.cstrace" $((256 + 110 * 96 + 16)) '\x01'
expect2 salvage-finished-bad-count \
	"corrupted at byte offset $((256 + 110 * 96 + 16)): trailer counts 1 records, the file holds 110" \
	"$CS" check --salvage "$TMP/nrrec.cstrace"
# ... and its totals are not added to the loss records' (bad symbol: the
# strict reader fails after it read the trailer)
cp "$TMP/loss.cstrace" "$TMP/losssym.cstrace"
symstr=$(grep -abo 'cb_a' "$TMP/losssym.cstrace" | tail -n 1 | cut -d: -f1)
poke "$TMP/losssym.cstrace" "$symstr" '\n'
run "$CS" report -j --salvage "$TMP/losssym.cstrace"
if [ "$rc" = 2 ] && [ "$nerr" = 1 ] &&
   grep -q "corrupted at byte offset $symstr: symbol name .* (byte 0x0a)" <<<"$err"; then
	pass salvage-finished-no-double-count
else
	fail salvage-finished-no-double-count "exit $rc, counts '$(counts "$out")': ${err:0:300}"
fi

# a path is shown escaped in the salvage notice: it cannot forge a line
NL=$'\n'
cp "$TMP/killed.cstrace" "$TMP/cut${NL}y: 0 violations.cstrace"
run "$CS" report --salvage "$TMP/cut${NL}y: 0 violations.cstrace"
if [ "$rc" = 0 ] && [ "$nerr" = 1 ] &&
   grep -q 'cut\\x0ay: 0 violations.cstrace: salvaged 110 whole records' <<<"$err"; then
	pass salvage-notice-path-escaped
else
	fail salvage-notice-path-escaped "exit $rc: $(printf '%q' "$err")"
fi

# --- the writer writes nothing its reader refuses --------------------------------------
# (record leaves such a symbol out and says so; cs_trace_finish() refuses it)
run "$GEN" --symbol "cb_x${NL}!id" clean "$TMP/badsym.cstrace"
if [ "$rc" != 0 ] && grep -q 'Invalid argument' <<<"$err"; then
	pass writer-refuses-bad-symbol
else
	run "$CS" report "$TMP/badsym.cstrace"
	fail writer-refuses-bad-symbol "cs-gentrace wrote it; report: exit $rc ${err:0:200}"
fi
long=$(printf 'x%.0s' $(seq 512))
run "$GEN" --symbol "$long" clean "$TMP/longsym.cstrace"
if [ "$rc" != 0 ]; then
	pass writer-refuses-long-symbol
else
	run "$CS" report "$TMP/longsym.cstrace"
	fail writer-refuses-long-symbol "cs-gentrace wrote it; report: exit $rc ${err:0:200}"
fi
run "$GEN" --symbol "cb_x.cold+0x1f" clean "$TMP/oksym.cstrace"
if [ "$rc" = 0 ] && "$CS" report "$TMP/oksym.cstrace" >/dev/null 2>&1; then
	pass writer-takes-kernel-symbol
else
	fail writer-takes-kernel-symbol "exit $rc: ${err:0:200}"
fi

# --- record: the output path before anything else ---------------------------------------
# a path that cannot be created: exit 6 and one line, before the root check,
# the BTF probe and any bpf() (strace proves the last if it is installed)
expect_exit record-bad-output 6 "record: error: cannot create $TMP/no/such/dir/x.cstrace: No such file or directory" \
	"$CS" record -o "$TMP/no/such/dir/x.cstrace" -d 1
expect_exit record-output-is-dir 6 "cannot create $TMP: Is a directory" "$CS" record -o "$TMP" -d 1
# a path with a newline: one line, escaped
expect_exit record-output-path-escaped 6 "cannot create $TMP/no\\\\x0asuch/x: No such file" \
	"$CS" record -o "$TMP/no${NL}such/x" -d 1
# not a regular file: refused at once, without blocking in open() on a FIFO
# that has no reader (timeout only ends a hang; it times nothing)
mkfifo "$TMP/fifo"
expect_exit record-output-fifo 6 "cannot create $TMP/fifo: not a regular file" \
	timeout 60 "$CS" record -o "$TMP/fifo" -d 1
exec 3<>"$TMP/fifo"	# now with a reader: open() would succeed
expect_exit record-output-fifo-reader 6 "cannot create $TMP/fifo: not a regular file" \
	timeout 60 "$CS" record -o "$TMP/fifo" -d 1
exec 3>&-
expect_exit record-output-device 6 "cannot create /dev/null: not a regular file" \
	"$CS" record -o /dev/null -d 1
if command -v strace >/dev/null; then
	strace -f -qq -e trace=bpf -o "$TMP/strace.log" \
		"$CS" record -o "$TMP/no/such/dir/x.cstrace" -d 1 >/dev/null 2>&1
	rc=$?
	if [ "$rc" = 6 ] && ! grep -q 'bpf(' "$TMP/strace.log"; then
		pass record-bad-output-no-bpf
	else
		fail record-bad-output-no-bpf "exit $rc; $(grep 'bpf(' "$TMP/strace.log" | head -n 2)"
	fi
else
	skip record-bad-output-no-bpf "strace not installed"
fi
# a file that exists is not touched until recording begins
echo keep > "$TMP/existing"
run "$CS" record -o "$TMP/existing" -d 1
if [ "$(cat "$TMP/existing")" = keep ] && [ "$rc" != 6 ]; then
	pass record-existing-untouched
else
	fail record-existing-untouched "exit $rc; now '$(head -c 40 "$TMP/existing")'"
fi
# and one created for a run that stops before recording is removed again
run "$CS" record -o "$TMP/new.cstrace" -d 1
if [ ! -e "$TMP/new.cstrace" ] && [ "$rc" != 6 ]; then
	pass record-no-leftover
else
	fail record-no-leftover "exit $rc; $(ls -l "$TMP/new.cstrace" 2>&1)"
fi

# --- record needs the kernel's per-CPU preempt count (execution contexts) -------------------
# Synthetic BTF with record's eight tracepoints, with and without a preempt count
# (__preempt_count, or pcpu_hot's member) and this_cpu_off.
TPS="notifier_register:5 notifier_unregister:5 notifier_register_error:6
     notifier_unregister_error:6 notifier_run:7 notifier_return:7
     notifier_call_begin:7 notifier_call_end:7"
if [ "$(id -u)" != 0 ]; then
	skip record-needs-preempt-count "not root: the privilege probe comes first"
elif ! "$MKBTF" "$TMP/rec.btf" $TPS var:__preempt_count var:this_cpu_off ||
     ! "$MKBTF" "$TMP/rechot.btf" $TPS var:pcpu_hot.preempt_count var:this_cpu_off ||
     ! "$MKBTF" "$TMP/rechotnm.btf" $TPS var:pcpu_hot.cpu_number var:this_cpu_off ||
     ! "$MKBTF" "$TMP/recnoctx.btf" $TPS; then
	fail record-needs-preempt-count "mkbtf failed"
else
	printf 'ffffffff81000000 T _stext\n' > "$TMP/kallsyms"
	expect_exit record-needs-preempt-count 7 \
		"record needs the kernel's per-CPU preempt count" \
		env CHAINSCOPE_BTF="$TMP/recnoctx.btf" CHAINSCOPE_KALLSYMS="$TMP/kallsyms" \
		"$CS" record -o "$TMP/ctx.cstrace" -d 1
	[ -e "$TMP/ctx.cstrace" ] && fail record-needs-preempt-count-no-file "left $TMP/ctx.cstrace"
	expect_exit record-with-preempt-count 0 "start-up probes passed" \
		env CHAINSCOPE_BTF="$TMP/rec.btf" CHAINSCOPE_KALLSYMS="$TMP/kallsyms" \
		"$CS" record -o "$TMP/ctx.cstrace" -d 1
	# 6.2+ (6.12): the preempt count is a member of the per-CPU pcpu_hot
	expect_exit record-with-pcpu-hot 0 "start-up probes passed" \
		env CHAINSCOPE_BTF="$TMP/rechot.btf" CHAINSCOPE_KALLSYMS="$TMP/kallsyms" \
		"$CS" record -o "$TMP/ctx.cstrace" -d 1
	# a pcpu_hot without a preempt_count member locates nothing
	expect_exit record-pcpu-hot-without-member 7 \
		"record needs the kernel's per-CPU preempt count" \
		env CHAINSCOPE_BTF="$TMP/rechotnm.btf" CHAINSCOPE_KALLSYMS="$TMP/kallsyms" \
		"$CS" record -o "$TMP/ctx.cstrace" -d 1
fi

exit $failed
