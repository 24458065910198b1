#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Who signs the series off (mkpatches.sh): prints "NAME<TAB>EMAIL", or
one line on stderr and exits 2.

  series_identity.py TEST CS_SIGNOFF GIT_NAME GIT_EMAIL

CS_SIGNOFF ("Name <email>"), when not empty, wins over git config. A
placeholder is refused, unless TEST is 1 (make test's own series, never
posted): an address in a domain reserved for examples and tests (RFC 2606
and 6761: example, invalid, localhost, test; and .local), or a noreply
address, which no list reply can reach.
"""
import re
import sys

RESERVED = {"example", "invalid", "localhost", "test", "local"}
HOW = ("set yours with git config user.name and user.email, "
       "or CS_SIGNOFF='Your Name <you@your.domain>'")


def refuse(why):
    print(f"mkpatches: error: {why}: {HOW}", file=sys.stderr)
    sys.exit(2)


def placeholder(email):
    """Why EMAIL cannot sign a patch off, or None."""
    local, _, domain = email.rpartition("@")
    labels = domain.lower().split(".")
    if any(label in ("example",) for label in labels) or labels[-1] in RESERVED:
        return "a domain reserved for examples and tests"
    if re.search(r"no-?reply", email, re.I):
        return "a noreply address"
    return None


def main():
    if len(sys.argv) != 5:
        print("usage: series_identity.py TEST CS_SIGNOFF GIT_NAME GIT_EMAIL", file=sys.stderr)
        return 2
    test, signoff, name, email = sys.argv[1] == "1", sys.argv[2], sys.argv[3], sys.argv[4]
    if signoff:
        m = re.fullmatch(r"\s*([^<>]*?)\s*<([^<>\s]+)>\s*", signoff)
        if not m:
            refuse(f"CS_SIGNOFF={signoff!r} is not 'Name <email>'")
        name, email = m.group(1), m.group(2)
        src = "CS_SIGNOFF"
    else:
        src = "git config"
    if not name or not email:
        refuse(f"no identity for Signed-off-by ({src} has no name or no email)")
    if re.search(r"[\t\n\r<>]", name) or not re.fullmatch(r"[^@\s<>]+@[^@\s<>]+\.[^@\s<>.]+", email):
        refuse(f"{src}: {name!r} <{email!r}> is not a name and an email address")
    why = placeholder(email)
    if why and not test:
        refuse(f"Signed-off-by would be '{name} <{email}>', {why}, from {src}")
    print(f"{name}\t{email}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
