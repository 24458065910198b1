#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Host tests of report's and check's trace.dat input (trace/tracedat.c) on
# files that libtracecmd's own writer makes (tests/gen/gentracedat.c): the
# three event sets, latency from crafted timestamps, stops, execution
# context, loss placement, clocks, names, refusals, a file the library
# crashes on, the exports, and a bounded libFuzzer run. One line per case:
# "PASS: host.tracedat.<case>", "FAIL: ...: why" or "SKIP: ...: why".
# Nothing here traces: no tracefs, no trace-cmd record.
#
#   tests/sh/tracedat.sh CHAINSCOPE CS-GENTRACEDAT FUZZ-BINARY
#   (FUZZ_CC, FUZZ_RUNS, MAKE_FUZZ from the Makefile build the fuzzer)
set -uo pipefail

CS=$(readlink -f "${1:?usage: tracedat.sh CHAINSCOPE CS-GENTRACEDAT FUZZ}")
GEN=$(readlink -f "${2:?}")
FUZZ=${3:?}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DATA=$HERE/../data
PREFIX=host.tracedat
# shellcheck source=userspace/tests/sh/lib.sh
. "$(dirname "$(readlink -f "$0")")/lib.sh"

for s in $("$GEN" --list); do
	if ! "$GEN" "$s" "$TMP/$s.dat" 2>"$TMP/generr"; then
		fail "gen.$s" "$(cat "$TMP/generr")"
	fi
done

# the library's own reader takes what the generator wrote
if command -v trace-cmd >/dev/null; then
	n=$(trace-cmd report "$TMP/ours8.dat" 2>/dev/null | grep -c ' notifier_')
	if [ "$n" = 110 ]; then pass gen.trace-cmd-reads; else
		fail gen.trace-cmd-reads "trace-cmd report shows $n notifier events, want 110"; fi
else
	skip gen.trace-cmd-reads "trace-cmd not installed"
fi

# row CALLBACK FIELD: from report -j in $out
row() {
	python3 -c '
import json, sys
d = json.loads(sys.argv[1])
r = [c for c in d["callbacks"] if c["callback"] == sys.argv[2]]
print(r[0][sys.argv[3]] if len(r) == 1 else "none")' "$out" "$1" "$2"
}
hist() {
	python3 -c '
import json, sys
d = json.loads(sys.argv[1])
r = [c for c in d["callbacks"] if c["callback"] == sys.argv[2]][0]
print(" ".join("%d-%d:%d" % (b["min"], b["max"], b["count"]) for b in r["histogram"] if b["count"]))' \
	"$out" "$1"
}

# --- our two event sets: the same numbers, by field name ------------------------
for s in ours9 ours8; do
	run "$CS" report -j "$TMP/$s.dat"
	want="cs_cb_fast 10 100 0|cs_cb_busy 10 1400 0|cs_cb_veto 10 10 2|cs_cb_inner 1 30 0|cs_cb_irq 5 50 0"
	got=""
	for cb in cs_cb_fast cs_cb_busy cs_cb_veto cs_cb_inner cs_cb_irq; do
		got+="${got:+|}$cb $(row $cb count) $(row $cb max) $(row $cb stop)"
	done
	if [ "$rc" = 0 ] && [ "$got" = "$want" ]; then pass "$s.counts"; else
		fail "$s.counts" "exit $rc: got '$got', want '$want'; ${err:0:300}"; fi
	# 500..1400 us in 100 us steps
	h=$(hist cs_cb_busy 2>&1)
	if [ "$h" = "256-511:1 512-1023:5 1024-2047:4" ]; then pass "$s.histogram"; else
		fail "$s.histogram" "cs_cb_busy: $h"; fi
	p=$(python3 -c '
import json, sys
d = json.loads(sys.argv[1])
c = [x for x in d["chains"] if x["chain"] == "cs_test_chain"][0]
print(c["passes"], c["stopped"], c["callbacks"])' "$out" 2>&1)
	if [ "$p" = "10 2 30" ]; then pass "$s.passes-stops"; else
		fail "$s.passes-stops" "cs_test_chain passes stopped callbacks: $p"; fi
	# ours8 has no notifier_stop: one more line says the stops were made
	want_err=1; [ "$s" = ours8 ] && want_err=2
	if [ "$nerr" = "$want_err" ] && grep -q "trace-cmd trace.dat v6, clock local: " <<<"$err" &&
	   { [ "$s" = ours9 ] || grep -q ": 2 stops made from NOTIFY_STOP_MASK returns" <<<"$err"; }; then
		pass "$s.notes"; else fail "$s.notes" "stderr: $err"; fi
	cp <(echo "$out") "$TMP/$s.json"
	run "$CS" check "$TMP/$s.dat"
	if [ "$rc" = 0 ] && grep -q ' 0 violations' <<<"$out" &&
	   grep -q 'membership is seeded from the 5 registration events' <<<"$err"; then
		pass "$s.check-clean-seeded"
	else
		fail "$s.check-clean-seeded" "exit $rc: ${out:0:300} ${err:0:300}"
	fi
done
# check -q: the violations only; a clean file gives no line on stdout or
# stderr (no note of the input's), where check without it gives the notes
run "$CS" check -q "$TMP/ours8.dat"
q_rc=$rc q_out=$out q_err=$err
run "$CS" check "$TMP/ours8.dat"
if [ "$q_rc" = 0 ] && [ -z "$q_out" ] && [ -z "$q_err" ] && [ "$rc" = 0 ] &&
   grep -q ': trace-cmd trace.dat v6, clock local: ' <<<"$err" &&
   grep -q 'membership is seeded from' <<<"$err"; then
	pass check-quiet-no-notes
else
	fail check-quiet-no-notes "-q: exit $q_rc, stdout '${q_out:0:200}', stderr '${q_err:0:300}'; without: exit $rc, stderr '${err:0:300}'"
fi
# ... and errors still print with -q
expect_exit check-quiet-error 13 'clock-counter.dat: trace clock "counter" is not in nanoseconds' \
	"$CS" check -q "$TMP/clock-counter.dat"
if grep -q 'latency = notifier_return - notifier_run' <<<"$("$CS" report "$TMP/ours8.dat" 2>&1 >/dev/null)" &&
   grep -q 'duration_ns from notifier_return' <<<"$("$CS" report "$TMP/ours9.dat" 2>&1 >/dev/null)"; then
	pass latency-source-named
else
	fail latency-source-named "the note does not say where latency came from"
fi
# trace-cmd's version 7 (sections, compressed): the same rows as version 6
run "$CS" report -j "$TMP/ours8-v7.dat"
same=$(python3 -c '
import json, sys
a = json.loads(sys.argv[1]); b = json.load(open(sys.argv[2]))
print(a["callbacks"] == b["callbacks"] and a["chains"] == b["chains"] and len(a["callbacks"]) == 5)' \
	"$out" "$TMP/ours8.json" 2>&1)
if [ "$rc" = 0 ] && [ "$same" = True ] && grep -q 'trace.dat v7' <<<"$err"; then
	pass v7-compressed-same-rows
else
	fail v7-compressed-same-rows "exit $rc: $same ${err:0:200}"
fi
# --- buffer instances (trace-cmd record -B cs) ----------------------------------------
# the events in the instance only (v6 and v7): the same rows as ours8, one note
for s in inst8 inst8-v7; do
	run "$CS" report -j "$TMP/$s.dat"
	same=$(python3 -c '
import json, sys
a = json.loads(sys.argv[1]); b = json.load(open(sys.argv[2]))
print(a["callbacks"] == b["callbacks"] and a["chains"] == b["chains"] and len(a["callbacks"]) == 5)' \
		"$out" "$TMP/ours8.json" 2>&1)
	if [ "$rc" = 0 ] && [ "$same" = True ] &&
	   grep -q ': 1 buffer instance ("cs") besides the top buffer: the notifier events are those of instance "cs", none in the other buffers$' <<<"$err"; then
		pass "buffers.$s-read"
	else
		fail "buffers.$s-read" "exit $rc: $same ${err:0:400}"
	fi
done
# the events in the top buffer, an instance without any: read, the instance named
run "$CS" report "$TMP/instempty8.dat"
if [ "$rc" = 0 ] && grep -q 'cs_cb_busy' <<<"$out" &&
   grep -q ': 1 buffer instance ("cs") besides the top buffer: no notifier event in it, the top buffer.s are read$' <<<"$err"; then
	pass buffers.instempty8-named
else
	fail buffers.instempty8-named "exit $rc: ${err:0:400}"
fi
# the same events in two buffers: refused, both named with their counts
for s in twobuf8 twobuf8-v7; do
	for cmd in report check; do
		expect_exit "buffers.$s.$cmd" 12 'notifier events in 2 buffers: the top buffer \(110\), "cs" \(110\); the same calls traced into each, or two traces in one: record them into one buffer' \
			"$CS" "$cmd" "$TMP/$s.dat"
	done
done
# v7 stores each buffer's clock: the instance's not the top buffer's is refused
python3 - "$TMP/inst8-v7.dat" "$TMP/instclock.dat" <<'PY'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
i = d.index(b"cs\0local\0")
d[i + 3:i + 8] = b"LOCAL"
open(sys.argv[2], "wb").write(d)
PY
expect_exit buffers.instance-clock 13 'buffer instance "cs" was recorded with trace clock "LOCAL", the top buffer with "local"' \
	"$CS" report "$TMP/instclock.dat"
# a string option without its NUL: libtracecmd would read the heap past it
# (the clock then differed from run to run), refused before it runs
python3 - "$TMP/ours8-v7.dat" "$TMP/clocknonul.dat" "$TMP/ours8.dat" "$TMP/unamenonul.dat" <<'PY'
import sys
for src, dst, text in ((sys.argv[1], sys.argv[2], b"x86-tsc\n\0"),
                       (sys.argv[3], sys.argv[4], b"SMP x86_64\0")):
    d = bytearray(open(src, "rb").read())
    i = d.index(text) + len(text) - 1
    d[i] = ord("X")
    open(dst, "wb").write(d)
PY
expect_exit string-option.clock-v7 12 'trace.dat malformed: TRACECLOCK option at byte [0-9]+ \(67 bytes\) does not end in a NUL: libtracecmd would read it past its end' \
	"$CS" check "$TMP/clocknonul.dat"
expect_exit string-option.uname-v6 12 'trace.dat malformed: UNAME option at byte [0-9]+ \(35 bytes\) does not end in a NUL' \
	"$CS" report "$TMP/unamenonul.dat"
# options libtracecmd reads by size: an empty CPUSTAT (it writes before
# its buffer: the parser died, exit 15), a CPUCOUNT under 4 bytes
python3 - "$TMP/ours8.dat" "$TMP/cpustat0.dat" "$TMP/cpucount0.dat" <<'PY'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
i = d.index(b"options  \0") + 10
assert d[i:i + 6] == bytes([4, 0, 0, 0, 0, 0])	# the empty TRACECLOCK
for dst, oid in ((sys.argv[2], 2), (sys.argv[3], 8)):
    e = bytearray(d)
    e[i] = oid
    open(dst, "wb").write(e)
PY
expect_exit option-size.cpustat-empty 12 'trace.dat malformed: CPUSTAT option at byte [0-9]+ has 0 bytes' \
	"$CS" check "$TMP/cpustat0.dat"
expect_exit option-size.cpucount-short 12 'trace.dat malformed: CPUCOUNT option at byte [0-9]+ has 0 bytes' \
	"$CS" report "$TMP/cpucount0.dat"
# trace-cmd convert carries version 6's empty TRACECLOCK into version 7:
# the clock is then the BUFFER options' (the top buffer's, or with an
# empty top buffer, as in inst8, the instance's), the rows ours8's
if command -v trace-cmd >/dev/null; then
	for s in ours8 inst8; do
		if ! trace-cmd convert --file-version 7 --compression any -i "$TMP/$s.dat" \
			-o "$TMP/conv-$s.dat" >/dev/null 2>&1; then
			fail "convert-v7.$s" "trace-cmd convert failed"
			continue
		fi
		run "$CS" report -j "$TMP/conv-$s.dat"
		same=$(python3 -c '
import json, sys
a = json.loads(sys.argv[1]); b = json.load(open(sys.argv[2]))
print(a["callbacks"] == b["callbacks"] and len(a["callbacks"]) == 5)' "$out" "$TMP/ours8.json" 2>&1)
		if [ "$rc" = 0 ] && [ "$same" = True ] && grep -q 'trace.dat v7, clock local' <<<"$err"; then
			pass "convert-v7.$s"
		else
			fail "convert-v7.$s" "exit $rc: $same ${err:0:300}"
		fi
	done
else
	skip convert-v7 "trace-cmd not installed"
fi

# diff gates the two sets against each other: nothing differs
run "$CS" diff "$TMP/ours9.json" "$TMP/ours8.json"
if [ "$rc" = 0 ]; then pass diff-9-vs-8; else fail diff-9-vs-8 "exit $rc: ${out:0:400}"; fi

# --- execution context: CPU 1's chain ran in hardirq (common_flags 0x08) ----------
run "$CS" report --perfetto "$TMP/p.json" "$TMP/ours8.dat"
ctx=$(pass_threads "$TMP/p.json" cs_irq_chain cs_test_chain)
if [ "$rc" = 0 ] && [ "$ctx" = "hardirq pid 100" ]; then
	pass context-from-flags
else
	fail context-from-flags "exit $rc: $ctx (want: hardirq pid 100)"
fi

# --- exports apply unchanged -----------------------------------------------------
run "$CS" report --openmetrics "$TMP/ours8.dat"
if [ "$rc" = 0 ] && grep -q 'callback="cs_cb_busy"' <<<"$out"; then pass export.openmetrics; else
	fail export.openmetrics "exit $rc: ${out:0:200}"; fi
run "$CS" report --folded "$TMP/f.folded" --svg "$TMP/svg" "$TMP/ours8.dat"
if [ "$rc" = 0 ] && grep -q 'cs_cb_busy' "$TMP/f.folded" && [ -s "$TMP/svg/cs_test_chain.svg" ]; then
	pass export.folded-svg; else fail export.folded-svg "exit $rc: ${err:0:300}"; fi

# --- losses: markers where the ring buffer said so --------------------------------
run "$CS" report -j "$TMP/loss8.dat"
lost=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["lost"])' "$out" 2>&1)
if [ "$rc" = 0 ] && [ "$lost" = 5 ] && [ "$(row cs_cb_busy count)" = 9 ] &&
   grep -q '2 loss markers' <<<"$err"; then
	pass loss.counted
else
	fail loss.counted "exit $rc: lost=$lost busy=$(row cs_cb_busy count) ${err:0:300}"
fi
run "$CS" check "$TMP/loss8.dat"
if [ "$rc" = 0 ] && grep -q 'gaps: 2 loss markers (5 events lost): 1 passes excused' <<<"$out"; then
	pass loss.placed-excuses-pass
else
	fail loss.placed-excuses-pass "exit $rc: ${out:0:500}"
fi
# a run, a loss on its CPU, its return 8 s later: the loss drops the open
# run, the return is untimed (not an 8 s latency)
run "$CS" report -j "$TMP/lossopen8.dat"
if [ "$rc" = 0 ] && [ "$(row cs_cb_fast count)" = 11 ] && [ "$(row cs_cb_fast max)" = 100 ] &&
   [ "$(row cs_cb_fast untimed)" = 1 ] && grep -q '3 loss markers' <<<"$err"; then
	pass loss.drops-open-runs
else
	fail loss.drops-open-runs "exit $rc: fast max=$(row cs_cb_fast max) untimed=$(row cs_cb_fast untimed) ${err:0:300}"
fi
# the same events gone without the ring buffer saying so: check must see it
run "$CS" check "$TMP/drop8.dat"
if [ "$rc" = 1 ] && grep -q 'rule stray-event' <<<"$out"; then pass loss.unmarked-is-violation; else
	fail loss.unmarked-is-violation "exit $rc: ${out:0:400}"; fi
run "$CS" check "$TMP/loss9.dat"
if [ "$rc" = 0 ]; then pass loss.set9; else fail loss.set9 "exit $rc: ${out:0:300}"; fi

# --- upstream's three cb-only events ------------------------------------------------
run "$CS" report "$TMP/stock.dat"
if [ "$rc" = 0 ] && grep -q 'runs: callback cs_cb_busy count=10 registrations=1' <<<"$out" &&
   grep -q 'runs: callback cs_cb_irq count=5 registrations=1' <<<"$out" &&
   [ "$(grep -c "upstream's notifier events carry only cb" <<<"$err")" = 1 ]; then
	pass stock.runs-and-one-line
else
	fail stock.runs-and-one-line "exit $rc: ${out:0:400} ${err:0:300}"
fi
if [ "$(grep -n 'runs: callback' <<<"$out" | head -3 | sed 's/.*callback \([a-z_]*\).*/\1/' | tr '\n' ' ')" = \
     "cs_cb_fast cs_cb_busy cs_cb_veto " ]; then
	pass stock.registration-order; else fail stock.registration-order "${out:0:400}"; fi
run "$CS" check "$TMP/stock.dat"
if [ "$rc" = 0 ] && grep -q "upstream's notifier events name no chain and no block: membership and order are not judged (5 registration events)" <<<"$err"; then
	pass stock.check; else fail stock.check "exit $rc: ${out:0:300} ${err:0:300}"; fi
# upstream's registrations without a notifier_run format: still upstream's
run "$CS" check "$TMP/stock-reg.dat"
if [ "$rc" = 0 ] && grep -q "upstream's notifier events name no chain and no block" <<<"$err"; then
	pass stock-reg.check; else fail stock-reg.check "exit $rc: ${out:0:300} ${err:0:300}"; fi

# --- refusals: one line, a distinct exit each ---------------------------------------
for cmd in report check; do
	expect_exit "$cmd.clock-counter" 13 'trace clock "counter" is not in nanoseconds' \
		"$CS" "$cmd" "$TMP/clock-counter.dat"
	expect_exit "$cmd.clock-x86-tsc" 13 'trace clock "x86-tsc"' "$CS" "$cmd" "$TMP/clock-x86-tsc.dat"
	expect_exit "$cmd.clock-uptime" 13 'trace clock "uptime"' "$CS" "$cmd" "$TMP/clock-uptime.dat"
	expect_exit "$cmd.bad-name" 14 'kallsyms name of 0xffffffff81000100 .* \(byte 2: 0x2d\): refused' \
		"$CS" "$cmd" "$TMP/badname.dat"
	expect_exit "$cmd.bad-name-quote" 14 'kallsyms name of 0xffffffff82000000 .*0x22' \
		"$CS" "$cmd" "$TMP/badname-quote.dat"
	expect_exit "$cmd.no-notifier" 12 'no notifier:\* event format' "$CS" "$cmd" "$TMP/nonotifier.dat"
	expect_exit "$cmd.bad-field" 12 'field val \(offset 4000, size 8\) is not a number inside' \
		"$CS" "$cmd" "$TMP/badfield.dat"
	expect_exit "$cmd.field-width" 12 'event notifier:notifier_run: field head is 4 bytes, want 8' \
		"$CS" "$cmd" "$TMP/headsz4.dat"
	expect_exit "$cmd.formats-mixed" 12 '1 of the file.s 6 notifier event formats have no head field: upstream.s and ours mixed' \
		"$CS" "$cmd" "$TMP/mixed.dat"
	expect_exit "$cmd.bad-kind" 12 'notifier_register at 1000000000: kind 9 \(0\.\.3\) or type 0 \(0\.\.2\) out of range' \
		"$CS" "$cmd" "$TMP/badkind.dat"
	# a file on which libtracecmd 3.1.6 dereferences NULL in tracecmd_close()
	# (a version-6 file cut in its CPU data): the pre-check refuses it first
	expect_exit "$cmd.library-crash-precheck" 12 'trace.dat truncated: the CPU 1 data \(4096 bytes at byte 16384\) runs past the end of the file \(18864 bytes\)' \
		"$CS" "$cmd" "$DATA/tracedat-crash-close.dat"
	# ... and one on which libtraceevent's kbuffer loops forever: the
	# child's CPU limit ends it (CHAINSCOPE_TRACEDAT_CPU: 1 s, not 10)
	expect_exit "$cmd.library-loop" 15 'died of signal 24 \(CPU time limit exceeded\)' \
		env CHAINSCOPE_TRACEDAT_CPU=1 "$CS" "$cmd" "$DATA/tracedat-kbuffer-loop.dat"
done
# the parser process: no privilege, no capability, limits (read from /proc
# while it spins on the looping file)
# while it spins (fd 7: a file chainscope's caller left open for writing)
CHAINSCOPE_TRACEDAT_CPU=3 "$CS" report "$DATA/tracedat-kbuffer-loop.dat" >/dev/null 2>&1 \
	7>"$TMP/inherited-fd" &
parent=$!
child=
for _ in $(seq 50); do
	child=$(pgrep -P "$parent" | head -n 1)
	[ -n "$child" ] && grep -q '^NoNewPrivs:.*1' "/proc/$child/status" 2>/dev/null && break
	sleep 0.1
done
st=$(cat "/proc/$child/status" "/proc/$child/limits" 2>/dev/null)
fds=$(ls "/proc/$child/fd" 2>/dev/null | sort -n | tr '\n' ' ')
fd0=$(readlink "/proc/$child/fd/0" 2>/dev/null)
kill "$parent" 2>/dev/null
wait "$parent" 2>/dev/null
want_uid=$(id -u); [ "$want_uid" = 0 ] && want_uid=65534
if grep -Eq "^Uid:\s+$want_uid\s+$want_uid\s+$want_uid" <<<"$st" &&
   grep -Eq '^CapEff:\s+0+$' <<<"$st" && grep -Eq '^CapPrm:\s+0+$' <<<"$st" &&
   grep -Eq '^NoNewPrivs:\s+1' <<<"$st" && grep -Eq '^Max file size\s+0\s+0' <<<"$st" &&
   grep -Eq '^Max cpu time\s+3\s+4' <<<"$st"; then
	pass child-confined
else
	fail child-confined "child $child: $(grep -E '^(Uid|CapEff|NoNewPrivs|Max (cpu|file))' <<<"$st")"
fi
# stdin, stdout, stderr on /dev/null, the trace and the answer's pipe: nothing inherited
if [ "$fd0" = /dev/null ] && [ "$(wc -w <<<"$fds")" = 5 ] && ! grep -qw 7 <<<"$fds"; then
	pass child-no-inherited-fds
else
	fail child-no-inherited-fds "child $child: fds $fds, fd 0 $fd0"
fi
sleep 0.3
# gone, or a zombie that nobody reaps (its parent is dead: PID 1's)
if [ -n "$child" ] && [ -e "/proc/$child" ] &&
   ! grep -q '^State:\s*Z' "/proc/$child/status" 2>/dev/null; then
	fail child-dies-with-parent "parser $child outlived chainscope"
	kill -9 "$child" 2>/dev/null
else
	pass child-dies-with-parent
fi

run "$CS" report "$TMP/clock-mono.dat"
if [ "$rc" = 0 ] && grep -q 'clock mono' <<<"$err"; then pass clock-mono-accepted; else
	fail clock-mono-accepted "exit $rc: $err"; fi
# x86-tsc at 2 cycles a ns with trace-cmd's TSC2NSEC option: libtracecmd
# converts, the crafted durations come out in ns
run "$CS" report -j "$TMP/clock-tsc2nsec.dat"
if [ "$rc" = 0 ] && grep -q 'clock tsc2nsec (x86-tsc, converted to ns by libtracecmd)' <<<"$err" &&
   [ "$(row cs_cb_busy max)" = 1400 ] && [ "$(row cs_cb_fast max)" = 100 ]; then
	pass clock-tsc2nsec-converted
else
	fail clock-tsc2nsec-converted "exit $rc: busy max $(row cs_cb_busy max): $err"
fi
# --- cut files: "truncated", exit 12, wherever the cut is -------------------------
head -c 10000 "$TMP/ours8.dat" >"$TMP/cut.dat"
expect_exit cut-file 12 'trace.dat truncated: the CPU 0 data \(8192 bytes at byte 8192\) runs past the end of the file \(10000 bytes\)' \
	"$CS" report "$TMP/cut.dat"
# every byte offset 1..size-1 of a version-6 file and of a compressed
# version-7 one (and of every other scenario) through the pre-check, in
# process: each cut is refused as truncated
for s in $("$GEN" --list); do
	[ -s "$TMP/$s.dat" ] || continue
	if c=$("$GEN" --cuts "$TMP/$s.dat" 2>&1); then
		case $s in ours8|ours8-v7) pass "cuts-every-byte.$s" ;; esac
	else
		fail "cuts-every-byte.$s" "$(head -n 3 <<<"$c" | tr '\n' ' ')"
	fi
done
# the commands themselves on a deterministic sample of cuts of each file:
# offsets 0-16, every 61st, the last 16 (0 bytes: no trace.dat, exit 2)
for s in ours8 ours8-v7; do
	size=$(stat -c %s "$TMP/$s.dat")
	bad=""
	n=0
	for off in $( { seq 0 16; seq 17 61 "$size"; seq $((size - 16)) $((size - 1)); } | sort -nu); do
		head -c "$off" "$TMP/$s.dat" >"$TMP/cut.dat"
		for cmd in report check; do
			run "$CS" "$cmd" "$TMP/cut.dat"
			n=$((n + 1))
			if [ "$off" = 0 ]; then
				[ "$rc" = 2 ] && [ "$nerr" = 1 ] && continue
			elif [ "$rc" = 12 ] && [ "$nerr" = 1 ] && grep -q 'trace.dat truncated: ' <<<"$err"; then
				continue
			fi
			bad+="$cmd cut $off: exit $rc: ${err:0:160}; "
		done
	done
	if [ -z "$bad" ]; then pass "cuts-commands.$s"; else fail "cuts-commands.$s" "${bad:0:600}"; fi
done
# SIGCHLD ignored by whoever started chainscope (inherited across exec):
# the parser's status is still waited for, the file read
run python3 -c 'import os, signal, sys
signal.signal(signal.SIGCHLD, signal.SIG_IGN)
os.execv(sys.argv[1], sys.argv[1:])' "$CS" report "$TMP/ours8.dat"
if [ "$rc" = 0 ] && grep -q 'cs_cb_busy' <<<"$out"; then pass sigchld-ignored; else
	fail sigchld-ignored "exit $rc: ${err:0:300}"; fi
# told apart by magic, not by name
cp "$TMP/ours8.dat" "$TMP/renamed.cstrace"
run "$CS" report "$TMP/renamed.cstrace"
if [ "$rc" = 0 ] && grep -q 'trace-cmd trace.dat' <<<"$err"; then pass magic-not-name; else
	fail magic-not-name "exit $rc: $err"; fi

# --- fuzz: in process over the seeds (ASan watches the conversion), then mutated
# inputs through the confined child as the commands run them
if fuzz_ready; then
	mkdir -p "$TMP/corpus"
	"$GEN" --seeds "$TMP/corpus"
	if out=$("$FUZZ" "$TMP"/corpus/*.dat 2>&1); then
		pass fuzz-seeds-in-process
	else
		fail fuzz-seeds-in-process "$(grep -m3 -E 'ERROR|SUMMARY' <<<"$out")"
	fi
	if out=$(FUZZ_TRACEDAT_CHILD=1 FUZZ_RSS_MB=0 FUZZ_MAX_LEN=32768 \
		 bash "$HERE/../fuzz/fuzz_run.sh" tracedat "$FUZZ" "$TMP/corpus" \
		 "$DATA/tracedat-crash-close.dat"); then
		pass fuzz
	else
		fail fuzz "$out"
	fi
fi

exit $failed
