#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The shutdown report of a guest that powered off with our events on the
console (qemu/guest/shutdown.sh armed it), checked on the host after the
guest ran (qemu/test.sh).

    qemu/shutdown.py [--panic] NAME GUEST-DIR CONSOLE-LOG CHAINSCOPE

--panic: the same for the panic chain of a guest that panicked on purpose
(qemu/guest/plan-panic.sh): an atomic pass with val 0 over what chainscope
chains read from panic_notifier_list, from GUEST-DIR/panic.

GUEST-DIR is the guest's results folder (output/test/VARIANT/guest),
CONSOLE-LOG the boot's console (run.sh's console.log: the last boot),
CHAINSCOPE the host-built CLI. Prints one line, test NAME:
  PASS  the console holds exactly one pass of the reboot chain: blocking,
        val SYS_POWER_OFF, running the callbacks that chainscope chains
        read from reboot_notifier_list in the guest before the power-off;
        they ran in that order (the list's order: priority, highest
        first, and the events' priorities never rise), each with a run
        time and a return value; the pass ended; and chainscope check
        --console on the log exits 0. The message lists the callbacks
        with their times.
  FAIL  naming what is missing or wrong.

Console heads are hashed (%p of tp_printk), so the pass is known by its
kind, val and callbacks, not by the head's name. The JSON is only parsed.
Standard library.
"""

import json
import subprocess
import sys

SYS_POWER_OFF = 3       # include/linux/notifier.h: what kernel_power_off() passes
# what each mode checks: results folder, chain, kind, val (and its name)
MODES = {
    "shutdown": ("shutdown", "reboot_notifier_list", "blocking", SYS_POWER_OFF, "SYS_POWER_OFF"),
    "panic": ("panic", "panic_notifier_list", "atomic", 0, "panic()'s 0"),
}


ARMED = {"what": ""}    # the guest's shutdown/armed, once read: said with a failure


def fail(name, why):
    armed = ARMED["what"]
    print(f"FAIL: {name}: {why}" + (f" (guest: {armed})" if armed else ""))
    return 0


def last_json(path):
    with open(path, encoding="utf-8") as f:
        lines = [ln for ln in f.read().splitlines() if ln.strip()]
    if not lines:
        raise ValueError(f"{path}: empty")
    return json.loads(lines[-1])


def expected(gdir, sub, chain, kind):
    """The chain's callbacks in list order, from chainscope chains -j."""
    d = last_json(f"{gdir}/{sub}/chains.json")
    chains = [c for c in d.get("chains", []) if c.get("chain") == chain]
    if len(chains) != 1:
        raise ValueError(f"chains.json has {len(chains)} {chain} entries")
    c = chains[0]
    if c.get("kind") != kind:
        raise ValueError(f"{chain} is {c.get('kind')}, not {kind}")
    return [(b["callback"], b["priority"]) for b in c.get("blocks", [])]


def pass_problem(p, want, chain, listed, no_end):
    """Why pass P (report --passes -j) is not WANT's callbacks in WANT's
    order, priorities never rising, each with a run time and a return, and
    ended; None if it is. LISTED says where WANT came from ({want} in it
    is WANT), NO_END why a pass would have no end."""
    got = [(c["callback"], c["priority"]) for c in p["callbacks"]]
    if got != want:
        return f"ran {got}, " + listed.format(want=want)
    prios = [pr for _, pr in got]
    if any(a < b for a, b in zip(prios, prios[1:])):
        return f"priorities rise in run order: {prios}"
    if "duration_ns" not in p:
        return f"{chain}'s pass has no end ({no_end})"
    untimed = [c["callback"] for c in p["callbacks"]
               if "duration_ns" not in c or "ret" not in c]
    if untimed:
        return f"callbacks without a run time or return: {','.join(untimed)}"
    return None


def timed_list(callbacks):
    """The callbacks of a pass for a PASS message, with time and return."""
    return ", ".join(f"{c['callback']} (prio {c['priority']}) {c['duration_ns'] / 1000:.0f}us"
                     f" ret={c['ret']}" for c in callbacks)


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    return p.returncode, p.stdout, p.stderr


def main(argv):
    mode = "shutdown"
    if len(argv) > 1 and argv[1] == "--panic":
        mode = "panic"
        argv = argv[:1] + argv[2:]
    if len(argv) != 5:
        sys.exit("usage: shutdown.py [--panic] NAME GUEST-DIR CONSOLE-LOG CHAINSCOPE")
    name, gdir, log, cs = argv[1:]
    sub, chain, kind, val, valname = MODES[mode]
    try:
        with open(f"{gdir}/{sub}/error", encoding="utf-8", errors="replace") as f:
            return fail(name, f"the guest did not arm: {' '.join(f.read().split())[:300]}")
    except FileNotFoundError:
        pass
    try:
        with open(f"{gdir}/{sub}/armed", encoding="utf-8", errors="replace") as f:
            armed = "; ".join(" ".join(ln.split()) for ln in f.read().split("\n")).strip("; ")[:300]
        want = expected(gdir, sub, chain, kind)
        ARMED["what"] = armed
    except (OSError, ValueError, KeyError) as e:
        return fail(name, f"no armed {mode} in the guest's results: {e}")
    if not want:
        return fail(name, f"{chain} is empty in the guest: no order to check")

    rc, out, err = run([cs, "report", "--passes", "-j", "--console", log])
    if rc:
        return fail(name, f"chainscope report --passes --console exit {rc}: "
                    f"{err.strip().splitlines()[-1] if err.strip() else ''}")
    try:
        rep = json.loads(out)
    except ValueError as e:
        return fail(name, f"report --passes -j is not JSON: {e}")
    names = sorted(n for n, _ in want)
    cands = [p for p in rep.get("passes", [])
             if p.get("kind") == kind and p.get("val") == val
             and sorted(c["callback"] for c in p["callbacks"]) == names]
    if len(cands) != 1:
        seen = [f"{p.get('chain')} ({p.get('kind')}, val={p.get('val')}): "
                f"{','.join(c['callback'] for c in p['callbacks'])}"
                for p in rep.get("passes", [])][-6:]
        return fail(name, f"{len(cands)} {kind} passes with val={val} "
                    f"({valname}) running {chain}'s "
                    f"{','.join(n for n, _ in want)} in the console "
                    f"(lost {rep.get('lost')}, unpaired {rep.get('unpaired')}); "
                    f"the last passes seen: {'; '.join(seen) or 'none'}")
    p = cands[0]
    why = pass_problem(p, want, chain, "chainscope chains lists {want}",
                       "call_end not on the console")
    if why:
        return fail(name, why)
    if mode == "panic" and p["duration_ns"] <= 0:
        # panic() runs its chain with interrupts off: a sched_clock that
        # follows the tick (TSC marked unstable) stands still, and every
        # line gets one timestamp
        return fail(name, f"{chain}'s pass took 0 us: the console's clock stood still "
                    "(TSC unstable? the panic boot needs tsc=reliable)")

    rc, out, err = run([cs, "check", "--console", log])
    if rc:
        return fail(name, f"chainscope check --console exit {rc}: "
                    f"{(out + err).strip().splitlines()[-1] if (out + err).strip() else ''}")
    cbs = timed_list(p["callbacks"])
    print(f"PASS: {name}: {chain} ({kind}, val={val}) at "
          f"{p['ts_ns'] / 1e9:.6f} s, {p['duration_ns'] / 1000:.0f}us: {cbs}; "
          f"in chainscope chains' order; check --console clean")
    return 0


def guarded(main_fn, argv, tool):
    """main_fn(argv), and a FAIL instead of a traceback on input nobody
    thought of (the guest's files are its to write): the test NAME (the
    first argument after --panic) still gets a verdict."""
    try:
        return main_fn(argv)
    except Exception as e:      # noqa: BLE001: the verdict must come out
        args = [a for a in argv[1:] if a != "--panic"]
        if args:
            print(f"FAIL: {args[0]}: {tool}: {type(e).__name__}: "
                  f"{' '.join(str(e).split())[:300]}")
        return 1


if __name__ == "__main__":
    sys.exit(guarded(main, sys.argv, "shutdown.py"))
