#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare the cs_loadgen scenario of qemu/guest/tests/cli-agree.sh across
kernels and modes, after both guests ran (qemu/test.sh).

    qemu/agree.py NAME-A DIR-A MODE-A NAME-B DIR-B MODE-B

DIR is a guest's results folder (output/test/VARIANT/guest); the guest
test left there agree-MODE.report.json (chainscope report -j of the
recording) and agree-MODE.latency.json (chainscope latency -j). Printed,
one line each, test name agree.NAME-A-MODE-A-vs-NAME-B-MODE-B.WHAT:
  .calls     per (chain, callback): count, stop, bad, errno
  .passes    per chain: passes, robust, stopped, rollbacks, callbacks
  .bucket    the busy callback's most-used log2 bucket, report and latency
PASS when equal, FAIL naming the differences or a missing file, SKIP when
a guest's results directory is missing (that kernel was not tested)

The JSON is only parsed (json module), never evaluated. Standard library.
"""

import json
import os
import sys

BUSY = ("cs_loadgen_blocking", "cs_loadgen_cb_busy")
CHAINS = ("cs_loadgen_blocking", "cs_loadgen_raw", "cs_loadgen_atomic")


def load(path):
    """The last JSON object of a file (latency -j: one per line)."""
    with open(path, encoding="utf-8") as f:
        lines = [ln for ln in f.read().splitlines() if ln.strip()]
    if not lines:
        raise ValueError(f"{path}: empty")
    obj = json.loads(lines[-1])
    if not isinstance(obj, dict):
        raise ValueError(f"{path}: not a JSON object")
    return obj


def top_bucket(row):
    best, low = -1, None
    for b in row.get("histogram", []):
        if b["count"] > best:
            best, low = b["count"], b["min"]
    return low


def calls(rep):
    """(chain, callback) -> (count, stop, bad, errno), blocks summed."""
    out = {}
    for r in rep.get("callbacks", []):
        if r.get("chain") not in CHAINS:
            continue
        key = (r["chain"], r["callback"])
        old = out.get(key, (0, 0, 0, 0))
        out[key] = tuple(a + r[k] for a, k in zip(old, ("count", "stop", "bad", "errno")))
    return out


def passes(rep):
    return {c["chain"]: tuple(c[k] for k in ("passes", "robust", "stopped", "rollbacks",
                                             "callbacks"))
            for c in rep.get("chains", []) if c.get("chain") in CHAINS}


def buckets(rep, lat):
    b = {}
    for name, obj in (("report", rep), ("latency", lat)):
        for r in obj.get("callbacks", []):
            if (r.get("chain"), r.get("callback")) == BUSY:
                b[name] = top_bucket(r)
    return b


def diff(a, b):
    keys = sorted(set(a) | set(b), key=str)
    return [f"{k}: {a.get(k)} vs {b.get(k)}" for k in keys if a.get(k) != b.get(k)]


def main(argv):
    if len(argv) != 7:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    name_a, dir_a, mode_a, name_b, dir_b, mode_b = argv[1:]
    prefix = f"agree.{name_a}-{mode_a}-vs-{name_b}-{mode_b}"
    files = {}
    for side, d, mode in (("a", dir_a, mode_a), ("b", dir_b, mode_b)):
        for kind in ("report", "latency"):
            files[side, kind] = os.path.join(d, f"agree-{mode}.{kind}.json")
    missing = [p for p in files.values() if not os.path.isfile(p)]
    if missing:
        # No guest results at all: that kernel's tests were not selected
        # (make test T=...). A guest that ran but wrote no file failed.
        gone = not os.path.isdir(os.path.dirname(missing[0]))
        for what in ("calls", "passes", "bucket"):
            if gone:
                print(f"SKIP: {prefix}.{what}: no {os.path.dirname(missing[0])} "
                      "(that guest did not run)")
            else:
                print(f"FAIL: {prefix}.{what}: no {missing[0]}")
        return 0
    try:
        data = {k: load(p) for k, p in files.items()}
    except (OSError, ValueError) as e:  # json.JSONDecodeError is a ValueError
        for what in ("calls", "passes", "bucket"):
            print(f"FAIL: {prefix}.{what}: {e}")
        return 0
    checks = {
        "calls": lambda side: calls(data[side, "report"]),
        "passes": lambda side: passes(data[side, "report"]),
        "bucket": lambda side: buckets(data[side, "report"], data[side, "latency"]),
    }
    for what, get in checks.items():
        # valid JSON of another shape (a key missing, null for a list):
        # a FAIL line, not a traceback (qemu/test.sh loses our exit status)
        try:
            a, b = get("a"), get("b")
        except (KeyError, TypeError, AttributeError, IndexError) as e:
            print(f"FAIL: {prefix}.{what}: unexpected JSON shape: "
                  f"{type(e).__name__}: {e}")
            continue
        d = diff(a, b)
        if not a:
            print(f"FAIL: {prefix}.{what}: nothing of the scenario in {name_a}'s files")
        elif d:
            print(f"FAIL: {prefix}.{what}: " + "; ".join(d))
        else:
            print(f"PASS: {prefix}.{what}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
