#!/usr/bin/env python3
"""The rewrite's state with the tree's own kernel-doc (make patches).

    series_kdoc.py OURS STOCK OUT

Writes OUT: OURS (kernel/notifier.c after the rewrite) with the comment
block in front of each function replaced by the kernel-doc block that
STOCK (the tree's kernel/notifier.c) has for a function of that name;
a kernel-doc block of ours for a function STOCK documents nowhere is
left out.  Where our parameters have other names, the @name lines
follow ours, as a rename's would.  The rewrite patch then changes code only, and the next patch,
from OUT to OURS, changes comments only: the kernel-doc is reviewed on
its own.  Plain comments (/* */) of functions STOCK does not document
stay.  Exit 1 with one line if a function STOCK documents is not found
in OURS by its kernel-doc name (the tree changed: say what to do).
"""
import re
import sys

NAME = re.compile(r"^\s*\*\s*(\w+)\s*(?:\(\))?\s+-\s")


def blocks(lines):
    """(start, end, name, kdoc) of each comment block that is followed,
    maybe across a return-type line, by a function definition."""
    out = []
    i = 0
    while i < len(lines):
        if lines[i].startswith("/*") and not lines[i].rstrip().endswith("*/"):
            j = i
            while not lines[j].rstrip().endswith("*/"):
                j += 1
            k = j + 1
            # the definition: a line at column 0 with "name(" within 2 lines
            name = None
            for d in range(k, min(k + 2, len(lines))):
                m = re.match(r"^(?:[a-z_][\w \*]*[\s\*])?(\w+)\(", lines[d])
                if m and not lines[d].startswith(("#", "EXPORT", "NOKPROBE")):
                    name = m.group(1)
                    break
                if not re.match(r"^[a-z_][\w \*]*$", lines[d]):
                    break
            if name:
                out.append((i, j, name, lines[i].startswith("/**")))
            i = j + 1
            continue
        i += 1
    return out


def params(lines, name):
    """The parameter names of the definition of name(), in order."""
    text = "\n".join(lines)
    m = re.search(r"^(?:[a-z_][\w \*]*[\s\*])?" + name + r"\(([^)]*)\)\s*\{",
                  text, re.M)
    if not m:
        return []
    names = []
    for p in m.group(1).split(","):
        ids = re.findall(r"\w+", p)
        if ids and ids != ["void"]:
            names.append(ids[-1])
    return names


def renamed(doc, old, new):
    """doc with each @param of old renamed to its counterpart in new."""
    out = []
    for ln in doc:
        for a, b in zip(old, new):
            if a != b:
                ln = re.sub(r"@" + a + r"\b", "@" + b, ln)
        out.append(ln)
    return out


def kdoc_name(lines, start, end):
    for ln in lines[start + 1:end + 1]:
        m = NAME.match(ln)
        if m:
            return m.group(1)
    return None


def main():
    if len(sys.argv) != 4:
        print("usage: series_kdoc.py OURS STOCK OUT", file=sys.stderr)
        return 2
    ours = open(sys.argv[1]).read().split("\n")
    stock = open(sys.argv[2]).read().split("\n")
    docs = {}
    for s, e, name, kdoc in blocks(stock):
        if kdoc and kdoc_name(stock, s, e) == name:
            docs[name] = stock[s:e + 1]
    out, pos, used = [], 0, set()
    for s, e, name, kdoc in blocks(ours):
        out.extend(ours[pos:s])
        if name in docs:
            out.extend(renamed(docs[name], params(stock, name), params(ours, name)))
            used.add(name)
        elif not kdoc:
            out.extend(ours[s:e + 1])
        pos = e + 1
    out.extend(ours[pos:])
    # a function the tree documents and ours defines without any comment
    text = "\n".join(out)
    defined = set(re.findall(r"^(?:[a-z_][\w \*]*[\s\*])?(\w+)\(", text, re.M))
    for name in sorted(set(docs) - used):
        if name in defined:
            print(f"series_kdoc.py: error: {name}() is documented in the tree but has "
                  "no comment block of ours to take its place: give it one",
                  file=sys.stderr)
            return 1
    with open(sys.argv[3], "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
