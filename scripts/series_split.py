#!/usr/bin/env python3
"""Intermediate states between the tree's kernel/notifier.c and the rewrite.

    series_split.py STOCK OURS OUT [--move] [GROUP...]
    series_split.py --units FILE

Both files are cut into top-level units: a definition (function, enum,
chain head) with the comment in front of it and the EXPORT_SYMBOL*() and
NOKPROBE_SYMBOL() lines after it, a comment standing alone, the include
block, the file's header.  A unit is named by what it defines.

Each GROUP is a file naming units, one per line ('#' comments): OUT is
STOCK with every unit named in the groups taken from OURS, replacing
STOCK's unit of that name in place or, for a unit STOCK does not have,
going right after the unit OURS has in front of it; a '-NAME' leaves
STOCK's unit NAME out.  The groups are cumulative: pass all of them up
to the patch wanted.  --move then puts the units in the order of OURS
(a unit of STOCK's that OURS does not have stays in front of the unit
that followed it): a patch that moves code and changes none.  The
rewrite patch is the one that takes every unit left.

--units prints the names of FILE's units, one per line.

Exit 1 with one line when a name is in neither file, or when the units
of OURS do not give back OURS exactly (a unit boundary this script does
not understand).
"""
import re
import sys


def die(msg):
    print("series_split.py: error: " + msg, file=sys.stderr)
    sys.exit(1)


def definition_name(line):
    m = re.match(r"^(?:static\s+)?[A-Z_]+\((\w+)\)", line)
    if m:
        return m.group(1)
    m = re.match(r"^(enum|struct)\s+(\w+)\s*\{", line)
    if m:
        return m.group(1) + " " + m.group(2)
    m = re.match(r"^[^(=]*?(\w+)\(", line)
    if m:
        return m.group(1)
    return None


def units(text):
    """[(name, text)] whose texts joined give back the file."""
    lines = text.splitlines(keepends=True)
    out, cur, pending_comment = [], [], None
    i, n = 0, len(lines)

    def close(name):
        nonlocal cur
        out.append([name, "".join(cur)])
        cur = []

    # the header: everything before the first #include or definition
    while i < n and not lines[i].startswith("#"):
        cur.append(lines[i])
        i += 1
    if cur:
        close("header")
    while i < n:
        line = lines[i]
        if line.strip() == "":
            cur.append(line)
            i += 1
            continue
        if line.startswith("#"):
            while i < n and (lines[i].startswith("#") or
                             (cur and cur[-1].rstrip().endswith("\\")) or
                             (lines[i].strip() == "" and i + 1 < n and
                              lines[i + 1].startswith("#"))):
                cur.append(lines[i])
                i += 1
            block = [l for l in cur if l.startswith("#")]
            close("includes" if block[0].startswith("#include") else block[0].strip())
            continue
        if line.startswith("/*"):
            j = i
            while not lines[j].rstrip().endswith("*/"):
                j += 1
            cur.extend(lines[i:j + 1])
            i = j + 1
            if i >= n or lines[i].strip() == "":
                words = re.sub(r"[/*\s]+", " ", "".join(cur)).split()
                close("comment:" + (words[0] if words else ""))
            continue
        # a definition: up to the line closing its braces, or ending
        # with ';' outside of braces, then EXPORT/NOKPROBE lines
        name = None
        depth = 0
        seen_brace = False
        while i < n:
            l = lines[i]
            if name is None:
                name = definition_name(l)
            cur.append(l)
            i += 1
            depth += l.count("{") - l.count("}")
            if "{" in l:
                seen_brace = True
            if depth == 0 and (seen_brace or l.rstrip().endswith(";")):
                break
        while i < n and re.match(r"^(EXPORT_SYMBOL\w*|NOKPROBE_SYMBOL)\(", lines[i]):
            cur.append(lines[i])
            i += 1
        if name is None:
            die("a definition without a name: %r" % cur[0])
        close(name)
    if cur:
        out.append(["trailer", "".join(cur)])
    # a name seen before (#endif, ...) gets its number: name#2, name#3
    seen = {}
    for u in out:
        seen[u[0]] = seen.get(u[0], 0) + 1
        if seen[u[0]] > 1:
            u[0] = "%s#%d" % (u[0], seen[u[0]])
    return out


def main(argv):
    if len(argv) == 3 and argv[1] == "--units":
        for name, _ in units(open(argv[2]).read()):
            print(name)
        return
    move = "--move" in argv[4:]
    argv = [a for a in argv if a != "--move"]
    if len(argv) < 4:
        die("usage: series_split.py STOCK OURS OUT [--move] [GROUP...]")
    stock_text = open(argv[1]).read()
    ours_text = open(argv[2]).read()
    stock, ours = units(stock_text), units(ours_text)
    if "".join(t for _, t in stock) != stock_text:
        die("%s: units do not give back the file" % argv[1])
    if "".join(t for _, t in ours) != ours_text:
        die("%s: units do not give back the file" % argv[2])
    snames = [u[0] for u in stock]
    onames = [u[0] for u in ours]
    otext = dict(ours)
    rank = {name: k for k, name in enumerate(onames)}

    state = list(stock)
    for path in argv[4:]:
        for raw in open(path):
            name = raw.split("#", 1)[0].strip()
            if not name:
                continue
            if name.startswith("-"):
                name = name[1:]
                if name not in snames:
                    die("%s: '-%s' is no unit of %s" % (path, name, argv[1]))
                state = [u for u in state if u[0] != name]
                continue
            if name not in rank:
                die("%s: '%s' is no unit of %s" % (path, name, argv[2]))
            at = [k for k, u in enumerate(state) if u[0] == name]
            if at:
                state[at[0]] = (name, otext[name])
                continue
            # after the unit in front of it in OURS, if already there
            pos = 0
            for earlier in reversed(onames[:rank[name]]):
                hit = [k for k, u in enumerate(state) if u[0] == earlier]
                if hit:
                    pos = hit[0] + 1
                    break
            state.insert(pos, (name, otext[name]))
    if move:
        # our order; a unit we do not have stays in front of the next
        # unit that we do have
        keyed, carry = [], []
        for unit in state:
            carry.append(unit)
            if unit[0] in rank:
                keyed.append((rank[unit[0]], carry))
                carry = []
        keyed.sort(key=lambda x: x[0])
        state = [u for _, group in keyed for u in group] + carry
    with open(argv[3], "w") as f:
        f.write("".join(t for _, t in state))


if __name__ == "__main__":
    main(sys.argv)
