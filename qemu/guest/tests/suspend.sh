#!/bin/sh
# The PM notifier chain (pm_chain_head) across suspend-to-idle (issue 28):
# which PM notifier slows the transition. cs_pmtest registers three PM
# notifiers, cs_pmtest_cb_hi (priority 10, waits 20 ms), _mid (0, 5 ms)
# and _lo (-10, 40 ms), on PM_SUSPEND_PREPARE (3) and PM_POST_SUSPEND (4).
#
# 1. chainscope record runs across one cycle of "echo freeze >
#    /sys/power/state"; report --passes -j must show one pass of
#    pm_chain_head with val 3 and one with val 4, each listing the three
#    callbacks in priority order, each at least its delay long (lower
#    bounds only: a slow host makes them longer, never shorter), and
#    check must pass;
# 2. chainscope latency -C -a -c pm_chain_head runs across another cycle
#    (it is frozen and thawed with the rest of user space) and counts one
#    val=3 and one val=4 pass, each cs_pmtest callback once per val.
# cs_pmtest's own counters (debugfs stats) must agree with both. A run
# whose tool reports missed or lost events that cut a PM pass is made
# again, up to 3 times (see part 1); one that reports none must be whole.
#
# What cycle: suspend-to-idle with /sys/power/pm_test at "freezer" and
# suspend.pm_test_delay 0. QEMU cannot wake a guest from real s2idle with
# the CMOS RTC alarm: its RTC raises the ACPI RTC wake status only when
# the machine is in QEMU's own suspended state (S3; qemu_system_wakeup_
# request() ignores a running guest), and in s2idle the RTC's IRQ is not
# a wake IRQ (rtc-cmos arms the ACPI RTC event instead), so the guest
# would sleep until the harness kills it (tried: an alarm 3 s ahead left
# a 6.1 guest asleep for the 60 s it was given). QEMU does wake a guest
# from S3 (echo mem with mem_sleep "deep") on the alarm (tried once on
# 6.1); not used here: an alarm that expires before the guest is asleep
# would hang it until the harness's timeout. The freezer test level runs
# what the PM chain sees of a real cycle: PM_SUSPEND_PREPARE (robust),
# freezing user space and the freezable kernel threads (our recorder
# with them), thaw, PM_POST_SUSPEND. It cannot exercise device suspend
# and resume, the s2idle loop itself, timekeeping suspend or a wake-up
# event: none of these call the PM chain.
#
# On our kernels the tools run in tracepoints mode, on stock ones in
# probes mode (fentry on the chain API, kprobe.multi on the callbacks of
# pm_chain_head, watched from the start with -c): the same assertions.
# Results in /out: suspend.cstrace (and .check), suspend.passes.json and
# .txt, suspend.chains.txt, suspend.latency.out.
. /chainscope/tests/cli-common.inc
MODE=tracepoints
[ "$CS_VARIANT" = stock ] && MODE=probes

P=/sys/power
DELAY=/sys/module/suspend/parameters/pm_test_delay
LEVEL=freezer
STATS=/sys/kernel/debug/cs_pmtest/stats
# name priority delay (ms), in call order
CBS="cs_pmtest_cb_hi 10 20
cs_pmtest_cb_mid 0 5
cs_pmtest_cb_lo -10 40"
OLD_DELAY=
CYCLES=0

cs_cleanup() {
	[ -n "$CS_PID" ] && kill -INT "$CS_PID" 2>/dev/null && wait "$CS_PID" 2>/dev/null
	CS_PID=
	[ -w "$P/pm_test" ] && echo none > "$P/pm_test"
	[ -n "$OLD_DELAY" ] && echo "$OLD_DELAY" > "$DELAY"
	rmmod cs_pmtest 2>/dev/null
}

grep -qw freeze "$P/state" || fail "no 'freeze' in $P/state: $(cat "$P/state")"
[ -w "$P/pm_test" ] || fail "no $P/pm_test (CONFIG_PM_DEBUG)"
grep -qw "$LEVEL" "$P/pm_test" || fail "no '$LEVEL' in $P/pm_test: $(cat "$P/pm_test")"
[ -w "$DELAY" ] || fail "no $DELAY"
OLD_DELAY=$(cat "$DELAY")

insmod /chainscope/modules/cs_pmtest.ko delay_hi_ms=20 delay_mid_ms=5 delay_lo_ms=40 ||
	fail "insmod cs_pmtest failed"
[ -r "$STATS" ] || fail "$STATS missing"

# pmstat NAME FIELD: a field of cs_pmtest's stats line of callback NAME
pmstat() {
	awk -v n="$1" -v f="$2=" '$1 == n { for (i = 2; i <= NF; i++) if (index($i, f) == 1) print substr($i, length(f) + 1) }' "$STATS"
}

# cycle: one suspend-to-idle cycle at pm_test level $LEVEL. Synchronous:
# the write returns after PM_POST_SUSPEND ran (or failed).
cycle() {
	echo "$LEVEL" > "$P/pm_test" || fail "cannot set pm_test to $LEVEL"
	echo 0 > "$DELAY" || fail "cannot set $DELAY"
	CYCLES=$((CYCLES + 1))
	echo "cycle $CYCLES: echo freeze > $P/state (pm_test $LEVEL)"
	echo freeze > "$P/state"
	# shellcheck disable=SC2320 # the write's status is what counts
	rc=$?
	echo none > "$P/pm_test"
	echo "$OLD_DELAY" > "$DELAY"
	[ "$rc" = 0 ] || fail "echo freeze > $P/state failed (exit $rc): $(dmesg | tail -n 3 | tr '\n' ' ')"
}

# module_counts WANT: each callback saw WANT prepares and WANT posts, and
# the last calls ran in priority order
module_counts() {
	cat "$STATS"
	prev=0
	echo "$CBS" | while read -r name prio delay; do
		[ "$(pmstat "$name" prepare)" = "$1" ] || fail "cs_pmtest: $name prepare=$(pmstat "$name" prepare), want $1"
		[ "$(pmstat "$name" post)" = "$1" ] || fail "cs_pmtest: $name post=$(pmstat "$name" post), want $1"
		[ "$(pmstat "$name" other)" = 0 ] || fail "cs_pmtest: $name saw other PM events"
		s=$(pmstat "$name" seq)
		[ "$s" -gt "$prev" ] || fail "cs_pmtest: $name ran out of priority order (seq $s after $prev)"
		prev=$s
	done || exit 1
	echo "ok: cs_pmtest saw $1 PM_SUSPEND_PREPARE and $1 PM_POST_SUSPEND per callback, in priority order"
}

# chainscope chains walks the chain itself: the three in priority order
"$CS" chains -c pm_chain_head > /out/suspend.chains.txt 2> "$W/chains.err" ||
	fail "chains -c pm_chain_head failed: $(cat "$W/chains.err")"
cat /out/suspend.chains.txt
order=$(grep -o 'cb=cs_pmtest_cb_[a-z]*' /out/suspend.chains.txt | sed 's/^cb=//' | tr '\n' ' ')
expect_eq "chains: cs_pmtest blocks on pm_chain_head in call order" "$order" \
	"cs_pmtest_cb_hi cs_pmtest_cb_mid cs_pmtest_cb_lo "

# --- 1. record, report, check ---------------------------------------------
# A BPF program the kernel skips (recursion protection: a timer tick's
# chain call lands while one of ours runs on that CPU) loses an event;
# record counts it and check excuses the pass it cuts, but report then
# shows that PM pass unfinished. Seen once in 9 runs. So a recording
# that says it missed or lost events and cut a PM pass is made again
# (at most 3 in all); one that says nothing was lost must be complete.
REC=/out/suspend.cstrace

# record_cycle: one cycle under record; the PM passes into $W/pm.txt
record_cycle() {
	cs_start rec record -c pm_chain_head:blocking -o "$REC"
	cycle
	cs_stop
	RECOUT=$OUT
	grep -q "; mode $MODE$" "$RECOUT" || fail "record: not mode $MODE: $(tail -n 1 "$RECOUT")"
	module_counts "$CYCLES"
	check_trace "$REC" "$RECOUT" suspend

	"$CS" report --passes "$REC" > /out/suspend.passes.txt 2> "$W/rep.err" ||
		fail "report --passes failed: $(cat "$W/rep.err")"
	"$CS" report --passes -j "$REC" > /out/suspend.passes.json 2> "$W/repj.err" ||
		fail "report --passes -j failed: $(cat "$W/repj.err")"
	echo "--- report --passes, pm_chain_head ---"
	awk '/^pass / { p = ($4 == "pm_chain_head") } p' /out/suspend.passes.txt

	# The passes of pm_chain_head, one line each
	#   pass N VAL CALL RESULT DEPTH
	# and their callbacks
	#   cb N NAME PRIORITY DURATION_NS RESULT
	# from the JSON (one line): each pass object starts with {"chain":, each
	# callback object with {"callback":
	awk '{ gsub(/\{"chain":/, "\n&"); gsub(/\{"callback":/, "\n&"); print }' /out/suspend.passes.json |
	awk '
	function str(k,  r) {
		if (!match($0, "\"" k "\":\"[^\"]*\""))
			return "-"
		r = substr($0, RSTART + length(k) + 4, RLENGTH - length(k) - 5)
		return r
	}
	function num(k,  r) {
		if (!match($0, "\"" k "\":-?[0-9]+"))
			return "-"
		return substr($0, RSTART + length(k) + 3, RLENGTH - length(k) - 3)
	}
	/^\{"chain":/ {
		pm = (str("chain") == "pm_chain_head")
		if (pm) {
			n++
			print "pass", n, num("val"), str("call"), str("result"), num("depth")
		}
		next
	}
	/^\{"callback":/ && pm {
		print "cb", n, str("callback"), num("priority"), num("duration_ns"), str("result")
	}' > "$W/pm.txt"
	cat "$W/pm.txt"
}

# pm_complete: one depth-0 pass each of val 3 and 4, finished, with the
# three cs_pmtest callbacks timed
pm_complete() {
	for val in 3 4; do
		n=$(awk -v v="$val" '$1 == "pass" && $3 == v && $6 == 0 && $5 != "-" { print $2 }' "$W/pm.txt")
		[ "$(echo "$n" | grep -c .)" = 1 ] || return 1
		[ "$(awk -v n="$n" '$1 == "cb" && $2 == n && $3 ~ /^cs_pmtest_cb_/ && $5 ~ /^[0-9]+$/' "$W/pm.txt" | wc -l)" = 3 ] ||
			return 1
	done
	return 0
}

try=1
while :; do
	record_cycle
	pm_complete && break
	lost=$(sed -n 's/.*lost \([0-9]*\) (ring buffer full), missed \([0-9]*\) (BPF recursion protection), \([0-9]*\) lost in NMI.*/\1 \2 \3/p' "$RECOUT" |
		awk '{ print $1 + $2 + $3 }')
	[ "${lost:-0}" -gt 0 ] ||
		fail "report: a PM pass is incomplete, and record reported no event lost or missed"
	[ $try -lt 3 ] || fail "a PM pass was cut by lost or missed events in $try recordings in a row"
	echo "retry: $lost events lost or missed (record's summary) cut a PM pass: recording another cycle"
	try=$((try + 1))
done

# pass_of VAL: the number of the one depth-0 pass of pm_chain_head with VAL
pass_of() {
	awk -v v="$1" '$1 == "pass" && $3 == v && $6 == 0 { print $2 }' "$W/pm.txt"
}
for val in 3 4; do
	case $val in 3) what=PM_SUSPEND_PREPARE ;; 4) what=PM_POST_SUSPEND ;; esac
	n=$(pass_of $val)
	[ -n "$n" ] || fail "report: no pass of pm_chain_head with val $val ($what)"
	[ "$(echo "$n" | wc -l)" = 1 ] || fail "report: $(echo "$n" | wc -l) passes of pm_chain_head with val $val ($what), want 1"
	res=$(awk -v n="$n" '$1 == "pass" && $2 == n { print $5 }' "$W/pm.txt")
	expect_eq "$what pass result" "$res" ok
	order=$(awk -v n="$n" '$1 == "cb" && $2 == n && $3 ~ /^cs_pmtest_cb_/ { printf "%s ", $3 }' "$W/pm.txt")
	expect_eq "$what: cs_pmtest callbacks in call order" "$order" \
		"cs_pmtest_cb_hi cs_pmtest_cb_mid cs_pmtest_cb_lo "
	echo "$CBS" | while read -r name prio delay; do
		line=$(awk -v n="$n" -v c="$name" '$1 == "cb" && $2 == n && $3 == c' "$W/pm.txt")
		# shellcheck disable=SC2086 # split into fields
		set -- $line
		[ "$4" = "$prio" ] || fail "$what: $name priority $4, want $prio"
		[ "$6" = ok ] || fail "$what: $name result $6, want ok"
		[ "$5" -ge $((delay * 1000000)) ] ||
			fail "$what: $name ran $5 ns, shorter than its $delay ms delay"
		echo "ok: $what: $name prio=$prio ran $5 ns >= $delay ms"
	done || exit 1
done

# --- 2. latency across another cycle ------------------------------------
# latency_complete: a section with count 1 for each val of the whole pass
# and of each cs_pmtest callback
latency_complete() {
	for val in 3 4; do
		h=$(header "^chain: pm_chain_head \(blocking\) whole pass val=$val ")
		[ "$(field count "$h")" = 1 ] || return 1
		for name in cs_pmtest_cb_hi cs_pmtest_cb_mid cs_pmtest_cb_lo; do
			h=$(header "^chain: pm_chain_head \(blocking\) callback: $name .*val=$val ")
			[ "$(field count "$h")" = 1 ] || return 1
		done
	done
	return 0
}
# the same retry as record's, on latency's own warnings of missed events
try=1
while :; do
	cs_start lat latency -C -a -c pm_chain_head
	cycle
	cs_stop
	cp "$OUT" /out/suspend.latency.out
	module_counts "$CYCLES"
	latency_complete && break
	grep -q "^WARNING: .*\(missed\|dropped\|unpaired\|skipped\)" "$OUT" ||
		fail "latency: a PM pass or callback is missing, and latency warned of no missed event"
	[ $try -lt 3 ] || fail "latency: PM passes cut by missed events in $try runs in a row"
	echo "retry: $(grep "^WARNING" "$OUT" | head -n 1): running latency across another cycle"
	try=$((try + 1))
done
grep -q "(mode $MODE" "$W/lat.err" || fail "latency: not mode $MODE: $(head -n 1 "$W/lat.err")"
for val in 3 4; do
	h=$(header "^chain: pm_chain_head \(blocking\) whole pass val=$val ")
	[ -n "$h" ] || fail "latency: no whole-pass section of pm_chain_head val=$val"
	expect_eq "latency: pm_chain_head passes with val=$val" "$(field count "$h")" 1
	echo "$CBS" | while read -r name prio delay; do
		S="^chain: pm_chain_head \(blocking\) callback: $name .*val=$val "
		h=$(header "$S")
		[ -n "$h" ] || fail "latency: no section for $name val=$val"
		expect_eq "latency: $name val=$val count" "$(field count "$h")" 1
		expect_ge "latency: $name val=$val max (us)" "$(field max "$h")" $((delay * 1000))
	done || exit 1
done
grep -q "WARNING: .* dropped" "$OUT" && fail "latency: unexpected warning: $(grep WARNING "$OUT")"
cs_cleanup
echo "the PM chain across suspend-to-idle cycles: passes, order and times as cs_pmtest made them"
