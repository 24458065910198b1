#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare, on the host, the kernel's own trace of one cs_loadgen run with
chainscope's recording of it (.cstrace, read by the host's own chainscope
build), after the guest ran (qemu/test.sh). TEST is the guest test:

  cli-tracedat  trace-cmd's trace.dat (qemu/guest/tests/cli-tracedat.sh),
                read here by the host's chainscope (report -j, report, check)
  cli-tracefs   what report -j --tracefs, report --tracefs and check
                --tracefs printed in the guest on its live ring buffers
                (qemu/guest/tests/cli-tracefs.sh)

    qemu/tracedat_agree.py PREFIX GUEST-DIR CHAINSCOPE [TEST]

Printed, one line each, test name PREFIX.TEST.host.WHAT ("trace.dat"
stands for the kernel's trace of either test):
  .report          report -j reads both (exit 0, JSON); the kernel
                   trace's note names it (trace-cmd's trace.dat, or the
                   live ring buffer), its clock (local), and on stock
                   says that upstream's events carry only cb
  .check-cstrace   check exits 0 (the one tolerance is cli-agree's: the
                   BPF-recursion misses record counted, each at most one
                   begin-without-end)
  .check-tracedat  check exits 0, having seeded membership from the
                   registrations the file holds (every block the scenario
                   added); stock: saying that upstream's events name no
                   chain or block, so membership is not judged
  .callbacks       the same callbacks on the cs_loadgen chains in both,
                   and they are the blocks the module counted calls of
                   (ours: per chain and callback; stock: per callback,
                   upstream's events name no chain)
  .counts          calls per callback: trace.dat, .cstrace and the
                   module's own counters within the losses the two
                   report (lost + missed, summed)
  .returns         ours only: stop/bad/errno per callback and each
                   chain's passes/stopped/rollbacks within the losses
                   (stock: upstream's events have no return: SKIP)
  .registrations   stock only: the registrations of each callback in the
                   trace.dat are the blocks the scenario added (ours:
                   check-tracedat counts them)
  .others          every callback of the .cstrace outside the cs_loadgen
                   chains is in the trace.dat, whose window holds the
                   .cstrace's, at least as often (less the losses)
PASS when it holds, FAIL saying what differs, SKIP with the guest test's
reason when it skipped (stock 6.1: no notifier events; no trace-cmd in
the initramfs) or did not run. A guest test that failed fails them all.

The JSON is only parsed (json module), never evaluated; the commands run
without a shell. Standard library.
"""

import json
import os
import re
import subprocess
import sys

CHAINS = {"atomic": "cs_loadgen_atomic", "blocking": "cs_loadgen_blocking",
          "raw": "cs_loadgen_raw", "srcu": "cs_loadgen_srcu"}
WHATS = ("report", "check-cstrace", "check-tracedat", "callbacks", "counts",
         "returns", "registrations", "others")
TIMEOUT = 900   # a hang bound, not a time limit


class Fail(Exception):
    pass


def run(cs, *args):
    p = subprocess.run([cs, *args], capture_output=True, text=True,
                       errors="replace", timeout=TIMEOUT, check=False)
    return p.returncode, p.stdout, p.stderr


def report_json(cs, path):
    rc, out, err = run(cs, "report", "-j", path)
    if rc != 0:
        raise Fail(f"report -j {os.path.basename(path)}: exit {rc}: {err.strip()[-300:]}")
    try:
        obj = json.loads(out)
    except ValueError as e:
        raise Fail(f"report -j {os.path.basename(path)}: not JSON: {e}") from e
    if not isinstance(obj, dict):
        raise Fail(f"report -j {os.path.basename(path)}: not a JSON object")
    return obj, err


def stats(path):
    """cs_loadgen's stats: (chain symbol, func) -> [calls, blocks]."""
    out = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            kv = dict(w.split("=", 1) for w in line.split() if "=" in w)
            if "id" not in kv:
                continue
            key = (CHAINS[kv["chain"]], kv["func"])
            old = out.setdefault(key, [0, 0])
            old[0] += int(kv["calls"])
            old[1] += 1
    if not out:
        raise Fail(f"{path}: no block")
    return out


def rows(rep):
    """(chain, callback) -> [count, stop, bad, errno], blocks summed."""
    out = {}
    for r in rep["callbacks"]:
        key = (r["chain"], r["callback"])
        old = out.setdefault(key, [0, 0, 0, 0])
        for i, k in enumerate(("count", "stop", "bad", "errno")):
            old[i] += r[k]
    return out


def by_callback(per_chain, chains=None):
    out = {}
    for (chain, cb), v in per_chain.items():
        if chains is None or chain in chains:
            out[cb] = out.get(cb, 0) + v[0]
    return out


def runs_lines(text):
    """report's 'runs:' lines (upstream's events): callback -> (runs, registrations)."""
    out = {}
    for m in re.finditer(r"^runs: callback (\S+) count=(\d+) registrations=(\d+)$", text, re.M):
        out[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    return out


def judge(what, res, missed):
    """check's (exit, stdout, stderr): clean, or only what missed explains."""
    rc, out, err = res
    if rc == 0:
        return out, err, "exit 0"
    viol = [ln for ln in out.splitlines() if " rule " in ln]
    other = [ln for ln in viol if "rule begin-without-end" not in ln]
    if rc == 1 and viol and not other and len(viol) <= missed:
        return out, err, f"{len(viol)} begin-without-end, within {missed} BPF-recursion misses"
    raise Fail(f"check {what}: exit {rc}: {(viol[:2] or [err.strip()[-300:]])}")


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def kernel_side(cs, d, test, info):
    """(report -j object, its stderr, report text, check (exit, out, err))"""
    if test == "cli-tracedat":
        dat = os.path.join(d, "cli-tracedat.dat")
        rd, rd_err = report_json(cs, dat)
        return rd, rd_err, run(cs, "report", dat)[1], run(cs, "check", dat)
    base = os.path.join(d, test)
    try:
        rd = json.loads(read(base + ".report.json"))
    except ValueError as e:
        raise Fail(f"report -j --tracefs in the guest: not JSON: {e}") from e
    if not isinstance(rd, dict):
        raise Fail("report -j --tracefs in the guest: not a JSON object")
    chk = read(base + ".check.txt")
    return (rd, read(base + ".report.err"), read(base + ".report.txt"),
            (int(info["check_rc"]), chk, chk))


def within(what, a, b, slack):
    """Per key of a or b: |a - b| <= slack; the differences, worded."""
    bad = []
    for k in sorted(set(a) | set(b), key=str):
        x, y = a.get(k, 0), b.get(k, 0)
        if abs(x - y) > slack:
            bad.append(f"{what} {k}: {x} vs {y}")
    return bad


def compare(cs, d, test):
    """The checks, in WHATS order: (verdict, message) each."""
    cst = os.path.join(d, f"{test}.cstrace")
    info = {}
    with open(os.path.join(d, f"{test}.info"), encoding="utf-8", errors="replace") as f:
        for line in f:
            if "=" in line and not line.startswith("recorded"):
                k, v = line.rstrip("\n").split("=", 1)
                info[k] = v
    stock = info.get("variant") == "stock"
    mod = stats(os.path.join(d, f"{test}.stats"))
    res = {}

    # report
    rd, rd_err, rd_text, rd_check = kernel_side(cs, d, test, info)
    rc_, _ = report_json(cs, cst)
    note = re.search(r": (trace-cmd trace\.dat v\d+|tracefs, the live ring buffer \(consumed\)), "
                     r"clock (\S+): (\d+) notifier events "
                     r"\((\d+) formats, ([^)]*)\), (\d+) loss markers", rd_err)
    if not note:
        raise Fail(f"report on the kernel's trace: no note line: {rd_err.strip()[-300:]}")
    if (test == "cli-tracefs") != note.group(1).startswith("tracefs"):
        raise Fail(f"{test}: the note says {note.group(1)}")
    if note.group(2) != "local":
        raise Fail(f"trace.dat clock {note.group(2)}, recorded with -C local")
    nformats = int(note.group(4))
    if stock and (nformats != 3 or "upstream's notifier events carry only cb" not in rd_err
                  or rd["callbacks"]):
        raise Fail(f"stock trace.dat: want upstream's 3 cb-only formats, said so and no "
                   f"timed rows; got {nformats} formats, {len(rd['callbacks'])} rows")
    if not stock and (nformats < 8 or "upstream" in note.group(5)):
        raise Fail(f"trace.dat of {info.get('variant')}: {nformats} formats ({note.group(5)})")
    if rc_.get("mode") != info.get("mode"):
        raise Fail(f".cstrace mode {rc_.get('mode')}, the guest recorded {info.get('mode')}")
    slack = rd["lost"] + rd["missed"] + rc_["lost"] + rc_["missed"]
    res["report"] = ("PASS", f"{note.group(1)}, clock local, {note.group(3)} "
                     f"notifier events in {nformats} formats ({note.group(5)}), lost "
                     f"{rd['lost']}; .cstrace mode {rc_['mode']}, lost {rc_['lost']}, "
                     f"missed {rc_['missed']}")

    # check, both
    try:
        _, _, how = judge(".cstrace", run(cs, "check", cst), rc_["missed"])
        res["check-cstrace"] = ("PASS", how)
    except Fail as e:
        res["check-cstrace"] = ("FAIL", str(e))
    try:
        _, err, how = judge("on the kernel's trace", rd_check, 0)
        nblocks = sum(v[1] for v in mod.values())
        if stock:
            # upstream's events name no chain or block: not judged, said
            m = re.search(r"upstream's notifier events name no chain and no block: "
                          r"membership and order are not judged \((\d+) registration", err)
        else:
            m = re.search(r"membership is seeded from the (\d+) registration events", err)
        if not m or int(m.group(1)) < nblocks:
            raise Fail(f"check's note does not count the {nblocks} registrations of the "
                       f"scenario{' (nor say membership is not judged)' if stock else ''}: "
                       f"{err.strip()[-300:]}")
        res["check-tracedat"] = ("PASS", f"{how}; " + (
            f"{m.group(1)} registrations, membership not judged (stock: no chain)" if stock
            else f"membership seeded from {m.group(1)} registrations"))
    except Fail as e:
        res["check-tracedat"] = ("FAIL", str(e))

    # the scenario's callbacks: what the module counted
    ran = {k: v[0] for k, v in mod.items() if v[0] > 0}
    loadgen = set(CHAINS.values())
    cs_rows = rows(rc_)
    if stock:
        want = by_callback({k: [v] for k, v in ran.items()})
        got_cs = by_callback(cs_rows, loadgen)
        runs = runs_lines(rd_text)
        got_dat = {cb: v[0] for cb, v in runs.items() if cb.startswith("cs_loadgen_cb_")}
    else:
        want = ran
        got_cs = {k: v[0] for k, v in cs_rows.items() if k[0] in loadgen}
        dat_rows = rows(rd)
        got_dat = {k: v[0] for k, v in dat_rows.items() if k[0] in loadgen}
    sets = {n: {k for k, v in x.items() if v > 0}
            for n, x in (("module", want), (".cstrace", got_cs), ("trace.dat", got_dat))}
    if not want:
        res["callbacks"] = ("FAIL", "the module counted no call")
    elif len({frozenset(s) for s in sets.values()}) != 1:
        res["callbacks"] = ("FAIL", "; ".join(f"{n}: {sorted(s, key=str)}"
                                              for n, s in sets.items()))
    else:
        res["callbacks"] = ("PASS", f"{len(want)} callbacks"
                            f"{' (per callback: no chain on stock)' if stock else ''}: "
                            + ", ".join(str(k) for k in sorted(want, key=str)))

    bad = (within("trace.dat vs .cstrace", got_dat, got_cs, slack)
           + within("trace.dat vs module", got_dat, want, rd["lost"] + rd["missed"])
           + within(".cstrace vs module", got_cs, want, rc_["lost"] + rc_["missed"]))
    res["counts"] = (("FAIL", "; ".join(bad)) if bad else
                     ("PASS", f"{sum(want.values())} calls, within {slack} lost/missed"))

    if stock:
        res["returns"] = ("SKIP", "upstream's events carry no return value (stock)")
        blocks = {}
        for (_, func), v in mod.items():
            blocks[func] = blocks.get(func, 0) + v[1]
        regs = {cb: v[1] for cb, v in runs.items() if cb.startswith("cs_loadgen_cb_")}
        # a block that never ran has no runs line unless registered: all were
        d = within("registrations", regs, blocks, 0)
        res["registrations"] = (("FAIL", "; ".join(d)) if d else
                                ("PASS", f"{sum(blocks.values())} blocks, as registered"))
    else:
        ret_cs = {(k, n): v[i] for k, v in cs_rows.items() if k[0] in loadgen
                  for i, n in ((1, "stop"), (2, "bad"), (3, "errno"))}
        ret_dat = {(k, n): v[i] for k, v in rows(rd).items() if k[0] in loadgen
                   for i, n in ((1, "stop"), (2, "bad"), (3, "errno"))}
        keys = ("passes", "stopped", "rollbacks", "robust")
        ch = [{(c["chain"], k): c[k] for c in r["chains"] if c["chain"] in loadgen for k in keys}
              for r in (rd, rc_)]
        d = within("returns", ret_dat, ret_cs, slack) + within("chains", ch[0], ch[1], slack)
        vetoes = sum(v for (k, n), v in ret_dat.items() if n == "bad")
        if not d and not vetoes:
            d = ["no NOTIFY_BAD in the trace.dat: the veto block's returns are missing"]
        res["returns"] = (("FAIL", "; ".join(d)) if d else
                          ("PASS", f"{vetoes} vetoes, passes of {len(ch[0]) // len(keys)} "
                           f"chains, within {slack}"))
        res["registrations"] = ("SKIP", "ours: check-tracedat counts the registrations")

    # the rest of the .cstrace: in the trace.dat's wider window
    if stock:
        other_cs = {cb: n for cb, n in by_callback(cs_rows).items()
                    if not cb.startswith("cs_loadgen_cb_")}
        other_dat = {cb: v[0] for cb, v in runs.items()}
    else:
        other_cs = {k: v[0] for k, v in cs_rows.items() if k[0] not in loadgen}
        other_dat = {k: v[0] for k, v in rows(rd).items()}
    short = [f"{k}: .cstrace {n}, trace.dat {other_dat.get(k, 0)}"
             for k, n in sorted(other_cs.items(), key=str) if other_dat.get(k, 0) + slack < n]
    res["others"] = (("FAIL", "; ".join(short)) if short else
                     ("PASS", f"{len(other_cs)} other callbacks of the .cstrace, each in "
                      f"the trace.dat"))
    return res


def main(argv):
    if len(argv) not in (4, 5) or (len(argv) == 5 and
                                   argv[4] not in ("cli-tracedat", "cli-tracefs")):
        print("usage: qemu/tracedat_agree.py PREFIX GUEST-DIR CHAINSCOPE "
              "[cli-tracedat|cli-tracefs]", file=sys.stderr)
        return 2
    prefix, d, cs = argv[1:4]
    test = argv[4] if len(argv) == 5 else "cli-tracedat"
    name = f"{prefix}.{test}.host"
    verdict = None
    try:
        with open(os.path.join(d, "results.txt"), encoding="utf-8", errors="replace") as f:
            for line in f:
                m = re.match(r"^(PASS|FAIL|SKIP): [^ :]*\." + re.escape(test) +
                             r"(?::\s*(.*))?$", line.rstrip("\n"))
                if m:
                    verdict = (m.group(1), m.group(2) or "")
    except OSError:
        pass
    if verdict is None:
        for w in WHATS:
            print(f"SKIP: {name}.{w}: the guest test {test} did not run")
        return 0
    if verdict[0] != "PASS":
        for w in WHATS:
            print(f"{verdict[0]}: {name}.{w}: the guest test: {verdict[1]}")
        return 0
    try:
        res = compare(cs, d, test)
    except (Fail, OSError, ValueError, KeyError, TypeError, AttributeError,
            subprocess.TimeoutExpired) as e:
        for w in WHATS:
            print(f"FAIL: {name}.{w}: {type(e).__name__}: {e}")
        return 0
    for w in WHATS:
        v, msg = res[w]
        print(f"{v}: {name}.{w}: {msg}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
