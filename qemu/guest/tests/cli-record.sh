#!/bin/sh
# chainscope record / check / report in the guest: record a cs_loadgen
# run with a known order, a stop, and a robust call that rolls back,
# then `chainscope check` must pass and `chainscope report -j` must show
# the callbacks with the counts the load implies. Also the -d and Ctrl-C
# endings, the in-stream loss records (none in a clean run; where the
# events went when a 1 MiB ring overflows), a recorder killed with
# SIGKILL (report/check --salvage) and a bad output path (exit 6 first).
# The recording and its report go to /out (back on the host).
. /chainscope/tests/cli-common.inc
stock_expect_exit5 record -o "$W/stock.cstrace" -d 1
loadgen

# losses TRACE NR: the CS_REC_LOSS records (type 10) of a trace of NR
# records, one line "loss INDEX CPU REASON VAL" each, then "last INDEX" of
# the last other record, then "sum RING-FULL NMI MISSED". Read with od
# from the file itself (bpf/record.h: 96-byte records after a 256-byte
# header; type at 88, cpu at 68, val at 40, reason at 94).
losses() {
	od -A n -v -t u1 -j 256 -N $(($2 * 96)) "$1" | awk '
		function rec(idx,  t, v, k, cpu) {
			t = b[88] + 256 * b[89]
			if (t != 10) { last = idx; return }
			v = 0
			for (k = 7; k >= 0; k--)
				v = v * 256 + b[40 + k]
			cpu = b[68] + 256 * (b[69] + 256 * (b[70] + 256 * b[71]))
			print "loss", idx, cpu, b[94], v
			sum[b[94]] += v
		}
		{ for (i = 1; i <= NF; i++) { b[n % 96] = $i; n++; if (n % 96 == 0) rec(n / 96 - 1) } }
		END { print "last", last + 0; print "sum", sum[0] + 0, sum[1] + 0, sum[2] + 0 }'
}

# summary_num OUT WHAT: the number before WHAT in record's summary line
summary_num() {
	sed -n "s/.* \([0-9][0-9]*\) $2.*/\1/p" "$1" | head -n 1
}

# loss_matches TRACE OUT WHAT: the loss records add up to record's totals
loss_matches() {
	nev=$(sed -n 's/^recorded \([0-9]*\) events.*/\1/p' "$2")
	l_ring=$(sed -n 's/.*lost \([0-9]*\) (ring buffer full).*/\1/p' "$2")
	l_nmi=$(summary_num "$2" "lost in NMI")
	l_miss=$(sed -n 's/.*missed \([0-9]*\) (BPF recursion.*/\1/p' "$2")
	l_recs=$(summary_num "$2" "loss records")
	l_snap=$(summary_num "$2" "snapshot records")
	[ -n "$nev" ] && [ -n "$l_ring" ] && [ -n "$l_nmi" ] && [ -n "$l_miss" ] &&
	[ -n "$l_recs" ] && [ -n "$l_snap" ] ||
		fail "$3: no event/lost/NMI/missed/loss-record/snapshot numbers in: $(cat "$2")"
	# the file holds the events, the loss records and the chain snapshots
	losses "$1" $((nev + l_recs + l_snap)) > "$1.losses" || fail "$3: od/awk on the trace failed"
	expect_eq "$3: loss records in the file" "$(grep -c '^loss ' "$1.losses")" "$l_recs"
	expect_eq "$3: loss records add up to lost, NMI, missed" \
		"$(grep '^sum ' "$1.losses")" "sum $l_ring $l_nmi $l_miss"
}

# The load runs as record's COMMAND, so registrations are in the trace.
cat > "$W/load.sh" <<LOAD
set -e
C=$CTL
echo "add blocking fast prio=10" > \$C
echo "add blocking fast2" > \$C
id_fast2=\$(cat $LG/last_id)
echo "add blocking busy delay_us=100" > \$C
echo "call blocking 20 val=1" > \$C
echo "add raw fast prio=5" > \$C
echo "add raw veto" > \$C
echo "add raw fast2 prio=-1" > \$C
echo "call raw 10" > \$C
echo "robust raw 5 val_up=1 val_down=2" > \$C
echo "robust blocking 5" > \$C
echo "del \$id_fast2" > \$C
echo "call blocking 5" > \$C
LOAD

REC=/out/cli-record.cstrace
"$CS" record -o "$REC" -- sh "$W/load.sh" > "$W/rec.out" 2> "$W/rec.err"
rc=$?
cat "$W/rec.err" "$W/rec.out"
expect_eq "record exit" "$rc" 0
grep -q "^recorded [0-9]* events into $REC (command exited 0); lost 0" "$W/rec.out" ||
	fail "record summary line missing or events lost: $(cat "$W/rec.out")"
echo "ok: $(ls -l "$REC")"

check_trace "$REC" "$W/rec.out" main
# a run without loss has no loss record; one with missed events has
# exactly the records for them
loss_matches "$REC" "$W/rec.out" main
if [ "$l_ring$l_nmi$l_miss" = 000 ]; then
	expect_eq "clean run: loss records" "$l_recs" 0
	grep -q WARNING "$W/rec.out" && fail "clean run: a WARNING line"
fi
cp "$REC.check" /out/cli-record.check.txt
passes=$(sed -n 's/.* events, \([0-9]*\) passes checked.*/\1/p' "$REC.check")
# 20 + 10 + 5 robust + 5 rollbacks + 5 robust + 5, at least
expect_ge "passes checked" "$passes" 50

"$CS" report -j "$REC" > /out/cli-record.json 2> "$W/rep.err"
rc=$?
cat "$W/rep.err"
expect_eq "report -j exit" "$rc" 0
"$CS" report "$REC" > /out/cli-record.report.txt || fail "report (text) failed"

# obj CHAIN CALLBACK: the callbacks[] element for that pair (not the
# chain snapshots after it, which name callbacks too)
obj() {
	awk -v ch="\"$1\"" -v cb="\"callback\":\"$2\"" '{
		sub(/,"snapshots":\[.*/, "")
		n = split($0, parts, /\{"chain":/)
		for (i = 2; i <= n; i++)
			if (index(parts[i], ch) == 1 && index(parts[i], cb)) { print parts[i]; exit }
	}' /out/cli-record.json
}
num() {
	echo "$2" | grep -o "\"$1\":[0-9]*" | head -n 1 | cut -d: -f2
}
b=cs_loadgen_blocking
r=cs_loadgen_raw
expect_eq "blocking fast count" "$(num count "$(obj $b cs_loadgen_cb_fast)")" 30
expect_eq "blocking fast2 count (deleted before the last 5)" \
	"$(num count "$(obj $b cs_loadgen_cb_fast2)")" 25
expect_eq "blocking busy count" "$(num count "$(obj $b cs_loadgen_cb_busy)")" 30
o=$(obj $b cs_loadgen_cb_busy)
[ "$(num max_ns "$o")" -ge 100000 ] || fail "busy max_ns below 100 us: $o"
echo "ok: busy max_ns $(num max_ns "$o") >= 100000"
expect_eq "raw fast count (10 calls + 5 robust + 5 rollbacks)" \
	"$(num count "$(obj $r cs_loadgen_cb_fast)")" 20
o=$(obj $r cs_loadgen_cb_veto)
expect_eq "raw veto count" "$(num count "$o")" 15
expect_eq "raw veto bad" "$(num bad "$o")" 15
[ -z "$(obj $r cs_loadgen_cb_fast2)" ] || fail "raw fast2 ran after the veto's stop"
echo "ok: raw fast2 never ran"
grep -q '"lost":0' /out/cli-record.json || fail "report says events were lost"

# -d ends a clean file by itself
echo clear > "$CTL"
ctl "add atomic fast"
# The calls are record's COMMAND, which record starts once attached: the
# first 10 calls come right away, not whenever a loop started before
# record happens to run (on the debug kernel attaching alone can take
# longer than 2 s), and the loop goes on until -d ends the recording and
# record ends the command.
"$CS" record -o "$W/d.cstrace" -d 2 -- sh -c \
	"while :; do echo 'call atomic 10' > $CTL || exit 1; usleep 100000; done" \
	> "$W/d.out" 2> "$W/d.err"
rc=$?
cat "$W/d.out"
expect_eq "record -d 2 exit" "$rc" 0
grep -q '(2 s elapsed)' "$W/d.out" || fail "-d: no '2 s elapsed' in the summary"
check_trace "$W/d.cstrace" "$W/d.out" "-d"
n=$("$CS" report -j "$W/d.cstrace" | grep -o '"callback":"cs_loadgen_cb_fast","callback_addr":"0x[0-9a-f]*","callback_module":"cs_loadgen","count":[0-9]*' | sed 's/.*://')
expect_ge "atomic fast calls in 2 s" "$n" 10

# Ctrl-C ends a clean file too
cs_start sig record -o "$W/sig.cstrace"
ctl "call atomic 7"
cs_stop
grep -q '(Ctrl-C)' "$OUT" || fail "Ctrl-C: no '(Ctrl-C)' in the summary"
check_trace "$W/sig.cstrace" "$OUT" Ctrl-C
n=$("$CS" report -j "$W/sig.cstrace" | grep -o '"callback":"cs_loadgen_cb_fast","callback_addr":"0x[0-9a-f]*","callback_module":"cs_loadgen","count":[0-9]*' | sed 's/.*://')
expect_eq "atomic fast calls recorded until Ctrl-C" "$n" 7

# Overload: a 1 MiB ring (about 10000 records) while the recorder is
# stopped and 20000 calls (80000 events) run on CPU 0. Ring-full losses
# only: the -b advice. Then 5 more calls on CPU 0: its first successful
# reserve puts the loss record in the stream, before their events.
echo clear > "$CTL"
ctl "add atomic fast"
cs_start ovl record -b 1 -o "$W/ovl.cstrace"
kill -STOP "$CS_PID"
taskset 1 sh -c "echo 'call atomic 20000' > $CTL" || fail "overload calls failed"
kill -CONT "$CS_PID"
# Not a fixed sleep: wait until the recorder has drained half of the full
# ring into the file (a 1 MiB ring holds about 10000 records of 96 bytes;
# the file grows only with what the recorder consumed), so the next calls
# find room in the ring.
i=0
while [ "$(wc -c < "$W/ovl.cstrace")" -lt $((256 + 5000 * 96)) ]; do
	i=$((i + 1))
	[ $i -lt 1200 ] || fail "overload: the recorder wrote only $(wc -c < "$W/ovl.cstrace") bytes in 120 s"
	usleep 100000
done
taskset 1 sh -c "echo 'call atomic 5' > $CTL" || fail "calls after the overload failed"
cs_stop
loss_matches "$W/ovl.cstrace" "$OUT" overload
[ "$l_ring" -ge 10000 ] || fail "overload: only $l_ring events lost with a 1 MiB ring"
expect_eq "overload: NMI losses" "$l_nmi" 0
grep -q "^WARNING: $l_ring events lost: the ring buffer was full (try -b)" "$OUT" ||
	fail "overload: no -b advice"
grep -q "^WARNING: .* NMI" "$OUT" && fail "overload: an NMI warning without NMI losses"
last=$(sed -n 's/^last //p' "$W/ovl.cstrace.losses")
located=$(awk -v last="$last" '$1 == "loss" && $3 == 0 && $4 == 0 && $2 < last' "$W/ovl.cstrace.losses")
[ -n "$located" ] || fail "overload: no ring-full loss record of CPU 0 before later events: $(cat "$W/ovl.cstrace.losses")"
echo "ok: loss record in the stream (index cpu reason count): $located"
"$CS" report -j "$W/ovl.cstrace" > "$W/ovl.json" || fail "report of the overloaded trace failed"
grep -q "\"lost\":$((l_ring + l_nmi))," "$W/ovl.json" || fail "report: lost is not $((l_ring + l_nmi))"
cp "$W/ovl.cstrace.losses" /out/cli-record.overload-losses.txt

# A recorder killed with SIGKILL: no trailer; --salvage reads what it
# wrote (it flushes every 100 ms).
echo clear > "$CTL"
ctl "add atomic fast"
cs_start kill record -o "$W/kill.cstrace"
ctl "call atomic 7"
# salvaged_calls FILE: calls of cs_loadgen_cb_fast in a trace without
# trailer (no symbols: the callback shows as its address)
fast=$(awk '$3 == "cs_loadgen_cb_fast" { print $1; exit }' /proc/kallsyms | sed 's/^0*//')
salvaged_calls() {
	"$CS" report -j --salvage "$1" 2> /dev/null |
		grep -o "\"callback\":\"0x$fast\",[^{]*\"count\":[0-9]*" | sed 's/.*://'
}
# Not a fixed sleep: the SIGKILL comes once the 7 calls are in the file
i=0
while [ "$(salvaged_calls "$W/kill.cstrace")" != 7 ]; do
	i=$((i + 1))
	[ $i -lt 600 ] || fail "killed: the 7 calls not in the file after 120 s: $(salvaged_calls "$W/kill.cstrace")"
	usleep 200000
done
kill -KILL "$CS_PID"
wait "$CS_PID"
CS_PID=
"$CS" check "$W/kill.cstrace" > /dev/null 2> "$W/kill.err"
expect_eq "check of a killed recording, without --salvage" "$?" 2
grep -q 'truncated at byte offset' "$W/kill.err" || fail "killed: $(cat "$W/kill.err")"
"$CS" report -j --salvage "$W/kill.cstrace" > "$W/kill.json" 2> "$W/kill.err"
expect_eq "report --salvage exit" "$?" 0
cat "$W/kill.err"
grep -q "salvaged [0-9]* whole records; dropped [0-9]* bytes" "$W/kill.err" ||
	fail "report --salvage: no notice"
# no trailer, no symbols: the callback shows as its address
n=$(grep -o "\"callback\":\"0x$fast\",[^{]*\"count\":[0-9]*" "$W/kill.json" | sed 's/.*://')
expect_eq "calls of cs_loadgen_cb_fast (0x$fast) salvaged from the killed recording" "$n" 7
"$CS" check --salvage "$W/kill.cstrace" || fail "check --salvage of the killed recording"

# A path that cannot be created fails first, with exit 6
"$CS" record -o /nonexistent/dir/x.cstrace -d 1 > /dev/null 2> "$W/badout.err"
expect_eq "record -o bad path exit" "$?" 6
grep -q 'cannot create /nonexistent/dir/x.cstrace' "$W/badout.err" ||
	fail "bad path: $(cat "$W/badout.err")"
# ... and so does a FIFO, at once (open() would block without a reader)
mkfifo "$W/fifo"
timeout 60 "$CS" record -o "$W/fifo" -d 1 > /dev/null 2> "$W/fifo.err"
expect_eq "record -o FIFO exit" "$?" 6
grep -q "cannot create $W/fifo: not a regular file" "$W/fifo.err" ||
	fail "FIFO: $(cat "$W/fifo.err")"
cs_cleanup
echo "record, check and report agree with the load"
