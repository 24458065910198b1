#!/bin/sh
# chainscope contention: rwsem waits of a blocking chain (callers hold it
# for reading 5 ms at a time while a writer registers/unregisters), the
# SRCU chain's mutex, and top waiters. The waits come from
# lock:contention_begin/end (contended acquisitions); on our kernel the
# acquisitions are counted from the notifier events, exactly.
# Readers sleep 5 ms under the read lock and call again at once, and the
# writers start only once they are calling: a writer finds the rwsem
# taken, and after each write the rwsem hands the read lock to the
# readers queued behind it before they even run, so the writer's next
# acquisition waits again, whatever the scheduler does.
. /chainscope/tests/cli-common.inc
stock_expect_exit5 contention
loadgen

# section_line HEADER-PATTERN LINE-PATTERN: first matching line of a section
section_line() {
	PAT=$1 WANT=$2 awk '
		/^chain: / { insec = ($0 ~ ENVIRON["PAT"]); next }
		insec && $0 ~ ENVIRON["WANT"] { print; exit }
	' "$OUT"
}

ctl "add blocking sleep sleep_ms=5"
cs_start cont contention
# readers keep calling for as long as the writers run
ctl "callers blocking 2 0"
# let the readers get going first (PREEMPT_NONE: the shell may run ahead)
i=0
while [ "$(sed -n 's/.*callers_calls=\([0-9]*\).*/\1/p' "$LG/stats")" -lt 10 ]; do
	i=$((i + 1))
	[ $i -lt 1200 ] || fail "callers made no calls within 120 s"
	usleep 100000
done
ctl "writers blocking 1 20"
ctl "writers srcu 2 20"
ctl wait
ctl stop
cs_stop
cat "$LG/stats"
calls=$(sed -n 's/.*callers_calls=\([0-9]*\).*/\1/p' "$LG/stats")
cycles=$(sed -n 's/.*writers_cycles=\([0-9]*\).*/\1/p' "$LG/stats")
expect_ge "loadgen callers_calls" "$calls" 1
expect_eq "loadgen writers_cycles" "$cycles" 60

RD='cs_loadgen_blocking \(blocking\) op: read lock: cs_loadgen_blocking '
WR='cs_loadgen_blocking \(blocking\) op: write lock: cs_loadgen_blocking '
SR='cs_loadgen_srcu \(srcu\) op: write lock: cs_loadgen_srcu '
hr=$(header "^chain: $RD")
hw=$(header "^chain: $WR")
hs=$(header "^chain: $SR")
[ -n "$hr" ] && [ -n "$hw" ] && [ -n "$hs" ] || fail "missing read/write/srcu sections"
grep -q '^Tracing.*(mode tracepoints: .*lock:contention_begin/end on the locks of every blocking and SRCU chain seen; acquisitions from the notifier events)' "$W/cont.err" ||
	fail "header: $(cat "$W/cont.err")"
# every acquisition, from the notifier events: a call of the blocking chain
# (never empty: the sleep block stays) takes the rwsem once, an
# (un)registration the rwsem or the SRCU chain's mutex
expect_eq "blocking read acquisitions = calls" "$(field acquisitions "$hr")" "$calls"
expect_eq "blocking write acquisitions = 2 x 20 cycles" "$(field acquisitions "$hw")" 40
expect_eq "srcu mutex acquisitions = 2 x 2 x 20 cycles" "$(field acquisitions "$hs")" 80
wc=$(field contended "$hw")
expect_ge "blocking write acquisitions that waited" "$wc" 1
expect_le "contended writes <= acquisitions" "$wc" 40
expect_le "contended reads <= acquisitions" "$(field contended "$hr")" "$calls"
expect_le "contended srcu <= acquisitions" "$(field contended "$hs")" 80
# a writer waits behind readers holding the rwsem for 5+ ms
expect_ge "blocking write max wait (us)" "$(field max "$hw")" 1000
# the histogram holds every contended acquisition, and only those
expect_eq "write histogram total" "$(rows_from "$WR" 0)" "$wc"
grep -q "lock tracepoint saw" "$OUT" && fail "a cross-check line: there is one source now"

# top waiters of the blocking chain: our kthreads, at most 5
tw=$(awk '/^chain: cs_loadgen_blocking /{ s = 1 } /^chain: / && !/cs_loadgen_blocking/ { s = 0 }
	s && /^    cslg_/' "$OUT")
echo "$tw"
[ -n "$tw" ] || fail "no cslg_* thread among the top waiters of cs_loadgen_blocking"
expect_le "top waiters listed" "$(echo "$tw" | wc -l)" 5
echo "$tw" | grep -q 'pid=[0-9]* *total=[0-9]*us count=[0-9]* max=' || fail "top waiter line format"

grep -q "WARNING: .* dropped" "$OUT" && fail "unexpected warning: $(grep WARNING "$OUT")"
grep WARNING "$OUT"

# JSON: one line, with acquisitions and top waiters. The top waiters
# need a wait: the reader calls until stopped, and the writer starts only
# once the reader is calling (a reader with a few calls could be done, or
# not yet started, before the writer's 5 cycles, and nobody would wait).
cs_start contj contention -j -n -c cs_loadgen_blocking
c0=$(sed -n 's/.*callers_calls=\([0-9]*\).*/\1/p' "$LG/stats")
ctl "callers blocking 1 0"
i=0
while [ "$(sed -n 's/.*callers_calls=\([0-9]*\).*/\1/p' "$LG/stats")" -le "$c0" ]; do
	i=$((i + 1))
	[ $i -lt 1200 ] || fail "JSON run: the caller made no call within 120 s"
	usleep 100000
done
ctl "writers blocking 1 5"
ctl wait
ctl stop
cs_stop
expect_eq "JSON lines" "$(wc -l < "$OUT")" 1
for k in '"type":"contention"' '"units":"nsecs"' '"dropped":0' '"acquisitions":true' \
	'"op":"read"' '"op":"write"[^]]*"contended":[1-9][0-9]*,"acquisitions":10,' \
	'"top_waiters":\[{"chain":"cs_loadgen_blocking",[^]]*"waiters":\[{"pid":[0-9]*,"tgid":[0-9]*,"comm":"cslg_'; do
	grep -q "$k" "$OUT" || fail "no $k in the JSON"
done
grep -q 'cs_loadgen_srcu' "$OUT" && fail "-c cs_loadgen_blocking let srcu through"
echo "ok: JSON keys"
cs_cleanup
echo "lock waits from lock:contention_* per chain and op, acquisitions counted, top waiters listed"
