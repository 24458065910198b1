#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The reboot chain of a guest's first boot, read back on its second boot
from 6.12's persistent ring buffer (qemu/guest/plan-persist.sh; run.sh -R;
qemu/test.sh), checked on the host.

    qemu/persist.py [--panic] NAME GUEST-DIR

--panic: boot 1 panicked (chainscope.persist=panic, panic=1) instead of
rebooting: the pass to find is panic_notifier_list's, atomic, val 0.

GUEST-DIR is the guest's results folder (output/test/VARIANT-persist/guest):
persist/ holds what boot 1 wrote (chains.json: reboot_notifier_list as
chainscope chains read it before the reboot; armed) and what boot 2 wrote
(kernel-said.txt: the kernel's "Ring buffer ..." lines; report.json and
report.rc: chainscope report --passes -j --tracefs on the instance).
Prints one line, test NAME:
  PASS  both boots ran; the kernel mapped the instance at the same physical
        address on both and said each CPU's buffer "is from previous boot";
        the report exited 0 and holds exactly one reboot_notifier_list pass
        (by name: --tracefs resolves heads with kallsyms, no hashing),
        blocking, val SYS_RESTART, running the callbacks chainscope chains
        listed in boot 1, in that order, each with a run time and a return,
        and the pass ended. The message lists the callbacks and times.
  FAIL  naming what is missing or wrong, with what the kernel said about
        the buffer on the second boot (why it was reset, if it was).
Standard library.
"""

import json
import re
import sys

from shutdown import expected, guarded, pass_problem, timed_list

SYS_RESTART = 1     # include/linux/notifier.h: what kernel_restart() passes
CHAIN = "reboot_notifier_list"


def read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return None


FLUSH = "rb_flush_buffer_cb"   # kernel/trace/ring_buffer.c


def panic_pass(name, fail, p, got, want, mapped, prev, rep):
    """The panic chain's pass as a boot-mapped buffer keeps it: 6.12's ring
    buffer registers rb_flush_buffer_cb on panic_notifier_list for such a
    buffer, and it turns recording off (ring_buffer_record_off()) before
    it flushes the range. So the buffer holds the pass up to that
    callback's run: the callbacks before it with their times and returns,
    its own run without a return, nothing after it, and no end."""
    names = [n for n, _ in want]
    if FLUSH not in names:
        return fail(f"no {FLUSH} on panic_notifier_list in boot 1 ({names}): the "
                    "boot-mapped buffer registers one")
    k = names.index(FLUSH)
    if got != want[:k + 1]:
        return fail(f"the buffer holds {got}; up to {FLUSH} chainscope chains listed "
                    f"{want[:k + 1]} in boot 1")
    before = p["callbacks"][:k]
    untimed = [c["callback"] for c in before if "duration_ns" not in c or "ret" not in c]
    if untimed:
        return fail(f"callbacks before {FLUSH} without a run time or return: "
                    f"{','.join(untimed)}")
    last = p["callbacks"][k]
    if "ret" in last or "duration_ns" in p:
        return fail(f"recording went on after {FLUSH}'s run (its return or the pass's "
                    "end is in the buffer): it should have turned recording off")
    cbs = timed_list(before)
    after = ", ".join(n for n in names[k + 1:]) or "none"
    print(f"PASS: {name}: boot 2 read boot 1's panic_notifier_list (atomic, val=0) pass "
          f"at {p['ts_ns'] / 1e9:.6f} s up to {FLUSH}, which turned recording off: "
          f"{cbs}, then {FLUSH}'s run; not kept (after it): {after}; from the persistent "
          f"buffer at {mapped[0]} (CPUs {','.join(prev)} from the previous boot, lost "
          f"{rep.get('lost')})")
    return 0


def main(argv):
    chain, kind, val, valname = CHAIN, "blocking", SYS_RESTART, "SYS_RESTART"
    if len(argv) > 1 and argv[1] == "--panic":
        chain, kind, val, valname = "panic_notifier_list", "atomic", 0, "panic()'s 0"
        argv = argv[:1] + argv[2:]
    if len(argv) != 3:
        sys.exit("usage: persist.py [--panic] NAME GUEST-DIR")
    name, gdir = argv[1:]
    d = f"{gdir}/persist"
    said = read(f"{d}/kernel-said.txt") or ""
    rb = [ln.split("] ", 1)[-1] for ln in said.splitlines()
          if "Ring buffer" in ln or "boot instance" in ln]

    def fail(why):
        print(f"FAIL: {name}: {why}" +
              (f" (kernel, boot 2: {'; '.join(rb)})" if rb else ""))
        return 0

    err = read(f"{d}/error")
    if err is not None:
        return fail(f"the guest: {' '.join(err.split())[:300]}")
    for b in ("boot1", "boot2"):
        if read(f"{d}/{b}") is None:
            return fail(f"no {b} marker in the guest's results: that boot did not run the plan")
    mapped = []
    for f in ("dmesg-boot1.txt", "dmesg-boot2.txt"):
        m = re.search(r"mapped boot instance (\S+) at physical memory (0x[0-9a-f]+) of size (0x[0-9a-f]+)",
                      read(f"{d}/{f}") or "")
        if not m:
            return fail(f"{f}: the kernel did not map a boot instance")
        mapped.append(m.group(2) + "+" + m.group(3))
    if mapped[0] != mapped[1]:
        return fail(f"the instance moved: {mapped[0]} on boot 1, {mapped[1]} on boot 2")
    prev = re.findall(r"Ring buffer meta \[(\d+)\] is from previous boot!", said)
    if not prev:
        return fail("no CPU's buffer is from the previous boot: the kernel reset it")
    try:
        want = expected(gdir, "persist", chain, kind)
    except (OSError, ValueError, KeyError) as e:
        return fail(f"no {chain} list from boot 1: {e}")
    if not want:
        return fail(f"{chain} is empty in the guest: no order to check")

    rc = (read(f"{d}/report.rc") or "").strip()
    if rc != "0":
        last = (read(f"{d}/report.err") or "").strip().splitlines()
        return fail(f"chainscope report --passes -j --tracefs exit {rc or '?'}: "
                    f"{last[-1] if last else ''}")
    try:
        rep = json.loads(read(f"{d}/report.json") or "")
    except ValueError as e:
        return fail(f"report --passes -j is not JSON: {e}")
    cands = [p for p in rep.get("passes", []) if p.get("chain") == chain]
    if len(cands) != 1:
        seen = [f"{p.get('chain')} ({p.get('kind')}, val={p.get('val')})"
                for p in rep.get("passes", [])]
        return fail(f"{len(cands)} {chain} passes in the buffer "
                    f"(lost {rep.get('lost')}, unpaired {rep.get('unpaired')}); "
                    f"passes: {'; '.join(seen) or 'none'}")
    p = cands[0]
    if p.get("kind") != kind or p.get("val") != val:
        return fail(f"the pass is {p.get('kind')} val={p.get('val')}, "
                    f"not {kind} val={val} ({valname})")
    got = [(c["callback"], c["priority"]) for c in p["callbacks"]]
    if chain == "panic_notifier_list":
        return panic_pass(name, fail, p, got, want, mapped, prev, rep)
    why = pass_problem(p, want, chain, "chainscope chains listed {want} in boot 1",
                       "no notifier_call_end in the buffer")
    if why:
        return fail(why)
    cbs = timed_list(p["callbacks"])
    print(f"PASS: {name}: boot 2 read boot 1's {chain} ({kind}, val={val} "
          f"{valname}) at {p['ts_ns'] / 1e9:.6f} s, {p['duration_ns'] / 1000:.0f}us: "
          f"{cbs}; in chainscope chains' order; from the persistent buffer at "
          f"{mapped[0]} (CPUs {','.join(prev)} from the previous boot, "
          f"{len(rep.get('passes', []))} passes, lost {rep.get('lost')})")
    return 0


if __name__ == "__main__":
    sys.exit(guarded(main, sys.argv, "persist.py"))
