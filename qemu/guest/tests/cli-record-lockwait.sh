#!/bin/sh
# chainscope record: lock waits (CS_REC_LOCK_WAIT) from
# lock:contention_begin/end on the -c chain's rwsem, in both modes. The
# load is cli-contention.sh's: readers hold cs_loadgen_blocking's rwsem
# 5 ms at a time and call again at once, and a writer starts only once
# they are calling, so its (un)registrations find the rwsem taken. The
# report of the recording must show the writer's waits (1 ms or more), all
# of them contended (no 0-ns record: uncontended acquisitions are no
# events), and check must pass. Stock: auto = probes; ours: tracepoints,
# then --mode probes on the same load.
. /chainscope/tests/cli-common.inc
loadgen
ctl "add blocking sleep sleep_ms=5"

# the load, as record's COMMAND
cat > "$W/load.sh" <<EOS
#!/bin/sh
echo "callers blocking 2 0" > $CTL || exit 1
i=0
while [ "\$(sed -n 's/.*callers_calls=\([0-9]*\).*/\1/p' $LG/stats)" -lt \$1 ]; do
	i=\$((i + 1))
	[ \$i -lt 1200 ] || exit 1
	usleep 100000
done
echo "writers blocking 1 10" > $CTL || exit 1
echo wait > $CTL || exit 1
echo stop > $CTL
EOS

rec_one() { # rec_one NAME [--mode M]
	name=$1
	shift
	TR=$W/$name.cstrace
	c0=$(sed -n 's/.*callers_calls=\([0-9]*\).*/\1/p' "$LG/stats")
	"$CS" record -o "$TR" -c cs_loadgen_blocking:blocking "$@" -- sh "$W/load.sh" $((c0 + 10)) \
		> "$W/$name.out" 2> "$W/$name.err"
	rc=$?
	cat "$W/$name.err" "$W/$name.out"
	[ "$rc" = 0 ] || fail "$name: record exited $rc"
	grep -q 'lock:contention_\* on the chain locks' "$W/$name.err" ||
		fail "$name: the banner does not name the lock tracepoints"
	"$CS" report "$TR" > "$W/$name.rep" 2>&1 || fail "$name: report failed: $(cat "$W/$name.rep")"
	cat "$W/$name.rep"
	cp "$W/$name.rep" "/out/logs/$name.rep" 2>/dev/null
	OUT=$W/$name.rep
	hw=$(header '^chain: cs_loadgen_blocking \(blocking\) op: write ')
	[ -n "$hw" ] || fail "$name: no lock-wait section for the writer"
	expect_ge "$name: writer's recorded waits" "$(field count "$hw")" 1
	expect_le "$name: writer's recorded waits" "$(field count "$hw")" 20
	expect_eq "$name: every recorded wait was contended" "$(field count "$hw")" \
		"$(field contended "$hw")"
	expect_ge "$name: writer's max wait (us)" "$(field max "$hw")" 1000
	hr=$(header '^chain: cs_loadgen_blocking \(blocking\) op: read ')
	[ -z "$hr" ] || expect_eq "$name: every recorded read wait was contended" \
		"$(field count "$hr")" "$(field contended "$hr")"
	"$CS" check "$TR" > "$W/$name.check" 2>&1 || fail "$name: check failed: $(cat "$W/$name.check")"
}

if [ "$CS_VARIANT" = stock ]; then
	rec_one rec-probes
else
	rec_one rec-tracepoints --mode tracepoints
	rec_one rec-probes --mode probes
fi
cs_cleanup
echo "record takes the chain's lock waits from lock:contention_*"
