#!/usr/bin/env bash
# Scan a guest console log for kernel badness.
#
#   qemu/badness.sh [--panic-ok] CONSOLE_LOG
#
# Prints every offending line and exits 1 if there is any; exits 0 on a
# clean log. A WARN that a test provokes on purpose is excused only when
# the test announced it first with a line "expect WARN: TEXT", and only
# the one splat (from "[ cut here ]" to "---[ end trace") whose message
# line is exactly TEXT. An announcement that no splat matched is itself
# reported: the expected warning did not happen as announced.
#
# A panic is excused the same way, and only with --panic-ok (run.sh
# passes it for the plans that panic on purpose: panic, persist): a line
# "chainscope-guest: expect PANIC: TEXT" first (after the timestamp),
# then exactly one "Kernel panic - not syncing: TEXT", and the first
# "Call Trace:" after it (the panic's own stack). Anything else bad after
# it (a WARN from a panic notifier, another stack, a second panic) still
# counts; so does an announced panic that never came. (With panic=-1 the
# kernel restarts before it prints its "---[ end Kernel panic" line.)
set -euo pipefail
panic_ok=0
if [ "${1:-}" = --panic-ok ]; then
	panic_ok=1
	shift
fi
[ $# -eq 1 ] && [ -r "$1" ] || { echo "usage: badness.sh [--panic-ok] CONSOLE_LOG" >&2; exit 2; }

awk '
function strip(s) {
	sub(/\r$/, "", s)
	sub(/^\[ *[0-9]+\.[0-9]+\] /, "", s)
	return s
}
BEGIN {
	bad = "WARNING:|BUG:|Oops|Call Trace:|Kernel panic|general protection fault" \
	      "|possible recursive locking|possible circular locking" \
	      "|suspicious RCU usage|BUG: KASAN|UBSAN:|rcu_sched detected stall" \
	      "|rcu: INFO:|self-detected stall|detected stalls" \
	      "|INFO: task .* blocked|INFO: trying to register non-static key" \
	      "|inconsistent lock state|sleeping function called from invalid context" \
	      "|list_add corruption|list_del corruption|ODEBUG:|refcount_t:"
	npend = 0; skipping = 0; cut = 0; nbad = 0
	panic_want = ""; in_panic = 0; panic_seen = 0
}
{
	line = strip($0)
	if (panic_ok && line ~ /^chainscope-guest: expect PANIC: /) {
		panic_want = substr(line, length("chainscope-guest: expect PANIC: ") + 1)
		next
	}
	if (panic_seen && line == "---[ end Kernel panic - not syncing: " panic_want " ]---")
		next
	if (in_panic && line ~ /^Call Trace:$/) {
		in_panic = 0
		next
	}
	if (panic_want != "" && !panic_seen &&
		   line == "Kernel panic - not syncing: " panic_want) {
		in_panic = 1
		panic_seen = 1
		next
	}
	if (skipping) {
		if (line ~ /^---\[ end trace/) skipping = 0
		next
	}
	if (cut) {
		cut = 0
		for (i = 1; i <= npend; i++) {
			if (pend[i] != "" && line == pend[i]) {
				pend[i] = ""
				skipping = 1
				next
			}
		}
		print "console: " cutline
		nbad++
	}
	if (match(line, /expect WARN: /)) {
		pend[++npend] = substr(line, RSTART + RLENGTH)
		next
	}
	if (line ~ /-+\[ cut here \]-+/) {
		cut = 1
		cutline = line
		next
	}
	if (line ~ bad) {
		print "console: " line
		nbad++
	}
}
END {
	if (panic_want != "" && !panic_seen) {
		print "console: announced panic never appeared: " panic_want
		nbad++
	}
	for (i = 1; i <= npend; i++)
		if (pend[i] != "") {
			print "console: announced warning never appeared: " pend[i]
			nbad++
		}
	exit nbad > 0
}' panic_ok="$panic_ok" "$1"
