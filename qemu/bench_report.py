#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Aggregate qemu/bench.sh runs into bench.json and bench.md.

    qemu/bench_report.py [options] DIR

DIR is a qemu/bench.sh output folder: DIR/runs.tsv lists the boots in the
order they ran, DIR/runs/NAME/guest/bench/results.txt holds the cs_bench
result lines of each (format: top of kernel/modules/cs_bench/cs_bench.c),
DIR/ext/NAME/result.json the results of extension measurements.

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
import glob
import json
import math
import os
import re
import statistics
import sys

TARGET = 1.02
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
]


class ReportError(Exception):
    pass


def parse_value(key, text):
    if "," in text or key in ("ns", "reg_ns", "unreg_ns", "rcu_ns", "srcu_ns", "calls"):
        try:
            return [int(x) for x in text.split(",") if x != ""]
        except ValueError:
            raise ReportError(f"bad number list in {key}={text}")
    try:
        return int(text)
    except ValueError:
        return text


def parse_line(line):
    words = line.split()
    if not words:
        return None
    rec = {"type": words[0]}
    for w in words[1:]:
        if "=" not in w:
            raise ReportError(f"bad word '{w}' in result line: {line}")
        k, v = w.split("=", 1)
        rec[k] = parse_value(k, v)
    return rec


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
        row["verdict"] = verdict(row["ratio"], False)
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


def verdict(r, gp_bound):
    if r is None:
        return "-"
    if gp_bound:
        return "not judged (grace period)"
    return "ok" if r <= TARGET else "MISSED"


def fmt(x, digits=1):
    if x is None:
        return "-"
    return f"{x:,.{digits}f}"


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


def render(meta, runs, summary, ext):
    L = []
    L.append("# Notifier chain benchmarks: chainscope core vs stock 6.1")
    L.append("")
    L.append(f"Produced by `{meta['command']}` on {meta['date']} "
             f"(host: {meta['host_cpus']} CPUs, QEMU TCG, no KVM).")
    kern = ", ".join(f"{k} `{v}`" for k, v in meta["kernels"].items())
    if kern:
        L.append(f"Kernels (build hashes): {kern}.")
    ic = [r for r in runs if r["stage"] == "icount"]
    co = [r for r in runs if r["stage"] == "contention"]
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
        L.append(f"**Target chainscope/stock <= {TARGET}: MISSED at {len(missed)} "
                 "point(s)**, as n (ratio): " +
                 "; ".join(f"{w}: {', '.join(v)}" for w, v in groups.items()) + ".")
    elif summary["calls"]:
        L.append(f"**Target chainscope/stock <= {TARGET}: met at every judged point.**")
    L.append("")

    if summary["calls"]:
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
                    f"<= {TARGET}", "spread st/cs", "instr/call cs-st"], rows)
        L.append("")

    if summary["reg"]:
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

    if summary["slopes"]:
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

    if summary["contention"]:
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

    if summary["scaling"]:
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

    L.append("## Extensions")
    L.append("")
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
        for note in e.get("notes", []):
            L.append(f"- {note}")
        # An extension that states its own units and basis sets
        # "ratio_note": false (the chainscope/stock note does not apply).
        if e.get("ratio_note", True):
            L.append(f"_{RATIO_NOTE}_")
        L.append("")
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


# ---------------------------------------------------------------------
# Extension results (qemu/bench.sh ext_*): bench_report.py --ext NAME
# EXTDIR turns the guest output under EXTDIR/runs/*/guest/bench/ into
# EXTDIR/result.json, which the report renders under "Extensions".

def ext_result_lines(extdir):
    lines = []
    for res in sorted(glob.glob(os.path.join(extdir, "runs", "*", "guest",
                                             "bench", "results.txt"))):
        with open(res) as f:
            lines += [(res, line.rstrip("\n")) for line in f if line.strip()]
    if not lines:
        raise ReportError(f"no results under {extdir}/runs/*/guest/bench")
    return lines


def call_ns(rec):
    """Tick-free ns per call of one "call" record (as in the core tables)."""
    return min((t - rec["ovh"]) / rec["iters"] for t in rec["ns"])


def jited_insns(path):
    """x86 instructions in a raw JIT image (bpftool prog dump jited file)."""
    import subprocess
    if not os.path.exists(path):
        return None
    try:
        out = subprocess.run(["objdump", "-D", "-b", "binary", "-mi386:x86-64",
                              path], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return sum(1 for line in out.splitlines() if re.match(r"^\s+[0-9a-f]+:\t", line))


TC_MODES = ["off", "tracepoints", "probes", "fentry", "kprobe", "kpmulti"]
TC_LABEL = {"tracepoints": "b: chainscope latency (tracepoints)",
            "probes": "p: chainscope latency (probes)",
            "fentry": "c: fentry/fexit", "kprobe": "d: kprobe/kretprobe",
            "kpmulti": "e: kprobe.multi/kretprobe.multi"}
# Guest output of earlier trees: "latency" was chainscope latency in its
# default (auto = tracepoints on our kernel) mode.
TC_ALIAS = {"latency": "tracepoints"}


def ratio_of(a, b):
    return a / b if a is not None and b else None


def ext_tracing_cost(extdir):
    calls, progs, skipped = {}, [], {}
    for src, line in ext_result_lines(extdir):
        rec = parse_line(line)
        if rec is None:
            continue
        if rec["type"] == "call":
            for k in ("mode", "kind", "n", "iters", "ovh", "ns"):
                if k not in rec:
                    raise ReportError(f"tracing_cost: {src}: call line without {k}: {line}")
            mode = TC_ALIAS.get(rec["mode"], rec["mode"])
            if mode not in TC_MODES:
                raise ReportError(f"tracing_cost: {src}: unknown mode '{rec['mode']}'")
            calls[(mode, rec["kind"], rec["n"])] = call_ns(rec)
        elif rec["type"] == "tcskip":
            skipped[TC_ALIAS.get(rec.get("mode"), rec.get("mode"))] = rec.get("rc")
        elif rec["type"] == "bpfprog":
            rec["jited_insns"] = jited_insns(os.path.join(
                os.path.dirname(src), f"jited-{rec['mode']}-{rec['name']}.bin"))
            progs.append(rec)
    points = sorted({(k, n) for (_m, k, n) in calls})
    if not points:
        raise ReportError(f"tracing_cost: no call results in {extdir}")
    rows, raw = [], []
    added = {}  # (mode, kind) -> [added ns/cb at each n]
    for kind, n in points:
        base = calls.get(("off", kind, n))
        if base is None:
            raise ReportError(f"tracing_cost: no untraced run for {kind} n={n}")
        if n <= 0 or base <= 0:
            raise ReportError(f"tracing_cost: {kind} n={n}: no callbacks or no time")
        row = [kind, n, fmt(base, 1)]
        item = {"kind": kind, "n": n, "off_ns_per_call": base}
        per = {}
        for m in TC_MODES[1:]:
            t = calls.get((m, kind, n))
            if t is None:
                if m in skipped:
                    why = (f"n/a (probes mode not merged: `chainscope latency --mode "
                           f"probes` exit {skipped[m]})" if m == "probes" else
                           f"n/a (did not start: exit {skipped[m]})")
                else:
                    why = "-"
                item[f"{m}_ns_per_call"] = None
                row += [why]
                continue
            per[m] = (t - base) / n
            added.setdefault((m, kind), []).append(per[m])
            item[f"{m}_ns_per_call"] = t
            item[f"{m}_x_off"] = t / base
            item[f"{m}_added_ns_per_cb"] = per[m]
            row += [f"{fmt(t, 1)} (x{t / base:.2f}; +{per[m]:.1f}/cb = "
                    f"{per[m] / 2:.1f} instr)"]
        b, c, d = per.get("tracepoints"), per.get("fentry"), per.get("kprobe")
        p, e = per.get("probes"), per.get("kpmulti")
        bc, bd = ratio_of(b, c), ratio_of(b, d)
        pb, pc, pe = ratio_of(p, b), ratio_of(p, c), ratio_of(p, e)
        item.update({"b_over_c": bc, "b_over_d": bd, "p_over_b": pb,
                     "p_over_c": pc, "p_over_e": pe})
        row += [fmt(bc, 3), fmt(bd, 3), fmt(pb, 2), fmt(pc, 3), fmt(pe, 3),
                "-" if bc is None else ("ok" if bc <= 1 else "MISSED"),
                "-" if bd is None else ("ok" if bd <= 1 / 3 else "MISSED")]
        rows.append(row)
        raw.append(item)
    notes = [
        "Booted with `-icount shift=1,sleep=off`, one vCPU, the chainscope "
        "kernel: ns are exact (2 ns = 1 guest instruction). ns/call = minimum "
        "over 15 timed loops of (loop - ktime pair) / calls, as in table 1; "
        "xR = traced / untraced ns per call (the ratio against the "
        "no-tracing run a of the same boot); +X/cb = (traced - untraced) ns "
        "per call / K callbacks, i.e. the added cost of one traced callback "
        "invocation. Added cost ratios (b/c, p/b, ...) are ratios of +X/cb.",
        "b: `chainscope latency --mode tracepoints -n -f cs_bench_cb` "
        "(notifier_return tracepoint, tp_btf program; the filter is in BPF, "
        "so every callback still fires the event). p: `chainscope latency "
        "--mode probes -n -f cs_bench_cb` (fentry/fexit on the exported "
        "chain API + one kprobe.multi/kretprobe.multi link pair over the "
        "watched callbacks, bpf/probemode.bpf.h). c: `benchattach -m fentry "
        "-f cs_bench_cb` (fentry stores bpf_ktime_get_ns() per thread in a "
        "hash map, fexit looks it up, deletes it and bumps a log2 histogram "
        "array slot). d: `benchattach -m kprobe`, the same programs as "
        "kprobe/kretprobe. e: `benchattach -m kprobe-multi`, the same "
        "programs as one kprobe.multi/kretprobe.multi link pair (the "
        "mechanism p uses for callbacks). Each tracer is started in the "
        "background and the loop begins once it printed \"Tracing\".",
        "Targets: b <= c (b/c <= 1) and b <= d/3 (b/d <= 0.333). p/b: what "
        "probes mode costs per callback against tracepoints mode; p/e: "
        "against the bare kprobe.multi pair.",
    ]
    # Per-program cost: one more untimed loop with bpf_stats_enabled.
    prow = []
    for p in progs:
        if not p.get("run_cnt"):
            continue
        per_run = p["run_time_ns"] / p["run_cnt"]
        prow.append(f"{p['mode']}/{p['name']}: {p['run_cnt']} runs, "
                    f"{per_run:.0f} ns/run (~{per_run / 2:.0f} instr incl. the "
                    f"stats' clock reads), {p['xlated_insns']} BPF insns, "
                    f"jited {p['jited_b']} B"
                    + (f" = {p['jited_insns']} x86 insns" if p.get("jited_insns") else ""))
    if prow:
        notes.append("BPF programs (bpftool prog show after a loop with "
                     "kernel.bpf_stats_enabled=1, atomic K=64): " + "; ".join(prow) + ".")
    summary = {}
    for (m, kind), v in sorted(added.items()):
        summary[f"{m}/{kind}"] = statistics.mean(v)
    return {
        "title": "Added cost per traced callback invocation: cs_bench call "
                 "loop over K empty callbacks, chainscope kernel, icount "
                 "(`-icount shift=1,sleep=off`, `-smp 1`). Columns b, p, c, d, e: "
                 "ns per call with the tracer attached (x traced/untraced; + "
                 "added ns and guest instructions per callback over "
                 "untraced).",
        "columns": ["kind", "K", "a: off ns/call", TC_LABEL["tracepoints"],
                    TC_LABEL["probes"], TC_LABEL["fentry"], TC_LABEL["kprobe"],
                    TC_LABEL["kpmulti"], "b/c", "b/d", "p/b", "p/c", "p/e",
                    "b <= c", "b <= d/3"],
        "rows": rows, "notes": notes, "ratio_note": False,
        "raw": {"points": raw, "added_ns_per_cb_mean": summary,
                "bpf_programs": progs, "skipped": skipped},
    }


REC_RE = re.compile(r"^(pace .*?) \| recorded (\d+) events .*?; lost (\d+) "
                    r"\(ring buffer full\), missed (\d+)")


def ext_recorder_throughput(extdir):
    pts = []
    for src, line in ext_result_lines(extdir):
        m = REC_RE.match(line)
        if not m:
            continue
        pace = parse_line(m.group(1))
        if isinstance(pace["calls"], list):  # parse_value: "calls" is a list key
            pace["calls"] = sum(pace["calls"])
        rec, lost, missed = int(m.group(2)), int(m.group(3)), int(m.group(4))
        secs = pace["elapsed_ns"] / 1e9
        total = rec + lost
        pts.append({"target_calls_per_s": pace["rate"], "n": pace["n"],
                    "calls": pace["calls"], "elapsed_s": secs,
                    "calls_per_s": pace["calls"] / secs,
                    "events_recorded": rec, "events_lost": lost, "missed": missed,
                    "events_per_call": total / pace["calls"] if pace["calls"] else None,
                    "events_per_s": total / secs,
                    "recorded_per_s": rec / secs,
                    "loss": lost / total if total else 0.0})
    if not pts:
        raise ReportError(f"recorder_throughput: no record summary lines in {extdir}")
    pts.sort(key=lambda p: p["target_calls_per_s"])
    rows = [[fmt(p["target_calls_per_s"], 0), fmt(p["calls_per_s"], 0),
             fmt(p["events_per_s"], 0), fmt(p["events_recorded"], 0),
             fmt(p["events_lost"], 0), f"{100 * p['loss']:.2f}%", p["missed"],
             fmt(p["recorded_per_s"], 0)] for p in pts]
    ok = [p for p in pts if p["events_lost"] == 0]
    best = max(ok, key=lambda p: p["events_per_s"]) if ok else None
    over = [p for p in pts if p["events_lost"]]
    notes = [
        "Plain TCG, `-smp 2`, chainscope kernel: **absolute rates are TCG "
        "rates** (a QEMU-emulated guest on a shared 2-CPU host), not native "
        "ones. Each row: `chainscope record -b 1 -o /tmp/... -- sh -c 'echo "
        "\"pace blocking 4 RATE 2000\" > ctl'` "
        "(/sys/kernel/debug/cs_bench/ctl): cs_bench calls the blocking "
        "chain (4 empty callbacks) RATE times a second for 2 s (each "
        "millisecond's share back to back, then a sleep); events/s = "
        "(recorded + lost) / elapsed; lost = failed bpf_ringbuf_reserve() "
        "(record's summary line). Zero loss means lost = 0; missed (the "
        "programs' recursion_misses: events the kernel skipped because one of "
        "our programs already ran on that CPU) is shown apart, it is not "
        "ring-buffer loss. events/s includes the events of other chains "
        "during the run.",
        "A 1 MiB ring buffer (~10900 96-byte events) so that what is measured "
        "is the sustained drain rate, not the buffer absorbing a 2 s burst "
        "(the default 16 MiB holds ~175000 events).",
    ]
    if best:
        notes.append(f"Highest rate with zero loss: {best['events_per_s']:,.0f} "
                     f"events/s ({best['calls_per_s']:,.0f} chain calls/s, "
                     f"{best['events_per_call']:.1f} events per call).")
    else:
        notes.append("Every rate lost events: zero loss not reached.")
    if over:
        o = over[0]
        notes.append(f"Past it: from {o['events_per_s']:,.0f} events/s the recorder "
                     f"drops {100 * o['loss']:.2f}% and reports it: record's summary "
                     f"line says \"lost {o['events_lost']}\" and prints a WARNING; "
                     f"the count also goes into the trace trailer. Recorded "
                     f"events/s at the highest load: "
                     f"{over[-1]['recorded_per_s']:,.0f}.")
    else:
        notes.append("No rate tried lost events: the zero-loss limit lies above "
                     "the highest rate tried.")
    return {
        "title": "Events/s that `chainscope record` keeps, against a paced "
                 "load of rising rate (plain TCG, `-smp 2`).",
        "columns": ["target calls/s", "calls/s", "events/s", "recorded",
                    "lost", "loss", "missed", "recorded/s"],
        "rows": rows, "notes": notes, "ratio_note": False, "raw": pts,
    }


AT_MODES = ["kprobe-multi", "fentry", "kprobe"]
AT_LABEL = {"kprobe-multi": "kprobe.multi pair (probes mode)",
            "fentry": "fentry/fexit per callback",
            "kprobe": "kprobe/kretprobe per callback"}
AT_PHASES = ["resolve_ns", "load_ns", "attach_ns", "detach_ns"]


def ext_attach_time(extdir):
    per = {}  # (mode, n) -> {phase: [values over repetitions]}
    for src, line in ext_result_lines(extdir):
        rec = parse_line(line)
        if rec is None or rec["type"] != "attach":
            continue
        missing = [k for k in ["mode", "n"] + AT_PHASES if k not in rec]
        if missing:
            raise ReportError(f"attach_time: {src}: attach line without {missing}: {line}")
        if rec["mode"] not in AT_MODES:
            raise ReportError(f"attach_time: {src}: unknown mode '{rec['mode']}'")
        for k in ["n"] + AT_PHASES:
            if not isinstance(rec[k], int) or rec[k] < 0:
                raise ReportError(f"attach_time: {src}: bad {k}={rec[k]}")
        d = per.setdefault((rec["mode"], rec["n"]), {k: [] for k in AT_PHASES})
        for k in AT_PHASES:
            d[k].append(rec[k])
    if not per:
        raise ReportError(f"attach_time: no attach lines in {extdir}")
    sizes = sorted({n for (_m, n) in per})
    rows, raw = [], []
    for n in sizes:
        item = {"n": n}
        row = [n]
        for m in AT_MODES:
            d = per.get((m, n))
            if d is None:
                item[m] = None
                row += ["-"]
                continue
            med = {k: statistics.median(v) for k, v in d.items()}
            start = med["load_ns"] + med["attach_ns"]
            item[m] = dict(med, start_ns=start, start_ns_per_cb=start / n,
                           reps=len(d["load_ns"]))
            row += [f"{start / 1e6:,.1f} = {med['load_ns'] / 1e6:,.1f} + "
                    f"{med['attach_ns'] / 1e6:,.1f} ({start / n / 1e3:,.1f} us/cb); "
                    f"resolve {med['resolve_ns'] / 1e6:,.1f}; detach "
                    f"{med['detach_ns'] / 1e6:,.1f}"]
        k = item.get("kprobe-multi")
        for m in AT_MODES[1:]:
            o = item.get(m)
            item[f"{m}_over_kprobe_multi"] = (o["start_ns"] / k["start_ns"]
                                             if o and k and k["start_ns"] else None)
            row.append(fmt(item[f"{m}_over_kprobe_multi"], 1))
        rows.append(row)
        raw.append(item)
    notes = [
        "`benchattach -m MODE -a LIST` on the first N of cs_bench's 1024 "
        "distinct never-called callbacks cs_bench_cb_000..3ff (module "
        "functions with BTF, like the callbacks of a module's chain), "
        "chainscope kernel, booted with `-icount shift=1,sleep=off`, one "
        "vCPU: times are guest instructions (2 ns each) plus idle time "
        "skipped forward (grace periods), so they are reproducible but not "
        "native times; compare them as ratios.",
        "Cells: ms to start tracing = load + attach (per callback in us), "
        "then the ms spent resolving the names beforehand and the ms to "
        "detach (close every link and program). resolve, shown apart as "
        "chainscope has both tables at hand anyway: BTF ids from vmlinux and "
        "module BTF (fentry), addresses from /proc/kallsyms (kprobe.multi; "
        "the probes mode takes them from the chain walk instead), none for "
        "kprobe (the kernel resolves the name). load: open and load the "
        "skeleton, and for fentry one more "
        "fentry and fexit program per further callback (a tracing program "
        "is bound to its target at load: BPF_PROG_LOAD with attach_btf_id). "
        "attach: one kprobe.multi and one kretprobe.multi link over all N "
        "addresses (cookie = index), or per callback an fexit then an "
        "fentry link (two BPF trampoline updates) resp. a kretprobe and a "
        "kprobe link.",
        "Ratios: load + attach of each per-callback mechanism over the "
        "kprobe.multi pair's, same N. A \"-\" was not measured (qemu/bench.sh "
        "runs kprobe per callback up to N = 100 only, csbench.akmax).",
    ]
    return {
        "title": "Time to start tracing N watched callbacks (and to stop): one "
                 "kprobe.multi/kretprobe.multi link pair with cookies (what "
                 "probes mode uses) against fentry/fexit and kprobe/kretprobe "
                 "per callback; ms of icount time (`-icount shift=1,sleep=off`, "
                 "`-smp 1`).",
        "columns": ["N", "kprobe.multi pair: ms = load + attach",
                    "fentry/fexit per callback: ms = load + attach",
                    "kprobe/kretprobe per callback: ms = load + attach",
                    "fentry / kprobe.multi", "kprobe / kprobe.multi"],
        "rows": rows, "notes": notes, "ratio_note": False, "raw": raw,
    }


EXT_BUILDERS = {"tracing_cost": ext_tracing_cost,
                "attach_time": ext_attach_time,
                "recorder_throughput": ext_recorder_throughput}


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
                    help="fail unless every record kind parsed for both variants")
    ap.add_argument("--docs", help="replace the marked region of this markdown file")
    a = ap.parse_args()
    if a.ext:
        try:
            res = EXT_BUILDERS[a.ext](a.dir)
            with open(os.path.join(a.dir, "result.json"), "w") as f:
                json.dump(res, f, indent=1)
        except (ReportError, OSError, KeyError, ValueError) as e:
            print(f"bench_report.py: error: --ext {a.ext}: {e}", file=sys.stderr)
            return 1
        return 0
    try:
        runs = load_runs(a.dir)
        ext = load_extensions(a.dir)
        if not runs and not ext:
            raise ReportError(f"no boots listed in {a.dir}/runs.tsv and no "
                              "extension results")
        summary, cont = summarize(runs)
        # The date of the measurement: when the last boot was recorded.
        stamp = os.path.join(a.dir, "runs.tsv")
        if not os.path.exists(stamp):
            stamp = max((os.path.join(a.dir, "ext", n, "result.json") for n in ext),
                        key=os.path.getmtime)
        when = datetime.datetime.fromtimestamp(os.path.getmtime(stamp))
        meta = {"command": a.command, "date": when.isoformat(timespec="seconds"),
                "host_cpus": os.cpu_count(), "qemu_icount": a.qemu_icount,
                "kernels": dict(k.split("=", 1) for k in a.kernel),
                "target_ratio": TARGET, "note": RATIO_NOTE,
                "statistics": __doc__.split("Statistics, ")[1].split("Standard library")[0].strip()}
        md = render(meta, runs, summary, ext)
        doc = {"meta": meta, "runs": runs, "summary": summary,
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
            if problems:
                raise ReportError("; ".join(problems))
    except (ReportError, OSError) as e:
        print(f"bench_report.py: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
