#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Host tests of report's and check's --tracefs [DIR] (trace/tracefs_input.c)
# up to the ring buffer, never into it: the command line, and DIRs made
# here that look like tracefs in parts, each refused with one line and its
# exit code. Nothing here reads the host's /sys/kernel/tracing (that would
# consume its ring buffer): every --tracefs names a DIR under $TMP or one
# that does not exist. The live reads run in the guests
# (qemu/guest/tests/cli-tracefs.sh). One line per case, host.tracefs.<case>.
#
# The decoding path itself runs on a made-up tracefs: cs-gentracedat
# --tracefs writes the formats, trace_clock, enable files and each CPU's
# ring-buffer pages as per_cpu/cpuN/trace_pipe_raw (regular files, which
# libtracefs reads as it reads the kernel's), and report/check --tracefs
# on it must print what they print on the trace.dat that the same
# scenario makes (report -j apart from its file and kernel keys, the
# runs: lines of upstream's events, check's verdict and violations, the
# loss markers).
#
#   tests/sh/tracefs.sh CHAINSCOPE CS-GENTRACEDAT
set -uo pipefail

CS=$(readlink -f "${1:?usage: tracefs.sh CHAINSCOPE CS-GENTRACEDAT}")
GEN=$(readlink -f "${2:?usage: tracefs.sh CHAINSCOPE CS-GENTRACEDAT}")
PREFIX=host.tracefs
# shellcheck source=userspace/tests/sh/lib.sh
. "$(dirname "$(readlink -f "$0")")/lib.sh"

# a DIR that has what a tracefs directory has, and no events of ours
F=$TMP/tracing
mkdir -p "$F/per_cpu/cpu0" "$F/events/sched/sched_switch" "$F/instances"
echo "[local] global counter" > "$F/trace_clock"

for cmd in report check; do
	expect_exit "$cmd.no-such-dir" 2 "^chainscope $cmd: error: .*/nope: --tracefs: No such file or directory$" \
		"$CS" "$cmd" --tracefs "$TMP/nope"
	expect_exit "$cmd.not-tracefs" 2 "^chainscope $cmd: error: .*: --tracefs: not a tracefs directory or instance \(per_cpu: No such file or directory\)" \
		"$CS" "$cmd" --tracefs="$F/instances"
	mkdir -p "$TMP/plain"
	expect_exit "$cmd.plain-dir" 2 ": --tracefs: not a tracefs directory or instance \(per_cpu: " \
		"$CS" "$cmd" --tracefs "$TMP/plain"
	expect_exit "$cmd.file-not-dir" 2 ": --tracefs: (Not a directory|not a tracefs directory)" \
		"$CS" "$cmd" --tracefs "$F/trace_clock"
	expect_exit "$cmd.no-notifier-events" 5 "^chainscope $cmd: error: .*/tracing: --tracefs: the kernel has no notifier:\* events" \
		"$CS" "$cmd" --tracefs "$F"
	expect_exit "$cmd.dir-and-file" 2 "^chainscope $cmd: error: --tracefs=DIR and a FILE argument: give one" \
		"$CS" "$cmd" --tracefs="$F" "$TMP/x.cstrace"
	expect_exit "$cmd.salvage" 2 "^chainscope $cmd: error: --tracefs reads the ring buffer, not a FILE \(no --salvage, no --console\)" \
		"$CS" "$cmd" --salvage --tracefs "$F"
	expect_exit "$cmd.console" 2 "^chainscope $cmd: error: --tracefs reads the ring buffer, not a FILE" \
		"$CS" "$cmd" --console --tracefs "$F"
	expect_exit "$cmd.twice" 2 "^chainscope $cmd: error: --tracefs given twice" \
		"$CS" "$cmd" --tracefs="$F" --tracefs="$F"
	expect_exit "$cmd.empty-dir-arg" 2 "^chainscope $cmd: error: empty --tracefs directory" \
		"$CS" "$cmd" --tracefs=
	run "$CS" "$cmd" --help
	if [ "$rc" = 0 ] && grep -q -- "--tracefs" <<<"$out" && grep -q "16 none of" <<<"$out"; then
		pass "$cmd.help"; else fail "$cmd.help" "exit $rc; no --tracefs or exit 16 in --help"; fi
done

# the notifier events there, none enabled (events/notifier/*/enable as the
# kernel shows them), then in an instance as well
mkdir -p "$F/events/notifier/notifier_run" "$F/events/notifier/notifier_register"
echo 0 > "$F/events/notifier/notifier_run/enable"
echo 0 > "$F/events/notifier/notifier_register/enable"
echo 0 > "$F/events/notifier/enable"
for cmd in report check; do
	expect_exit "$cmd.none-enabled" 16 "^chainscope $cmd: error: .*/tracing: --tracefs: no notifier:\* event is enabled there, so its ring buffer holds none: echo 1 > .*/tracing/events/notifier/enable" \
		"$CS" "$cmd" --tracefs "$F"
done
I=$F/instances/cs
mkdir -p "$I/per_cpu/cpu0" "$I/events/notifier/notifier_run"
cp "$F/trace_clock" "$I/"
echo 0 > "$I/events/notifier/notifier_run/enable"
echo 0 > "$I/events/notifier/enable"
expect_exit instance.none-enabled 16 "/instances/cs: --tracefs: no notifier:\* event is enabled there.*echo 1 > .*/instances/cs/events/notifier/enable" \
	"$CS" report --tracefs "$I"
# a name that no shell sees: printed escaped, refused as any other
N=$TMP/'a$(touch pwned)'
mkdir -p "$N"
expect_exit name-escaped 2 "not a tracefs directory" "$CS" report --tracefs "$N"
if [ -e pwned ] || [ -e "$TMP/pwned" ]; then fail name-not-run "a file named pwned appeared"; else pass name-not-run; fi
# the same scenario as a trace.dat and as a made-up tracefs: the same output
norm() { # the report -j object without what names the input
	python3 -c '
import json, sys
d = json.load(sys.stdin)
for k in ("file", "kernel"):
    d.pop(k, None)
print(json.dumps(d, sort_keys=True))'
}
for s in ours9 ours8 stock loss8; do
	if ! "$GEN" "$s" "$TMP/$s.dat" 2>"$TMP/generr" ||
		! "$GEN" --tracefs "$s" "$TMP/tf-$s" 2>>"$TMP/generr"; then
		fail "$s.gen" "$(cat "$TMP/generr")"
		continue
	fi
	export CHAINSCOPE_KALLSYMS=$TMP/tf-$s/kallsyms
	a=$("$CS" report -j "$TMP/$s.dat" 2>"$TMP/a.err" | norm)
	b=$("$CS" report -j --tracefs "$TMP/tf-$s" 2>"$TMP/b.err" | norm)
	ma=$(sed -n 's/.*notifier events (\(.*\)$/\1/p' "$TMP/a.err")
	mb=$(sed -n 's/.*notifier events (\(.*\)$/\1/p' "$TMP/b.err")
	if [ -n "$a" ] && [ "$a" = "$b" ] && [ -n "$ma" ] && [ "$ma" = "$mb" ] &&
		grep -q ": tracefs, the live ring buffer (consumed), clock local: " "$TMP/b.err"; then
		pass "$s.report-json-as-trace.dat"
	else
		fail "$s.report-json-as-trace.dat" "trace.dat: ${a:0:200} ($ma) | tracefs: ${b:0:200} ($mb) $(cat "$TMP/b.err")"
	fi
	a=$("$CS" report "$TMP/$s.dat" 2>/dev/null | tail -n +2)
	b=$("$CS" report --tracefs "$TMP/tf-$s" 2>/dev/null | tail -n +2)
	if [ -n "$a" ] && [ "$a" = "$b" ]; then pass "$s.report-text-as-trace.dat"; else
		fail "$s.report-text-as-trace.dat" "$(diff <(echo "$a") <(echo "$b") | head -n 6)"; fi
	a=$("$CS" check "$TMP/$s.dat" 2>/dev/null | sed 's|^[^ ]*: ||')
	ra=$?
	b=$("$CS" check --tracefs "$TMP/tf-$s" 2>"$TMP/c.err" | sed 's|^[^ ]*: ||')
	rb=$?
	if [ "$ra" = "$rb" ] && [ -n "$a" ] && [ "$a" = "$b" ] &&
		grep -Eq "ring buffer has no membership snapshot: membership is seeded from the [1-9][0-9]* registration events|upstream's notifier events name no chain and no block: membership and order are not judged \([1-9]" "$TMP/c.err"; then
		pass "$s.check-as-trace.dat"
	else
		fail "$s.check-as-trace.dat" "exit $ra vs $rb: $(diff <(echo "$a") <(echo "$b") | head -n 6) $(cat "$TMP/c.err")"
	fi
	# check -q: no note of the input's, nothing at all for a clean buffer
	if [ "$s" = ours8 ]; then
		run "$CS" check -q --tracefs "$TMP/tf-$s"
		if [ "$rc" = 0 ] && [ -z "$out" ] && [ -z "$err" ]; then pass "$s.check-quiet-no-notes"; else
			fail "$s.check-quiet-no-notes" "exit $rc, stdout '${out:0:200}', stderr '${err:0:300}'"; fi
	fi
	unset CHAINSCOPE_KALLSYMS
done
# the loss scenario's pages say events were missed: markers, counted
if grep -q " [1-9][0-9]* loss markers" <<<"$(CHAINSCOPE_KALLSYMS=$TMP/tf-loss8/kallsyms \
	"$CS" report --tracefs "$TMP/tf-loss8" 2>&1 >/dev/null)"; then pass loss8.markers; else
	fail loss8.markers "no loss marker from the pages' missed events"; fi
exit $failed
