#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Host tests of report's timeline exports: --perfetto (validated against
# the trace-event format's rules by tests/sh/trace_event_check.py, which is
# tested itself on broken files), --folded, and the SVGs of --svg (the
# timeline, and a legend that covers no bar), on generated traces
# (cs-gentrace, cs-mkreport) and on traces recorded in QEMU guests
# (tests/data/real-*.cstrace). One line per case: "PASS: host.timeline.<case>",
# "FAIL: ...: why", "SKIP: ...: why". python3 reads the outputs; the
# product never runs it.
#
#   tests/sh/timeline.sh CHAINSCOPE CS-GENTRACE CS-MKREPORT
set -uo pipefail

CS=$(readlink -f "${1:?usage: timeline.sh CHAINSCOPE CS-GENTRACE CS-MKREPORT}")
GEN=$(readlink -f "${2:?}")
MK=$(readlink -f "${3:?}")
HERE=$(dirname "$(readlink -f "$0")")
PREFIX=host.timeline
# shellcheck source=userspace/tests/sh/lib.sh
. "$HERE/lib.sh"

if ! command -v python3 >/dev/null; then
	skip all "no python3 to read the exports"
	exit 0
fi
CHECK="$HERE/trace_event_check.py"
NL=$'\n'

# the traces: generated scenarios, then the recorded ones
traces=()
for s in clean timeline timeline-loss loss rollback begin-without-end clean-snapshot slower; do
	"$GEN" "$s" "$TMP/$s.cstrace" || fail "gen.$s" "cs-gentrace failed"
	traces+=("$TMP/$s.cstrace")
done
for f in "$HERE"/../data/real-*.cstrace; do
	traces+=("$f")
done
# and for the SVGs' legend: 20 callbacks on one chain (12 drawn), no passes
"$MK" bench "$TMP/bench.cstrace" 2000 20 || fail gen.bench "cs-mkreport failed"
name_of() { basename "$1" .cstrace; }

# --- the validator refuses what breaks the format's rules ------------------
# bad NAME WHY-REGEX JSON
bad() {
	printf '%s' "$3" > "$TMP/bad-$1.json"
	run python3 "$CHECK" "$TMP/bad-$1.json"
	if [ "$rc" = 1 ] && grep -Eq -- "$2" <<<"$out"; then
		pass "validator.refuses.$1"
	else
		fail "validator.refuses.$1" "exit $rc, want 1 and /$2/: $out $err"
	fi
}
M='{"ph":"M","name":"process_name","pid":1,"args":{"name":"p"}},{"ph":"M","name":"thread_name","pid":1,"tid":2,"args":{"name":"t"}}'
bad not-json 'not JSON' '{"traceEvents":['
bad no-events 'no traceEvents' '{"x":1}'
bad b-without-e 'has no E' "[$M,"'{"ph":"B","name":"a","ts":1,"pid":1,"tid":2}]'
bad e-without-b 'E without a B' "[$M,"'{"ph":"E","ts":1,"pid":1,"tid":2}]'
bad e-other-name 'ends B' "[$M,"'{"ph":"B","name":"a","ts":1,"pid":1,"tid":2},{"ph":"E","name":"b","ts":2,"pid":1,"tid":2}]'
bad negative-dur 'dur -1' "[$M,"'{"ph":"X","name":"a","ts":1,"dur":-1,"pid":1,"tid":2}]'
bad ts-backwards 'goes back' "[$M,"'{"ph":"X","name":"a","ts":5,"dur":1,"pid":1,"tid":2},{"ph":"X","name":"b","ts":4,"dur":0,"pid":1,"tid":2}]'
bad crossing 'crosses the end' "[$M,"'{"ph":"X","name":"a","ts":1,"dur":2,"pid":1,"tid":2},{"ph":"X","name":"b","ts":2,"dur":2,"pid":1,"tid":2}]'
bad crossing-decimal 'crosses the end' "[$M,"'{"ph":"X","name":"a","ts":0.1,"dur":0.2,"pid":1,"tid":2},{"ph":"X","name":"b","ts":0.2,"dur":0.100000001,"pid":1,"tid":2}]'
bad instant-no-scope 'without a scope' "[$M,"'{"ph":"i","name":"a","ts":1,"pid":1,"tid":2}]'
bad no-thread-name 'has no thread_name' "[$M,"'{"ph":"X","name":"a","ts":1,"dur":1,"pid":1,"tid":3}]'
bad no-process-name 'has no process_name' "[$M,"'{"ph":"i","s":"p","name":"a","ts":1,"pid":7}]'
bad no-ts 'not a number' "[$M,"'{"ph":"X","name":"a","dur":1,"pid":1,"tid":2}]'
printf '%s' "[$M,"'{"ph":"B","name":"a","ts":1,"pid":1,"tid":2},{"ph":"X","name":"c","ts":1.5,"dur":0.5,"pid":1,"tid":2},{"ph":"E","ts":3,"pid":1,"tid":2},{"ph":"X","name":"b","ts":3,"dur":0,"pid":1,"tid":2},{"ph":"i","s":"g","name":"g","ts":0}]' >"$TMP/good.json"
run python3 "$CHECK" "$TMP/good.json"
if [ "$rc" = 0 ] && grep -q 'slices=3 instants=1 .* maxdepth=2' <<<"$out"; then
	pass validator.accepts
else
	fail validator.accepts "exit $rc: $out"
fi

# --- every trace's --perfetto output keeps the format's rules ---------------
for f in "${traces[@]}"; do
	n=$(name_of "$f")
	run "$CS" report --perfetto "$TMP/$n.json" "$f"
	if [ "$rc" != 0 ]; then
		fail "perfetto.valid.$n" "report exit $rc: ${err:0:300}"
		continue
	fi
	run python3 "$CHECK" "$TMP/$n.json"
	if [ "$rc" = 0 ] && grep -q '^events=' <<<"$out" && ! grep -q 'slices=0 ' <<<"$out"; then
		pass "perfetto.valid.$n"
	else
		fail "perfetto.valid.$n" "$out $err"
	fi
done

# py NAME JSON-FILE CODE: CODE runs with `ev` (the events), `od` (otherData),
# `fail(why)`; the case passes if nothing failed
py() {
	local name=$1 file=$2
	run python3 - "$file" <<EOF
import json, sys
from decimal import Decimal
doc = json.load(open(sys.argv[1]), parse_float=Decimal)
ev, od = doc["traceEvents"], doc["otherData"]
bad = []
def fail(why):
    bad.append(why)
def named(pid, tid=None):
    for e in ev:
        if e["ph"] == "M" and e["pid"] == pid and e.get("tid") == tid and e["name"].endswith("_name"):
            return e["args"]["name"]
def slices(name=None, **kw):
    return [e for e in ev if e["ph"] == "X" and (name is None or e["name"] == name)
            and all(e.get(k) == v for k, v in kw.items())]
def within(a, b):
    return b["ts"] <= a["ts"] and a["ts"] + a["dur"] <= b["ts"] + b["dur"]
$3
print("; ".join(bad) if bad else "ok")
EOF
	if [ "$rc" = 0 ] && [ "$out" = ok ]; then
		pass "$name"
	else
		fail "$name" "${out:0:600} ${err:0:300}"
	fi
}

J=$TMP/timeline.json
# tracks: a thread per task under "tasks", one per interrupt context under "CPU N"
py perfetto.tracks "$J" '
tasks = {e["tid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name" and named(e["pid"]) == "tasks"}
cpus = {(named(e["pid"]), e["args"]["name"]) for e in ev if e["ph"] == "M" and e["name"] == "thread_name" and named(e["pid"]) != "tasks"}
if cpus != {("CPU 0", "hardirq"), ("CPU 0", "NMI"), ("CPU 1", "softirq")}:
    fail(f"interrupt tracks {sorted(cpus)}")
if tasks.get(100) != "pid 100":
    fail(f"task 100 track: {tasks}")
idle = [t for t, n in tasks.items() if n.startswith("pid 0 (task 0x")]
if len(idle) != 2 or len(set(idle)) != 2:
    fail(f"want two idle-task tracks: {tasks}")
if od["tracks"] != 6:
    fail("otherData tracks %s" % od["tracks"])'
# a hardirq pass inside a task callback: on its CPU's hardirq track, within
# the callback in time; an NMI pass within the hardirq's callback
py perfetto.interrupt-nesting "$J" '
cb_a = slices("cb_a", tid=100)
irq = [e for e in slices("nest_chain") if named(e["pid"], e["tid"]) == "hardirq"]
irq_cb = [e for e in slices("cb_d") if named(e["pid"], e["tid"]) == "hardirq"]
nmi = [e for e in slices("test_chain") if named(e["pid"], e["tid"]) == "NMI"]
if len(cb_a) != 1 or len(irq) != 1 or len(irq_cb) != 1 or len(nmi) != 1:
    fail(f"slices: cb_a {len(cb_a)} irq {len(irq)} irq cb {len(irq_cb)} nmi {len(nmi)}")
else:
    if not within(irq[0], cb_a[0]): fail("the hardirq pass is not within cb_a in time")
    if not within(irq_cb[0], irq[0]): fail("the hardirq callback is not within its pass")
    if not within(nmi[0], irq_cb[0]): fail("the NMI pass is not within the hardirq callback")
    if irq[0]["pid"] != nmi[0]["pid"] or named(irq[0]["pid"]) != "CPU 0": fail("not both on CPU 0")'
# chains nested three deep on the task track, each slice within its parent
py perfetto.nested-chains "$J" '
path = [("test_chain", "pass"), ("cb_a", "callback"), ("nest_chain", "pass"), ("cb_d", "callback"),
        ("0xffffffffc0001100", "pass")]
got = [slices(n, tid=100, cat=c) for n, c in path]
if any(len(g) != 1 for g in got):
    fail(f"slices on tid 100: {[len(g) for g in got]}")
else:
    for inner, outer in zip(got[1:], got):
        if not within(inner[0], outer[0]):
            fail("%s not within %s" % (inner[0]["name"], outer[0]["name"]))'
# args: the callback, its priority and return value; the pass its chain
py perfetto.args "$J" '
a = slices("cb_a", tid=100)[0]["args"]
if (a["callback"], a["priority"], a["ret"], a["result"], a["duration_ns"]) != ("cb_a", 10, 1, "ok", 5000000):
    fail(f"cb_a args {a}")
p = slices("test_chain", tid=100)[0]["args"]
if (p["chain"], p["kind"], p["call"], p["ret"], p["nr_calls"]) != ("test_chain", "blocking", "plain", 32769, 2):
    fail(f"pass args {p}")'
# stops are thread-scoped instants inside their pass
py perfetto.stop-instant "$J" '
st = [e for e in ev if e["ph"] == "i" and e.get("cat") == "stop"]
if len(st) != 1 or st[0]["name"] != "stop: cb_b" or st[0]["s"] != "t" or st[0]["tid"] != 100:
    fail(f"stops {st}")
else:
    p = slices("test_chain", tid=100)[0]
    if not p["ts"] <= st[0]["ts"] <= p["ts"] + p["dur"]: fail("the stop is outside its pass")'
# a task that slept in a callback and woke on the other CPU keeps its track
py perfetto.migration "$J" '
d = slices("cb_d", tid=100)
if len(d) != 1 or d[0]["args"]["cpu"] != 0:
    fail(f"cb_d on tid 100: {d}")
b = slices("cb_b", tid=100)
if len(b) != 1 or b[0]["args"]["cpu"] != 1:
    fail(f"cb_b (after the migration) on tid 100: {b}")'
# a lost return: the slice ends at the next run, unfinished; an orphan return is counted
py perfetto.unfinished "$J" '
u = [e for e in slices("cb_d") if e["args"].get("unfinished")]
if len(u) != 1 or "ret" in u[0]["args"]:
    fail(f"unfinished slices {u}")
if (od["unpaired"], od["unfinished"]) != (1, 1):
    fail("otherData unpaired %s unfinished %s" % (od["unpaired"], od["unfinished"]))'
# microseconds since the trace start, the nanoseconds as three decimals
py perfetto.timestamps "$J" '
lw = slices("lock wait (write)")
if not lw or lw[0]["ts"] != Decimal("0.500"):
    fail("first lock wait at %s, want 0.500 (500 ns after the start)" % (lw[0]["ts"] if lw else None))
raw = open(sys.argv[1]).read()
import re
if re.search(r"\"(ts|dur)\":[0-9]+(\.[0-9]{0,2}|\.[0-9]{4,})?[,}]", raw):
    fail("a ts or dur without exactly three decimals")'
py perfetto.veto-and-locks "$TMP/clean.json" '
v = [e for e in ev if e["ph"] == "i" and e["name"] == "veto: cb_b"]
if len(v) != 1 or v[0]["args"]["result"] != "bad" or v[0]["s"] != "t":
    fail(f"veto {v}")
lw = [e for e in ev if e.get("cat") == "lock"]
if sorted(e["args"]["wait_ns"] for e in lw) != [0, 0, 0, 700, 1400, 2100, 2500, 2800]:
    fail("lock waits %s" % [e["args"]["wait_ns"] for e in lw])
if any(e["tid"] != 100 for e in lw):
    fail("a lock wait not on its waiter")'
py perfetto.losses "$TMP/loss.json" '
l = [(e["s"], named(e["pid"]) if "pid" in e else None, e["args"]["lost"], e["args"]["reason"])
     for e in ev if e.get("cat") == "loss"]
if l != [("p", "CPU 0", 7, "ring-full"), ("p", "CPU 1", 2, "nmi"), ("g", None, 3, "missed")]:
    fail(f"loss instants {l}")'
# a pass whose end is lost (the next call_begin comes between callbacks)
# ends there, unfinished; it does not swallow the next pass
py perfetto.lost-end "$TMP/begin-without-end.json" '
p = slices("test_chain", tid=100)
if len(p) != 2 or not p[0]["args"].get("unfinished") or p[1]["args"].get("unfinished") \
   or p[0]["ts"] + p[0]["dur"] > p[1]["ts"]:
    fail("passes %s" % [(e["ts"], e["dur"], e["args"].get("unfinished")) for e in p])'
# a loss on a track's CPU ends what is open there; its ends are unpaired
py perfetto.loss-ends-slices "$TMP/timeline-loss.json" '
u = sorted((e["name"], e["tid"]) for e in ev if e["ph"] == "X" and e["args"].get("unfinished"))
if u != [("cb_a", 100), ("cb_d", 200), ("nest_chain", 200), ("test_chain", 100)]:
    fail("unfinished %s" % u)
if (od["unpaired"], od["unfinished"], od["lost"], od["missed"]) != (4, 4, 4, 1):
    fail("otherData %s" % od)
whole = [e for e in slices("test_chain", tid=100) if not e["args"].get("unfinished")]
if len(whole) != 1 or whole[0]["args"]["nr_calls"] != 3:
    fail("the whole pass after the losses: %s" % whole)'
py perfetto.real-interrupts "$TMP/real-6.1-cli-record.json" '
irq = [e for e in ev if e["ph"] == "X" and named(e["pid"], e.get("tid")) == "hardirq"]
if not irq or any(named(e["pid"]) != "CPU 0" for e in irq):
    fail(f"{len(irq)} slices on a hardirq track of CPU 0")
if not [e for e in ev if e.get("cat") == "stop"] or not [e for e in ev if e.get("cat") == "lock"]:
    fail("no stops or lock waits in the recorded trace")'

# --- folded stacks ----------------------------------------------------------
# folded CASE WANT ARGS...: report --folded - ARGS prints exactly WANT
folded() {
	local name=$1 want=$2
	shift 2
	run "$CS" report --folded - "$@"
	if [ "$rc" = 0 ] && [ "$out" = "$want" ] && [ -z "$err" ]; then
		pass "folded.$name"
	else
		fail "folded.$name" "exit $rc: ${out:0:400} ${err:0:200}"
	fi
}
# the timeline trace's stacks: own ns, and slices
wns= wcalls=
while read -r stack ns calls; do
	wns+="${wns:+$NL}$stack $ns"
	wcalls+="${wcalls:+$NL}$stack $calls"
done <<'EOF'
nest_chain 8000 4
nest_chain;cb_d 9000 5
test_chain 6000 2
test_chain;cb_a 10000 1
test_chain;cb_a;nest_chain 2000 1
test_chain;cb_a;nest_chain;cb_d 2000 1
test_chain;cb_a;nest_chain;cb_d;0xffffffffc0001100 1000 1
test_chain;cb_b 1000 1
test_chain;cb_c 1000 1
EOF
folded nested "$wns" "$TMP/timeline.cstrace"
folded calls "$wcalls" --folded-calls "$TMP/timeline.cstrace"
# to a file: the same lines, and the report on stdout as usual
run "$CS" report --folded "$TMP/t.folded" "$TMP/timeline.cstrace"
if [ "$rc" = 0 ] && grep -q '^passes: chain test_chain' <<<"$out" &&
   [ "$("$CS" report --folded - "$TMP/timeline.cstrace")" = "$(cat "$TMP/t.folded")" ]; then
	pass folded.file
else
	fail folded.file "exit $rc: ${err:0:300}"
fi
# every trace: flamegraph.pl's line form, and the ns add up to the time of
# the passes at the base of the perfetto tracks
for f in "${traces[@]}"; do
	n=$(name_of "$f")
	"$CS" report --folded "$TMP/$n.folded" "$f" >/dev/null 2>"$TMP/ferr"
	run python3 - "$TMP/$n.folded" "$TMP/$n.json" <<'EOF'
import json, re, sys
from decimal import Decimal
total = 0
lines = open(sys.argv[1]).read().splitlines()
for l in lines:
    if not re.fullmatch(r"[A-Za-z0-9_.$+]+(;[A-Za-z0-9_.$+]+)* [1-9][0-9]*", l):
        sys.exit(f"bad line {l!r}")
    total += int(l.rsplit(" ", 1)[1])
if lines != sorted(lines, key=lambda l: l.rsplit(" ", 1)[0]):
    sys.exit("lines not sorted")
ev = json.load(open(sys.argv[2]), parse_float=Decimal)["traceEvents"]
base, open_ = Decimal(0), {}
for e in ev:
    if e["ph"] != "X" or e["cat"] not in ("pass", "callback"):
        continue
    st = open_.setdefault((e["pid"], e["tid"]), [])
    while st and st[-1] <= e["ts"] and not e["ts"] + e["dur"] <= st[-1]:
        st.pop()
    if not st:
        base += e["dur"]
    st.append(e["ts"] + e["dur"])
if Decimal(total) != base * 1000:
    sys.exit(f"folded total {total} ns, base passes {base * 1000} ns")
print("ok")
EOF
	if [ "$rc" = 0 ] && [ "$out" = ok ] && [ -s "$TMP/$n.folded" ]; then
		pass "folded.valid.$n"
	else
		fail "folded.valid.$n" "$out ${err:0:300} $(head -c 200 "$TMP/ferr")"
	fi
done

# --- the command line -------------------------------------------------------
# usage NAME WHY-REGEX ARGS...: exit 2, one line
usage() {
	local name=$1 why=$2
	shift 2
	run "$CS" report "$@"
	if [ "$rc" = 2 ] && [ "$nerr" = 1 ] && grep -Eq -- "$why" <<<"$err" && [ -z "$out" ]; then
		pass "cli.$name"
	else
		fail "cli.$name" "exit $rc, want 2 and /$why/: $err"
	fi
}
usage folded-calls-alone 'needs --folded' --folded-calls "$TMP/clean.cstrace"
usage both-stdout 'cannot both' --perfetto - --folded - "$TMP/clean.cstrace"
usage json-and-stdout '-j and an export' -j --folded - "$TMP/clean.cstrace"
usage openmetrics-and-stdout '--openmetrics and an export' --openmetrics --perfetto - "$TMP/clean.cstrace"
usage empty-perfetto 'empty --perfetto' --perfetto '' "$TMP/clean.cstrace"
run "$CS" report --perfetto "$TMP/missing/dir/x.json" "$TMP/clean.cstrace"
if [ "$rc" = 1 ] && [ "$nerr" = 1 ] && grep -q 'cannot create .*x.json: No such file' <<<"$err"; then
	pass cli.cannot-create
else
	fail cli.cannot-create "exit $rc: $err"
fi
run "$CS" report --perfetto - "$TMP/clean.cstrace"
if [ "$rc" = 0 ] && [ "${out:0:16}" = '{"traceEvents":[' ] && ! grep -q '^trace ' <<<"$out"; then
	pass cli.perfetto-stdout
else
	fail cli.perfetto-stdout "exit $rc: ${out:0:100}"
fi
if [ -w /dev/full ]; then
	run "$CS" report --folded /dev/full "$TMP/clean.cstrace"
	if [ "$rc" = 1 ] && [ "$nerr" = 1 ] && grep -q 'cannot write /dev/full (--folded): No space' <<<"$err"; then
		pass cli.write-error
	else
		fail cli.write-error "exit $rc: $err"
	fi
else
	skip cli.write-error "no /dev/full"
fi

# --- SVGs: the timeline names the chain and its callbacks; no legend on a bar -
run "$CS" report --svg "$TMP/svg" "$TMP/clean.cstrace"
T=$TMP/svg/test_chain.timeline.svg
if [ "$rc" = 0 ] && grep -qx "wrote $T" <<<"$out" &&
   grep -q '>test_chain (blocking): passes over time</text>' "$T" &&
   grep -q '>cb_a</text>' "$T" && grep -q '>cb_b</text>' "$T" && grep -q '>cb_c</text>' "$T" &&
   grep -q '<title>cb_b: 1000 ns</title>' "$T" &&
   grep -q 'the trace&apos;s start' "$T" &&
   grep -q '>test_chain (blocking): callback latency</text>' "$TMP/svg/test_chain.svg" &&
   grep -q '>cb_a</text>' "$TMP/svg/test_chain.svg"; then
	pass svg.names
else
	fail svg.names "exit $rc: ${err:0:300} $(ls "$TMP/svg")"
fi
for f in "${traces[@]}" "$TMP/bench.cstrace"; do
	n=$(name_of "$f")
	rm -rf "$TMP/svg-$n"
	"$CS" report --svg "$TMP/svg-$n" "$f" >/dev/null 2>&1
	run python3 - "$TMP/svg-$n" <<'EOF'
import glob, os, sys
import xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
files = sorted(glob.glob(os.path.join(sys.argv[1], "*.svg")))
hist = [f for f in files if not f.endswith(".timeline.svg")]
if not hist or any(f[:-4] + ".timeline.svg" not in files for f in hist):
    sys.exit(f"{files}: want a timeline next to each histogram")
bars = 0
for path in files:
    root = ET.parse(path).getroot()
    W, H = (float(v) for v in root.get("viewBox").split()[2:])
    rects = [(r, [float(r.get(k)) for k in ("x", "y", "width", "height")]) for r in root.iter(NS + "rect")
             if r.get("x") is not None]
    boxes = [g for r, g in rects if r.get("class") == "legend-box"]
    bar = [g for r, g in rects if r.get("class") == "bar"]
    bars += len(bar)
    if len(boxes) != 1:
        sys.exit(f"{path}: {len(boxes)} legend boxes")
    bx, by, bw, bh = boxes[0]
    if bx < 0 or by < 0 or bx + bw > W or by + bh > H:
        sys.exit(f"{path}: the legend box {boxes[0]} leaves the picture {W}x{H}")
    for x, y, w, h in bar:
        if x < bx + bw and bx < x + w and y < by + bh and by < y + h:
            sys.exit(f"{path}: the legend box {boxes[0]} covers the bar {(x, y, w, h)}")
    legend = [g for g in root.iter(NS + "g") if g.get("class") == "legend"][0]
    for r in legend.iter(NS + "rect"):
        x, y = float(r.get("x")), float(r.get("y"))
        if not (bx <= x and x + float(r.get("width")) <= bx + bw and by <= y and y + float(r.get("height")) <= by + bh):
            sys.exit(f"{path}: a legend swatch outside the legend box")
    for t in legend.iter(NS + "text"):
        if not (by <= float(t.get("y")) <= by + bh):
            sys.exit(f"{path}: a legend name outside the legend box")
if not bars:
    sys.exit("no bars drawn")
print("ok")
EOF
	if [ "$rc" = 0 ] && [ "$out" = ok ]; then
		pass "svg.legend-clear.$n"
	else
		fail "svg.legend-clear.$n" "$out ${err:0:300}"
	fi
done
# the recorded chain whose legend used to hide its 8-16 ms bucket
if grep -q '<title>cs_loadgen_cb_busy' "$TMP/svg-real-6.1-cli-record/cs_loadgen_blocking.svg" 2>/dev/null &&
   grep -q '>cs_loadgen_blocking (blocking): passes over time</text>' \
	"$TMP/svg-real-6.1-cli-record/cs_loadgen_blocking.timeline.svg"; then
	pass svg.real-loadgen
else
	fail svg.real-loadgen "no cs_loadgen_blocking histogram and timeline: $(ls "$TMP/svg-real-6.1-cli-record" | head -5)"
fi
# a chain with passes and no callbacks (the timer's, in hardirq) gets a timeline only
P=$TMP/svg-real-6.1-cli-record/pvclock_gtod_chain
if [ -e "$P.timeline.svg" ] && [ ! -e "$P.svg" ] &&
   grep -q '>pvclock_gtod_chain (raw): passes over time</text>' "$P.timeline.svg" &&
   [ "$(grep -c '<title>pass at ' "$P.timeline.svg")" -gt 10 ]; then
	pass svg.timeline-without-callbacks
else
	fail svg.timeline-without-callbacks "$(ls "$TMP/svg-real-6.1-cli-record")"
fi

# --- crafted nesting costs what its size costs --------------------------------
# One task nesting 16000 passes (3 MB), open or unwound: slices nest
# CS_TL_MAX_DEPTH (64) deep at most, what is cut above counts as unpaired.
# Peak RSS (/usr/bin/time) under 10x the input over that of a tiny trace,
# and under ulimit -v (so a regression fails, not the machine); the
# unpaired count, the folded stacks and the nesting exactly.
if [ -x /usr/bin/time ]; then
	/usr/bin/time -f %M -o "$TMP/rss" "$CS" report "$TMP/clean.cstrace" >/dev/null 2>&1
	base=$(cat "$TMP/rss")
	# deep NAME SCENARIO UNPAIRED FOLDED-LINES
	deep() {
		local name=$1 f=$TMP/$1.cstrace size limit m why=
		"$GEN" "$2" "$f" || { fail "crafted.$name" "cs-gentrace failed"; return; }
		size=$(( $(stat -c %s "$f") / 1024 ))
		limit=$((10 * size + base))
		for m in folded perfetto svg; do
			rm -rf "$TMP/deep-out"
			( ulimit -v $((10 * size + 200000))
			  exec /usr/bin/time -f %M -o "$TMP/rss" "$CS" report --$m "$TMP/deep-out" "$f" \
				>/dev/null 2>"$TMP/deep-err" )
			rc=$?
			if [ "$rc" != 0 ]; then
				why+=" --$m: exit $rc $(head -c 200 "$TMP/deep-err")"
			elif [ "$(tail -n 1 "$TMP/rss")" -gt "$limit" ]; then
				why+=" --$m: peak RSS $(tail -n 1 "$TMP/rss") KB, over $limit KB (input $size KB)"
			fi
			[ "$m" = folded ] && cp "$TMP/deep-out" "$TMP/$name.folded"
			[ "$m" = perfetto ] && cp "$TMP/deep-out" "$TMP/$name.json"
		done
		run python3 "$CHECK" "$TMP/$name.json"
		if ! grep -q ' maxdepth=64$\| maxdepth=64 ' <<<"$out"; then
			why+=" perfetto: $out"
		elif ! grep -q "\"unpaired\":$3," "$TMP/$name.json"; then
			why+=" perfetto: $(grep -o '"unpaired":[0-9]*' "$TMP/$name.json"), want $3"
		elif [ "$(grep -c '' "$TMP/$name.folded")" != "$4" ] ||
		     [ "$(tail -n 1 "$TMP/$name.folded" | tr -cd ';' | wc -c)" != 63 ]; then
			why+=" folded: $(grep -c '' "$TMP/$name.folded") lines, want $4, 64 frames deep"
		fi
		if [ -z "$why" ]; then
			pass "crafted.$name"
		else
			fail "crafted.$name" "$why"
		fi
	}
	# 32 levels of pass and callback kept; 2 (open) or 4 records cut per level
	deep deep deep $(( (16000 - 32) * 2 )) 64
	deep deep-closed deep-closed $(( (16000 - 32) * 4 )) 64
else
	skip crafted "no /usr/bin/time"
fi

# --- benchmark: 2x10^4 passes of 4 callbacks (10^5 events), CPU seconds ----
bench() {	# bench OPTION...: CPU seconds of report OPTION... on the trace
	local TIMEFORMAT='%U %S' t
	t=$( { time "$CS" report "$@" "$TMP/passes.cstrace" >/dev/null 2>&1; } 2>&1 ) || return 1
	awk '{ printf "%.3f", $1 + $2 }' <<<"$t"
}
if "$MK" passes "$TMP/passes.cstrace" 20000 4 && p=$(bench --perfetto "$TMP/p.json") &&
   f=$(bench --folded "$TMP/p.folded") && v=$(bench --svg "$TMP/p-svg"); then
	echo "BENCH: report timeline, 10^5 events (2x10^4 passes of 4 callbacks): --perfetto $p s ($(stat -c %s "$TMP/p.json") bytes), --folded $f s, --svg $v s (CPU time)"
	rm -f "$TMP/passes.cstrace" "$TMP/p.json"
else
	fail bench "cs-mkreport or report failed"
fi

exit $failed
