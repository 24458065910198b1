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

# expect_exit NAME EXIT PATTERN CMD...: CMD exits EXIT with one stderr line
# matching the extended regular expression PATTERN
expect_exit() {
	local name=$1 want=$2 pat=$3
	shift 3
	run "$@"
	if [ "$rc" != "$want" ] || [ "$nerr" != 1 ] || ! grep -Eq -- "$pat" <<<"$err"; then
		fail "$name" "exit $rc (want $want), stderr: ${err:0:300}"
	else
		pass "$name"
	fi
}
