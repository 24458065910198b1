#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The costs quoted in a series' cover letter, from the generated part of
docs/bench.md for one tree (mkpatches.sh costs()).

  series_costs.py BENCH_MD KVER
"""
import re, sys, textwrap
path, kver = sys.argv[1], sys.argv[2]
text = open(path).read()
m = re.search(r"^### Linux %s: .*?(?=^### |\Z)" % re.escape(kver), text, re.S | re.M)
if not m:
    print("  (no measurement of Linux %s in docs/bench.md: run make bench)" % kver)
    sys.exit(0)
sec = m.group(0)

def table(title):
    t = re.search(r"^#### %s.*?\n\n(?:.*?\n\n)?(\|.*?)(?:\n\n|\Z)" % re.escape(title), sec, re.S | re.M)
    if not t:
        return []
    rows = [r.strip().strip("|").split("|") for r in t.group(1).splitlines()]
    head = [c.strip() for c in rows[0]]
    return [dict(zip(head, [c.strip() for c in r])) for r in rows[2:]]

out = []
when = re.search(r"^Produced by .* on (\S+) ", sec, re.M)
if when:
    out.append("  Measured %s, %s." % (when.group(1)[:10], "Linux " + kver))
for r in table("0. Text size"):
    if r.get("object") in ("kernel/notifier.o", "vmlinux") and r.get("delta", "-") != "-":
        out.append("  text, %s: %s -> %s bytes (%s, %s)" % (r["object"], r["stock bytes"],
                   r["chainscope bytes"], r["delta"], r["change"]))
calls = table("1. Call cost")
slopes = {r.get("kind"): r for r in table("5a. Scaling")}
rows = []
for kind in ("atomic", "blocking", "raw", "srcu"):
    rs = [r for r in calls if r.get("kind") == kind and r.get("n") == "0"]
    sl = slopes.get(kind)
    if not rs or not sl:
        continue
    try:
        empty = float(rs[0]["instr/call cs-st"])
        st, cs = float(sl["stock ns/cb"]) / 2, float(sl["chainscope ns/cb"]) / 2
    except (KeyError, ValueError):
        continue
    rows.append("    %-8s  %+4.0f on an empty chain, then %2.0f per callback (stock %2.0f)"
                % (kind, empty, cs, st))
if rows:
    out.append("")
    out.append("  Calls, tracing off, in instructions against stock:")
    out.extend(rows)
worst = {}
for r in table("1b. Register / unregister"):
    if not r.get("<= 1.05", "").startswith(("ok", "MISSED")):
        continue
    k = "%s %s" % (r["op"], r["kind"])
    ratio = float(r["ratio"])
    if k not in worst or ratio > worst[k][0]:
        worst[k] = (ratio, r["n"])
if worst:
    out.append("")
    out.append("  (Un)registration without a grace period, tracing off, the worst")
    out.append("  ratio to stock over chains of 0 to 1024 blocks:")
    for k, (ratio, n) in sorted(worst.items()):
        out.append("    %-15s %.3f (n = %s)" % (k, ratio, n))
t = re.search(r"^\*\*Targets.*$", sec, re.M)
if t:
    out.append("")
    line = t.group(0).replace("**", "")
    line = re.sub(r"^Targets \(calls: <= \+1 instruction; \(un\)registration: chainscope/stock <= 1\.05\): ",
                  "Targets: every call within one instruction of stock, every (un)registration without a grace period within 1.05x of stock: ", line)
    line = re.sub(r"MISSED at (\d+) point\(s\), as n \(ratio\): ", r"missed at \1 point(s), chain length (ratio): ", line)
    out.extend(textwrap.wrap(line, 70, initial_indent="  ", subsequent_indent="  "))
print("\n".join(out))
