#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The boot report of a guest booted with our events on its command line
(qemu/guest/plan-boot.sh), checked on the host after the guest ran
(qemu/test.sh), with the host's chainscope on the boot's trace.dat.

    qemu/boot.py PREFIX GUEST-DIR CHAINSCOPE ours|stock

Prints one line per check, named PREFIX.boot.CHECK:
  no-loss   every CPU's ring buffer stats say overrun 0, and report's
            header says lost 0: the buffer the command line sized held
            the whole boot (the message gives events and size)
  order     ours: the reboot, module and netdevice chains each show
            boot-time registrations, and the call order report --boot
            built from them is the order chainscope chains read from
            the live chain afterwards (less blocks registered before
            tracing that did not run: nothing of them is in the buffer;
            the message names them); stock: upstream's events give a
            registration order, with no chain or priority, and report
            says once that times need our core
  times     ours: at least one boot-time call has per-callback times;
            stock: run counts, and no times
  check     chainscope check on the boot's trace.dat exits 0, told
            (--gap) of the stretch in which the kernel switched the
            command line's events off and on again (initcall times of
            event_trace_enable_again, which the guest wrote to reenable)
  slowest   ours: report --boot's text lists the slowest callbacks
PASS when it holds, FAIL saying what differs. The JSON is only parsed,
never evaluated; the commands run without a shell. Standard library.
"""

import json
import os
import re
import subprocess
import sys

CHAINS = ("reboot_notifier_list", "module_notify_list", "netdev_chain")


def one_line(s):
    """Text from the guest, as one line: it cannot add result lines."""
    return " ".join(str(s).split())[:300]


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    return p.returncode, p.stdout, p.stderr


def last_line(s):
    s = s.strip()
    return s.splitlines()[-1] if s else ""


def main(argv):
    if len(argv) != 5 or argv[4] not in ("ours", "stock"):
        sys.exit("usage: boot.py PREFIX GUEST-DIR CHAINSCOPE ours|stock")
    prefix, gdir, cs, kind = argv[1:]
    d = f"{gdir}/boot"
    checks = ["no-loss", "order", "times", "check"] + (["slowest"] if kind == "ours" else [])
    out = {}

    def res(check, ok, msg):
        out.setdefault(check, (ok, msg))

    def finish():
        for c in checks:
            ok, msg = out.get(c, (False, "not reached"))
            print(f"{'PASS' if ok else 'FAIL'}: {prefix}.boot.{c}: {msg}")
        return 0

    try:
        with open(f"{d}/error", encoding="utf-8", errors="replace") as f:
            why = one_line(f.read())
        for c in checks:
            res(c, False, f"the guest's boot plan failed: {why}")
        return finish()
    except FileNotFoundError:
        pass
    if os.path.exists(f"{d}/error"):
        for c in checks:
            res(c, False, "the guest's boot plan failed: its error is not a readable file")
        return finish()
    try:
        with open(f"{d}/stats", encoding="utf-8", errors="replace") as f:
            stats = f.read().splitlines()
        with open(f"{d}/buffer_size_kb", encoding="utf-8", errors="replace") as f:
            size_kb = one_line(f.read())
        with open(f"{d}/chains.json", encoding="utf-8", errors="replace") as f:
            lines = [ln for ln in f.read().splitlines() if ln.strip()]
        live = json.loads(lines[-1]) if lines else {}
        if not isinstance(live, dict) or not isinstance(live.get("chains"), list):
            raise ValueError("chains.json is not chainscope chains' JSON")
    except (OSError, ValueError) as e:
        for c in checks:
            res(c, False, f"no boot results from the guest: {e}")
        return finish()

    # the kernel's own loss counts, per CPU
    entries = overrun = 0
    if not stats:
        res("no-loss", False, "no per-CPU buffer stats from the guest")
    for s in stats:
        m_e = re.search(r"\bentries: (\d+)", s)
        lost_here = [re.search(r"\b" + k + r": (\d+)", s)
                     for k in ("overrun", "commit overrun", "dropped events")]
        if not m_e or not all(lost_here):
            res("no-loss", False, f"unreadable buffer stats: {one_line(s)[:80]}")
            break
        entries += int(m_e.group(1))
        overrun += sum(int(m.group(1)) for m in lost_here)

    dat = f"{d}/boot.dat"
    rc, js, err = run([cs, "report", "--boot", "-j", dat])
    if rc:
        for c in checks:
            res(c, False, f"chainscope report --boot -j exit {rc}: {last_line(err)}")
        return finish()
    try:
        rep = json.loads(js)
        boot = rep["boot"]
    except (ValueError, KeyError) as e:
        for c in checks:
            res(c, False, f"report --boot -j: no boot member: {e}")
        return finish()
    rc_t, text, err_t = run([cs, "report", "--boot", dat])

    lost = rep.get("lost")
    if not isinstance(lost, int):
        res("no-loss", False, "report --boot -j has no lost count")
    elif overrun or lost:
        res("no-loss", False, f"lost events at {size_kb} KiB per CPU: {overrun} "
            f"(buffer stats: overrun, commit overrun, dropped), report lost {lost}")
    else:
        res("no-loss", True, f"{entries} events in the buffer at trace_buf_size "
            f"{size_kb} KiB per CPU, overrun 0 on {len(stats)} CPUs, report lost 0")

    if kind == "ours":
        if boot.get("format") != "ours":
            res("order", False, f"report --boot says format {boot.get('format')}, not ours")
        chains = {c["chain"]: c for c in boot.get("chains", [])}
        lived = {c.get("chain"): c for c in live.get("chains", [])}
        msgs = []
        for name in CHAINS:
            c = chains.get(name)
            if c is None:
                res("order", False, f"{name}: not in report --boot")
                break
            regs = [r for r in c.get("registrations", []) if r.get("event") == "register"]
            if not regs:
                res("order", False, f"{name}: no boot-time registration in the buffer")
                break
            seqs = [r["seq"] for r in regs]
            ts = [r["ts_ns"] for r in regs]
            if seqs != sorted(seqs) or ts != sorted(ts):
                res("order", False, f"{name}: registrations not in the order they happened")
                break
            # blocks by their address (nb): two blocks may share a callback
            order = c.get("call_order", [])
            built = [int(b["nb_addr"], 16) for b in order]
            blocks = lived.get(name, {}).get("blocks", [])
            live_order = [int(b["nb"], 16) for b in blocks]
            names = {int(b["nb"], 16): b["callback"] for b in blocks}
            names.update({int(b["nb_addr"], 16): b["callback"] for b in order})
            registered = {int(r["nb_addr"], 16) for r in regs}
            # a block registered before tracing that did not run during
            # the boot left nothing in the buffer: it cannot be in the
            # built order, and is named, not counted against it; a block
            # whose registration is in the buffer has no such excuse
            unseen = [nb for nb in live_order if nb not in built]
            missing = [names[nb] for nb in unseen if nb in registered]
            if missing or not built:
                res("order", False, f"{name}: report --boot's call order lacks blocks "
                    f"registered in the buffer: {missing or 'all of them'}")
                break
            want = [nb for nb in live_order if nb in built]
            if built != want:
                res("order", False, f"{name}: report --boot built the call order "
                    f"{[names[nb] for nb in built]}, chainscope chains reads "
                    f"{[names[nb] for nb in live_order]} from the chain")
                break
            unseen = [names[nb] for nb in unseen]
            built = [names[nb] for nb in built]
            early = " (early history missing)" if c.get("early_history_missing") else ""
            inv = (f" [not in the buffer: {','.join(unseen)}, registered before tracing "
                   "and not called during the boot]" if unseen else "")
            msgs.append(f"{name} {len(regs)} registered{early}: {','.join(built)}{inv}")
        res("order", True, "; ".join(msgs))
        timed = [cb for c in boot.get("chains", []) for cb in c.get("callbacks", [])
                 if cb.get("timed", 0) > 0 and cb.get("total_ns", 0) > 0]
        if boot.get("times") is not True or not timed:
            res("times", False, "no boot-time call with per-callback times")
        else:
            top = max(timed, key=lambda cb: cb["max_ns"])
            res("times", True, f"{len(timed)} callbacks timed; longest call "
                f"{top['callback']} {top['max_ns'] / 1000:.0f}us")
        if rc_t or not re.search(r"^slowest", text, re.M | re.I) or not boot.get("slowest"):
            res("slowest", False, f"report --boot (exit {rc_t}) lists no slowest callbacks: "
                f"{last_line(err_t)}")
        else:
            s = boot["slowest"][0]
            res("slowest", True, f"slowest: {s['callback']} on {s.get('chain')} "
                f"max {s['max_ns'] / 1000:.0f}us")
    else:
        order = boot.get("registration_order", [])
        if boot.get("format") != "stock" or not order:
            res("order", False, f"format {boot.get('format')}, {len(order)} registrations")
        else:
            res("order", True, f"{len(order)} registrations in order (upstream's events: "
                f"no chain, no priority), first {order[0]['callback']}")
        counted = [cb for cb in boot.get("callbacks", []) if cb.get("count", 0) > 0]
        notes = len(re.findall(r"times need", text + err_t))
        if boot.get("times") is not False or not counted or notes != 1:
            res("times", False, f"times {boot.get('times')}, {len(counted)} callbacks "
                f"counted, the 'times need' note {notes} times")
        else:
            res("times", True, f"{len(counted)} callbacks with run counts; no times, "
                "said once (upstream's events carry only cb)")

    # the stretch of event_trace_enable_again (plan-boot.sh): a gap
    gap = {}
    try:
        with open(f"{d}/reenable", encoding="utf-8", errors="replace") as f:
            for ln in f.read().splitlines():
                m = re.search(r"\s(\d+\.\d{1,9}): +initcall_(start|finish): +"
                              r"func=event_trace_enable_again(\+|\s|$)", ln)
                if m:
                    gap.setdefault(m.group(2), m.group(1))
    except OSError:
        pass
    if set(gap) != {"start", "finish"}:
        res("check", False, "no initcall_start and initcall_finish times of "
            "event_trace_enable_again from the guest (reenable: initcall:* not on "
            "the command line, or no kallsyms in the trace.dat): the stretch in "
            "which the kernel switched the events off and on again is unknown")
        return finish()
    rc, o, e = run([cs, "check", "--gap", f"{gap['start']},{gap['finish']}", dat])
    if rc:
        # the first violation (stdout), or the error (stderr's last line)
        first = next((ln for ln in o.splitlines() if ln.startswith("event ")), "")
        nv = sum(ln.startswith("event ") for ln in o.splitlines())
        res("check", False, f"chainscope check exit {rc}: "
            + (f"{nv} violations, the first: {first}" if first else last_line(e)))
    else:
        gl = next((ln.split(": gaps: ", 1)[1] for ln in o.splitlines()
                   if ": gaps: " in ln), "no gap line")
        res("check", True, f"check clean, --gap {gap['start']},{gap['finish']} (the "
            f"events' re-enable): {gl}")
    return finish()


def guarded(argv):
    """main(), and a FAIL instead of a traceback on input nobody thought
    of: every check still gets a verdict."""
    try:
        return main(argv)
    except Exception as e:      # noqa: BLE001: the verdict must come out
        if len(argv) == 5:
            print(f"FAIL: {argv[1]}.boot.run: boot.py: {type(e).__name__}: {one_line(e)}")
        return 1


if __name__ == "__main__":
    sys.exit(guarded(sys.argv))
