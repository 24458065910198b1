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

# fuzz_ready [CASE]: the fuzz target builds (MAKE_FUZZ, with FUZZ_CC), or
# one line for case CASE (default "fuzz"): SKIP without clang or its
# libFuzzer runtime, FAIL if it does not build; returns 1 then
fuzz_ready() {
	local name=${1:-fuzz}

	if ! command -v "${FUZZ_CC:-clang-14}" >/dev/null; then
		skip "$name" "${FUZZ_CC:-clang-14} not installed"
	elif ! ${MAKE_FUZZ:-false} >"$TMP/fuzzbuild" 2>&1; then
		if grep -q 'libclang_rt.fuzzer\|fsanitize=fuzzer' "$TMP/fuzzbuild"; then
			skip "$name" "no libFuzzer runtime (Debian: libclang-rt-14-dev)"
		else
			fail "$name" "build failed: $(tail -n 3 "$TMP/fuzzbuild")"
		fi
	else
		return 0
	fi
	return 1
}

# pass_threads PERFETTO-JSON CHAIN...: for each chain, the thread names
# (comma-separated, sorted) its passes ran on in a report --perfetto file,
# the chains' answers separated by spaces
pass_threads() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["traceEvents"]
names = {(e["pid"], e["tid"]): e["args"]["name"] for e in d if e.get("name") == "thread_name"}
def where(chain):
    return ",".join(sorted({names[(e["pid"], e["tid"])] for e in d
                            if e.get("cat") == "pass" and e["name"] == chain}))
print(" ".join(where(c) for c in sys.argv[2:]))' "$@" 2>&1
}
