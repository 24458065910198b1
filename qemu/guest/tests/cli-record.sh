#!/bin/sh
# chainscope record / check / report in the guest: record a cs_loadgen
# run with a known order, a stop, and a robust call that rolls back,
# then `chainscope check` must pass and `chainscope report -j` must show
# the callbacks with the counts the load implies. Also the -d and Ctrl-C
# endings. The recording and its report go to /out (back on the host).
. /chainscope/tests/cli-common.inc
stock_expect_exit5 record -o "$W/stock.cstrace" -d 1
loadgen

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

# check_trace TRACE SUMMARY WHAT: chainscope check must pass. The one
# exception: the kernel skips a BPF program that fires on a CPU where one
# already runs (a timer tick's chain call inside our own program); record
# counts those as "missed" in its summary, and each can leave one pass
# without its call_end. Only such violations, and no more of them than
# were counted, are tolerated.
check_trace() {
	if "$CS" check "$1" > "$1.check" 2>&1; then
		cat "$1.check"
		return 0
	fi
	cat "$1.check"
	missed=$(sed -n 's/.*missed \([0-9]*\) (BPF recursion.*/\1/p' "$2")
	nv=$(grep -c ' rule ' "$1.check")
	other=$(grep ' rule ' "$1.check" | grep -vc 'rule begin-without-end')
	[ "$other" = 0 ] && [ "$nv" -le "${missed:-0}" ] ||
		fail "check of the $3 recording failed ($nv violations, $other not explained by ${missed:-0} missed events)"
	echo "ok: $3: $nv begin-without-end violations, all explained by $missed missed events"
}

REC=/out/cli-record.cstrace
"$CS" record -o "$REC" -- sh "$W/load.sh" > "$W/rec.out" 2> "$W/rec.err"
rc=$?
cat "$W/rec.err" "$W/rec.out"
expect_eq "record exit" "$rc" 0
grep -q "^recorded [0-9]* events into $REC (command exited 0); lost 0" "$W/rec.out" ||
	fail "record summary line missing or events lost: $(cat "$W/rec.out")"
echo "ok: $(ls -l "$REC")"

check_trace "$REC" "$W/rec.out" main
cp "$REC.check" /out/cli-record.check.txt
passes=$(sed -n 's/.* events, \([0-9]*\) passes checked.*/\1/p' "$REC.check")
# 20 + 10 + 5 robust + 5 rollbacks + 5 robust + 5, at least
expect_ge "passes checked" "$passes" 50

"$CS" report -j "$REC" > /out/cli-record.json 2> "$W/rep.err"
rc=$?
cat "$W/rep.err"
expect_eq "report -j exit" "$rc" 0
"$CS" report "$REC" > /out/cli-record.report.txt || fail "report (text) failed"

# obj CHAIN CALLBACK: the callbacks[] element for that pair
obj() {
	awk -v ch="\"$1\"" -v cb="\"callback\":\"$2\"" '{
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
( i=0; while [ $i -lt 20 ]; do echo "call atomic 10" > "$CTL"; usleep 100000; i=$((i + 1)); done ) &
lp=$!
"$CS" record -o "$W/d.cstrace" -d 2 > "$W/d.out" 2> "$W/d.err"
rc=$?
wait $lp
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
cs_cleanup
echo "record, check and report agree with the load"
