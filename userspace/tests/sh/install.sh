#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Host test of `make install` / `make uninstall` (the top-level Makefile,
# delegating to userspace/install.mk) into a temporary DESTDIR: every file
# lands and nothing else, each man page formats without a warning, the
# installed binary and completion work, and uninstall removes exactly
# what install put there. One line per case: "PASS: host.install.<case>",
# "FAIL: ...: why", "SKIP: ...: why".
#
#   tests/sh/install.sh REPO NR-MAN-PAGES
set -uo pipefail

REPO=$(readlink -f "${1:?usage: install.sh REPO NR-MAN-PAGES}")
NMANS=${2:?}
PREFIX=host.install
# shellcheck source=userspace/tests/sh/lib.sh
. "$(dirname "$(readlink -f "$0")")/lib.sh"

D=$TMP/root
P=/usr/local
run make -s -C "$REPO" install PREFIX=$P DESTDIR="$D"
if [ "$rc" = 0 ]; then
	pass make-install
else
	fail make-install "exit $rc: ${err:0:300}"
	exit 1
fi

# what must be there: the binary, chainscope(8), one page per command, completion
CS=$D$P/sbin/chainscope
cmds=$("$CS" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z]*\) .*/\1/p')
want=("$P/sbin/chainscope" "$P/share/man/man8/chainscope.8"
      "$P/share/bash-completion/completions/chainscope")
for c in $cmds; do
	want+=("$P/share/man/man8/chainscope-$c.8")
done
missing=
for f in "${want[@]}"; do
	[ -f "$D$f" ] || missing+=" $f"
done
if [ -z "$cmds" ]; then
	fail files "no command list in the installed chainscope --help"
elif [ -n "$missing" ]; then
	fail files "not installed:$missing"
elif [ $((${#want[@]} - 2)) != "$NMANS" ]; then
	fail files "${#want[@]} files for $(wc -w <<<"$cmds") commands, but $NMANS man pages built"
else
	pass files
fi
got=$(cd "$D" && find . \( -type f -o -type l \) | sed 's|^\.||' | sort)
exp=$(printf '%s\n' "${want[@]}" | sort)
if [ "$got" = "$exp" ]; then
	pass nothing-else
else
	fail nothing-else "installed files differ: $(diff <(echo "$exp") <(echo "$got") | grep '^[<>]' | head -3)"
fi
if [ -x "$CS" ] && [ "$(stat -c %a "$D$P/share/man/man8/chainscope.8")" = 644 ]; then
	pass modes
else
	fail modes "binary not executable or page not 0644"
fi

# every page formats with no warning
if command -v man >/dev/null; then
	for page in "$D$P"/share/man/man8/*.8; do
		name=$(basename "$page" .8)
		w=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
		r=$?
		if [ "$r" = 0 ] && [ -z "$w" ] &&
			grep -q "^EXAMPLES" <<<"$(MANWIDTH=80 man -l "$page" 2>/dev/null)"; then
			pass "man.$name"
		else
			fail "man.$name" "exit $r, warnings or no EXAMPLES: ${w:0:300}"
		fi
	done
else
	skip man "man (man-db) not installed"
fi

run "$CS" --version
if [ "$rc" = 0 ] && grep -q "^chainscope " <<<"$out" && grep -q "^libbpf " <<<"$out" &&
	grep -q "^modes: tracepoints probes$" <<<"$out"; then
	pass version
else
	fail version "installed binary: exit $rc: ${out:0:200} ${err:0:200}"
fi

# the completion completes commands and a command's options
BC=/usr/share/bash-completion/bash_completion
if [ -r "$BC" ]; then
	comp() {
		bash -c '. "$1"; . "$2"; shift 2; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
			COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; _chainscope chainscope
			echo "${COMPREPLY[*]}"' _ "$BC" "$D$P/share/bash-completion/completions/chainscope" "$@"
	}
	if [ "$(comp chainscope se)" = serve ] &&
		[ "$(comp chainscope serve --li)" = --listen ] &&
		[ "$(comp chainscope latency --mode pr)" = probes ]; then
		pass completion
	else
		fail completion "'chainscope se' gives '$(comp chainscope se)'," \
			"'serve --li' '$(comp chainscope serve --li)'"
	fi
else
	skip completion "bash-completion not installed"
fi

# uninstall: exactly those files go (a file of someone else's stays)
echo other >"$D$P/sbin/other-tool"
run make -s -C "$REPO" uninstall PREFIX=$P DESTDIR="$D"
left=$(cd "$D" && find . \( -type f -o -type l \) | sed 's|^\.||')
if [ "$rc" != 0 ]; then
	fail uninstall "exit $rc: ${err:0:300}"
elif [ "$left" != "$P/sbin/other-tool" ]; then
	fail uninstall "left behind or removed too much: $(head -c 300 <<<"$left")"
else
	pass uninstall
fi
exit $failed
