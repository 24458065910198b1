#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""Validate a Chrome trace-event JSON file (what `chainscope report
--perfetto` writes) against the format's rules; host tests only.

  trace_event_check.py FILE     exit 0 and one line of counts, or exit 1
                                and "error: ..." naming the first event
                                that breaks a rule

Rules: the file parses as JSON, an object with a "traceEvents" list (or a
bare list); every event is an object with a known "ph"; every event but
metadata has a numeric "ts" >= 0 and integer "pid" (and "tid" on thread
tracks); "X" events have "dur" >= 0; every "B" has its "E" on the same
track, in order; timestamps never go back on a track (thread: pid and
tid; a process-scoped instant: pid; global instants: one track); slices
nest (a slice that starts inside another on its track ends inside it
too); instant events ("i", "I") have a scope "s" of "g", "p" or "t";
every pid has a process_name and every thread track a thread_name
metadata event. Numbers are compared exactly (decimal), not as floats.
"""
import json
import sys
from decimal import Decimal

PHASES = set("BEXiIMCbenOsStfPNDd")


def fail(i, why):
    print(f"error: event {i}: {why}")
    sys.exit(1)


def num(v):
    return isinstance(v, (int, Decimal)) and not isinstance(v, bool)


def main(path):
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f, parse_float=Decimal)
    except (OSError, ValueError) as e:
        print(f"error: not JSON: {e}")
        sys.exit(1)
    events = doc.get("traceEvents") if isinstance(doc, dict) else doc
    if not isinstance(events, list):
        print("error: no traceEvents list")
        sys.exit(1)

    last = {}        # track -> latest ts
    open_b = {}      # thread track -> stack of open B names
    nest = {}        # thread track -> stack of slice ends (X and B/E)
    pnames, tnames, used_p, used_t = set(), set(), set(), set()
    slices = instants = maxdepth = 0
    for i, e in enumerate(events):
        if not isinstance(e, dict):
            fail(i, "not an object")
        ph = e.get("ph")
        if ph not in PHASES:
            fail(i, f"unknown ph {ph!r}")
        if not isinstance(e.get("name", ""), str):
            fail(i, "name is not a string")
        if ph == "M":
            args = e.get("args")
            if not isinstance(args, dict) or not num(e.get("pid")):
                fail(i, "metadata without pid or args")
            if e.get("name") == "process_name":
                if not isinstance(args.get("name"), str):
                    fail(i, "process_name without a name")
                pnames.add(e["pid"])
            elif e.get("name") == "thread_name":
                if not isinstance(args.get("name"), str) or not num(e.get("tid")):
                    fail(i, "thread_name without a name or tid")
                tnames.add((e["pid"], e["tid"]))
            continue
        ts = e.get("ts")
        if not num(ts) or ts < 0:
            fail(i, f"ts {ts!r} is not a number >= 0")
        if ph in "iI":
            s = e.get("s")
            if s not in ("g", "p", "t"):
                fail(i, f"instant without a scope (s={s!r})")
            instants += 1
        else:
            s = "t"
        if s != "g" and not num(e.get("pid")):
            fail(i, "no integer pid")
        if s == "t" and not num(e.get("tid")):
            fail(i, "no integer tid")
        track = ("g",) if s == "g" else ("p", e["pid"]) if s == "p" else \
            ("t", e["pid"], e["tid"])
        if s != "g":
            used_p.add(e["pid"])
        if s == "t":
            used_t.add((e["pid"], e["tid"]))
        if track in last and ts < last[track]:
            fail(i, f"ts {ts} goes back on track {track} (was {last[track]})")
        last[track] = ts
        if ph not in "XBE" or s != "t":
            continue
        st = nest.setdefault(track, [])
        if ph == "E":
            ob = open_b.get(track)
            if not ob:
                fail(i, f"E without a B on track {track}")
            name = ob.pop()
            if e.get("name", name) != name:
                fail(i, f"E {e.get('name')!r} ends B {name!r}")
            while st and st[-1] is not None and st[-1] <= ts:
                st.pop()
            if not st or st[-1] is not None:
                fail(i, "E while an X is still open above its B")
            st.pop()
            continue
        if ph == "X":
            dur = e.get("dur")
            if not num(dur) or dur < 0:
                fail(i, f"X with dur {dur!r}, want a number >= 0")
            end = ts + dur
            slices += 1
        else:
            end = None       # open until its E
            open_b.setdefault(track, []).append(e.get("name"))
            slices += 1
        # close the X slices that ended before this one starts
        while st and st[-1] is not None and st[-1] <= ts and \
                not (end is not None and end <= st[-1]):
            st.pop()
        if st and st[-1] is not None and end is not None and end > st[-1]:
            fail(i, f"slice [{ts}, {end}] on {track} crosses the end {st[-1]} "
                    "of the slice it starts in")
        st.append(end)
        maxdepth = max(maxdepth, len(st))
    for track, ob in open_b.items():
        if ob:
            fail(len(events), f"B {ob[-1]!r} on {track} has no E")
    for p in sorted(used_p - pnames):
        fail(len(events), f"pid {p} has no process_name")
    for t in sorted(used_t - tnames):
        fail(len(events), f"thread {t} has no thread_name")
    print(f"events={len(events)} slices={slices} instants={instants} "
          f"tracks={len(last)} maxdepth={maxdepth}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: trace_event_check.py FILE", file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1])
