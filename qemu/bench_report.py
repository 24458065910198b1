#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Aggregate qemu/bench.sh runs into bench.json and bench.md.

    qemu/bench_report.py [options] DIR

DIR is a qemu/bench.sh output folder: DIR/runs.tsv lists the boots in the
order they ran, DIR/runs/NAME/guest/bench/results.txt holds the cs_bench
result lines of each (format: top of kernel/modules/cs_bench/cs_bench.c),
DIR/ext/NAME/result.json the results of extension measurements (made by
--ext NAME from the guest output with qemu/bench_ext.py), DIR/size/ the
bloat-o-meter output of the size part.

    qemu/bench_report.py --merge KERNEL=DIR [--merge ...] [--docs FILE] TOP

writes TOP/bench.md from the bench.md of each kernel's DIR (and the
marked region of FILE), and TOP/bench.json with each kernel's summary.

Statistics, per point (variant, chain kind, chain length):
  * per boot, "call" is the minimum over its timed loops of
    (loop ns - ktime pair overhead) / iterations: under icount the loops
    are deterministic and a loop only gets longer when a timer tick lands
    in it, so the minimum is the tick-free cost.  "reg"/"unreg" likewise
    take the minimum over repetitions, except where an RCU/SRCU grace
    period is waited for (atomic/srcu unregister, sync): there the median.
  * across boots: min / median / max of the per-boot values; spread =
    (max - min) / median.  ratio = chainscope median / stock median.
  * contention: calls/s of each run (sum over caller threads / elapsed);
    median, min, max over all repetitions of all boots; a chainscope/stock
    difference counts as resolved if a two-sided Mann-Whitney U test
    gives p < ALPHA.
Standard library only.
"""

import argparse
import datetime
import json
import math
import os
import re
import statistics
import sys

from bench_ext import EXT_BUILDERS, ReportError, fmt, parse_line, rc_smoke_problems

# Targets (issue 11): an (un)registration not bound by a grace period
# within 1.05x of stock at every n; a call within one guest instruction
# of stock (2 ns under icount shift=1).
TARGET = 1.05
CALL_TARGET_INSTR = 1
ALPHA = 0.01	# contention: difference resolved if Mann-Whitney p < ALPHA
KINDS = ["atomic", "blocking", "raw", "srcu"]
VARIANTS = ["stock", "chainscope"]
# (kind, op) pairs whose time is dominated by a grace-period wait.
GP_BOUND = {("atomic", "unreg"), ("srcu", "unreg")}
RATIO_NOTE = ("TCG numbers are only meaningful as ratios (chainscope/stock); "
              "under icount (shift=1) 1 ns = 0.5 guest instructions.")
EXT_SECTIONS = [
    ("tracing_cost", "(2) Tracing cost per callback: chainscope latency "
     "(tracepoints and probes mode) vs fentry/fexit vs kprobe/kretprobe vs "
     "kprobe.multi", "ext_tracing_cost"),
    ("attach_time", "(3) Attach time for 10, 100 and 1000 watched callbacks: "
     "kprobe.multi vs fentry/fexit vs kprobe per callback", "ext_attach_time"),
    ("recorder_throughput", "(4) Recorder throughput", "ext_recorder_throughput"),
    ("contention_cost", "(5) Lock waits from lock:contention_*: what "
     "`chainscope contention` costs and answers", "ext_contention_cost"),
    ("recorder_compare", "(6) Three recorders, one event stream: chainscope "
     "record vs perf record vs trace-cmd record", "ext_recorder_compare"),
]


REQUIRED = {
    "call": ["kind", "n", "iters", "ovh", "ns"],
    "reg": ["kind", "n", "reps", "ovh", "reg_ns", "unreg_ns"],
    "sync": ["reps", "ovh", "rcu_ns", "srcu_ns"],
    "contend": ["callers", "writer", "n", "ms", "elapsed_ns", "calls", "writes",
                "trace", "rep"],
}


def load_runs(out):
    tsv = os.path.join(out, "runs.tsv")
    runs = []
    if not os.path.exists(tsv):
        return runs
    with open(tsv) as f:
        for order, line in enumerate(f):
            cols = line.rstrip("\n").split("\t")
            if len(cols) < 8:
                raise ReportError(f"{tsv}: bad line {order + 1}")
            name, variant, plan, smp, qemu, rc, wall, load = cols[:8]
            run = {"name": name, "variant": variant, "plan": plan,
                   "smp": int(smp), "qemu_args": qemu, "exit": int(rc),
                   "wall_s": int(wall), "host_loadavg": load,
                   "stage": name.split("-")[0], "order": order,
                   "meta": {}, "records": []}
            base = os.path.join(out, "runs", name, "guest", "bench")
            meta = os.path.join(base, "meta.txt")
            if os.path.exists(meta):
                with open(meta) as m:
                    for ml in m:
                        if "=" in ml:
                            k, v = ml.rstrip("\n").split("=", 1)
                            run["meta"][k] = v
            res = os.path.join(base, "results.txt")
            if run["exit"] == 0:
                if not os.path.exists(res):
                    raise ReportError(f"{res} missing")
                with open(res) as r:
                    for rl in r:
                        rec = parse_line(rl)
                        if rec is None:
                            continue
                        want = REQUIRED.get(rec["type"])
                        if want is None:
                            raise ReportError(f"{res}: unknown record '{rec['type']}'")
                        missing = [k for k in want if k not in rec]
                        if missing:
                            raise ReportError(f"{res}: {rec['type']} record lacks {missing}")
                        run["records"].append(rec)
            runs.append(run)
    return runs


def stats(vals):
    if not vals:
        return None
    med = statistics.median(vals)
    return {"n": len(vals), "min": min(vals), "median": med, "max": max(vals),
            "spread": (max(vals) - min(vals)) / med if med else 0.0,
            "values": vals}


def fit(xs, ys):
    """Least squares y = a + b x; returns (b, a, r2)."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return None
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    a = my - b * mx
    ss_tot = sum((y - my) ** 2 for y in ys)
    ss_res = sum((y - a - b * x) ** 2 for x, y in zip(xs, ys))
    return b, a, (1 - ss_res / ss_tot) if ss_tot else 1.0


def summarize(runs):
    per = {}   # (section, variant, kind, n, op) -> [per-boot values]
    sync = {}  # (variant, which) -> [per-boot medians]
    cont = {}  # (variant, trace, callers, writer) -> list of runs
    for run in runs:
        v = run["variant"]
        for rec in run["records"]:
            t = rec["type"]
            if t == "call" and run["stage"] == "icount":
                per_chunk = [(x - rec["ovh"]) / rec["iters"] for x in rec["ns"]]
                per.setdefault(("call", v, rec["kind"], rec["n"], "call"), []).append(min(per_chunk))
            elif t == "reg" and run["stage"] == "icount":
                for op in ("reg", "unreg"):
                    xs = [x - rec["ovh"] for x in rec[op + "_ns"]]
                    gp = (rec["kind"], op) in GP_BOUND
                    val = statistics.median(xs) if gp else min(xs)
                    per.setdefault(("reg", v, rec["kind"], rec["n"], op), []).append(val)
            elif t == "sync" and run["stage"] == "icount":
                for which in ("rcu", "srcu"):
                    xs = [x - rec["ovh"] for x in rec[which + "_ns"]]
                    sync.setdefault((v, which), []).append(statistics.median(xs))
            elif t == "contend":
                calls = sum(rec["calls"])
                secs = rec["elapsed_ns"] / 1e9
                if secs <= 0:
                    raise ReportError(f"{run['name']}: contend record with elapsed_ns=0")
                cont.setdefault((v, rec["trace"], rec["callers"], rec["writer"]), []).append({
                    "run": run["name"], "stage": run["stage"], "rep": rec["rep"],
                    "calls_per_s": calls / secs, "writes_per_s": rec["writes"] / secs,
                    "n": rec["n"], "ms": rec["ms"]})

    summary = {"calls": [], "reg": [], "sync": [], "slopes": [],
               "contention": [], "scaling": [], "missed": []}
    points = sorted({(k[2], k[3]) for k in per if k[0] == "call"},
                    key=lambda p: (KINDS.index(p[0]) if p[0] in KINDS else 9, p[1]))
    for kind, n in points:
        row = {"kind": kind, "n": n}
        for v in VARIANTS:
            row[v] = stats(per.get(("call", v, kind, n, "call"), []))
        row["ratio"] = ratio(row)
        row["verdict"] = call_verdict(row)
        if row["verdict"] == "MISSED":
            summary["missed"].append(f"call {kind} n={n}: ratio {row['ratio']:.4f}")
        summary["calls"].append(row)

    rpoints = sorted({(k[2], k[3]) for k in per if k[0] == "reg"},
                     key=lambda p: (KINDS.index(p[0]) if p[0] in KINDS else 9, p[1]))
    for kind, n in rpoints:
        for op in ("reg", "unreg"):
            row = {"kind": kind, "n": n, "op": op,
                   "gp_bound": (kind, op) in GP_BOUND}
            for v in VARIANTS:
                row[v] = stats(per.get(("reg", v, kind, n, op), []))
            row["ratio"] = ratio(row)
            row["verdict"] = verdict(row["ratio"], row["gp_bound"])
            if row["verdict"] == "MISSED":
                summary["missed"].append(f"{op} {kind} n={n}: ratio {row['ratio']:.4f}")
            summary["reg"].append(row)

    for which in ("rcu", "srcu"):
        row = {"what": f"synchronize_{which}()"}
        for v in VARIANTS:
            row[v] = stats(sync.get((v, which), []))
        row["ratio"] = ratio(row)
        summary["sync"].append(row)

    # n = 0 is left out of the fit: an empty chain takes an early exit in
    # both variants (blocking: without touching the rwsem).
    for kind in KINDS:
        row = {"kind": kind}
        for v in VARIANTS:
            pts = [(r["n"], r[v]["median"]) for r in summary["calls"]
                   if r["kind"] == kind and r[v] and r["n"] > 0]
            f = fit([p[0] for p in pts], [p[1] for p in pts]) if len(pts) >= 2 else None
            row[v] = None if f is None else {"slope_ns": f[0], "intercept_ns": f[1],
                                            "r2": f[2], "sizes": [p[0] for p in pts]}
        if row["stock"] and row["chainscope"]:
            row["slope_ratio"] = row["chainscope"]["slope_ns"] / row["stock"]["slope_ns"]
        else:
            row["slope_ratio"] = None
        if row["stock"] or row["chainscope"]:
            summary["slopes"].append(row)

    keys = sorted({(k[1], k[2], k[3]) for k in cont})
    for trace, callers, writer in keys:
        row = {"trace": trace, "callers": callers, "writer": writer}
        for v in VARIANTS:
            rs = cont.get((v, trace, callers, writer), [])
            row[v] = stats([r["calls_per_s"] for r in rs])
            row[v + "_writes"] = stats([r["writes_per_s"] for r in rs]) if writer else None
        row["cost_ratio"] = None
        row["resolved"] = None
        if row["stock"] and row["chainscope"]:
            row["cost_ratio"] = row["stock"]["median"] / row["chainscope"]["median"]
            s, c = row["stock"], row["chainscope"]
            row["p_value"] = mann_whitney_p(s["values"], c["values"])
            row["resolved"] = row["p_value"] < ALPHA
        summary["contention"].append(row)
    # Tracing on vs off, chainscope.
    for row in summary["contention"]:
        if row["trace"] != "on" or not row["chainscope"]:
            continue
        off = next((r for r in summary["contention"] if r["trace"] == "off" and
                    r["callers"] == row["callers"] and r["writer"] == row["writer"]), None)
        if off and off["chainscope"]:
            row["on_off_cost"] = off["chainscope"]["median"] / row["chainscope"]["median"]

    for v in VARIANTS:
        rates = {}
        for row in summary["contention"]:
            if row["trace"] == "off" and row["writer"] == 0 and row[v]:
                rates[row["callers"]] = row[v]
        if rates:
            base = rates.get(1)
            summary["scaling"].append({
                "variant": v,
                "calls_per_s": {str(c): s["median"] for c, s in sorted(rates.items())},
                "speedup": {str(c): (s["median"] / base["median"] if base else None)
                            for c, s in sorted(rates.items())}})
    return summary, cont


def mann_whitney_p(a, b):
    """Two-sided p of the Mann-Whitney U test (normal approximation)."""
    n1, n2 = len(a), len(b)
    if n1 < 3 or n2 < 3:
        return 1.0
    pooled = sorted([(x, 0) for x in a] + [(x, 1) for x in b])
    ranks = [0.0] * len(pooled)
    i = 0
    while i < len(pooled):
        j = i
        while j + 1 < len(pooled) and pooled[j + 1][0] == pooled[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        i = j + 1
    r1 = sum(r for r, (_, g) in zip(ranks, pooled) if g == 0)
    u = r1 - n1 * (n1 + 1) / 2
    sigma = math.sqrt(n1 * n2 * (n1 + n2 + 1) / 12)
    z = (u - n1 * n2 / 2) / sigma
    return math.erfc(abs(z) / math.sqrt(2))


def ratio(row):
    s, c = row.get("stock"), row.get("chainscope")
    if not s or not c or not s["median"]:
        return None
    return c["median"] / s["median"]


def call_verdict(row):
    s, c = row.get("stock"), row.get("chainscope")
    if not s or not c:
        return "-"
    return "ok" if (c["median"] - s["median"]) / 2 <= CALL_TARGET_INSTR else "MISSED"


def verdict(r, gp_bound):
    if r is None:
        return "-"
    if gp_bound:
        return "not judged (grace period)"
    return "ok" if r <= TARGET else "MISSED"


def cell(s, digits=1):
    if not s:
        return "-"
    if s["n"] == 1:
        return fmt(s["median"], digits)
    return f"{fmt(s['median'], digits)} [{fmt(s['min'], digits)}..{fmt(s['max'], digits)}]"


def pct(s):
    if not s:
        return "-"
    return f"{100 * s['spread']:.2f}%"


def table(header, rows):
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join("---" for _ in header) + "|"]
    for r in rows:
        out.append("| " + " | ".join(str(x) for x in r) + " |")
    return out


def load_extensions(out):
    ext = {}
    for name, _title, _fn in EXT_SECTIONS:
        p = os.path.join(out, "ext", name, "result.json")
        if os.path.exists(p):
            with open(p) as f:
                try:
                    ext[name] = json.load(f)
                except json.JSONDecodeError as e:
                    raise ReportError(f"{p}: {e}")
    return ext


BOM_HEAD = re.compile(r"^add/remove: (\d+)/(\d+) grow/shrink: (\d+)/(\d+) "
                      r"up/down: (\d+)/(-?\d+) \((-?\d+)\)$")
BOM_TOTAL = re.compile(r"^Total: Before=(\d+), After=(\d+), chg ([-+]?[\d.]+)%$")
BOM_ROW = re.compile(r"^(\S+)\s+(-|\d+)\s+(-|\d+)\s+([-+]\d+)$")


def parse_bloat(path):
    """One bloat-o-meter output: header counts, totals, per-symbol rows."""
    res = {"rows": []}
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            m = BOM_HEAD.match(line)
            if m:
                g = [int(x) for x in m.groups()]
                res.update(add=g[0], remove=g[1], grow=g[2], shrink=g[3],
                           up=g[4], down=g[5], delta=g[6])
                continue
            m = BOM_TOTAL.match(line)
            if m:
                res.update(before=int(m.group(1)), after=int(m.group(2)),
                           change_pct=float(m.group(3)))
                continue
            m = BOM_ROW.match(line)
            if m and m.group(1) not in ("Function", "Data", "RO"):
                res["rows"].append({
                    "symbol": m.group(1),
                    "old": None if m.group(2) == "-" else int(m.group(2)),
                    "new": None if m.group(3) == "-" else int(m.group(3)),
                    "delta": int(m.group(4))})
    if "delta" not in res or "before" not in res:
        raise ReportError(f"{path}: not bloat-o-meter output (no summary or Total line)")
    return res


def load_size(out):
    """The size part's results, None if it did not run."""
    d = os.path.join(out, "size")
    if not os.path.isdir(d):
        return None
    miss = os.path.join(d, "missing.txt")
    if os.path.exists(miss):
        with open(miss) as f:
            return {"missing": f.read().strip()}
    res = {}
    res["notifier_text"] = parse_bloat(os.path.join(d, "notifier-text.txt"))
    vml = os.path.join(d, "vmlinux-text.txt")
    res["vmlinux_text"] = parse_bloat(vml) if os.path.exists(vml) else None
    p = os.path.join(d, "notifier-size.txt")
    with open(p) as f:
        res["size_lines"] = [ln.rstrip("\n") for ln in f if ln.strip()]
    return res


def render_size(size):
    L = ["## 0. Text size: bloat-o-meter, stock -> chainscope", ""]
    if size.get("missing"):
        L += [f"Not measured: {size['missing']}.", ""]
        return L
    rows = []
    for what, key in (("kernel/notifier.o", "notifier_text"),
                      ("vmlinux", "vmlinux_text")):
        b = size[key]
        if b is None:
            rows.append([what, "-", "-", "-", "-", "-",
                         "not measured (no vmlinux.nodebug in an out dir)"])
            continue
        rows.append([what, b["before"], b["after"], f"{b['delta']:+d}",
                     f"{b['change_pct']:+.2f}%",
                     f"{b['add']}/{b['remove']}", f"{b['grow']}/{b['shrink']}"])
    L.append("`scripts/bloat-o-meter -t` of the kernel tree (functions, i.e. "
             "text symbols: t/T, and w/W on 6.12), stock against chainscope, "
             "same tree and config; vmlinux without DWARF "
             "(`vmlinux.nodebug`, kept by kernel/build.sh).")
    L.append("")
    L += table(["object", "stock bytes", "chainscope bytes", "delta",
                "change", "added/removed", "grown/shrunk"], rows)
    L.append("")
    L.append("Per function in kernel/notifier.o (bytes; `-` = absent):")
    L.append("")
    nrows = [[r["symbol"], "-" if r["old"] is None else r["old"],
              "-" if r["new"] is None else r["new"], f"{r['delta']:+d}"]
             for r in size["notifier_text"]["rows"]]
    L += table(["function", "stock", "chainscope", "delta"], nrows)
    L.append("")
    L.append("`size` of the two objects (text includes the tracepoint and "
             "event code; data the event definitions):")
    L.append("")
    L.append("```")
    L += size["size_lines"]
    L.append("```")
    L.append("")
    return L


def render_calls(runs, summary):
    """Section 1: call cost with tracepoints off."""
    if not summary["calls"]:
        return []
    ic = [r for r in runs if r["stage"] == "icount"]
    L = []
    L.append("## 1. Call cost, tracepoints off (icount, `-smp 1`)")
    L.append("")
    L.append(f"ns per `*_notifier_call_chain()` with n empty callbacks, median "
             f"[min..max] over {len(ic) // 2 or len(ic)} boot(s) per variant; "
             "spread = (max-min)/median across boots. " + RATIO_NOTE)
    L.append("")
    rows = []
    for r in summary["calls"]:
        rows.append([r["kind"], r["n"], cell(r["stock"]), cell(r["chainscope"]),
                     fmt(r["ratio"], 4), r["verdict"],
                     f"{pct(r['stock'])} / {pct(r['chainscope'])}",
                     instr_delta(r)])
    L += table(["kind", "n", "stock ns", "chainscope ns", "ratio",
                f"<= +{CALL_TARGET_INSTR} instr", "spread st/cs", "instr/call cs-st"], rows)
    L.append("")
    return L


def render_reg(summary):
    """Section 1b: (un)registration cost, and grace periods alone."""
    if not summary["reg"]:
        return []
    L = []
    L.append("## 1b. Register / unregister cost against chain length (icount)")
    L.append("")
    L.append("One more block of the chain's priority registered (it goes behind "
             "all n, so the list walk covers the whole chain) and unregistered "
             "again, each timed alone. raw = the list cost alone; atomic "
             "register = spinlock + list; atomic unregister also waits in "
             "synchronize_rcu() and srcu unregister in synchronize_srcu(): those "
             "rows are grace-period bound (median of repetitions, not judged; "
             "grace periods alone in the next table); every other row is the "
             "minimum over repetitions. " + RATIO_NOTE)
    L.append("")
    rows = []
    for r in summary["reg"]:
        rows.append([r["op"], r["kind"], r["n"], cell(r["stock"]),
                     cell(r["chainscope"]), fmt(r["ratio"], 4), r["verdict"]])
    L += table(["op", "kind", "n", "stock ns", "chainscope ns", "ratio",
                f"<= {TARGET}"], rows)
    L.append("")
    if any(r["stock"] or r["chainscope"] for r in summary["sync"]):
        rows = [[r["what"], cell(r["stock"], 0), cell(r["chainscope"], 0),
                 fmt(r["ratio"], 4)] for r in summary["sync"]]
        L.append("Grace periods alone (median per boot, then median [min..max] "
                 "over boots; under icount with sleep=off idle time is skipped "
                 "but counted). " + RATIO_NOTE)
        L.append("")
        L += table(["wait", "stock ns", "chainscope ns", "ratio"], rows)
        L.append("")
    return L


def render_slopes(summary):
    """Section 5a: the fitted cost per callback."""
    if not summary["slopes"]:
        return []
    L = []
    L.append("## 5a. Scaling with chain length: fitted slope (icount)")
    L.append("")
    L.append("Least squares of median ns/call against n over the sizes "
             "measured with n >= 1 (an empty chain takes an early exit in both "
             "variants): slope = ns per callback, intercept = fixed cost of a "
             "call on a non-empty chain. " + RATIO_NOTE)
    L.append("")
    rows = []
    for r in summary["slopes"]:
        s, c = r["stock"], r["chainscope"]
        rows.append([r["kind"],
                     fmt(s and s["slope_ns"], 3), fmt(c and c["slope_ns"], 3),
                     fmt(r["slope_ratio"], 4),
                     fmt(s and s["intercept_ns"], 1), fmt(c and c["intercept_ns"], 1),
                     f"{fmt(s and s['r2'], 6)} / {fmt(c and c['r2'], 6)}"])
    L += table(["kind", "stock ns/cb", "chainscope ns/cb", "slope ratio",
                "stock intercept", "chainscope intercept", "r2 st/cs"], rows)
    L.append("")
    return L


def render_contention(runs, summary):
    """Section 3: callers against a writer."""
    if not summary["contention"]:
        return []
    co = [r for r in runs if r["stage"] == "contention"]
    L = []
    L.append("## 3. Contention: blocking chain, callers vs a writer (plain TCG, `-smp 2`)")
    L.append("")
    nb = {v: len([r for r in co if r["variant"] == v]) for v in VARIANTS}
    L.append(f"Calls/s summed over the caller kthreads, median [min..max] over "
             f"every repetition of {nb['stock']} stock and {nb['chainscope']} "
             "chainscope boot(s), configurations interleaved within each boot. "
             "Writer: one kthread registering and unregistering a block in a "
             "loop (writes/s). cost ratio = stock calls/s / chainscope calls/s "
             "(> 1: chainscope slower); p = two-sided Mann-Whitney U test of the "
             f"two samples, \"resolved\" if p < {ALPHA}. Tracing on = every notifier event "
             "enabled via tracefs, chainscope only. Plain TCG time is host "
             "time: host load (runs.tsv) moves these numbers. " + RATIO_NOTE)
    L.append("")
    rows = []
    for r in summary["contention"]:
        rows.append([r["trace"], r["callers"], "yes" if r["writer"] else "no",
                     cell(r["stock"], 0), cell(r["chainscope"], 0),
                     fmt(r["cost_ratio"], 3),
                     "-" if r["resolved"] is None else
                     f"{r['p_value']:.2g} ({'resolved' if r['resolved'] else 'not resolved'})",
                     fmt(r.get("on_off_cost"), 2) if r["trace"] == "on" else "",
                     cell(r["stock_writes"], 0) if r["writer"] else "",
                     cell(r["chainscope_writes"], 0) if r["writer"] else ""])
    L += table(["tracing", "callers", "writer", "stock calls/s",
                "chainscope calls/s", "cost ratio", "p", "on/off cost",
                "stock writes/s", "chainscope writes/s"], rows)
    L.append("")
    return L


def render_scaling(summary):
    """Section 5b: calls/s against caller threads."""
    if not summary["scaling"]:
        return []
    L = []
    L.append("## 5b. Scaling with caller threads: blocking chain, no writer, tracing off")
    L.append("")
    L.append("Median calls/s (plain TCG, `-smp 2`). " + RATIO_NOTE)
    L.append("")
    cs = sorted({c for s in summary["scaling"] for c in s["calls_per_s"]}, key=int)
    rows = []
    for s in summary["scaling"]:
        rows.append([s["variant"]] + [fmt(s["calls_per_s"].get(c), 0) for c in cs] +
                    [fmt(s["speedup"].get(c), 2) for c in cs[1:]])
    L += table(["variant"] + [f"{c} caller(s)" for c in cs] +
               [f"speedup x{c}" for c in cs[1:]], rows)
    L.append("")
    return L


def render_extensions(ext):
    """The extensions' sections, each from its result.json."""
    L = []
    L.append("## Extensions")
    L.append("")
    if not ext:
        L.append("Not measured in this run: qemu/bench.sh runs the extensions "
                 "(the CLI's tracing cost, attach time, recorder throughput) on "
                 "the first kernel of -K only; `-K KERNEL -s ext` runs them here.")
        L.append("")
        return L
    for name, title, fn in EXT_SECTIONS:
        L.append(f"### {title}")
        L.append("")
        e = ext.get(name)
        if not e:
            L.append(f"Not measured yet: implement `{fn}` in qemu/bench.sh "
                     f"(writes ext/{name}/result.json).")
            L.append("")
            continue
        if e.get("title"):
            L.append(e["title"])
            L.append("")
        if e.get("columns"):
            L += table(e["columns"], e.get("rows", []))
            L.append("")
        # further tables of an extension: {"title", "columns", "rows"}
        for t in e.get("tables", []):
            if t.get("title"):
                L.append(t["title"])
                L.append("")
            L += table(t["columns"], t.get("rows", []))
            L.append("")
        for note in e.get("notes", []):
            L.append(f"- {note}")
        # An extension that states its own units and basis sets
        # "ratio_note": false (the chainscope/stock note does not apply).
        if e.get("ratio_note", True):
            L.append(f"_{RATIO_NOTE}_")
        L.append("")
    return L


def render(meta, runs, summary, ext, size=None):
    """bench.md: the header, then one section per measurement."""
    L = []
    L.append("# Notifier chain benchmarks: chainscope core vs stock "
             f"{meta.get('linux') or 'Linux'}")
    L.append("")
    L.append(f"Produced by `{meta['command']}` on {meta['date']} "
             f"(host: {meta['host_cpus']} CPUs, QEMU TCG, no KVM).")
    kern = ", ".join(f"{k} `{v}`" for k, v in meta["kernels"].items())
    if kern:
        L.append(f"Kernels (build hashes): {kern}.")
    L.append("")
    L.append(f"> **{RATIO_NOTE}**")
    L.append("")
    L.append("Boots, in the order they ran (A B A B): " +
             ", ".join(f"{r['name']} ({r['wall_s']} s{'' if r['exit'] == 0 else ', FAILED'})"
                       for r in runs) + ".")
    L.append("")
    missed = summary["missed"]
    if missed:
        groups = {}
        for m in missed:
            what, rest = m.split(" n=", 1)
            n, r = rest.split(": ratio ")
            groups.setdefault(what, []).append(f"{n} ({float(r):.3f})")
        L.append(f"**Targets (calls: <= +{CALL_TARGET_INSTR} instruction; "
                 f"(un)registration: chainscope/stock <= {TARGET}): MISSED at {len(missed)} "
                 "point(s)**, as n (ratio): " +
                 "; ".join(f"{w}: {', '.join(v)}" for w, v in groups.items()) + ".")
    elif summary["calls"]:
        L.append(f"**Targets (calls: <= +{CALL_TARGET_INSTR} instruction; "
                 f"(un)registration: chainscope/stock <= {TARGET}): met at every "
                 "judged point.**")
    L.append("")
    if size:
        L += render_size(size)

    L += render_calls(runs, summary)
    L += render_reg(summary)
    L += render_slopes(summary)
    L += render_contention(runs, summary)
    L += render_scaling(summary)
    L += render_extensions(ext)
    return "\n".join(L) + "\n"


def instr_delta(r):
    s, c = r.get("stock"), r.get("chainscope")
    if not s or not c:
        return "-"
    # shift=1: 2 ns per guest instruction.
    return f"{(c['median'] - s['median']) / 2:+.2f}"


def check_smoke(runs, summary):
    problems = []
    for v in VARIANTS:
        recs = [rec for r in runs if r["variant"] == v for rec in r["records"]]
        for t in ("call", "reg", "sync", "contend"):
            if not any(rec["type"] == t for rec in recs):
                problems.append(f"no {t} result from {v}")
    if not summary["calls"] or any(r["ratio"] is None for r in summary["calls"]):
        problems.append("call points without a chainscope/stock ratio")
    if not summary["contention"]:
        problems.append("no contention summary")
    return problems


def update_docs(path, md, command):
    begin, end = "<!-- bench:begin -->", "<!-- bench:end -->"
    with open(path) as f:
        text = f.read()
    if begin not in text or end not in text:
        raise ReportError(f"{path} lacks the {begin} / {end} markers")
    body = md.split("\n", 2)[2] if md.startswith("# ") else md
    # One heading level down: the region sits inside a section.
    body = "\n".join("#" + line if line.startswith("##") else line
                     for line in body.split("\n"))
    new = (text[:text.index(begin) + len(begin)] + "\n" + body +
           text[text.index(end):])
    with open(path, "w") as f:
        f.write(new)


def merge(top, kernels, docs, command):
    """TOP/bench.md: each kernel's bench.md under its own heading."""
    parts, index = [], {}
    for kv in kernels:
        if "=" not in kv:
            raise ReportError(f"'{kv}' is not KERNEL=DIR")
        k, d = kv.split("=", 1)
        with open(os.path.join(d, "bench.md")) as f:
            md = f.read()
        with open(os.path.join(d, "bench.json")) as f:
            j = json.load(f)
        index[k] = {"dir": os.path.relpath(d, top), "missed": j["summary"]["missed"],
                    "size": j.get("size")}
        lines = md.split("\n")
        if lines and lines[0].startswith("# "):
            lines = lines[1:]
        lines = ["#" + ln if ln.startswith("#") else ln for ln in lines]
        parts.append(f"## Linux {k}: chainscope core vs stock {k}\n" + "\n".join(lines))
    L = ["# Notifier chain benchmarks: chainscope core vs stock, "
         + " and ".join(f"Linux {k}" for k in index), "",
         f"Produced by `{command}`. Each kernel is measured against its own "
         "stock build (same tree, same config); per-kernel data in "
         + ", ".join(f"`{v['dir']}/bench.json`" for v in index.values()) + ".", ""]
    rows = []
    for k, v in index.items():
        sz = v["size"] or {}
        nt = sz.get("notifier_text")
        vt = sz.get("vmlinux_text")
        rows.append([k, len(v["missed"]),
                     f"{nt['before']} -> {nt['after']} ({nt['delta']:+d})" if nt else "-",
                     f"{vt['delta']:+d} ({vt['change_pct']:+.2f}%)" if vt else "-"])
    L += table(["Linux", "points missing a target", "notifier.o text bytes",
                "vmlinux text"], rows)
    L.append("")
    md = "\n".join(L) + "\n" + "\n".join(parts)
    with open(os.path.join(top, "bench.md"), "w") as f:
        f.write(md)
    with open(os.path.join(top, "bench.json"), "w") as f:
        json.dump({"command": command, "kernels": index}, f, indent=1)
    if docs:
        update_docs(docs, md, command)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--ext", choices=sorted(EXT_BUILDERS),
                    help="only write DIR/result.json of this extension from DIR/runs")
    ap.add_argument("--command", default="qemu/bench.sh")
    ap.add_argument("--qemu-icount", default="-icount shift=1,sleep=off")
    ap.add_argument("--kernel", action="append", default=[],
                    help="VARIANT=BUILDHASH, repeatable")
    ap.add_argument("--smoke", action="store_true",
                    help="fail unless every record kind parsed for both variants "
                    "(with --ext recorder_compare: unless every recorder kept "
                    "exactly the load's events and lost none)")
    ap.add_argument("--docs", help="replace the marked region of this markdown file")
    ap.add_argument("--linux", help="the kernel tree measured (6.1, 6.12), for the title")
    ap.add_argument("--merge", action="append", metavar="KERNEL=DIR",
                    help="write DIR/bench.md from this kernel's bench.md "
                    "(repeatable, in order)")
    a = ap.parse_args()
    if a.merge:
        try:
            merge(a.dir, a.merge, a.docs, a.command)
        except (ReportError, OSError, ValueError) as e:
            print(f"bench_report.py: error: --merge: {e}", file=sys.stderr)
            return 1
        return 0
    if a.ext:
        try:
            res = EXT_BUILDERS[a.ext](a.dir)
            with open(os.path.join(a.dir, "result.json"), "w") as f:
                json.dump(res, f, indent=1)
            if a.smoke and a.ext == "recorder_compare":
                problems = rc_smoke_problems(res)
                if problems:
                    raise ReportError("; ".join(problems))
        except (ReportError, OSError, KeyError, ValueError) as e:
            print(f"bench_report.py: error: --ext {a.ext}: {e}", file=sys.stderr)
            return 1
        return 0
    try:
        runs = load_runs(a.dir)
        ext = load_extensions(a.dir)
        size = load_size(a.dir)
        if not runs and not ext and not size:
            raise ReportError(f"no boots listed in {a.dir}/runs.tsv and no "
                              "extension results")
        summary, cont = summarize(runs)
        # The date of the measurement: when the last boot was recorded.
        stamps = [os.path.join(a.dir, "runs.tsv")]
        stamps += [os.path.join(a.dir, "ext", n, "result.json") for n in ext]
        stamps += [os.path.join(a.dir, "size")]
        stamps = [p for p in stamps if os.path.exists(p)]
        stamp = max(stamps, key=os.path.getmtime)
        when = datetime.datetime.fromtimestamp(os.path.getmtime(stamp))
        meta = {"command": a.command, "date": when.isoformat(timespec="seconds"),
                "host_cpus": os.cpu_count(), "qemu_icount": a.qemu_icount,
                "kernels": dict(k.split("=", 1) for k in a.kernel),
                "target_ratio": TARGET, "call_target_instr": CALL_TARGET_INSTR,
                "linux": a.linux, "note": RATIO_NOTE,
                "statistics": __doc__.split("Statistics, ")[1].split("Standard library")[0].strip()}
        md = render(meta, runs, summary, ext, size)
        doc = {"meta": meta, "runs": runs, "summary": summary, "size": size,
               "contention_raw": [{"variant": k[0], "trace": k[1], "callers": k[2],
                                   "writer": k[3], "runs": v} for k, v in sorted(cont.items())],
               "extensions": ext}
        with open(os.path.join(a.dir, "bench.json"), "w") as f:
            json.dump(doc, f, indent=1)
        with open(os.path.join(a.dir, "bench.md"), "w") as f:
            f.write(md)
        if a.docs:
            update_docs(a.docs, md, a.command)
        if a.smoke:
            problems = check_smoke(runs, summary)
            if not size or size.get("missing"):
                problems.append("no size comparison" +
                                (f" ({size['missing']})" if size else ""))
            if problems:
                raise ReportError("; ".join(problems))
    except (ReportError, OSError) as e:
        print(f"bench_report.py: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
