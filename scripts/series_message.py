#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The commit message of a patch for one tree (mkpatches.sh message()):
lines tagged [6.x] for another tree dropped, this tree's tag removed, a
paragraph of one tree's lines wrapped anew at 72 columns.

  series_message.py MSGFILE KVER
"""
import re, sys, textwrap
path, kver = sys.argv[1], sys.argv[2]
paras, cur, tagged = [], [], False
for l in open(path).read().split("\n"):
    m = re.match(r"^\[(6\.\d+)\] ?(.*)$", l)
    if m:
        if m.group(1) != kver:
            continue
        l, tagged = m.group(2), True
    if l.strip() == "":
        if cur:
            paras.append((cur, tagged))
        cur, tagged = [], False
        continue
    cur.append(l)
if cur:
    paras.append((cur, tagged))
out = []
for lines, tagged in paras:
    # A paragraph with lines of one tree only is wrapped anew (not the
    # subject); lists and indented text are left alone.
    if tagged and out and not any(l[:1] in (" ", "-", "\t") for l in lines):
        lines = textwrap.wrap(" ".join(lines), 72, break_long_words=False,
                              break_on_hyphens=False)
    out.append("\n".join(lines))
print("\n\n".join(out))
