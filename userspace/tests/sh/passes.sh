#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Host tests of report --passes (report/passes.c): every pass with its
# callbacks in the order they ran, their start, run time and return value,
# as text and JSON, on console logs that tests/gen/genconsole.py prints
# (a power-off: the reboot chain, the prepare chain with a kernel message
# inside its callback, the atomic power-off chain whose callback never
# returns; a nested pass), on the recorded tracefs text of a 6.12 guest
# and on generated .cstrace files; usage errors. One line per case:
# "PASS: host.passes.<case>", "FAIL: ...: why". Nothing here traces.
#
#   tests/sh/passes.sh CHAINSCOPE GENCONSOLE.PY HEADER CS-GENTRACE
set -uo pipefail

CS=$(readlink -f "${1:?usage: passes.sh CHAINSCOPE GENCONSOLE HEADER CS-GENTRACE}")
GEN=$(readlink -f "${2:?}")
HDR=$(readlink -f "${3:?}")
GENTRACE=$(readlink -f "${4:?}")
PREFIX=host.passes
HERE=$(dirname "$(readlink -f "$0")")
# shellcheck source=userspace/tests/sh/lib.sh
. "$HERE/lib.sh"

for s in shutdown clean; do
	python3 "$GEN" "$HDR" "$s" "$TMP/$s.log" 2>"$TMP/generr" || fail "gen.$s" "$(cat "$TMP/generr")"
done

# expect_out NAME WANT CMD...: CMD exits 0 and prints exactly WANT
expect_out() {
	local name=$1 want=$2
	shift 2
	run "$@"
	if [ "$rc" != 0 ]; then
		fail "$name" "exit $rc: ${err:0:300}"
	elif [ "$out" != "$want" ]; then
		fail "$name" "got: $(diff <(echo "$want") <(echo "$out") | head -n 8)"
	else
		pass "$name"
	fi
}

# --- a power-off, as text: the chains in the order they were called ---------
WANT="trace $TMP/shutdown.log: kernel , 3 top-level passes, lost 0, unpaired 0, unfinished 2; callbacks in the order they ran, start from the pass' start, t in the trace's clock (s)
pass 1: chain 0xc0ffee11 (blocking, plain) val=3 t=229.000000 dur=1249us callbacks=2 ret=DONE
    1. tts_notify_reboot prio=0 start=4us dur=1204us ret=DONE
    2. perf_reboot prio=-2147483648 start=1210us dur=37us ret=DONE
pass 2: chain 0x7ab1e222 (blocking, plain) val=0 t=229.400000 dur=56us callbacks=1 ret=DONE
    1. sys_off_notify prio=224 start=3us dur=51us ret=DONE
pass 3: chain 0x51de333 (atomic, plain) val=0 t=229.500100 unfinished
    1. sys_off_notify prio=224 start=2us unfinished"
expect_out shutdown.text "$WANT" "$CS" report --passes --console "$TMP/shutdown.log"
# the units of -n and -m
expect_out shutdown.ns "    1. tts_notify_reboot prio=0 start=4000ns dur=1204000ns ret=DONE" \
	bash -c '"$1" report --passes -n --console "$2" | grep tts_' _ "$CS" "$TMP/shutdown.log"
expect_out shutdown.ms "    1. tts_notify_reboot prio=0 start=0ms dur=1ms ret=DONE" \
	bash -c '"$1" report --passes -m --console "$2" | grep tts_' _ "$CS" "$TMP/shutdown.log"

# --- the same as JSON, times in ns -------------------------------------------
# shape JSON: one line per pass, "chain kind val dur ret/result [cb prio start dur ret/result]..."
shape() {
	python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert d["type"] == "passes", d["type"]
def cb(c):
    return "%s %d %d %s %s" % (c["callback"], c["priority"], c["start_ns"],
                              c.get("duration_ns", "unfinished" if c.get("unfinished") else "untimed"),
                              "%d/%s" % (c["ret"], c["result"]) if "ret" in c else "-")
for p in d["passes"]:
    print("%s %s %d %s %s %s %s | %s" % (p["chain"], p["kind"], p["val"], p["ts_ns"],
          p.get("duration_ns", "unfinished"), "%d/%s" % (p["ret"], p["result"]) if "ret" in p else "-",
          p["ctx"], " | ".join(cb(c) for c in p["callbacks"])))
print("unpaired=%d unfinished=%d lost=%d" % (d["unpaired"], d["unfinished"], d["lost"]))' "$1" 2>&1
}
run "$CS" report --passes -j --console "$TMP/shutdown.log"
got=$(shape "$out")
WANT="0xc0ffee11 blocking 3 229000000000 1249000 0/ok task | tts_notify_reboot 0 4000 1204000 0/ok | perf_reboot -2147483648 1210000 37000 0/ok
0x7ab1e222 blocking 0 229400000000 56000 0/ok task | sys_off_notify 224 3000 51000 0/ok
0x51de333 atomic 0 229500100000 unfinished - task | sys_off_notify 224 2000 unfinished -
unpaired=0 unfinished=2 lost=0"
if [ "$rc" = 0 ] && [ "$got" = "$WANT" ]; then
	pass shutdown.json
else
	fail shutdown.json "exit $rc: $(diff <(echo "$WANT") <(echo "$got") | head -n 6)"
fi

# --- a pass called from inside a callback lies inside it ---------------------
WANT="pass 1: chain 0xa1b2c3d4 (blocking, plain) val=0 t=2.000000 dur=2020us callbacks=3 ret=OK
    1. cs_cb_fast prio=10 start=1us dur=100us ret=OK
    2. cs_cb_busy prio=5 start=200us dur=500us ret=OK
        pass: chain 0x5e6f7081 (raw, plain) val=7 start=210us dur=32us callbacks=1 ret=DONE
            1. cs_cb_inner prio=0 start=211us dur=30us ret=DONE
    3. cs_cb_veto prio=0 start=2000us dur=10us ret=OK"
expect_out nested.text "$WANT" \
	bash -c '"$1" report --passes --console "$2" | sed -n 2,7p' _ "$CS" "$TMP/clean.log"
run "$CS" report --passes -j --console "$TMP/clean.log"
got=$(python3 -c '
import json, sys
d = json.loads(sys.argv[1])["passes"]
q = d[1]
print(d[0]["depth"], d[0].get("parent"), q["depth"], q["parent"], q["parent_callback"],
      d[0]["callbacks"][q["parent_callback"]]["callback"], q["chain"], q["kind"], q["val"],
      q["start_ns"], [c["callback"] for c in q["callbacks"]], d[2]["depth"], d[2]["val"])' "$out" 2>&1)
if [ "$got" = "0 None 1 0 1 cs_cb_busy 0x5e6f7081 raw 7 210000 ['cs_cb_inner'] 0 1" ]; then
	pass nested.json
else
	fail nested.json "$got"
fi

# --- every pass of real and generated traces: its callbacks as it counted them
# (unless one's return was lost),
# passes in start order, each callback's start inside its pass
consistent() {
	python3 -c '
import json, sys
d = json.loads(sys.argv[1])
bad, last, ps = [], -1, d["passes"]
for i, p in enumerate(ps):
    cbs = p["callbacks"]
    # a callback whose return was lost is unfinished: the kernel counted it with the next
    if "nr_calls" in p and p["nr_calls"] != len(cbs) and not any(c.get("unfinished") for c in cbs):
        bad.append("%s at %d: nr_calls=%d, %d callbacks" % (p["chain"], p["ts_ns"], p["nr_calls"], len(cbs)))
    for a, b in zip(cbs, cbs[1:]):
        if b["start_ns"] < a["start_ns"]:
            bad.append("%s at %d: %s starts before %s" % (p["chain"], p["ts_ns"], b["callback"], a["callback"]))
    for c in cbs:
        if "duration_ns" in p and c["start_ns"] > p["start_ns"] + p["duration_ns"]:
            bad.append("%s starts after its pass ended" % c["callback"])
    if p["depth"] == 0:
        if "parent" in p or p["ts_ns"] < last:
            bad.append("top-level pass at %d: parent, or after one at %d" % (p["ts_ns"], last))
        last = p["ts_ns"]
        continue
    q = ps[p["parent"]] if 0 <= p["parent"] < i else None
    if not q or q["depth"] != p["depth"] - 1 or not 0 <= p["parent_callback"] < len(q["callbacks"]) \
            or q["callbacks"][p["parent_callback"]]["start_ns"] > p["start_ns"]:
        bad.append("nested pass %d: parent %s/%s" % (i, p["parent"], p["parent_callback"]))
n = len(ps)
print("; ".join(bad[:3]) if bad else "ok %d" % n)' "$1" 2>&1
}
"$GENTRACE" clean "$TMP/clean.cstrace" || fail gen.cstrace "cs-gentrace failed"
"$GENTRACE" timeline "$TMP/timeline.cstrace" || fail gen.cstrace "cs-gentrace failed"
for f in "$HERE/../data/tracefs-ours-612.txt" "$TMP/clean.cstrace" "$TMP/timeline.cstrace" \
	"$HERE"/../data/real-*.cstrace; do
	n=$(basename "$f")
	n=${n%.*}
	c=()
	case $f in *.txt) c=(--console) ;; esac
	run "$CS" report --passes -j "${c[@]}" "$f"
	got=$(consistent "$out")
	# shellcheck disable=SC2015
	[ "$rc" = 0 ] && [[ "$got" = "ok "* ]] && [ "${got#ok }" -gt 0 ] &&
		pass "consistent.$n" || fail "consistent.$n" "exit $rc: $got ${err:0:200}"
done
# the tracefs text: one pass per notifier_call_begin line
want=$(grep -c 'notifier_call_begin: ' "$HERE/../data/tracefs-ours-612.txt")
run "$CS" report --passes --console "$HERE/../data/tracefs-ours-612.txt"
got=$(grep -cE '^ *pass( [0-9]+)?: ' <<<"$out")
if [ "$rc" = 0 ] && [ "$got" = "$want" ]; then
	pass tracefs.count
else
	fail tracefs.count "exit $rc: $got passes, want $want"
fi

# --- usage: one line, exit 2 --------------------------------------------------
expect_exit usage.openmetrics 2 '--passes and --openmetrics exclude each other' \
	"$CS" report --passes --openmetrics "$TMP/clean.cstrace"
expect_exit usage.perfetto-stdout 2 "--passes and an export to '-' both want stdout" \
	"$CS" report --passes --perfetto - "$TMP/clean.cstrace"
expect_exit usage.folded-stdout 2 "--passes and an export to '-' both want stdout" \
	"$CS" report --passes --folded - "$TMP/clean.cstrace"
expect_exit usage.argument 2 "passes" "$CS" report --passes=x "$TMP/clean.cstrace"
# an export into a file goes along
run "$CS" report --passes --perfetto "$TMP/p.json" "$TMP/clean.cstrace"
if [ "$rc" = 0 ] && [ -s "$TMP/p.json" ] && grep -q '^pass 1: chain test_chain' <<<"$out"; then
	pass with-perfetto-file
else
	fail with-perfetto-file "exit $rc: ${out:0:200} ${err:0:200}"
fi
exit 0
