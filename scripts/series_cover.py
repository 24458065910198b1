#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The cover letter of a tree's series: subject and text from
kernel/series/cover.msg (lines tagged for other trees dropped), @COSTS@
and @PROOF@ filled in, written over git format-patch's placeholders
(mkpatches.sh).

  series_cover.py COVER COVER_MSG KVER COSTS VERSION PROOF
"""
import re, sys
cover, msg, kver, costs, version, proof = sys.argv[1:7]
lines = []
for l in open(msg).read().split("\n"):
    m = re.match(r"^\[(6\.\d+)\] ?(.*)$", l)
    if m:
        if m.group(1) == kver:
            lines.append(m.group(2))
        continue
    lines.append(l)
subject, body = lines[0], "\n".join(lines[2:]).rstrip("\n")
body = body.replace("@COSTS@", costs)
body = body.replace("@PROOF@", proof)
body += "\n\nBased on Debian's linux-source-%s %s.\n" % (kver, version)
text = open(cover).read()
text = text.replace("*** SUBJECT HERE ***", subject)
text = text.replace("*** BLURB HERE ***", body)
open(cover, "w").write(text)
