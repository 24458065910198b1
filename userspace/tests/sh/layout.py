#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""The dependency rule of userspace/ (README.md), checked on the sources
and on the objects the build made:

    cmd -> {live, check, diff, report} -> trace -> core

- includes: every quoted #include names a header of an allowed folder
  (its own, a lower one, bpf/'s shared headers) and no path ("../");
- libbpf: only cmd/, live/, bench/ and main.c include <bpf/...> or a
  skeleton;
- symbols: every function or variable an object of a folder takes from
  another object of the CLI is defined in an allowed folder (nm); no
  object outside cmd/, live/ and bench/ calls libbpf, header or not; and
  a function is declared only in headers of the folder that defines it,
  which catches what includes cannot: a header of one folder declaring
  what another defines.

tests/ is not checked: a test may use any folder.

Usage: layout.py USERSPACE_DIR OUTPUT_DIR NM OBJECT...  (the Makefile's
lists: an object the build no longer makes is no evidence)
Prints PASS:/FAIL: lines; exits 1 on a violation, 2 on bad usage."""

import os
import re
import subprocess
import sys

# folder -> the folders it may use (its own is always allowed)
ALLOWED = {
    "main": {"cmd", "live", "trace", "core"},
    "cmd": {"live", "check", "diff", "report", "trace", "core"},
    "live": {"trace", "core"},
    "check": {"trace", "core"},
    "diff": {"core"},
    "report": {"trace", "core"},
    "trace": {"core"},
    "core": set(),
    "bench": {"core"},
}
LIBBPF_OK = {"main", "cmd", "live", "bench"}
FOLDERS = [f for f in ALLOWED if f != "main"]
INCLUDE = re.compile(r'^\s*#\s*include\s+([<"])([^>"]+)[>"]', re.M)


def folder_of(rel):
    top = rel.split("/", 1)[0]
    if rel == "main.c":
        return "main"
    return top if top in ALLOWED else None


def sources(root):
    for f in FOLDERS:
        for name in sorted(os.listdir(os.path.join(root, f))):
            if name.endswith((".c", ".h")):
                yield f + "/" + name
    yield "main.c"


def check_includes(root, bpf_dir):
    bad = []
    headers = {}
    for f in FOLDERS:
        for name in os.listdir(os.path.join(root, f)):
            if name.endswith(".h"):
                headers.setdefault(name, []).append(f)
    shared = {n for n in os.listdir(bpf_dir) if n.endswith(".h")}
    for rel in sources(root):
        me = folder_of(rel)
        with open(os.path.join(root, rel), encoding="utf-8") as fh:
            text = fh.read()
        for kind, name in INCLUDE.findall(text):
            if kind == "<":
                if name.startswith("bpf/") and me not in LIBBPF_OK:
                    bad.append(f"{rel}: <{name}>: only cmd/, live/ and bench/ use libbpf")
                continue
            if "/" in name:
                bad.append(f'{rel}: "{name}": a path; name the header, the build searches its folder')
                continue
            if name.endswith(".skel.h"):
                if me not in LIBBPF_OK:
                    bad.append(f'{rel}: "{name}": a skeleton outside cmd/, live/ and bench/')
                continue
            where = headers.get(name, [])
            if len(where) > 1 or (where and name in shared):
                bad.append(f'{rel}: "{name}": more than one header of that name')
                continue
            if not where:
                if name not in shared:
                    bad.append(f'{rel}: "{name}": no such header in userspace/ or bpf/')
                continue
            them = where[0]
            if them != me and them not in ALLOWED[me]:
                bad.append(f'{rel}: "{name}" is {them}/\'s: {me} may use {sorted(ALLOWED[me]) or "nothing"}')
    return bad


def nm_symbols(nm, obj):
    out = subprocess.run([nm, "-P", obj], check=True, capture_output=True, text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        sym, typ = parts[0], parts[1]
        if typ == "U":
            undefined.add(sym)
        elif typ in "TDBRCVWG" or typ in "S":
            defined.add(sym)
    return defined, undefined


def check_symbols(root, out_dir, nm, paths):
    objs = {}
    for p in paths:
        rel = os.path.relpath(p, out_dir)
        f = folder_of(rel.replace("main.o", "main.c") if rel == "main.o" else rel)
        if f is None:
            raise SystemExit(f"layout.py: {p}: not an object of a folder of the rule")
        if not os.path.exists(p):
            return None
        objs[rel] = f
    bad = []
    owner = {}
    undef = {}
    for rel, f in objs.items():
        d, u = nm_symbols(nm, os.path.join(out_dir, rel))
        for s in d:
            owner.setdefault(s, set()).add(f)
        undef[rel] = u
    for rel, u in sorted(undef.items()):
        me = objs[rel]
        for s in sorted(u):
            them = owner.get(s)
            if not them or me in them:
                continue
            if not them & (ALLOWED[me] | {me}):
                bad.append(f"{rel}: uses {s} from {'/'.join(sorted(them))}/: {me} may use {sorted(ALLOWED[me]) or 'nothing'}")
        # libbpf itself, reached without its header (a prototype of one's own)
        if me not in LIBBPF_OK:
            for s in sorted(u):
                if LIBBPF_SYM.match(s) and s not in owner:
                    bad.append(f"{rel}: uses libbpf's {s}: only cmd/, live/ and bench/ use libbpf")
    # who declares what: a function defined in one folder and declared in
    # another's header would let the folders the header's may reach call it
    for s, folders in sorted(owner.items()):
        for h, where in declared_in(root).get(s, ()):
            if where not in folders:
                bad.append(f"{h}: declares {s}, which {'/'.join(sorted(folders))}/ defines: "
                           f"declare it in a header of {'/'.join(sorted(folders))}/")
    return bad


LIBBPF_SYM = re.compile(r"^(bpf_|btf__|btf_ext__|libbpf_|ring_buffer__|perf_buffer__|"
                        r"user_ring_buffer__|bpf_object__|bpf_program__|bpf_map__|bpf_link__)")
# a declaration: at column 0, a type, then NAME( (not a comment, not a macro)
DECL = re.compile(r"^(?![#/ *\t])[A-Za-z_][^;(){}=]*?\b([A-Za-z_]\w*)\s*\(", re.M)
_declared = {}


def declared_in(root):
    """NAME -> [(header, folder)] for every function a folder's header declares."""
    if root not in _declared:
        names = {}
        for f in FOLDERS:
            d = os.path.join(root, f)
            for h in sorted(os.listdir(d)):
                if not h.endswith(".h"):
                    continue
                with open(os.path.join(d, h), encoding="utf-8") as fh:
                    text = fh.read()
                for m in DECL.finditer(text):
                    line = text[m.start():text.find("\n", m.start())]
                    if "static" in line.split("(")[0] or "#define" in line:
                        continue
                    names.setdefault(m.group(1), []).append((f"{f}/{h}", f))
        _declared[root] = names
    return _declared[root]


def main():
    if len(sys.argv) < 5:
        print("usage: layout.py USERSPACE_DIR OUTPUT_DIR NM OBJECT...", file=sys.stderr)
        return 2
    root, out_dir, nm = sys.argv[1:4]
    bpf_dir = os.path.join(root, "..", "bpf")
    failed = False
    for name, bad in (("includes", check_includes(root, bpf_dir)),
                      ("symbols", check_symbols(root, out_dir, nm, sys.argv[4:]))):
        if bad is None:
            print(f"FAIL: host.layout.{name}: an object is missing: build first")
            failed = True
        elif bad:
            print(f"FAIL: host.layout.{name}: {len(bad)} violation(s)")
            for b in bad:
                print(f"  {b}")
            failed = True
        else:
            print(f"PASS: host.layout.{name}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
