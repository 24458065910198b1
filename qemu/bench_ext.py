#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The guest's result lines and the extension measurements of qemu/bench.sh.

Used by qemu/bench_report.py: parse_line() reads one cs_bench result line
("type key=value ..."), and EXT_BUILDERS[NAME](EXTDIR) turns the guest
output of extension NAME under EXTDIR/runs/*/guest/bench/ into the dict
that bench_report.py --ext NAME writes to EXTDIR/result.json:
  tracing_cost         ns added per traced callback: chainscope latency in
                       tracepoints and probes mode, fentry/fexit,
                       kprobe/kretprobe, kprobe.multi (icount)
  attach_time          time to attach to and detach from N callbacks: one
                       kprobe.multi pair vs fentry/fexit and kprobe per
                       callback (icount)
  recorder_throughput  events/s chainscope record keeps (plain TCG)
  contention_cost      chainscope contention attached (tracepoints and
                       probes mode) vs not: blocking chain calls, blocking
                       and SRCU (un)registrations; what it saw of a
                       callers + writer run (icount)
  recorder_compare     chainscope record vs perf record vs trace-cmd
                       record on one paced load at equal buffer memory:
                       loss by each tool's accounting, kept events/s, CPU,
                       bytes per event (plain TCG); rc_smoke_problems()
                       is the smoke's check
Standard library only.
"""

import glob
import os
import re
import statistics


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


def fmt(x, digits=1):
    if x is None:
        return "-"
    return f"{x:,.{digits}f}"


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


CC_MODES = ["off", "tracepoints", "probes"]


def reg_ns(rec, key):
    """Median tick-free ns of one (un)registration of a "reg" record."""
    return statistics.median(t - rec["ovh"] for t in rec[key])


def ext_contention_cost(extdir):
    pts, contend, answer = {}, {}, {}
    for src, line in ext_result_lines(extdir):
        rec = parse_line(line)
        if rec is None or rec["type"] not in ("call", "reg", "contend", "ccanswer"):
            continue
        mode = rec.get("mode")
        if mode not in CC_MODES:
            raise ReportError(f"contention_cost: {src}: no or unknown mode: {line}")
        if rec["type"] == "call":
            pts[("call", rec["kind"], rec["n"], mode)] = call_ns(rec)
        elif rec["type"] == "reg":
            pts[("reg", rec["kind"], rec["n"], mode)] = reg_ns(rec, "reg_ns")
            pts[("unreg", rec["kind"], rec["n"], mode)] = reg_ns(rec, "unreg_ns")
        elif rec["type"] == "contend":
            contend[mode] = rec
        else:
            answer[mode] = rec
    points = sorted({(op, k, n) for (op, k, n, _m) in pts})
    if not points:
        raise ReportError(f"contention_cost: no call or reg results in {extdir}")
    rows, raw = [], []
    for op, kind, n in points:
        base = pts.get((op, kind, n, "off"))
        if base is None or base <= 0:
            raise ReportError(f"contention_cost: no untraced {op} {kind} n={n}")
        row = [f"{op} {kind}", n, fmt(base, 1)]
        item = {"op": op, "kind": kind, "n": n, "off_ns": base}
        for m in CC_MODES[1:]:
            t = pts.get((op, kind, n, m))
            item[f"{m}_ns"] = t
            item[f"{m}_x_off"] = ratio_of(t, base)
            row.append("-" if t is None else f"{fmt(t, 1)} (x{t / base:.3f})")
        rows.append(row)
        raw.append(item)
    notes = [
        "Booted with `-icount shift=1,sleep=off`, one vCPU, the chainscope "
        "kernel: 2 ns = 1 guest instruction. call: ns per call of the blocking "
        "chain with N empty callbacks (minimum over the timed loops, as in "
        "table 1); reg/unreg: median ns of one (un)registration of a block "
        "behind N (SRCU unregistration includes its grace period). xR = with "
        "the tracer / without, same boot.",
        "tracepoints: `chainscope contention --mode tracepoints` (every "
        "blocking and SRCU chain: lock:contention_begin/end, plus "
        "notifier_call_end and the four membership events, which count "
        "acquisitions and name the chains; they switch every chain call to "
        "its traced path). probes: `chainscope contention --mode probes -c "
        "cs_bench_blocking` (lock:contention_begin/end alone). Neither "
        "changes how a lock is taken: the lock tracepoints only fire on a "
        "contended acquisition.",
    ]
    ans = {}
    for m in CC_MODES[1:]:
        a, c = answer.get(m), contend.get(m)
        if a is None or c is None:
            continue
        calls = sum(c.get("calls") or [])
        item = {k: a.get(k) for k in ("rd_acq", "rd_cont", "wr_acq", "wr_cont",
                                      "wr_max_us", "top")}
        item.update({"calls": calls, "writes": c.get("writes")})
        ans[m] = item
        acq = (f"read acquisitions {a.get('rd_acq')} (cs_bench calls: {calls}), "
               f"write acquisitions {a.get('wr_acq')} (writes: {c.get('writes')}), "
               if m == "tracepoints" else "")
        notes.append(
            f"What `{m}` saw of `contend 2 1 N MS` (two callers, one writer, "
            f"the blocking chain): {acq}contended reads {a.get('rd_cont')}, "
            f"contended writes {a.get('wr_cont')} (max {a.get('wr_max_us')} us), "
            f"top waiter {a.get('top')}.")
    if ans and all(not a.get("rd_cont") and not a.get("wr_cont") for a in ans.values()):
        notes.append("Nothing contended in this boot: with one vCPU the callers "
                     "and the writer take turns. That both modes see the same "
                     "contended acquisitions, and who waited how long, is "
                     "asserted by the guest tests on two vCPUs "
                     "(cli-probes-contention: the same counts from both modes "
                     "on one run; cli-contention: acquisitions = calls).")
    return {
        "title": "What `chainscope contention` costs and what it answers: the "
                 "cs_bench loops with it attached in tracepoints and in probes "
                 "mode against none, chainscope kernel, icount (`-icount "
                 "shift=1,sleep=off`, `-smp 1`); lock waits come from "
                 "lock:contention_begin/end in both modes.",
        "columns": ["op kind", "N", "off ns", "tracepoints ns (x off)",
                    "probes ns (x off)"],
        "rows": rows, "notes": notes, "ratio_note": False,
        "raw": {"points": raw, "answers": ans},
    }


# ---------------------------------------------------------------------
# recorder_compare: three recorders, one paced load (plan-bench.sh
# stage_rcmp). Guest output per boot: rcmp.txt ("rcmeta ..." then one
# "rcmp tool= rate= ..." line per recording) and rc-TOOL-RATE.* files
# with each tool's own accounting, parsed here.

# chainscope-w0: chainscope record --wakeup 0 (a wakeup per record)
RC_TOOLS = ["chainscope", "chainscope-w0", "perf", "trace-cmd"]
RC_SUMMARY_RE = re.compile(
    r"^recorded (\d+) events .*?; lost (\d+) \(ring buffer full\), missed (\d+) "
    r"\(BPF recursion protection\), (\d+) lost in NMI")
RC_PASSES_RE = re.compile(r"^passes: chain (.+?) \((\w+)\) passes=(\d+) robust=\d+ "
                          r"stopped=\d+ rollbacks=\d+ callbacks=(\d+)")


def rc_words(line, src):
    rec = {}
    for w in line.split()[1:]:
        if "=" not in w:
            raise ReportError(f"recorder_compare: {src}: bad word '{w}': {line}")
        k, v = w.split("=", 1)
        rec[k] = v
    return rec


def rc_int(rec, key, src):
    try:
        return int(rec[key])
    except (KeyError, ValueError):
        raise ReportError(f"recorder_compare: {src}: no number {key}= in {rec}")


def rc_read(path, required=True):
    if not os.path.exists(path):
        if required:
            raise ReportError(f"recorder_compare: {path} missing")
        return ""
    with open(path, errors="replace") as f:
        return f.read()


def rc_count(path):
    """events= load= load_end= of a .count file (perf, trace-cmd)."""
    rec = rc_words("count " + rc_read(path).strip(), path)
    return {k: rc_int(rec, k, path) for k in ("events", "load", "load_end")}


def rc_sum(text, pattern):
    return sum(int(m.group(1)) for m in re.finditer(pattern, text, re.M))


def rc_account(base, tool, rate, calls, n):
    """One recording's kept and lost events by the tool's own accounting,
    and its count of the load's events (the cross-check)."""
    pre = os.path.join(base, f"rc-{tool}-{rate}")
    r = {"load_events": None, "load_callbacks": None, "missed": 0}
    if tool in ("chainscope", "chainscope-w0"):
        out = rc_read(pre + ".out")
        m = next((RC_SUMMARY_RE.match(ln) for ln in out.splitlines()
                  if RC_SUMMARY_RE.match(ln)), None)
        if not m:
            raise ReportError(f"recorder_compare: {pre}.out: no summary line of chainscope record")
        kept, lost, missed, nmi = (int(x) for x in m.groups())
        r.update(kept=kept, lost=lost + nmi + missed, missed=missed,
                 accounting=f"lost {lost} (ring full), {nmi} in NMI, missed {missed}")
        passes = [RC_PASSES_RE.match(ln) for ln in rc_read(pre + ".acct").splitlines()]
        load = [p for p in passes if p and re.search(r"\bcs_bench_blocking\b", p.group(1))]
        r["load_passes"] = int(load[0].group(3)) if load else 0
        r["load_callbacks"] = int(load[0].group(4)) if load else 0
    elif tool == "perf":
        c = rc_count(pre + ".count")
        acct = rc_read(pre + ".acct")
        lostlines = rc_read(pre + ".lost", required=False)
        chunks = rc_sum(acct, r"^\s*LOST events:\s*(\d+)")
        lost = rc_sum(lostlines, r"(?i)\blost(?: samples)?\s*:?\s*(\d+)")
        samples = re.search(r"^\s*SAMPLE events:\s*(\d+)", acct, re.M)
        if chunks and not lost:
            lost = chunks  # at least one event per LOST record
        r.update(kept=c["events"], lost=lost, load_events=c["load"],
                 load_passes=c["load_end"],
                 accounting=f"{chunks} LOST records, {lost} events lost",
                 stats_samples=int(samples.group(1)) if samples else None)
    elif tool == "trace-cmd":
        c = rc_count(pre + ".count")
        rec = rc_read(pre + ".out", required=False) + rc_read(pre + ".err", required=False)
        if not re.search(r"^overrun:", rec, re.M):
            rec = rc_read(pre + ".acct")
        over = rc_sum(rec, r"^overrun:\s*(\d+)")
        cover = rc_sum(rec, r"^commit overrun:\s*(\d+)")
        dropped = rc_sum(rec, r"^dropped events:\s*(\d+)")
        marks = rc_read(pre + ".lost", required=False)
        missing = rc_sum(marks, r"\[(\d+) EVENTS DROPPED\]")
        unknown = len(re.findall(r"\[EVENTS DROPPED\]", marks))
        lost = max(over + cover + dropped, missing)
        if unknown and not lost:
            lost = unknown
        r.update(kept=c["events"], lost=lost, load_events=c["load"],
                 load_passes=c["load_end"], missed=missing,
                 accounting=f"overrun {over}, commit overrun {cover}, dropped "
                            f"{dropped}; report: {missing} events dropped"
                            + (f" (+{unknown} marks without a count)" if unknown else ""))
    else:
        raise ReportError(f"recorder_compare: unknown recorder '{tool}'")
    r["load_events_made"] = calls * (2 * n + 2)
    r["load_passes_made"] = calls
    r["exact"] = (r["load_passes"] == calls and
                  r["load_events"] in (None, calls * (2 * n + 2)) and
                  r["load_callbacks"] in (None, calls * n))
    return r


def rc_points(extdir):
    files = sorted(glob.glob(os.path.join(extdir, "runs", "*", "guest", "bench", "rcmp.txt")))
    if not files:
        raise ReportError(f"recorder_compare: no rcmp.txt under {extdir}/runs/*/guest/bench")
    meta, pts = {}, []
    for path in files:
        base = os.path.dirname(path)
        with open(path) as f:
            for line in f:
                if line.startswith("rcmeta "):
                    meta = rc_words(line, path)
                    continue
                if not line.startswith("rcmp "):
                    continue
                rec = rc_words(line, path)
                tool, rate = rec.get("tool"), rc_int(rec, "rate", path)
                if tool not in RC_TOOLS:
                    raise ReportError(f"recorder_compare: {path}: unknown tool in {line.strip()}")
                calls, n = rc_int(rec, "calls", path), rc_int(rec, "n", path)
                secs = rc_int(rec, "elapsed_ns", path) / 1e9
                if secs <= 0:
                    raise ReportError(f"recorder_compare: {path}: no elapsed time: {line.strip()}")
                p = {"tool": tool, "target_calls_per_s": rate, "n": n, "calls": calls,
                     "elapsed_s": secs, "calls_per_s": calls / secs,
                     "bytes": rc_int(rec, "bytes", path),
                     "cpu_s": rc_int(rec, "cpu_ms", path) / 1e3,
                     "startup_cpu_s": rc_int(rec, "start_ticks", path) / 100}
                p.update(rc_account(base, tool, rate, calls, n))
                p["recording_cpu_s"] = max(p["cpu_s"] - p["startup_cpu_s"], 0.0)
                p["kept_per_s"] = p["kept"] / secs
                tot = p["kept"] + p["lost"]
                p["loss"] = p["lost"] / tot if tot else 0.0
                p["loss_free"] = p["lost"] == 0 and p["exact"]
                p["bytes_per_event"] = p["bytes"] / p["kept"] if p["kept"] else None
                p["cpu_us_per_event"] = (p["recording_cpu_s"] * 1e6 / p["kept"]
                                         if p["kept"] else None)
                pts.append(p)
    if not pts:
        raise ReportError(f"recorder_compare: no rcmp lines in {extdir}")
    pts.sort(key=lambda p: (p["target_calls_per_s"], RC_TOOLS.index(p["tool"])))
    return meta, pts


def rc_summary(pts):
    """Per recorder: loss-free rate, kept/s at 2x and 4x it, CPU and bytes
    per event; ratios against chainscope record."""
    by = {t: [p for p in pts if p["tool"] == t] for t in RC_TOOLS}
    by = {t: v for t, v in by.items() if v}
    common = [r for r in sorted({p["target_calls_per_s"] for p in pts})
              if all(any(p["target_calls_per_s"] == r and p["loss_free"] for p in v)
                     for v in by.values())]
    top = max(p["target_calls_per_s"] for p in pts)
    summ = {}
    for t, v in by.items():
        ok = [p for p in v if p["loss_free"]]
        best = max(ok, key=lambda p: p["target_calls_per_s"]) if ok else None
        at = {p["target_calls_per_s"]: p for p in v}
        s = {"loss_free_calls_per_s": best["target_calls_per_s"] if best else None,
             "loss_free_events_per_s": best["kept_per_s"] if best else None}
        for k in (2, 4):
            q = at.get(best["target_calls_per_s"] * k) if best else None
            s[f"kept_per_s_at_{k}x"] = q["kept_per_s"] if q else None
            s[f"loss_at_{k}x"] = q["loss"] if q else None
        s["kept_per_s_at_top"] = at[top]["kept_per_s"] if top in at else None
        cref = at.get(common[-1]) if common else None
        s["cpu_rate"] = common[-1] if common else None
        s["cpu_us_per_event"] = cref["cpu_us_per_event"] if cref else None
        s["recording_cpu_s"] = cref["recording_cpu_s"] if cref else None
        s["startup_cpu_s"] = statistics.median(p["startup_cpu_s"] for p in v)
        # bytes per kept event where the most were kept (fixed headers,
        # symbol tables, kallsyms weigh least there)
        big = max(v, key=lambda p: p["kept"])
        s["bytes_per_event"] = big["bytes_per_event"]
        s["bytes_rate"] = big["target_calls_per_s"]
        summ[t] = s
    ref = summ.get("chainscope")
    keys = ["loss_free_events_per_s", "kept_per_s_at_2x", "kept_per_s_at_4x",
            "kept_per_s_at_top", "cpu_us_per_event", "bytes_per_event"]
    for t, s in summ.items():
        s["vs_chainscope"] = {k: ratio_of(s[k], ref[k]) if ref else None for k in keys}
    return summ, top, common


def ext_recorder_compare(extdir):
    meta, pts = rc_points(extdir)
    summ, top, common = rc_summary(pts)
    rows = []
    for p in pts:
        le = p["load_events"]
        rows.append([fmt(p["target_calls_per_s"], 0), p["tool"], fmt(p["calls_per_s"], 0),
                     fmt(p["kept"], 0), fmt(p["kept_per_s"], 0), fmt(p["lost"], 0),
                     f"{100 * p['loss']:.2f}%",
                     f"{p['load_passes']:,}/{p['load_passes_made']:,}"
                     + ("" if le is None else f"; {le:,}/{p['load_events_made']:,} events")
                     + ("" if p["exact"] else " MISMATCH"),
                     f"{p['recording_cpu_s']:.2f} (+{p['startup_cpu_s']:.2f})",
                     fmt(p["cpu_us_per_event"], 1), fmt(p["bytes_per_event"], 1)])

    def r(t, k, digits=2):
        x = summ[t]["vs_chainscope"].get(k)
        return "-" if x is None else f"x{x:.{digits}f}"
    srows = []
    for t, s in summ.items():
        lf = ("none" if s["loss_free_calls_per_s"] is None else
              f"{s['loss_free_calls_per_s']:,} calls/s = "
              f"{s['loss_free_events_per_s']:,.0f} ev/s ({r(t, 'loss_free_events_per_s')})")

        def at(k):
            v = s[f"kept_per_s_at_{k}x"]
            return ("not tried" if v is None else
                    f"{v:,.0f} ({100 * s[f'loss_at_{k}x']:.1f}% lost; "
                    f"{r(t, f'kept_per_s_at_{k}x')})")
        srows.append([t, lf, at(2), at(4),
                      f"{fmt(s['kept_per_s_at_top'], 0)} ({r(t, 'kept_per_s_at_top')})",
                      f"{fmt(s['cpu_us_per_event'], 1)} ({r(t, 'cpu_us_per_event')})",
                      f"{fmt(s['bytes_per_event'], 1)} ({r(t, 'bytes_per_event')})"])
    cpus = meta.get("cpus", "?")
    notes = [
        f"Equal memory: {meta.get('mib', '?')} MiB of buffer for each recorder "
        f"({cpus} CPU(s)): `chainscope record -b {meta.get('mib', '?')}` (one BPF "
        f"ring buffer shared by the CPUs), `perf record -a -e 'notifier:*' -m "
        f"{meta.get('perf_pages', '?')}` ({meta.get('perf_pages', '?')} data pages "
        f"of 4 KiB per CPU x {cpus}; perf adds one header page per CPU) and "
        f"`trace-cmd record -e notifier -b {meta.get('tc_kib', '?')}` "
        f"({meta.get('tc_kib', '?')} KiB of ftrace ring buffer per CPU x {cpus}).",
        "Load: cs_bench `pace blocking 4 RATE MS` (as in (4)): the blocking chain "
        "with 4 empty callbacks called RATE times a second for "
        f"{meta.get('ms', '?')} ms from one task; every call makes 10 notifier "
        "events (call_begin, 4 x run + return, call_end). The chain was grown "
        "before the first recording, so the recordings hold no membership event of it. "
        "Each recorder runs alone, started and ready (chainscope: \"Tracing\"; "
        "trace-cmd: tracing_on back on; perf: its file stopped growing) 1 s before "
        "the load, stopped with SIGINT after it.",
        "kept: events in the recording (chainscope record's summary; perf script "
        "/ trace-cmd report lines of notifier events), of every chain. lost, from "
        "each tool's own accounting: chainscope record's summary (ring full + NMI "
        "+ recursion misses); perf's LOST records (perf script "
        "--show-lost-events, the events each reports; perf report --stats counts "
        "the records); trace-cmd's per-CPU overrun + commit overrun + dropped "
        "events (record's stats), or the report's EVENTS DROPPED counts if more. "
        "load kept/made: the load's passes (call_end events of cs_bench_blocking) "
        "the recording holds against the calls cs_bench made, and for perf and "
        "trace-cmd every event of that chain (head= its address) against 10 per "
        "call; chainscope's from `chainscope report` (passes and callbacks). "
        "MISMATCH marks a recording that differs from the load's count.",
        "CPU s: user + system time of the recorder and its children (busybox "
        "`times` of a subshell that waited for it) minus what it had used when "
        "it was ready (/proc/PID/stat of it and its children), so start-up (in "
        "brackets) is left out and the work after SIGINT (draining, perf's "
        "build-id pass, trace-cmd's merge of its per-CPU files) is in. The "
        "recorder shares the guest's CPUs with the load. B/event: file bytes / "
        "kept events.",
        "Plain TCG, `-smp 2`, on a shared 2-CPU host: absolute rates are TCG "
        "rates; compare them as ratios, from this one run.",
    ]
    stitle = (f"Per recorder (ratios against chainscope record): the loss-free "
              f"rate (highest target rate tried with nothing lost and the load's "
              f"count exact), events kept per second at 2x and 4x that rate, and "
              f"at the highest rate tried ({top:,} calls/s); CPU us per kept event "
              + (f"at {common[-1]:,} calls/s (the highest rate all kept loss-free)"
                 if common else "(no rate loss-free for all: not compared)")
              + "; file bytes per event where each kept the most.")
    return {
        "title": "Three recorders, one event stream: the paced load recorded in "
                 "turn by `chainscope record` (and, as chainscope-w0, `chainscope "
                 "record --wakeup 0`: a wakeup per record), `perf record -e "
                 "'notifier:*'` and "
                 "`trace-cmd record -e notifier`, equal buffer memory, rising "
                 f"rates (plain TCG, `-smp {meta.get('cpus', '?')}`, the chainscope kernel).",
        "columns": ["target calls/s", "recorder", "calls/s", "kept", "kept/s",
                    "lost", "loss", "load kept/made", "CPU s (start-up)",
                    "CPU us/event", "B/event"],
        "rows": rows,
        "tables": [{"title": stitle,
                    "columns": ["recorder", "loss-free rate", "kept/s at 2x",
                                "kept/s at 4x", "kept/s at the top rate",
                                "CPU us/event", "B/event"],
                    "rows": srows}],
        "notes": notes, "ratio_note": False,
        "raw": {"meta": meta, "points": pts, "summary": summ,
                "top_rate": top, "common_loss_free_rates": common},
    }


def rc_smoke_problems(res):
    """The smoke's assertions on a recorder_compare result."""
    problems = []
    pts = res["raw"]["points"]
    tools = res["raw"]["meta"].get("tools", ",".join(RC_TOOLS)).split(",")
    for t in tools:
        if not any(p["tool"] == t for p in pts):
            problems.append(f"no recording by {t}")
    for p in pts:
        what = f"{p['tool']} at {p['target_calls_per_s']} calls/s"
        if p["lost"]:
            problems.append(f"{what}: lost {p['lost']} ({p['accounting']})")
        if not p["exact"]:
            problems.append(
                f"{what}: kept {p['load_passes']} of the load's {p['calls']} passes"
                + ("" if p["load_events"] is None else
                   f", {p['load_events']} of its {p['load_events_made']} events")
                + ("" if p["load_callbacks"] is None else
                   f", {p['load_callbacks']} of its {p['calls'] * p['n']} callbacks"))
        if p["kept"] < p["load_events_made"]:
            problems.append(f"{what}: kept {p['kept']} events in all, fewer than "
                            f"the load's {p['load_events_made']}")
    if len(res["rows"]) != len(pts) or not res["tables"][0]["rows"]:
        problems.append("table rows missing")
    return problems


EXT_BUILDERS = {"tracing_cost": ext_tracing_cost,
                "attach_time": ext_attach_time,
                "recorder_throughput": ext_recorder_throughput,
                "contention_cost": ext_contention_cost,
                "recorder_compare": ext_recorder_compare}
