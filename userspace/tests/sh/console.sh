#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Host tests of report's and check's --console input (trace/console.c) on
# logs that tests/gen/genconsole.py prints with the events' own TP_printk
# formats (read from include-trace/trace/events/notifier.h): the scenario
# of cs-gentracedat's trace.dat, as printk lines, tracefs lines and
# printk lines with caller ids, which must give the trace.dat's rows;
# then logs without times, with losses, hashed pointers, interleaved
# messages, cut and truncated lines, near misses (each skipped), upstream's
# cb-only events, refusals (one line and exit 12 or 13 each), the exports
# and a bounded libFuzzer run. One line per case: "PASS: host.console.<case>",
# "FAIL: ...: why" or "SKIP: ...: why". Nothing here traces.
#
#   tests/sh/console.sh CHAINSCOPE GENCONSOLE.PY HEADER FUZZ-BINARY CS-GENTRACEDAT
#   (FUZZ_CC, FUZZ_RUNS, MAKE_FUZZ from the Makefile build the fuzzer)
set -uo pipefail

CS=$(readlink -f "${1:?usage: console.sh CHAINSCOPE GENCONSOLE HEADER FUZZ GENTRACEDAT}")
GEN=$(readlink -f "${2:?}")
HDR=$(readlink -f "${3:?}")
FUZZ=${4:?}
GENDAT=$(readlink -f "${5:?}")
PREFIX=host.console
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DATA=$HERE/../data
# shellcheck source=userspace/tests/sh/lib.sh
. "$(dirname "$(readlink -f "$0")")/lib.sh"

for s in $(python3 "$GEN" "$HDR" --list); do
	python3 "$GEN" "$HDR" "$s" "$TMP/$s.log" 2>"$TMP/generr" ||
		fail "gen.$s" "$(cat "$TMP/generr")"
done

# rows CALLBACK...: "CB count max stop errno untimed hist" per callback, from report -j in $out
rows() {
	python3 -c '
import json, sys
d = json.loads(sys.argv[1])
out = []
for cb in sys.argv[2:]:
    r = [c for c in d["callbacks"] if c["callback"] == cb]
    if len(r) != 1:
        out.append(cb + " none")
        continue
    r = r[0]
    h = ",".join("%d-%d:%d" % (b["min"], b["max"], b["count"]) for b in r["histogram"] if b["count"])
    out.append("%s %d %d %d %d %d %s" % (cb, r["count"], r["max"], r["stop"], r["errno"],
                                       r["untimed"], h))
print("|".join(out))' "$out" "$@"
}
NAMES=(cs_cb_fast cs_cb_busy cs_cb_veto cs_cb_inner cs_cb_irq)
ROWS="cs_cb_fast 10 100 0 0 0 64-127:10|cs_cb_busy 10 1400 0 0 0 256-511:1,512-1023:5,1024-2047:4"
ROWS+="|cs_cb_veto 10 10 2 0 0 8-15:10|cs_cb_inner 1 30 0 0 0 16-31:1|cs_cb_irq 5 50 0 0 0 32-63:5"
# note N: line N of the last run's stderr
note() { sed -n "${1}p" <<<"$err"; }
NOTE_TIMES="times from printk timestamps: microsecond resolution (a return in the same microsecond as its run counts 1 ns); 0 events without a time (untimed)"
NOTE_STOPS="2 stops made from NOTIFY_STOP_MASK returns, 0 returns without their run or time (untimed)"
NOTE_NAMES="5 callbacks by name: their addresses are stand-ins (0x0c5c...), the text prints names"

# --- the trace.dat scenario as text: the trace.dat's rows -----------------------
"$GENDAT" ours8 "$TMP/ours8.dat" 2>/dev/null
run "$CS" report -j "$TMP/ours8.dat"
dat_rows=$(rows "${NAMES[@]}")
if [ "$dat_rows" = "$ROWS" ]; then pass trace-dat-rows; else
	fail trace-dat-rows "the trace.dat gives '$dat_rows'"; fi
for s in clean caller tracefs; do
	run "$CS" report -j --console "$TMP/$s.log"
	got=$(rows "${NAMES[@]}")
	if [ "$rc" = 0 ] && [ "$got" = "$ROWS" ]; then pass "$s.rows"; else
		fail "$s.rows" "exit $rc: got '$got'; ${err:0:300}"; fi
	p=$(python3 -c '
import json, sys
d = json.loads(sys.argv[1])
print(" ".join("%s:%d/%d/%d" % (c["chain"], c["passes"], c["stopped"], c["callbacks"]) for c in d["chains"]))' "$out")
	if [ "$p" = "0x5e6f7081:1/0/1 0xa1b2c3d4:10/2/30 0xdeadbeef:5/0/5" ]; then
		pass "$s.passes"; else fail "$s.passes" "$p"; fi
	run "$CS" check --console "$TMP/$s.log"
	if [ "$rc" = 0 ] && grep -q ' 112 events, 16 passes checked, 0 violations' <<<"$out" &&
	   grep -q 'membership is seeded from the 5 registration events' <<<"$err"; then
		pass "$s.check-clean"; else fail "$s.check-clean" "exit $rc: ${out:0:300}"; fi
done
# check -q: the violations only; a clean log gives no line on stdout or
# stderr (no note of the input's), where check without it gives the notes
for s in clean tracefs; do
	run "$CS" check -q --console "$TMP/$s.log"
	q_rc=$rc q_out=$out q_err=$err
	run "$CS" check --console "$TMP/$s.log"
	if [ "$q_rc" = 0 ] && [ -z "$q_out" ] && [ -z "$q_err" ] && [ "$rc" = 0 ] &&
	   grep -q ": text log of [0-9]* lines: 110 notifier events" <<<"$err" &&
	   grep -q 'membership is seeded from' <<<"$err"; then
		pass "$s.check-quiet-no-notes"
	else
		fail "$s.check-quiet-no-notes" "-q: exit $q_rc, stdout '${q_out:0:200}', stderr '${q_err:0:300}'; without: exit $rc, stderr '${err:0:300}'"
	fi
done
run "$CS" report --console "$TMP/clean.log"
L="chainscope report: $TMP/clean.log"
if [ "$rc" = 0 ] && [ "$nerr" = 4 ] &&
   [ "$(note 1)" = "$L: text log of 110 lines: 110 notifier events (latency = notifier_return - notifier_run), 0 loss markers (0 events), skipped: 0 other lines, 0 lines of our events not in their format (a loss marker each)" ] &&
   [ "$(note 2)" = "$L: $NOTE_TIMES" ] && [ "$(note 3)" = "$L: $NOTE_STOPS" ] &&
   [ "$(note 4)" = "$L: $NOTE_NAMES" ]; then
	pass clean.notes
else
	fail clean.notes "exit $rc: $err"
fi
# every event type of the text: the ones the scenario has not, and an errno return
run "$CS" report -j --console "$TMP/errors.log"
got=$(rows cs_cb_fast)
ev=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["events"])' "$out")
if [ "$rc" = 0 ] && [ "$got" = "cs_cb_fast 1 250 0 1 0 128-255:1" ] && [ "$ev" = 9 ]; then
	pass errors.rows; else fail errors.rows "exit $rc: '$got', $ev events; ${err:0:300}"; fi
run "$CS" check --console "$TMP/errors.log"
if [ "$rc" = 0 ] && grep -q ' 9 events, 1 passes checked, 0 violations' <<<"$out"; then
	pass errors.check; else fail errors.check "exit $rc: ${out:0:300}"; fi
# the trace file's context: CPU 1's chain ran in hardirq ("d.h1."), pid 0 per CPU
run "$CS" report --perfetto "$TMP/p.json" --console "$TMP/tracefs.log"
ctx=$(pass_threads "$TMP/p.json" 0xdeadbeef 0xa1b2c3d4)
if [ "$rc" = 0 ] && [ "$ctx" = "hardirq pid 100" ]; then pass tracefs.context; else
	fail tracefs.context "exit $rc: $ctx (want: hardirq pid 100)"; fi
if [ "$(note 2)" = "chainscope report: $TMP/tracefs.log: ${NOTE_TIMES/printk/trace file}" ] &&
   grep -q 'text log of 116 lines: 110 notifier events .* skipped: 6 other lines,' <<<"$err"; then
	pass tracefs.notes; else fail tracefs.notes "$err"; fi

# --- no times: every return untimed, the rows still count -------------------------
run "$CS" report -j --console "$TMP/plain.log"
got=$(rows cs_cb_busy cs_cb_irq)
if [ "$rc" = 0 ] && [ "$got" = "cs_cb_busy 10 0 0 0 10 |cs_cb_irq 5 0 0 0 5 " ] &&
   [ "$(note 2)" = "chainscope report: $TMP/plain.log: no timestamps: every event untimed (boot with printk.time=1)" ]; then
	pass plain.untimed; else fail plain.untimed "exit $rc: '$got'; $err"; fi
# a return in the run's microsecond: 1 ns, in the first bucket, not untimed
run "$CS" report -j --console "$TMP/sameus.log"
got=$(rows cs_cb_fast)
if [ "$rc" = 0 ] && [ "$got" = "cs_cb_fast 1 0 0 0 0 0-1:1" ]; then pass same-microsecond; else
	fail same-microsecond "exit $rc: '$got'"; fi

# --- hashed pointers, callbacks no symbol names: they pair all the same ----------
run "$CS" report -j --console "$TMP/hashed.log"
got=$(rows 0xffffffffc0001000 0xffffffffc0001100 0xffffffffc0001200 0xffffffffc0001300 \
	0xffffffffc0001400)
want=$(sed -e 's/cs_cb_fast/0xffffffffc0001000/;s/cs_cb_busy/0xffffffffc0001100/' \
	-e 's/cs_cb_veto/0xffffffffc0001200/;s/cs_cb_inner/0xffffffffc0001300/' \
	-e 's/cs_cb_irq/0xffffffffc0001400/' <<<"$ROWS")
if [ "$rc" = 0 ] && [ "$got" = "$want" ] && [ "$nerr" = 3 ]; then pass hashed.rows; else
	fail hashed.rows "exit $rc: got '$got'; $err"; fi

# --- what a real console does to the lines -----------------------------------------
# other messages between ours (CRLF line ends, a printk drop notice): the same rows
run "$CS" report -j --console "$TMP/interleaved.log"
got=$(rows "${NAMES[@]}")
lost=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["lost"])' "$out")
if [ "$rc" = 0 ] && [ "$got" = "$ROWS" ] && [ "$lost" = 5 ] &&
   [ "$(note 1)" = "chainscope report: $TMP/interleaved.log: text log of 148 lines: 110 notifier events (latency = notifier_return - notifier_run), 1 loss markers (5 events), skipped: 37 other lines, 0 lines of our events not in their format (a loss marker each)" ]; then
	pass interleaved.rows; else fail interleaved.rows "exit $rc: '$got', lost $lost; $err"; fi
# six lines cut by other output: each skipped as a loss; the 3 busy returns
# cut leave their runs open, the 3 fast runs cut leave their returns untimed
run "$CS" report -j --console "$TMP/cut.log"
got=$(rows cs_cb_busy cs_cb_fast)
if [ "$rc" = 0 ] &&
   [ "$got" = "cs_cb_busy 7 1400 0 0 0 512-1023:3,1024-2047:4|cs_cb_fast 10 100 0 0 3 64-127:7" ] &&
   grep -q '104 notifier events .* 6 loss markers (6 events), skipped: 3 other lines, 6 lines of our events not in their format' <<<"$err"; then
	pass cut.rows; else fail cut.rows "exit $rc: '$got'; $err"; fi
run "$CS" check --console "$TMP/cut.log"
if [ "$rc" = 0 ] && grep -q '0 violations' <<<"$out" &&
   grep -q 'gaps: 6 loss markers (6 events lost): 6 passes excused' <<<"$out"; then
	pass cut.check-excused; else fail cut.check-excused "exit $rc: ${out:0:400}"; fi
# the log stops mid-line (in the last line's field, or after it without "\n"):
# the line is not taken, and is a loss
for s in truncated truncated-whole; do
	run "$CS" report -j --console "$TMP/$s.log"
	ev=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["events"])' "$out")
	if [ "$rc" = 0 ] && [ "$ev" = 112 ] && [ "$(rows "${NAMES[@]}")" = "$ROWS" ] &&
	   grep -q '109 notifier events .* 1 loss markers (1 events), .*, the cut last line$' <<<"$(note 1)"; then
		pass "$s"; else fail "$s" "exit $rc: $ev records; $err"; fi
done
# a run, a printk drop, its return 8 s later: a console is one stream, the
# drop drops every open run, the return is untimed (not an 8 s latency)
F='cs_cb_fast [cs_test] head=00000000a1b2c3d4 nb=0000000011111111 priority=10 kind=blocking val=42'
{ cat "$TMP/clean.log"
  echo "[   20.000000] notifier_run: $F"
  echo "[   20.000001] ** 3 printk messages dropped **"
  echo "[   28.000000] notifier_return: $F ret=OK"; } >"$TMP/drop-open.log"
run "$CS" report -j --console "$TMP/drop-open.log"
got=$(rows cs_cb_fast)
if [ "$rc" = 0 ] && [ "$got" = "cs_cb_fast 11 100 0 0 1 64-127:10" ]; then
	pass loss.drops-open-runs; else fail loss.drops-open-runs "exit $rc: '$got'; ${err:0:300}"; fi
# a loss line before any event: at the first event's time, not at 0 (the
# trace spans the clean log's 2.100 s)
{ echo "CPU:0 [LOST 3 EVENTS]"; cat "$TMP/clean.log"; } >"$TMP/lead-loss.log"
run "$CS" report --console "$TMP/lead-loss.log"
if [ "$rc" = 0 ] && grep -q "^trace $TMP/lead-loss.log: kernel , boot , 2.100 s, 113 events, lost 3," <<<"$out"; then
	pass loss.leading-at-first-event; else fail loss.leading-at-first-event "exit $rc: $(grep '^trace' <<<"$out")"; fi
# loss lines of the trace file, at their place: check excuses the pass
run "$CS" check --console "$TMP/loss.log"
if [ "$rc" = 0 ] && grep -q 'gaps: 1 loss markers (4 events lost): 1 passes excused' <<<"$out"; then
	pass loss.excused; else fail loss.excused "exit $rc: ${out:0:400}"; fi

# --- one chain on two CPUs at once, no caller ids: one stream, interleaved ---------
# each return pairs with its own run (by val), check pairs the passes by
# (head, val, type) and judges nothing that needs the task; two passes of
# one val at once are not judged; a note says so, once
run "$CS" report -j --console "$TMP/concurrent.log"
got=$(rows cs_cb_fast cs_cb_veto)
if [ "$rc" = 0 ] && [ "$got" = "cs_cb_fast 8 48 0 0 0 32-63:8|cs_cb_veto 8 329 0 0 0 8-15:3,32-63:2,256-511:3" ]; then
	pass concurrent.rows; else fail concurrent.rows "exit $rc: '$got'; ${err:0:300}"; fi
run "$CS" check --console "$TMP/concurrent.log"
if [ "$rc" = 0 ] && grep -q 'concurrent.log: 67 events, 8 passes checked, 0 violations (0 passes open' <<<"$out" &&
   grep -q 'no task: 64 events of passes name none (a console without caller ids): paired by chain, val and call type; 2 passes not judged' <<<"$out" &&
   [ "$(grep -c 'events name no task (a console without printk caller ids)' <<<"$err")" = 1 ]; then
	pass concurrent.check-clean; else fail concurrent.check-clean "exit $rc: ${out:0:500} $err"; fi
run "$CS" check -q --console "$TMP/concurrent.log"
if [ "$rc" = 0 ] && [ -z "$out" ] && [ -z "$err" ]; then pass concurrent.check-quiet; else
	fail concurrent.check-quiet "exit $rc: ${out:0:300} ${err:0:300}"; fi
# a real violation in such a log is still one: the second pass's priority-5
# callback after its priority-0 one, the other pass's lines in between
run "$CS" check -q --console "$TMP/concurrent-bad.log"
if [ "$rc" = 1 ] && [ "$out" = "event 12: chain 0xa1b2c3d4: callback cs_cb_busy: rule priority-order: priority 5 ran after priority 0 (event 10) in the pass of event 4" ]; then
	pass concurrent.violation-caught; else fail concurrent.violation-caught "exit $rc: ${out:0:400}"; fi

# --- near misses: never an event ----------------------------------------------------
run "$CS" report -j --console "$TMP/near.log"
got=$(rows "${NAMES[@]}")
if [ "$rc" = 0 ] && [ "$got" = "$ROWS" ] &&
   grep -q 'text log of 149 lines: 110 notifier events .* 31 loss markers (31 events), skipped: 8 other lines, 31 lines of our events not in their format' <<<"$err"; then
	pass near.skipped; else fail near.skipped "exit $rc: '$got'; $err"; fi
# upstream's form ("notifier_run: NAME" alone) in a log of ours: ours, cut after the name
run "$CS" report -j --console "$TMP/mixed.log"
if [ "$rc" = 0 ] && [ "$(rows "${NAMES[@]}")" = "$ROWS" ] &&
   grep -q 'text log of 152 lines: 110 notifier events (latency = notifier_return - notifier_run), 42 loss markers (42 events), skipped: 0 other lines, 42 lines of our events not in their format' <<<"$err"; then
	pass mixed.stock-form-is-cut; else fail mixed.stock-form-is-cut "exit $rc: $err"; fi
# every line of one event in another kernel's format (the 9-event set's
# duration_ns suffix): refused, naming the event and its first line, never
# read as 36 losses with every pass excused and 0 checked
sed '/notifier_return: /s/$/ duration_ns=100000/' "$TMP/clean.log" >"$TMP/old-return.log"
for cmd in report check; do
	expect_exit "$cmd.old-format" 12 'old-return.log: 36 lines of notifier_return, none in the format this chainscope reads \(another kernel.s events\?\); the first: notifier_return: cs_cb_fast \[cs_test\] head=00000000a1b2c3d4 nb=0000000011111111 priority=10 kind=blocking val=0 ret=OK duration_ns=100000$' \
		"$CS" "$cmd" --console "$TMP/old-return.log"
done
# ... and alone, they are no events at all
expect_exit noevents 12 'noevents.log: no notifier event of ours in 38 lines \(31 lines of our events not in their format\); boot with trace_event=notifier:\* tp_printk$' \
	"$CS" report --console "$TMP/noevents.log"

# --- real text: /sys/kernel/tracing/trace of make test's guests (qemu/guest/tests/
# tracepoints.sh on our 6.12, upstream-events.sh on stock 6.12): every line taken
run "$CS" report -j --console "$DATA/tracefs-ours-612.txt"
ev=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["events"])' "$out")
if [ "$rc" = 0 ] && [ "$ev" = 148 ] &&
   grep -q 'text log of 160 lines: 148 notifier events (latency = notifier_return - notifier_run), 0 loss markers (0 events), skipped: 12 other lines, 0 lines' <<<"$err" &&
   [ "$(rows rtnetlink_event)" = "rtnetlink_event 4 31 0 0 0 0-1:2,2-3:1,16-31:1" ]; then
	pass real.ours-612; else fail real.ours-612 "exit $rc: $ev events, $(rows rtnetlink_event); ${err:0:400}"; fi
run "$CS" check --console "$DATA/tracefs-ours-612.txt"
if [ "$rc" = 0 ] && grep -q ' 148 events, 22 passes checked, 0 violations' <<<"$out"; then
	pass real.ours-612-check; else fail real.ours-612-check "exit $rc: ${out:0:300}"; fi
run "$CS" report --console "$DATA/tracefs-stock-612.txt"
if [ "$rc" = 0 ] && grep -q '^runs: callback rtnetlink_event count=' <<<"$out" &&
   grep -q "52 notifier events (upstream's cb-only events)" <<<"$err"; then
	pass real.stock-612; else fail real.stock-612 "exit $rc: ${out:0:300} ${err:0:300}"; fi

# --- upstream's three cb-only events ----------------------------------------------
run "$CS" report --console "$TMP/stock.log"
want="runs: callback cs_cb_fast count=10 registrations=1
runs: callback cs_cb_busy count=10 registrations=1
runs: callback cs_cb_veto count=10 registrations=1
runs: callback cs_cb_inner count=1 registrations=1
runs: callback cs_cb_irq count=5 registrations=1"
if [ "$rc" = 0 ] && [ "$(grep '^runs:' <<<"$out")" = "$want" ] &&
   [ "$(note 4)" = "chainscope report: $TMP/stock.log: upstream's notifier events carry only cb: registration order and run counts, no latency, chains or return values" ]; then
	pass stock.runs; else fail stock.runs "exit $rc: $(grep '^runs:' <<<"$out") $err"; fi
run "$CS" check --console "$TMP/stock.log"
if [ "$rc" = 0 ] && grep -q "upstream's notifier events name no chain and no block: membership and order are not judged (5 registration events)" <<<"$err"; then
	pass stock.check; else fail stock.check "exit $rc: ${out:0:300} ${err:0:300}"; fi

# one function registered twice (two blocks or two chains, upstream's
# events cannot say): no membership violation
printf '[    1.000000] notifier_register: nvme_pm_notify\n[    1.000100] notifier_register: nvme_pm_notify\n[    2.000000] notifier_run: nvme_pm_notify\n' >"$TMP/stock-twice.log"
run "$CS" check --console "$TMP/stock-twice.log"
if [ "$rc" = 0 ] && grep -q 'stock-twice.log: 3 events, 0 passes checked, 0 violations' <<<"$out" &&
   grep -q "membership and order are not judged (2 registration events)" <<<"$err"; then
	pass stock.registered-twice; else fail stock.registered-twice "exit $rc: ${out:0:300}"; fi

# two boots in one log (printk time going back, or a "Linux version" line
# after others): only the last one is read, and a note says so
cat "$TMP/clean.log" "$TMP/clean.log" >"$TMP/twoboot.log"
{ cat "$TMP/clean.log"; echo "[    0.000000] Linux version 6.1.0-cs (x) #1"; cat "$TMP/clean.log"; } >"$TMP/twoboot-version.log"
for s in twoboot twoboot-version; do
	run "$CS" check --console "$TMP/$s.log"
	if [ "$rc" = 0 ] && grep -q "$s.log: 112 events, 16 passes checked, 0 violations" <<<"$out" &&
	   [ "$(note 2)" = "chainscope check: $TMP/$s.log: 2 boots in this log: the last one read" ]; then
		pass "$s.last-boot"; else fail "$s.last-boot" "exit $rc: ${out:0:300} $err"; fi
done

# --- refusals: one line, exit 12 or 13 ------------------------------------------------
head -c 4096 "$CS" >"$TMP/binary.log"
for cmd in report check; do
	expect_exit "$cmd.empty" 12 'empty.log: no notifier event of ours in 0 lines' \
		"$CS" "$cmd" --console "$TMP/empty.log"
	expect_exit "$cmd.binary" 12 'binary.log: not a text log: [0-9]+ NUL bytes in 4096 \(the first at offset [0-9]+\)$' \
		"$CS" "$cmd" --console "$TMP/binary.log"
	expect_exit "$cmd.counter-clock" 13 'trace file timestamps without a decimal point' \
		"$CS" "$cmd" --console "$TMP/counter.log"
	expect_exit "$cmd.directory" 12 ': not a regular file$' "$CS" "$cmd" --console "$TMP"
	expect_exit "$cmd.missing" 12 ': cannot read: No such file or directory$' \
		"$CS" "$cmd" --console "$TMP/none.log"
	expect_exit "$cmd.salvage" 2 '--salvage reads a .cstrace, not --console text' \
		"$CS" "$cmd" --salvage --console "$TMP/clean.log"
done
# NUL bytes (a serial line's noise): a line with one is never an event; one
# of ours so hit is a loss (counted, noted, excused by check), another line
# is another line. Binary bytes are refused: mostly NUL, or NUL in every line.
run "$CS" report -j --console "$TMP/nul.log"
lost=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["lost"])' "$out" 2>&1)
if [ "$rc" = 0 ] && [ "$lost" = 2 ] &&
   grep -q 'text log of 111 lines: 108 notifier events .* 2 loss markers (2 events), skipped: 1 other lines, 0 lines' <<<"$err" &&
   grep -q 'nul.log: 3 lines with NUL bytes (line noise): never events; 2 of them lines of our events (a loss marker each, counted above), 1 other lines$' <<<"$err"; then
	pass nul.lines-lost; else fail nul.lines-lost "exit $rc, lost $lost: $err"; fi
run "$CS" check --console "$TMP/nul.log"
if [ "$rc" = 0 ] && grep -q ' 0 violations' <<<"$out" &&
   grep -q 'gaps: 2 loss markers (2 events lost): [1-9][0-9]* passes excused' <<<"$out"; then
	pass nul.check-excused; else fail nul.check-excused "exit $rc: ${out:0:400}"; fi
{ printf '[    1.000000] notifier chain test: %s\0\n' "$(printf 'x%.0s' {1..150})"
  printf '[    1.000001] \0notifier chain test: %s\n' "$(printf 'x%.0s' {1..150})"; } >"$TMP/nul-every.log"
head -c 8M /dev/zero >"$TMP/zero.log"
expect_exit nul.every-line 12 'nul-every.log: not a text log: 2 NUL bytes in 376 \(the first at offset 186\), in every line$' \
	"$CS" check --console "$TMP/nul-every.log"
expect_exit nul.mostly 12 'zero.log: not a text log: 8388608 NUL bytes in (the first )?8388608 \(the first at offset 0\)$' \
	"$CS" check --console "$TMP/zero.log"
{ cat "$TMP/clean.log"; head -c 70000 /dev/zero | tr '\0' x; echo; } >"$TMP/longline.log"
expect_exit long-line 12 'longline.log: not a text log: no newline in the 64 KiB from offset [0-9]+ \(a line is at most 64 KiB\)$' \
	"$CS" report --console "$TMP/longline.log"
# an endless stream on stdin (--console - </dev/zero; a binary with no
# newline) is refused after its first 64 KiB, not 1 GiB: the writer offers
# 8 MiB and counts what the pipe took before the reader was gone, which is
# what the reader read (at most 128 KiB: 64 KiB, then a read into the
# doubled buffer) and what the pipe still held (its capacity at most),
# whatever the timing
cat >"$TMP/writer.py" <<'PY'
import fcntl, os, signal, sys
signal.signal(signal.SIGPIPE, signal.SIG_IGN)
block, n = (b"\0" if sys.argv[1] == "zero" else b"x") * 4096, 0
cap = fcntl.fcntl(1, 1032)     # F_GETPIPE_SZ
try:
    while n < 8 << 20:
        n += os.write(1, block)
except BrokenPipeError:
    pass
open(sys.argv[2], "w").write("%d %d\n" % (n, cap))
PY
for b in zero x; do
	python3 "$TMP/writer.py" "$b" "$TMP/wrote" | "$CS" check --console - >/dev/null 2>"$TMP/stream.err"
	rcs="${PIPESTATUS[*]}"
	read -r wrote cap <"$TMP/wrote"
	if [ "$b" = zero ]; then
		want='^chainscope check: error: -: not a text log: 65536 NUL bytes in the first 65536 \(the first at offset 0\)$'
	else
		want='^chainscope check: error: -: not a text log: no newline in the 64 KiB from offset 0 \(a line is at most 64 KiB\)$'
	fi
	if [ "$rcs" = "0 12" ] && [ "$(grep -c '' "$TMP/stream.err")" = 1 ] &&
	   grep -Eq "$want" "$TMP/stream.err" && [ "$wrote" -le $((128 * 1024 + cap)) ]; then
		pass "stream.$b-refused-early"
	else
		fail "stream.$b-refused-early" "exits $rcs, the pipe took $wrote bytes (capacity $cap): $(cat "$TMP/stream.err")"
	fi
done
# check -q prints no note, but its errors all the same
expect_exit check.quiet-still-refuses 12 'empty.log: no notifier event of ours in 0 lines' \
	"$CS" check -q --console "$TMP/empty.log"
# a console mixed with a tracefs dump of the same run: two kinds of time, refused
cat "$TMP/clean.log" "$TMP/tracefs.log" >"$TMP/console-tracefs.log"
expect_exit console-and-tracefs 12 'console-tracefs.log: events with printk timestamps and events with trace file timestamps in one log \(a console mixed with a tracefs dump\?\): give one of them$' \
	"$CS" check --console "$TMP/console-tracefs.log"
# stdin ("-"), e.g. dmesg | chainscope report --console -; a doubled CR ("\r\r\n")
run "$CS" report -j --console - <"$TMP/clean.log"
if [ "$rc" = 0 ] && [ "$(rows "${NAMES[@]}")" = "$ROWS" ]; then pass stdin; else
	fail stdin "exit $rc: ${err:0:300}"; fi
sed 's/$/\r\r/' "$TMP/clean.log" >"$TMP/crcr.log"
run "$CS" report -j --console "$TMP/crcr.log"
if [ "$rc" = 0 ] && [ "$(rows "${NAMES[@]}")" = "$ROWS" ]; then pass doubled-cr; else
	fail doubled-cr "exit $rc: ${err:0:300}"; fi
# a trace.dat is not text: refused as such, not read as one
expect_exit tracedat-is-not-text 12 'not a text log' "$CS" report --console "$TMP/ours8.dat"

# --- the exports apply unchanged ------------------------------------------------------
run "$CS" report --folded "$TMP/f.folded" --svg "$TMP/svg" --console "$TMP/clean.log"
if [ "$rc" = 0 ] && grep -q '^0xa1b2c3d4;cs_cb_busy ' "$TMP/f.folded" &&
   [ -s "$TMP/svg/0xa1b2c3d4.svg" ]; then
	pass export.folded-svg; else fail export.folded-svg "exit $rc: $(ls "$TMP/svg" 2>&1) ${err:0:300}"; fi
run "$CS" report --openmetrics --console "$TMP/clean.log"
if [ "$rc" = 0 ] && grep -q 'callback="cs_cb_busy"' <<<"$out"; then pass export.openmetrics; else
	fail export.openmetrics "exit $rc: ${out:0:200}"; fi

# --- fuzz: the seeds and mutated logs, in process -----------------------------------
if fuzz_ready; then
	mkdir -p "$TMP/corpus"
	python3 "$GEN" "$HDR" --seeds "$TMP/corpus"
	if out=$("$FUZZ" "$TMP"/corpus/*.log "$DATA"/tracefs-*.txt 2>&1); then
		pass fuzz-seeds
	else
		fail fuzz-seeds "$(grep -m3 -E 'ERROR|SUMMARY|no line' <<<"$out")"
	fi
	if out=$(bash "$HERE/../fuzz/fuzz_run.sh" console "$FUZZ" "$TMP/corpus" \
		 "$DATA/tracefs-ours-612.txt" "$DATA/tracefs-stock-612.txt"); then
		pass fuzz
	else
		fail fuzz "$out"
	fi
fi

exit $failed
