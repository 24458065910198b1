#!/bin/sh
# Run as the first step of a 'trace-cmd record ... COMMAND': returns once
# every CPU's top-level trace_pipe_raw is open, that is once each of
# trace-cmd's per-CPU recorders has opened its buffer and is about to
# read it.
#
# Why: trace-cmd (3.1, Debian 12) forks one recorder per CPU and, when
# COMMAND exits, signals them to stop. A recorder that gets the signal
# before it enters its read loop never reads, not even the final flush,
# and its CPU's events are lost without a word. A command as short as
# one link change can end before the recorders start in a slow guest;
# after this wait only the few instructions between a recorder's open()
# and its loop remain, against the whole of COMMAND.
#
# trace-cmd ignores COMMAND's exit status: failing, this says so on
# stderr, on a line starting "tc-ready:", for the caller to look for.
# Time only bounds liveness: 120 s without the recorders fails.
T=/sys/kernel/tracing
want=$(ls -d $T/per_cpu/cpu[0-9]* 2>/dev/null | wc -l)
[ "$want" -gt 0 ] || { echo "tc-ready: no $T/per_cpu/cpu*" >&2; exit 1; }
i=0
while :; do
	# the top-level buffers only (an instance's are instances/NAME/per_cpu)
	open=$(for f in /proc/[0-9]*/fd/*; do readlink "$f"; done 2>/dev/null |
		grep -v '/instances/' |
		sed -n 's|.*/tracing/per_cpu/\(cpu[0-9]*\)/trace_pipe_raw$|\1|p' |
		sort -u | wc -l)
	[ "$open" -ge "$want" ] && exit 0
	i=$((i + 1))
	[ $i -lt 600 ] || {
		echo "tc-ready: after 120 s, trace_pipe_raw is open on $open of $want CPUs" >&2
		exit 1
	}
	usleep 200000
done
