#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""cs-genconsole: console and tracefs text logs of our notifier events for
the host tests of report's and check's --console input
(tests/sh/console.sh), printed with the events' own TP_printk formats,
read from include-trace/trace/events/notifier.h (the format string of
each event and the __entry fields its arguments name, in order), so a
change of the header changes what the tests feed the reader.

  genconsole.py HEADER SCENARIO FILE
  genconsole.py HEADER --list
  genconsole.py HEADER --seeds DIR     every scenario into DIR (fuzz seeds)

The scenario is cs-gentracedat's (tests/gen/gentracedat.c, "ours8"): the
same callbacks, passes, stops and times, so the two inputs must give the
same rows. Nothing here reads this machine's kernel."""
import os
import random
import re
import sys

# --- the formats, from the header ---------------------------------------------


def c_strings(expr, macros):
    """A C format expression: string literals and macro names, concatenated."""
    out = ""
    for tok in re.findall(r'"((?:[^"\\]|\\.)*)"|([A-Za-z_]\w*)', expr):
        out += tok[0] if tok[0] or not tok[1] else macros[tok[1]]
    return out


def split_args(s):
    """The top-level comma-separated arguments of s (up to its closing paren)."""
    args, depth, cur, i, instr = [], 0, "", 0, False
    while i < len(s):
        ch = s[i]
        if instr:
            cur += ch
            if ch == "\\":
                cur += s[i + 1]
                i += 1
            elif ch == '"':
                instr = False
        elif ch == '"':
            instr = True
            cur += ch
        elif ch == "(":
            depth += 1
            cur += ch
        elif ch == ")":
            if depth == 0:
                args.append(cur.strip())
                return args
            depth -= 1
            cur += ch
        elif ch == "," and depth == 0:
            args.append(cur.strip())
            cur = ""
        else:
            cur += ch
        i += 1
    raise ValueError("unbalanced TP_printk")


def formats(header):
    src = open(header).read()
    macros = {m.group(1): c_strings(m.group(2), {})
              for m in re.finditer(r'#define\s+(NOTIFIER_\w+_FMT)\s+(.*)', src)}

    def printk(block):
        i = block.index("TP_printk(") + len("TP_printk(")
        args = split_args(block[i:])
        fields = [re.search(r"__entry->(\w+)", a).group(1) for a in args[1:]]
        return c_strings(args[0], macros), fields

    classes, events = {}, {}
    for m in re.finditer(r"DECLARE_EVENT_CLASS\((\w+),", src):
        classes[m.group(1)] = printk(src[m.end():])
    for m in re.finditer(r"DEFINE_EVENT_FN\((\w+),\s*(\w+),", src):
        if m.group(1) in classes:
            events[m.group(2)] = classes[m.group(1)]
    for m in re.finditer(r"NOTIFIER_CALL_EVENT_PRINT\((\w+),\s*(\w+),", src):
        if m.group(1) in classes:
            events[m.group(2)] = printk(src[m.end():])
    return events


KINDS = ["raw", "atomic", "blocking", "srcu"]
TYPES = ["plain", "robust", "rollback"]
RETS = {0: "DONE", 1: "OK", 0x8001: "STOP", 0x8002: "BAD"}
RAW, ATOMIC, BLOCKING = 0, 1, 2


def show(field, v):
    """What the header's show_notifier_*() print for a field."""
    if field == "kind":
        return KINDS[v]
    if field == "type":
        return TYPES[v]
    if field == "ret":
        return RETS.get(v, "0x%x" % (v & 0xffffffffffffffff))
    raise KeyError(field)


def printf(fmt, fields, ev):
    """fmt with the kernel's vsnprintf() conversions our formats use."""
    vals = iter(fields)

    def conv(m):
        spec, f = m.group(0), next(vals)
        v = ev[f]
        if spec == "%ps":
            return v if isinstance(v, str) else "0x%x" % v
        if spec == "%p":
            return "%016x" % v
        if spec == "%s":
            return show(f, v)
        if spec in ("%d", "%lu"):
            return "%d" % v
        raise ValueError(spec)
    return re.sub(r"%ps|%p|%lu|%d|%s", conv, fmt)


# upstream's three events (6.4+): TP_printk("%ps", __entry->cb)
STOCK = {"notifier_register", "notifier_unregister", "notifier_run"}


class Log:
    def __init__(self, fmts, style, stock=False):
        self.fmts, self.style, self.stock = fmts, style, stock
        self.lines = []         # (ts ns, cpu, text)

    def text(self, name, ev):
        if self.stock:
            return "%s: %s" % (name, printf("%ps", ["cb"], ev))
        fmt, fields = self.fmts[name]
        return "%s: %s" % (name, printf(fmt, fields, ev))

    def emit(self, ts, name, ev, cpu=0, pid=100, flags="....."):
        if self.stock and name not in STOCK:
            return
        body = self.text(name, ev)
        s, us = ts // 10**9, ts % 10**9 // 1000
        if self.style == "printk":
            line = "[%5d.%06d] %s" % (s, us, body)
        elif self.style == "caller":
            line = "[%5d.%06d][%6s] %s" % (s, us, ("T%d" % pid) if flags[2] == "." else
                                          ("C%d" % cpu), body)
        elif self.style == "tracefs":
            comm = "<idle>" if pid == 0 else "cs-load"
            line = "%16s-%-7d [%03d] %s %5d.%06d: %s" % (comm, pid, cpu, flags, s, us, body)
        elif self.style == "counter":
            line = "%16s-%-7d [%03d] %s %12d: %s" % ("cs-load", pid, cpu, flags, ts, body)
        else:
            line = body
        self.lines.append((ts, cpu, line))


# cs-gentracedat's names and addresses; named callbacks print their names
HEAD, HEAD2, HEAD3 = 0x00000000a1b2c3d4, 0x000000005e6f7081, 0x00000000deadbeef
NB = {"cs_cb_fast": 0x0000000011111111, "cs_cb_busy": 0x0000000022222222,
      "cs_cb_veto": 0x0000000033333333, "cs_cb_inner": 0x0000000044444444,
      "cs_cb_irq": 0x0000000055555555}


def scenario(log, names, lose=False):
    """tests/gen/gentracedat.c's scenario(), as text."""
    def cb(n):
        return names.get(n, n)

    def reg(ts, head, n, prio, kind, pid=100, cpu=0):
        log.emit(ts, "notifier_register", dict(cb=cb(n), head=head, nb=NB[n], priority=prio,
                                               kind=kind), cpu, pid)

    def call(ts, dur, head, n, prio, kind, val, ret, no_return=False, cpu=0, pid=100,
             flags="....."):
        ev = dict(cb=cb(n), head=head, nb=NB[n], priority=prio, kind=kind, val=val, ret=ret)
        log.emit(ts, "notifier_run", ev, cpu, pid, flags)
        if not no_return:
            log.emit(ts + dur, "notifier_return", ev, cpu, pid, flags)

    def begin(ts, head, kind, val, cpu=0, pid=100, flags="....."):
        log.emit(ts, "notifier_call_begin", dict(head=head, kind=kind, val=val, nr_to_call=-1,
                                                 type=0), cpu, pid, flags)

    def end(ts, head, kind, val, ret, nr, cpu=0, pid=100, flags="....."):
        log.emit(ts, "notifier_call_end", dict(head=head, kind=kind, val=val, nr_to_call=-1,
                                               type=0, ret=ret, nr_calls=nr), cpu, pid, flags)

    reg(1000000000, HEAD, "cs_cb_fast", 10, BLOCKING)
    reg(1000001000, HEAD, "cs_cb_busy", 5, BLOCKING)
    reg(1000002000, HEAD, "cs_cb_veto", 0, BLOCKING)
    reg(1000003000, HEAD2, "cs_cb_inner", 0, RAW)
    reg(1500000000, HEAD3, "cs_cb_irq", 0, ATOMIC, pid=200, cpu=1)
    for i in range(10):
        vret = 0x8001 if i in (3, 7) else 1
        t = 2000000000 + i * 10000000
        begin(t, HEAD, BLOCKING, i)
        call(t + 1000, 100000, HEAD, "cs_cb_fast", 10, BLOCKING, i, 1)
        call(t + 200000, 500000 + i * 100000, HEAD, "cs_cb_busy", 5, BLOCKING, i, 1,
             no_return=(i == 0 or (lose and i == 5)))
        if i == 0:
            begin(t + 210000, HEAD2, RAW, 7)
            call(t + 211000, 30000, HEAD2, "cs_cb_inner", 0, RAW, 7, 0)
            end(t + 242000, HEAD2, RAW, 7, 0, 1)
            log.emit(t + 700000, "notifier_return",
                     dict(cb=cb("cs_cb_busy"), head=HEAD, nb=NB["cs_cb_busy"], priority=5,
                          kind=BLOCKING, val=0, ret=1))
        if lose and i == 5:
            log.lines.append((t + 1999000, 0, "CPU:0 [LOST 4 EVENTS]"))
        call(t + 2000000, 10000, HEAD, "cs_cb_veto", 0, BLOCKING, i, vret)
        end(t + 2020000, HEAD, BLOCKING, i, vret, 3)
    for i in range(5):
        t = 3000000000 + i * 1000000
        begin(t, HEAD3, ATOMIC, 0, cpu=1, pid=0, flags="d.h1.")
        call(t + 1000, 50000, HEAD3, "cs_cb_irq", 0, ATOMIC, 0, 0, cpu=1, pid=0,
             flags="d.h1.")
        end(t + 60000, HEAD3, ATOMIC, 0, 0, 1, cpu=1, pid=0, flags="d.h1.")
    log.emit(3100000000, "notifier_unregister",
             dict(cb=cb("cs_cb_veto"), head=HEAD, nb=NB["cs_cb_veto"], priority=0,
                  kind=BLOCKING))


NAMED = {"cs_cb_fast": "cs_cb_fast [cs_test]", "cs_cb_busy": "cs_cb_busy [cs_test]",
         "cs_cb_veto": "cs_cb_veto [cs_test]", "cs_cb_inner": "cs_cb_inner",
         "cs_cb_irq": "cs_cb_irq"}
# where no symbol covers the callback, %ps prints the address
UNNAMED = {"cs_cb_fast": 0xffffffffc0001000, "cs_cb_busy": 0xffffffffc0001100,
           "cs_cb_veto": 0xffffffffc0001200, "cs_cb_inner": 0xffffffffc0001300,
           "cs_cb_irq": 0xffffffffc0001400}

# kernel messages of the kind a console shows between ours
OTHER = [
    "Linux version 6.1.0-cs (chainscope@build) #1 SMP PREEMPT_DYNAMIC",
    "Command line: console=ttyS0 trace_event=notifier:* tp_printk",
    "cs_test: loading out-of-tree module taints kernel.",
    "e1000e 0000:00:02.0 eth0: NIC Link is Up 1000 Mbps Full Duplex",
    "notifier chain test: starting 10 passes",
    "random: crng init done",
    "reboot: Power down",
]

# lines that look almost like ours: each must be skipped (notifier_* ones counted "bad")
NEAR = [
    # the fields out of order, one missing, one more
    "notifier_run: cs_cb_fast head=00000000a1b2c3d4 priority=10 nb=0000000011111111 kind=blocking val=0",
    "notifier_run: cs_cb_fast head=00000000a1b2c3d4 nb=0000000011111111 priority=10 kind=blocking",
    "notifier_run: cs_cb_fast head=00000000a1b2c3d4 nb=0000000011111111 priority=10 kind=blocking val=0 ret=OK",
    # trailing text, two spaces, a tab
    "notifier_return: cs_cb_fast head=00000000a1b2c3d4 nb=0000000011111111 priority=10 kind=blocking val=0 ret=OK extra",
    "notifier_return: cs_cb_fast  head=00000000a1b2c3d4 nb=0000000011111111 priority=10 kind=blocking val=0 ret=OK",
    "notifier_return: cs_cb_fast head=00000000a1b2c3d4 nb=0000000011111111 priority=10 kind=blocking val=0 ret=OK\t",
    # pointers: upper case, 15 and 17 digits, 0x-prefixed
    "notifier_run: cs_cb_fast head=00000000A1B2C3D4 nb=0000000011111111 priority=10 kind=blocking val=0",
    "notifier_run: cs_cb_fast head=0000000a1b2c3d4 nb=0000000011111111 priority=10 kind=blocking val=0",
    "notifier_run: cs_cb_fast head=000000000a1b2c3d4 nb=0000000011111111 priority=10 kind=blocking val=0",
    "notifier_run: cs_cb_fast head=0x00000000a1b2c3d4 nb=0000000011111111 priority=10 kind=blocking val=0",
    # values no %d, %lu or show_*() prints
    "notifier_run: cs_cb_fast head=00000000a1b2c3d4 nb=0000000011111111 priority=+10 kind=blocking val=0",
    "notifier_run: cs_cb_fast head=00000000a1b2c3d4 nb=0000000011111111 priority=010 kind=blocking val=0",
    "notifier_run: cs_cb_fast head=00000000a1b2c3d4 nb=0000000011111111 priority=10 kind=blocking val=-1",
    "notifier_run: cs_cb_fast head=00000000a1b2c3d4 nb=0000000011111111 priority=2147483648 kind=blocking val=0",
    "notifier_run: cs_cb_fast head=00000000a1b2c3d4 nb=0000000011111111 priority=10 kind=Blocking val=0",
    "notifier_run: cs_cb_fast head=00000000a1b2c3d4 nb=0000000011111111 priority=10 kind=0x2 val=0",
    "notifier_return: cs_cb_fast head=00000000a1b2c3d4 nb=0000000011111111 priority=10 kind=blocking val=0 ret=0x1",
    "notifier_return: cs_cb_fast head=00000000a1b2c3d4 nb=0000000011111111 priority=10 kind=blocking val=0 ret=0x0000801f",
    "notifier_call_end: head=00000000a1b2c3d4 kind=blocking val=0 nr_to_call=-1 type=plane ret=OK nr_calls=3",
    "notifier_call_begin: head=00000000a1b2c3d4 kind=blocking val=0 nr_to_call=-1",
    # names: outside the symbol alphabet, an offset (%pS, not %ps), a bad module
    "notifier_run: cs-cb-fast head=00000000a1b2c3d4 nb=0000000011111111 priority=10 kind=blocking val=0",
    "notifier_run: cs_cb_fast+0x10/0x40 head=00000000a1b2c3d4 nb=0000000011111111 priority=10 kind=blocking val=0",
    "notifier_run: cs_cb_fast [cs test] head=00000000a1b2c3d4 nb=0000000011111111 priority=10 kind=blocking val=0",
    "notifier_run: cs_cb_fast [] head=00000000a1b2c3d4 nb=0000000011111111 priority=10 kind=blocking val=0",
    "notifier_run: 0xFFFFFFFFC0001000 head=00000000a1b2c3d4 nb=0000000011111111 priority=10 kind=blocking val=0",
    "notifier_run: 0x0c5c000000000000 head=00000000a1b2c3d4 nb=0000000011111111 priority=10 kind=blocking val=0",
    "notifier_run: \x1b[31mcs_cb_fast head=00000000a1b2c3d4 nb=0000000011111111 priority=10 kind=blocking val=0",
    # an event we do not have, an old one, a stock-looking line of an event upstream has not
    "notifier_stop: cs_cb_veto head=00000000a1b2c3d4 nb=0000000033333333 priority=0 kind=blocking val=3 ret=STOP nr_calls=3",
    "notifier_return: cs_cb_fast",
    "notifier_call_begin: cs_cb_fast",
    # an event name cut short by other output
    "notifier_retu[    2.000002] e1000e: link up",
]
# no event name of ours at the start (text before it, case, other names): "other"
NEAR_OTHER = [
    "xnotifier_run: cs_cb_fast head=00000000a1b2c3d4 nb=0000000011111111 priority=10 kind=blocking val=0",
    "Notifier_run: cs_cb_fast head=00000000a1b2c3d4 nb=0000000011111111 priority=10 kind=blocking val=0",
    " notifier_run: cs_cb_fast head=00000000a1b2c3d4 nb=0000000011111111 priority=10 kind=blocking val=0",
    "[   1.000000]notifier_run: cs_cb_fast head=00000000a1b2c3d4 nb=0000000011111111 priority=10 kind=blocking val=0",
    "notifier_kunit: expect WARN: notifier callback nt_block_cb [notifier_kunit] already registered",
    "notifier_runs: cs_cb_fast head=00000000a1b2c3d4 nb=0000000011111111 priority=10 kind=blocking val=0",
    "CPU:0 [LOST -1 EVENTS]",
    "** 0 printk messages dropped **",
]


def shutdown(fmts):
    """A power-off as our kernels print it (tp_printk, hashed heads): the
    reboot chain (blocking, SYS_POWER_OFF = 3) with two callbacks in
    priority order, the power-off prepare chain with a kernel message inside
    its callback, and the atomic power-off chain whose callback never returns
    (the machine is off); the log stops there."""
    log = Log(fmts, "printk")
    reboot, prep, off = 0x00000000c0ffee11, 0x000000007ab1e222, 0x00000000051de333

    def pass_(t, head, kind, val, cbs, end=True):
        log.emit(t, "notifier_call_begin", dict(head=head, kind=kind, val=val, nr_to_call=-1,
                                                type=0))
        for name, nb, prio, start, dur, ret, inside in cbs:
            ev = dict(cb=name, head=head, nb=nb, priority=prio, kind=kind, val=val, ret=ret)
            log.emit(t + start, "notifier_run", ev)
            if inside:
                log.lines.append((t + start + 1000, 0, "[%5d.%06d] %s" % (
                    (t + start + 1000) // 10**9, (t + start + 1000) % 10**9 // 1000, inside)))
            if dur is not None:
                log.emit(t + start + dur, "notifier_return", ev)
        if end:
            last = cbs[-1]
            log.emit(t + last[3] + last[4] + 2000, "notifier_call_end",
                     dict(head=head, kind=kind, val=val, nr_to_call=-1, type=0, ret=0,
                          nr_calls=len(cbs)))
    log.lines.append((0, 0, "chainscope-guest: plan exited 0"))
    pass_(229000000000, reboot, BLOCKING, 3,
          [("tts_notify_reboot", 0x000000001f2e3d4c, 0, 4000, 1204000, 0, None),
           ("perf_reboot", 0x000000002a3b4c5d, -2147483648, 1210000, 37000, 0, None)])
    pass_(229400000000, prep, BLOCKING, 0,
          [("sys_off_notify", 0x000000003b4c5d6e, 224, 3000, 51000, 0,
            "ACPI: PM: Preparing to enter system sleep state S5")])
    log.lines.append((229500000000, 0, "[  229.500000] reboot: Power down"))
    pass_(229500100000, off, ATOMIC, 0,
          [("sys_off_notify", 0x000000004c5d6e7f, 224, 2000, None, 0, None)], end=False)
    return render(log)


def concurrent(fmts, bad=False):
    """One chain called on two CPUs at once, on a console without caller
    ids (no task: one stream): the two passes' lines interleave. Three
    rounds of two passes with different vals, callbacks returning in
    either order, one pass ending while the other runs; then two passes
    of the same val at once (which runs are whose cannot be told: not
    judged). bad: in the first round the second pass runs its priority-5
    callback after its priority-0 one (a priority-order violation, and
    still one with the other pass's lines between)."""
    log = Log(fmts, "printk")
    prio = {"cs_cb_fast": 10, "cs_cb_busy": 5, "cs_cb_veto": 0}

    def ev(n, val, ret=1):
        return dict(cb=NAMED[n], head=HEAD, nb=NB[n], priority=prio[n], kind=BLOCKING,
                    val=val, ret=ret)

    def call(t, name, val, nr_calls=3):
        if name == "begin":
            log.emit(t, "notifier_call_begin", dict(head=HEAD, kind=BLOCKING, val=val,
                                                    nr_to_call=-1, type=0))
        else:
            log.emit(t, "notifier_call_end", dict(head=HEAD, kind=BLOCKING, val=val,
                                                  nr_to_call=-1, type=0, ret=1,
                                                  nr_calls=nr_calls))

    for n in ("cs_cb_fast", "cs_cb_busy", "cs_cb_veto"):
        log.emit(1000000000 + len(log.lines) * 1000, "notifier_register",
                 {k: v for k, v in ev(n, 0).items() if k not in ("val", "ret")})
    for r in range(3):
        t, a, b = 2000000000 + r * 10000000, 2 * r + 1, 2 * r + 2
        second = ["cs_cb_veto", "cs_cb_busy"] if bad and r == 0 else ["cs_cb_busy", "cs_cb_veto"]
        steps = [(0, "begin", a), (1, "begin", b),
                 (2, "run", a, "cs_cb_fast"), (3, "run", b, "cs_cb_fast"),
                 (40, "return", b, "cs_cb_fast"), (50, "return", a, "cs_cb_fast"),
                 (51, "run", a, "cs_cb_busy"), (60, "run", b, second[0]),
                 (70, "return", b, second[0]), (71, "run", b, second[1]),
                 (300, "return", a, "cs_cb_busy"), (301, "run", a, "cs_cb_veto"),
                 (310, "return", a, "cs_cb_veto"), (311, "end", a),
                 (400, "return", b, second[1]), (401, "end", b)]
        for st in steps:
            ts = t + st[0] * 1000
            if st[1] in ("begin", "end"):
                call(ts, st[1], st[2])
            else:
                log.emit(ts, "notifier_" + st[1], ev(st[3], st[2]))
    # the same val on both CPUs
    t = 2100000000
    call(t, "begin", 9)
    call(t + 1000, "begin", 9)
    for i, n in enumerate(("cs_cb_fast", "cs_cb_busy", "cs_cb_veto")):
        log.emit(t + 10000 + i * 100000, "notifier_run", ev(n, 9))
        log.emit(t + 11000 + i * 100000, "notifier_run", ev(n, 9))
        log.emit(t + 50000 + i * 100000, "notifier_return", ev(n, 9))
        log.emit(t + 51000 + i * 100000, "notifier_return", ev(n, 9))
    call(t + 400000, "end", 9)
    call(t + 401000, "end", 9)
    return render(log)


NBOOT = ["r_a", "r_b", "r_c", "r_d", "r_e", "m_a", "m_b", "m_c", "n_lo", "n_a", "n_b"]


def boot(fmts, stock=False):
    """cs-gentracedat's boot8 (bootstock) as a console log of a boot with
    trace_event=notifier:* tp_printk: three chains' registrations, the
    module chain called three times, the netdev chain twice with n_lo,
    registered before tracing was up (early history missing)."""
    log = Log(fmts, "printk", stock=stock)
    heads = {"reboot": 0x00000000b0071111, "module": 0x00000000b0072222,
             "netdev": 0x00000000b0073333}
    kinds = {"reboot": BLOCKING, "module": BLOCKING, "netdev": RAW}

    def blk(chain, n, prio):
        return dict(cb="cs_boot_" + n, head=heads[chain], nb=0x00000000c0000000 + NBOOT.index(n) * 64,
                    priority=prio, kind=kinds[chain])

    regs = [("reboot", "r_a", 0), ("reboot", "r_b", 128), ("module", "m_a", 0),
            ("reboot", "r_c", 0), ("netdev", "n_a", 0), ("module", "m_b", 0),
            ("reboot", "r_d", -1), ("netdev", "n_b", 10), ("module", "m_c", 1),
            ("reboot", "r_e", 128)]
    for i, (c, n, p) in enumerate(regs):
        log.emit(500000000 + i * 100000, "notifier_register", blk(c, n, p), pid=1)
    log.emit(501000000, "notifier_unregister", blk("module", "m_a", 0), pid=1)
    log.emit(501100000, "notifier_register", blk("module", "m_a", 0), pid=1)

    def pass_(t, chain, val, cbs):
        base = dict(head=heads[chain], kind=kinds[chain], val=val, nr_to_call=-1, type=0)
        log.emit(t, "notifier_call_begin", base, pid=1)
        at = t + 1000
        for n, p, dur in cbs:
            ev = dict(blk(chain, n, p), val=val, ret=1)
            log.emit(at, "notifier_run", ev, pid=1)
            log.emit(at + dur, "notifier_return", ev, pid=1)
            at += dur + 1000
        log.emit(at, "notifier_call_end", dict(base, ret=1, nr_calls=len(cbs)), pid=1)
    for i in range(3):
        pass_(1000000000 + i * 100000000, "module", i,
              [("m_c", 1, 2000000), ("m_b", 0, 50000), ("m_a", 0, 10000)])
    for i in range(2):
        pass_(1500000000 + i * 100000000, "netdev", 16 + i,
              [("n_b", 10, 30000), ("n_lo", 0, 700000), ("n_a", 0, 5000)])
    return render(log)


def render(log):
    return "".join(l[2] + "\n" for l in log.lines)


def build(fmts, name):
    """The scenario's text, or None for an unknown name."""
    if name in ("clean", "caller", "tracefs", "counter", "plain"):
        log = Log(fmts, {"clean": "printk"}.get(name, name))
        scenario(log, NAMED)
        if name == "tracefs":
            # what the trace file starts with; the idle CPU 1's lines sort in
            log.lines.sort(key=lambda l: l[0])
            return "# tracer: nop\n#\n# entries-in-buffer/entries-written: 101/101   #P:2\n" \
                   "#\n#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n" \
                   "#              | |         |   |||||     |         |\n" + render(log)
        return render(log)
    if name == "loss":
        log = Log(fmts, "tracefs")
        scenario(log, NAMED, lose=True)
        return render(log)
    if name == "hashed":
        log = Log(fmts, "printk")
        scenario(log, UNNAMED)
        return render(log)
    if name == "stock":
        log = Log(fmts, "printk", stock=True)
        scenario(log, NAMED)
        return render(log)
    if name == "interleaved":
        # other messages between ours, with and without their own prefix,
        # and a printk drop notice
        log = Log(fmts, "printk")
        scenario(log, NAMED)
        rnd, out = random.Random(26), []
        for i, l in enumerate(log.lines):
            out.append(l[2])
            if i == 100:
                out.append("** 5 printk messages dropped **")
            elif i % 3 == 0:
                m = OTHER[rnd.randrange(len(OTHER))]
                out.append("[%12.6f] %s" % (l[0] / 1e9, m) if i % 2 else m)
        return "\r\n".join(out) + "\r\n"
    if name == "cut":
        # other CPUs' output inside six of our lines: each is lost, the
        # runs and returns around it still pair (the returns of the cut
        # runs are untimed; the returns that were cut leave their runs open)
        log = Log(fmts, "printk")
        scenario(log, NAMED)
        out, cut = [], 0
        for i, l in enumerate(log.lines):
            t = l[2]
            if "notifier_return: cs_cb_busy" in t and cut < 3:
                k = t.index(" nb=") + 10
                out += [t[:k] + "[    2.1] e1000e: link up", t[k:]]
                cut += 1
            elif "notifier_run: cs_cb_fast" in t and 3 <= cut < 6 and i > 40:
                out += [t[:30] + "random: crng init done " + t[30:]]
                cut += 1
            else:
                out.append(t)
        return "\n".join(out) + "\n"
    if name in ("truncated", "truncated-whole"):
        # the log stops mid-line: in the last return's ret (which alone
        # would read "ret=O"), or right after a whole line without "\n"
        text = build(fmts, "clean")
        return text[:-4] if name == "truncated" else text[:-1]
    if name == "near":
        log = Log(fmts, "printk")
        scenario(log, NAMED)
        out = [l[2] for l in log.lines]
        return "\n".join(out[:20] + ["[    2.000001] " + n for n in NEAR] + NEAR_OTHER +
                         out[20:]) + "\n"
    if name == "errors":
        # refused (un)registrations, and a callback that returns an errno
        # (notifier_from_errno(-EBUSY) = 0x8011): a stop, counted as errno
        log = Log(fmts, "printk")
        fast = dict(cb=NAMED["cs_cb_fast"], head=HEAD, nb=NB["cs_cb_fast"], priority=10,
                    kind=BLOCKING)
        log.emit(1000000000, "notifier_register", fast)
        log.emit(1000001000, "notifier_register_error", dict(fast, err=-17))
        log.emit(1000002000, "notifier_unregister_error",
                 dict(cb=UNNAMED["cs_cb_veto"], head=HEAD, nb=NB["cs_cb_veto"], priority=0,
                      kind=BLOCKING, err=-2))
        log.emit(2000000000, "notifier_call_begin", dict(head=HEAD, kind=BLOCKING, val=4,
                                                         nr_to_call=-1, type=0))
        log.emit(2000001000, "notifier_run", dict(fast, val=4))
        log.emit(2000251000, "notifier_return", dict(fast, val=4, ret=0x8011))
        log.emit(2000260000, "notifier_call_end", dict(head=HEAD, kind=BLOCKING, val=4,
                                                       nr_to_call=-1, type=0, ret=0x8011,
                                                       nr_calls=1))
        log.emit(3000000000, "notifier_unregister", fast)
        return render(log)
    if name == "sameus":
        # a return in the same microsecond as its run: 1 ns, not untimed
        log = Log(fmts, "printk")
        ev = dict(cb=NAMED["cs_cb_fast"], head=HEAD, nb=NB["cs_cb_fast"], priority=10,
                  kind=BLOCKING, val=0, ret=1)
        log.emit(2000000000, "notifier_run", ev)
        log.emit(2000000400, "notifier_return", ev)
        return render(log)
    if name == "shutdown":
        return shutdown(fmts)
    if name == "mixed":
        # upstream's form, then ours, later in the same boot: the former are cut
        # lines of ours
        return build(fmts, "stock") + re.sub(
            r"^\[\s*(\d+)\.(\d{6})\]", lambda m: "[%5d.%s]" % (int(m.group(1)) + 10, m.group(2)),
            build(fmts, "clean"), flags=re.M)
    if name in ("concurrent", "concurrent-bad"):
        return concurrent(fmts, bad=name == "concurrent-bad")
    if name == "nul":
        # a serial line's noise: NUL bytes in an event's name, before a
        # line's prefix, in another message (never events; ours are losses)
        s = build(fmts, "clean").split("\n")
        s[10] = s[10][:30] + "\0" + s[10][30:]
        s[20] = "\0" + s[20]
        s.insert(5, "[    1.500000] random: crng \0init done")
        return "\n".join(s)
    if name in ("boot", "bootstock"):
        return boot(fmts, stock=name == "bootstock")
    if name == "empty":
        return ""
    if name == "noevents":
        return "\n".join("[    0.%06d] %s" % (i, m) for i, m in enumerate(OTHER + NEAR)) + "\n"
    return None


SCENARIOS = ["clean", "caller", "tracefs", "plain", "loss", "hashed", "stock", "errors", "sameus", "interleaved",
             "cut", "truncated", "truncated-whole", "near", "mixed", "empty", "noevents", "shutdown",
             "counter", "nul", "concurrent", "concurrent-bad", "boot", "bootstock"]


def main(argv):
    if len(argv) < 3:
        sys.exit("usage: genconsole.py HEADER SCENARIO FILE | --list | --seeds DIR")
    fmts = formats(argv[1])
    if argv[2] == "--list":
        print("\n".join(SCENARIOS))
        return
    if argv[2] == "--seeds":
        for s in SCENARIOS:
            with open(os.path.join(argv[3], s + ".log"), "w", newline="") as f:
                f.write(build(fmts, s))
        return
    text = build(fmts, argv[2])
    if text is None:
        sys.exit("genconsole.py: unknown scenario '%s' (--list)" % argv[2])
    with open(argv[3], "w", newline="") as f:
        f.write(text)


if __name__ == "__main__":
    main(sys.argv)
