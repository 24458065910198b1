#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Add FILE to the NOTIFIER CHAINS section of a tree's MAINTAINERS, creating
the section (maintained by WHO) in alphabetical order on first use
(mkpatches.sh maintainers_add()).

  series_maintainers.py MAINTAINERS FILE WHO
"""
import sys
path, newfile, who = sys.argv[1], sys.argv[2], sys.argv[3]
title = "NOTIFIER CHAINS"
lines = open(path).read().split("\n")
if title in lines:
    start = lines.index(title) + 1
    end = start
    while end < len(lines) and lines[end].strip():
        end += 1
    body = lines[start:end]
    files = sorted(set([l for l in body if l.startswith("F:")] + ["F:\t" + newfile]))
    other = [l for l in body if not l.startswith("F:")]
    lines[start:end] = other + files
else:
    first = lines.index("Maintainers List") if "Maintainers List" in lines else 0
    at = len(lines)
    for i in range(first + 1, len(lines) - 1):
        l = lines[i]
        if (l and l == l.upper() and lines[i - 1] == "" and
                lines[i + 1][:2] in ("M:", "R:", "L:", "S:") and l > title):
            at = i
            break
    files = sorted(set(["include/linux/notifier.h", "include/trace/events/notifier.h",
                        "kernel/notifier.c", newfile]))
    lines[at:at] = ([title, "M:\t" + who, "L:\tlinux-kernel@vger.kernel.org",
                     "S:\tMaintained"] + ["F:\t" + f for f in files] + [""])
open(path, "w").write("\n".join(lines))
