#!/bin/sh
# chainscope record's chain snapshots (trace version 3) on our kernel:
# cs_loadgen registers its blocks BEFORE record starts, so no register
# event tells check what is on the chain; the snapshot does.
#   1. clean: record + check: 0 violations, the snapshots counted in
#      check's summary, cs_loadgen_blocking's three blocks in call order
#      in report (text and -j), the priority-0 pair judged in the order
#      the walk found them;
#   2. provoked: a block registered before recording, taken off its chain
#      behind the API's back (`forget`, after the chain was walked), then
#      unregistered (-ENOENT): check must find membership-enoent "the
#      chain's snapshot lists it", which no event in the trace could tell.
# Stock: record needs the probes mode there (helper precord's tests).
. /chainscope/tests/cli-common.inc
[ "$CS_VARIANT" = stock ] && skip "record on stock runs in probes mode: covered by cli-agree"
loadgen

B=cs_loadgen_blocking
TR=/out/cli-record-snapshot.cstrace
echo clear > "$CTL"
ctl "add blocking fast prio=10"
ctl "add blocking fast2"
id2=$(cat $LG/last_id)
ctl "add blocking busy delay_us=50"

# --- 1. clean -----------------------------------------------------------------
"$CS" record -o "$TR" -- sh -c "echo 'call blocking 5' > $CTL" > "$W/rec.out" 2> "$W/rec.err"
rc=$?
cat "$W/rec.err" "$W/rec.out"
expect_eq "record exit" "$rc" 0
chains=$(sed -n 's/.*; \([0-9][0-9]*\) chains walked (\([0-9]*\) unstable), \([0-9]*\) snapshot records; mode [a-z]*$/\1/p' "$W/rec.out")
[ -n "$chains" ] || fail "no 'N chains walked' in record's summary"
# the curated heads this kernel has (reboot, module, ...) and cs_loadgen_blocking
expect_ge "chains walked" "$chains" 2

"$CS" check "$TR" > "$TR.check" 2>&1
rc=$?
cat "$TR.check"
cp "$TR.check" /out/cli-record-snapshot.check.txt
expect_eq "check exit (clean)" "$rc" 0
grep -Eq ": snapshots: [0-9]+ chains \([0-9]+ unstable, [0-9]+ blocks\)" "$TR.check" ||
	fail "check's summary has no snapshots line"
passes=$(sed -n 's/.* events, \([0-9]*\) passes checked.*/\1/p' "$TR.check")
expect_ge "passes checked" "$passes" 5

"$CS" report "$TR" > "$W/rep.txt" || fail "report failed"
cp "$W/rep.txt" /out/cli-record-snapshot.report.txt
grep -Eq "^chain: $B \(blocking\) walked at \+[0-9.]+ s: 3 blocks$" "$W/rep.txt" ||
	fail "report lists no 3-block snapshot of $B"
got=$(grep -A3 "^chain: $B (blocking) walked" "$W/rep.txt" | tail -n 3 |
	sed 's/^ *\([0-9]*\)\. \([a-z0-9_]*\) .* priority \(-*[0-9]*\)$/\1 \2 \3/' | tr '\n' ' ')
expect_eq "snapshot of $B in call order" "$got" \
	"1 cs_loadgen_cb_fast 10 2 cs_loadgen_cb_fast2 0 3 cs_loadgen_cb_busy 0 "
"$CS" report -j "$TR" > "$W/rep.json" || fail "report -j failed"
grep -q "\"snapshots\":\[.*{\"chain\":\"$B\",\"chain_addr\":\"0x[0-9a-f]*\",\"chain_module\":\"cs_loadgen\",\"kind\":\"blocking\",\"ts_ns\":[0-9]*,\"stable\":true,\"length\":3," "$W/rep.json" ||
	fail "report -j has no stable snapshot of $B"
echo "ok: $B's membership at start is in the trace and judged from the first pass"

# --- 2. provoked: only the snapshot knows fast2 is on the chain ----------------
if ! grep -q 'forget' /chainscope/modules/cs_loadgen.ko 2>/dev/null; then
	skip "this cs_loadgen has no 'forget' command (the provocation)"
fi
# a register event (fast again, prio -5) makes record walk the chain (not
# a curated head); fast2 goes only once record has walked it: not after a
# fixed 2 s, but once the chain's snapshot is in the file (record writes
# it after the event and flushes every 100 ms; up to 120 s), and 200 ms
# more (the slack below).
# walked.sh FILE HEAD: FILE (a trace being written) holds a snapshot
# record of HEAD (hex address): 96-byte records after a 256-byte header,
# head at byte 16 (little-endian), type at 88, CS_REC_SNAPSHOT = 11
cat > "$W/walked.sh" <<'WALKED'
size=$(wc -c < "$1")
n=$(( (size - 256) / 96 ))
[ "$n" -gt 0 ] || exit 1
od -A n -v -t u1 -j 256 -N $((n * 96)) "$1" | awk -v want="$2" '
	function rec(  k, h) {
		if (b[88] + 256 * b[89] != 11)
			return
		h = ""
		for (k = 23; k >= 16; k--)
			h = h sprintf("%02x", b[k])
		if (h == want)
			found = 1
	}
	{ for (i = 1; i <= NF; i++) { b[m % 96] = $i; m++; if (m % 96 == 0) rec() } }
	END { exit !found }'
WALKED
T=$W/forget.cstrace
BADDR=$(awk -v s=$B '$3 == s { print $1; exit }' /proc/kallsyms)
[ -n "$BADDR" ] || fail "$B not in /proc/kallsyms"
cat > "$W/forget.sh" <<LOAD
C=$CTL
echo "add blocking fast prio=-5" > \$C || exit 1
i=0
until sh $W/walked.sh $T $BADDR; do
	i=\$((i + 1))
	[ \$i -lt 1200 ] || { echo "no snapshot of $B in $T after 120 s" >&2; exit 3; }
	usleep 100000
done
# check leaves membership events within CHK_SNAP_SLACK_NS (50 ms) of a
# walk unjudged; the walk is stamped before its record reaches the file,
# so 200 ms from here puts the -ENOENT past the slack whatever the timing
usleep 200000
echo "forget $id2" > \$C || exit 1
echo "del $id2" > \$C 2>/dev/null && exit 1
echo "call blocking 2" > \$C || exit 1
exit 0
LOAD
"$CS" record -o "$T" -- sh "$W/forget.sh" > "$W/rec2.out" 2> "$W/rec2.err"
rc=$?
cat "$W/rec2.err" "$W/rec2.out"
expect_eq "record (forget) exit" "$rc" 0
grep -q "(command exited 0)" "$W/rec2.out" || fail "the forget load failed"
"$CS" check "$T" > "$T.check" 2>&1
rc=$?
cat "$T.check"
cp "$T.check" /out/cli-record-snapshot.forget-check.txt
cp "$T" /out/cli-record-snapshot-forget.cstrace
expect_eq "check exit on the provoked violation" "$rc" 1
expect_eq "violations" "$(grep -c ' rule ' "$T.check")" 1
grep -q "callback cs_loadgen_cb_fast2: rule membership-enoent: unregister failed with -ENOENT, but the block is on the chain (the chain's snapshot lists it)" \
	"$T.check" || fail "not the membership-enoent violation from the snapshot"
echo "ok: check finds the block taken off its chain behind the API's back, known from the snapshot alone"
cs_cleanup
