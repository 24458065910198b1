# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# What the host test scripts share; sourced after setting PREFIX (e.g.
# PREFIX=host.check). Gives TMP (removed at exit), `failed`, the result
# lines pass/fail/skip NAME [WHY] (a WHY stays on one line), and
# run CMD... setting rc, out, err and nerr (lines on stderr).
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failed=0

pass() { echo "PASS: $PREFIX.$1"; }
fail() { echo "FAIL: $PREFIX.$1: ${2//$'\n'/ | }"; failed=1; }
skip() { echo "SKIP: $PREFIX.$1: $2"; }

run() {
	out=$("$@" 2>"$TMP/stderr")
	rc=$?
	err=$(cat "$TMP/stderr")
	nerr=$(grep -c '' "$TMP/stderr")
}
