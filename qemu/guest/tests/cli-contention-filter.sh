#!/bin/sh
# chainscope contention: lock:contention_begin/end return early unless the
# lock is a watched chain's. Load: a blocking chain with callers and a
# writer (its rwsem contends) next to two shell loops creating and
# removing files in one tmpfs directory (its i_rwsem contends: a lock no
# chain owns). Asserts that the lock tracepoints keep state only for the
# chain's lock, and prints the programs' cost from bpf_stats
# (run_cnt, run_time_ns): "bench: contention-filter ..." lines. If the
# initramfs also has chainscope-old (a build of the code before the
# filter, via CS_GUEST_BINS), the same run is measured with it.
. /chainscope/tests/cli-common.inc
stock_expect_exit5 contention
loadgen
echo 1 > /proc/sys/kernel/bpf_stats_enabled || fail "cannot enable bpf_stats"

ctl "add blocking sleep sleep_ms=1"
mkdir -p "$W/d"
churn() {
	i=0
	while [ ! -e "$W/stop" ]; do
		: > "$W/d/$1.$i"
		rm -f "$W/d/$1.$i"
		i=$((i + 1))
	done
}

# prog_stat NAME-PREFIX FIELD: FIELD of the first loaded program whose
# name starts with NAME-PREFIX (bpftool prog show, bpf_stats on)
prog_stat() {
	bpftool prog show | awk -v p="$1" -v f="$2" '
		/^[0-9]+: / { hit = 0; for (i = 1; i <= NF; i++) if ($i == "name" && index($(i + 1), p) == 1) hit = 1 }
		hit { for (i = 1; i <= NF; i++) if ($i == f) { print $(i + 1); exit } }'
}

# lt_keys: the (task, lock) keys in lt_begin now, as begin_n distinct
# keys on begin_locks distinct locks. The dump is not a snapshot: a key
# deleted while bpftool walks the map restarts its walk (get_next_key
# finds no successor of a deleted key), so a live dump can print a key
# twice. Distinct keys are what the map holds.
lt_keys() {
	bpftool map dump name lt_begin 2>/dev/null | awk '
		/"task":/ { gsub(/[^0-9]/, "", $2); t = $2 }
		/"lock":/ { gsub(/[^0-9]/, "", $2); print t, $2 }' |
		sort -u > "$W/lt_keys"
	begin_n=$(wc -l < "$W/lt_keys")
	begin_locks=$(cut -d' ' -f2 "$W/lt_keys" | sort -u | wc -l)
}

measure() { # measure BINARY
	rm -f "$W/stop"
	churn a & P1=$!
	churn b & P2=$!
	CS=$1
	cs_start "filter-$1" contention
	w0=$(sed -n 's/.*writers_cycles=\([0-9]*\).*/\1/p' "$LG/stats")
	c0=$(sed -n 's/.*callers_calls=\([0-9]*\).*/\1/p' "$LG/stats")
	ctl "callers blocking 2 0"
	ctl "writers blocking 1 0"
	# 5 s of load for the numbers below (printed, not asserted); then, not
	# trusting 5 s to be enough in a slowed guest, until the load has run:
	# the writer's cycles, the readers' calls and a lock contention seen
	# by contention_begin (up to 300 s)
	sleep 5
	i=0
	while :; do
		bc=$(prog_stat contention_beg run_cnt)
		[ "${bc:-0}" -gt 0 ] &&
			[ "$(sed -n 's/.*writers_cycles=\([0-9]*\).*/\1/p' "$LG/stats")" -ge $((w0 + 20)) ] &&
			[ "$(sed -n 's/.*callers_calls=\([0-9]*\).*/\1/p' "$LG/stats")" -ge $((c0 + 20)) ] && break
		i=$((i + 1))
		[ $i -lt 1500 ] || break	# the checks after measure() say what is missing
		usleep 200000
	done
	bc=$(prog_stat contention_beg run_cnt)
	bt=$(prog_stat contention_beg run_time_ns)
	ec=$(prog_stat contention_end run_cnt)
	et=$(prog_stat contention_end run_time_ns)
	lt_keys
	ctl stop
	touch "$W/stop"
	wait $P1 $P2
	cs_stop
	echo "bench: contention-filter $1: contention_begin runs=${bc:-?} ns=${bt:-?}" \
		"avg_ns=$(( ${bt:-0} / (${bc:-0} + 1) ))" \
		"contention_end runs=${ec:-?} ns=${et:-?} avg_ns=$(( ${et:-0} / (${ec:-0} + 1) ))" \
		"lt_begin_entries=$begin_n locks=$begin_locks"
}

measure chainscope
[ -n "$bc" ] && [ "$bc" -gt 0 ] || fail "contention_begin never ran (no lock contention?)"
# each entry is a (task, lock) wait under way; only the chain's lock is
# kept (one lock, where the tmpfs directory's would be a second), by at
# most the 3 loadgen threads
expect_le "locks in lt_begin (the chain's only)" "$begin_locks" 1
expect_le "lt_begin entries (the loadgen threads' waits)" "$begin_n" 3
grep -q "^chain: cs_loadgen_blocking (blocking) op: .* contended=[1-9]" "$OUT" ||
	fail "the chain's own contention was not counted"
if command -v chainscope-old > /dev/null; then
	measure chainscope-old
	echo "chainscope-old (no filter): lt_begin_entries=$begin_n locks=$begin_locks" \
		"$([ "$begin_locks" -gt 1 ] && echo "(the checks above fail on it)")"
fi
CS=chainscope
echo 0 > /proc/sys/kernel/bpf_stats_enabled
cs_cleanup
echo "lock:contention_* keep state only for watched chain locks"
