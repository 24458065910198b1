# Shared by the upstream-* guest tests (sourced).
U=/chainscope/upstream
T=/sys/kernel/tracing
KALLSYMS=${KALLSYMS:-/proc/kallsyms}
# The callback every link change runs (net/core/rtnetlink.c, always built).
KNOWN_CB=rtnetlink_event
fail() { echo "FAIL $*"; exit 1; }

# The kernel has notifier events, or the test skips (stock before 6.4)
# or fails (any kernel that should have them).
need_events() {
	[ -d $T/events ] || fail "tracefs not mounted"
	[ -d $T/events/notifier ] && return 0
	if [ "$CS_VARIANT" = stock ] && ! kernel_at_least 6 4; then
		echo "stock $(uname -r) has no notifier events (upstream added them in 6.4)"
		exit 77
	fi
	fail "$CS_VARIANT $(uname -r) has no notifier events"
}

kernel_at_least() { # kernel_at_least MAJOR MINOR
	set -- "$1" "$2" "$(uname -r | cut -d. -f1)" "$(uname -r | cut -d. -f2)"
	[ "$3" -gt "$1" ] || { [ "$3" -eq "$1" ] && [ "$4" -ge "$2" ]; }
}

# check_counts LABEL FILE: FILE has "COUNT NAME" lines; KNOWN_CB counted.
check_counts() {
	awk -v cb=$KNOWN_CB '$2 == cb && $1 > 0 { ok = 1 } END { exit !ok }' "$2" ||
		fail "$1: no notifier_run count for $KNOWN_CB: $(tr '\n' ' ' <"$2")"
	echo "PASS $1: $(grep " $KNOWN_CB\$" "$2" | cut -d' ' -f1) runs of $KNOWN_CB," \
		"$(wc -l <"$2") callbacks"
}

# check_names LABEL FILE: FILE has the names an upstream text parser took
# from notifier_run lines: KNOWN_CB among them, and every one a kernel
# symbol (so "cb=foo" or a hashed pointer in first place fails).
check_names() {
	[ -s "$2" ] || fail "$1: the parser found no notifier_run lines"
	grep -qx "$KNOWN_CB" "$2" ||
		fail "$1: $KNOWN_CB not among the parsed names: $(sort -u "$2" | tr '\n' ' ')"
	bad=$(sort -u "$2" | awk 'NR == FNR { sym[$3] = 1; next } !($1 in sym)' \
		"$KALLSYMS" -)
	[ -z "$bad" ] || fail "$1: parsed names that are no kernel symbol: $bad"
	echo "PASS $1: $(grep -cx "$KNOWN_CB" "$2") lines of $KNOWN_CB," \
		"$(sort -u "$2" | wc -l) callbacks"
}

# need_tool TOOL: Debian's bpftrace, perf and trace-cmd come only with
# CS_GUEST_TOOLS=upstream (qemu/mkinitramfs.sh, which then makes
# /chainscope/tools-upstream): missing from such an initramfs the test
# fails; from another (the debug soak's) it skips and says so.
need_tool() {
	command -v "$1" >/dev/null && return 0
	[ -d /chainscope/tools-upstream ] &&
		fail "$1 is missing from an initramfs built with CS_GUEST_TOOLS=upstream"
	echo "$1 is not in this initramfs (build it with CS_GUEST_TOOLS=upstream)"
	exit 77
}
