#!/bin/sh
# chainscope chains: the load generator's four chains read back in call
# order, with the priorities and callbacks it registered (text and -j);
# equal priorities in registration order; kind inference; a wrong -k and
# heads that are not heads rejected with their reason and exit 10;
# --all; the `bpftool prog run` recipe of userspace/README.md; -w, the
# heads events name (tracepoints mode on ours, probes mode on stock).
# The walk needs no notifier tracepoint: runs the same on the stock kernel.
. /chainscope/tests/cli-common.inc
loadgen

# Registration order and priorities. Call order is descending priority,
# equal priorities in registration order.
ctl "add blocking fast prio=5"
ctl "add blocking veto prio=10"
ctl "add blocking fast2 prio=5"
ctl "add blocking busy prio=-3 delay_us=1"
ctl "add atomic fast2 prio=0"
ctl "add atomic veto prio=7 ret=stop"
ctl "add atomic fast prio=0"
ctl "add raw fast prio=-1"
ctl "add raw fast2 prio=100"
ctl "add srcu sleep prio=1 sleep_ms=0"
ctl "add srcu fast prio=1"
ctl "add srcu veto prio=2"
WANT_blocking="cs_loadgen_cb_veto:10 cs_loadgen_cb_fast:5 cs_loadgen_cb_fast2:5 cs_loadgen_cb_busy:-3"
WANT_atomic="cs_loadgen_cb_veto:7 cs_loadgen_cb_fast2:0 cs_loadgen_cb_fast:0"
WANT_raw="cs_loadgen_cb_fast2:100 cs_loadgen_cb_fast:-1"
WANT_srcu="cs_loadgen_cb_veto:2 cs_loadgen_cb_sleep:1 cs_loadgen_cb_fast:1"

# run NAME ARGS...: chainscope ARGS, rc in $rc, output in $W/NAME.{out,err}
run() {
	name=$1
	shift
	"$CS" "$@" > "$W/$name.out" 2> "$W/$name.err"
	rc=$?
	echo "\$ chainscope $* (exit $rc)"
	cat "$W/$name.out" "$W/$name.err"
	cp "$W/$name.out" "/out/logs/chains-$name.out" 2>/dev/null
}

# text_order FILE: "cb:prio ..." of the block lines, with "[cs_loadgen]"
# checked after every callback
text_order() {
	awk '/ prio=/ {
		cb = ""; p = ""; mod = ""
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^prio=/) p = substr($i, 6)
			if ($i ~ /^cb=/) { cb = substr($i, 4); mod = $(i + 1) }
		}
		if (mod != "[cs_loadgen]") cb = cb "(module " mod ")"
		printf "%s%s:%s", sep, cb, p; sep = " "
	}' "$1"
}

# json_order FILE: the same from the -j object
json_order() {
	grep -o '"priority":[-0-9]*,"callback":"[A-Za-z0-9_.]*"' "$1" |
		sed 's/"priority":\([-0-9]*\),"callback":"\(.*\)"/\2:\1/' | tr '\n' ' ' |
		sed 's/ $//'
}

for k in blocking atomic raw srcu; do
	eval want=\$WANT_$k
	n=$(echo "$want" | wc -w)

	# the kind inferred (not in the table, no -k)
	run "$k" chains -c cs_loadgen_$k
	expect_eq "$k: exit" "$rc" 0
	h=$(grep '^chain: ' "$W/$k.out")
	echo "$h" | grep -q "^chain: cs_loadgen_$k \[cs_loadgen\] ($k, inferred) addr=0x[0-9a-f]* stable blocks=$n\$" ||
		fail "$k: header '$h'"
	expect_eq "$k: call order (text)" "$(text_order "$W/$k.out")" "$want"
	expect_eq "$k: distinct nb" "$(grep -o 'nb=0x[0-9a-f]*' "$W/$k.out" | sort -u | wc -l)" "$n"

	# MODULE:SYMBOL, -k, -j
	run "$k-j" chains -c cs_loadgen:cs_loadgen_$k -k $k -j
	expect_eq "$k -j: exit" "$rc" 0
	expect_eq "$k -j: one line" "$(wc -l < "$W/$k-j.out")" 1
	grep -q '^{"type":"chains",' "$W/$k-j.out" || fail "$k -j: no type chains"
	grep -q "\"chain\":\"cs_loadgen_$k\",\"chain_addr\":\"0x[0-9a-f]*\",\"chain_module\":\"cs_loadgen\",\"kind\":\"$k\",\"kind_inferred\":false,\"status\":\"ok\",\"stable\":true" "$W/$k-j.out" ||
		fail "$k -j: chain fields"
	expect_eq "$k: call order (json)" "$(json_order "$W/$k-j.out")" "$want"
	expect_eq "$k -j: callback modules" \
		"$(grep -o '"callback_module":"cs_loadgen"' "$W/$k-j.out" | wc -l)" "$n"
done

# A wrong kind is rejected with its reason: a blocking head read as SRCU
# fails the mutex wait-list check, read as atomic it would be an empty
# list (lock word 0) but the rwsem proves it blocking; with
# CONFIG_DEBUG_SPINLOCK (the debug guest) the spinlock's magic is missing
# first: bad-lock.
run wrong-srcu chains -c cs_loadgen_blocking -k srcu
expect_eq "blocking as srcu: exit" "$rc" 10
grep -q "^chain: cs_loadgen_blocking \[cs_loadgen\] (srcu) addr=0x[0-9a-f]* not a chain: bad-lock " "$W/wrong-srcu.out" ||
	fail "blocking as srcu: no bad-lock line"
run wrong-atomic chains -c cs_loadgen_blocking -k atomic
expect_eq "blocking as atomic: exit" "$rc" 10
grep -Eq "not a chain: (other-kind \(.*\): blocking|bad-lock \(.*\))\$" "$W/wrong-atomic.out" ||
	fail "blocking as atomic: no other-kind (or, debug spinlocks, bad-lock) line"
run wrong-raw chains -c cs_loadgen_srcu -k raw -j
expect_eq "srcu as raw: exit" "$rc" 10
grep -q '"kind":"raw","kind_inferred":false,"status":"other-kind",.*"other_kind":"srcu"' "$W/wrong-raw.out" ||
	fail "srcu as raw: json"

# Not heads at all: a counter and a function
run jiffies chains -c jiffies
expect_eq "jiffies: exit" "$rc" 10
grep -q "^chain: jiffies (?, inferred) addr=0x[0-9a-f]* not a chain: not-a-head (.*); as raw: [a-z-]*, atomic: [a-z-]*, blocking: [a-z-]*, srcu: [a-z-]*\$" "$W/jiffies.out" ||
	fail "jiffies: no not-a-head line"
run text chains -c schedule -j
expect_eq "schedule: exit" "$rc" 10
grep -q '"chain":"schedule",.*"status":"not-a-head"' "$W/text.out" || fail "schedule: json"
# a good head and a bad one: the bad one still fails the run
run mixed chains -c cs_loadgen_raw -c jiffies
expect_eq "good + bad -c: exit" "$rc" 10
expect_eq "good + bad -c: good one shown" "$(text_order "$W/mixed.out")" "$WANT_raw"

# Usage errors on the guest too (no bpf() reached)
run usage chains -k atomic
expect_eq "-k without -c: exit" "$rc" 2
run unknown chains -c no_such_head_xyz
expect_eq "unknown -c: exit" "$rc" 2

# The table: reboot_notifier_list (blocking) in both kernels
run table chains
expect_eq "table: exit" "$rc" 0
grep -q '^chain: reboot_notifier_list (blocking) addr=0x[0-9a-f]* stable blocks=' "$W/table.out" ||
	fail "table: no reboot_notifier_list"
grep -q '^chain: netdev_chain (raw) addr=0x[0-9a-f]* stable blocks=' "$W/table.out" ||
	fail "table: no netdev_chain"
grep -q 'not a chain' "$W/table.out" && fail "table: a table head did not validate"

# --all: the table's heads plus the loadgen's, kinds inferred
run all chains --all
expect_eq "--all: exit" "$rc" 0
for k in blocking atomic raw srcu; do
	eval want=\$WANT_$k
	grep -q "^chain: cs_loadgen_$k \[cs_loadgen\] ($k, inferred) " "$W/all.out" ||
		fail "--all: no cs_loadgen_$k ($k)"
done
grep -q '^chain: reboot_notifier_list (blocking) ' "$W/all.out" || fail "--all: no reboot_notifier_list"
grep -q 'not a chain' "$W/all.out" && fail "--all: shows a head that did not validate"
grep -q -- "--all: [0-9]* heads shown, [0-9]* candidate symbols rejected" "$W/all.err" ||
	fail "--all: no summary"

# A writer registering and unregistering meanwhile: still a valid chain
# with the fixed blocks in order (stable or not).
ctl "writers blocking 1 0 prio=7"
run busy chains -c cs_loadgen_blocking
ctl stop
expect_eq "with a writer: exit" "$rc" 0
got=$(text_order "$W/busy.out" | sed 's/ cs_loadgen_cb_fast:7//')
expect_eq "with a writer: fixed blocks in order" "$got" "$WANT_blocking"

# The bpftool recipe (userspace/README.md), on cs_loadgen_blocking
mkdir -p /sys/fs/bpf
mount | grep -q ' /sys/fs/bpf ' || mount -t bpf bpf /sys/fs/bpf || fail "cannot mount bpffs"
rm -rf /sys/fs/bpf/cs_chains /sys/fs/bpf/cs_chains_maps
"$CS" chains --bpf-object "$W/chains.bpf.o" || fail "--bpf-object failed"
bpftool prog loadall "$W/chains.bpf.o" /sys/fs/bpf/cs_chains \
	pinmaps /sys/fs/bpf/cs_chains_maps || fail "bpftool prog loadall failed"
ls /sys/fs/bpf/cs_chains /sys/fs/bpf/cs_chains_maps
H=$(awk '$3 == "cs_loadgen_blocking" { print $1 }' /proc/kallsyms)
# chains_in: head (u64), kind (u32, 2 = blocking), seq (u32), little-endian
val=""
for i in 0 1 2 3 4 5 6 7; do
	val="$val $(printf '%02x' $(( (0x$H >> (8 * i)) & 255 )))"
done
val="$val 02 00 00 00 01 00 00 00"
bpftool map update pinned /sys/fs/bpf/cs_chains_maps/_data_in key 0 0 0 0 value hex $val ||
	fail "bpftool map update _data_in failed"
out=$(bpftool prog run pinned /sys/fs/bpf/cs_chains/walk_chain repeat 0 2>&1)
echo "$out"
echo "$out" | grep -q 'Return value: 0' || fail "bpftool prog run: $out"
bpftool map dump pinned /sys/fs/bpf/cs_chains_maps/chains_bss > "$W/dump.txt" ||
	fail "bpftool map dump chains_bss failed"
head -n 40 "$W/dump.txt"
cp "$W/dump.txt" /out/logs/chains-bpftool-dump.txt 2>/dev/null
grep -q '"nr": 4,' "$W/dump.txt" || fail "bpftool dump: nr is not 4"
grep -q '"status": 0,' "$W/dump.txt" || fail "bpftool dump: status is not 0"
VETO=$(awk '$3 == "cs_loadgen_cb_veto" { print $1 }' /proc/kallsyms)
first_cb=$(grep -o '"cb": [0-9]*' "$W/dump.txt" | head -n 1 | sed 's/.* //')
expect_eq "bpftool dump: first callback" "$(printf '%x' "$first_cb")" "$VETO"
rm -rf /sys/fs/bpf/cs_chains /sys/fs/bpf/cs_chains_maps

# Empty chains: a blocking or SRCU head still proves its kind (the lock's
# wait list points to itself); an empty raw head reads like any zeroed
# word, so it needs -k; --all shows no such guess.
ctl clear
run empty-blocking chains -c cs_loadgen_blocking
expect_eq "empty blocking: exit" "$rc" 0
grep -q "^chain: cs_loadgen_blocking \[cs_loadgen\] (blocking, inferred) addr=0x[0-9a-f]* stable blocks=0\$" \
	"$W/empty-blocking.out" || fail "empty blocking: not inferred as blocking"
run empty-srcu chains -c cs_loadgen_srcu -j
expect_eq "empty srcu: exit" "$rc" 0
grep -q '"kind":"srcu","kind_inferred":true,"status":"ok","stable":true,"blocks":\[\]' \
	"$W/empty-srcu.out" || fail "empty srcu: json"
run empty-raw chains -c cs_loadgen_raw
expect_eq "empty raw without -k: exit" "$rc" 10
grep -q "not a chain: no-evidence (.*); as raw: ok, .*; give -k KIND\$" "$W/empty-raw.out" ||
	fail "empty raw: no no-evidence line"
run empty-raw-k chains -c cs_loadgen_raw -k raw
expect_eq "empty raw with -k raw: exit" "$rc" 0
grep -q "^chain: cs_loadgen_raw \[cs_loadgen\] (raw) addr=0x[0-9a-f]* stable blocks=0\$" \
	"$W/empty-raw-k.out" || fail "empty raw -k raw: header"
run all-empty chains --all
expect_eq "--all, empty loadgen chains: exit" "$rc" 0
grep -q "^chain: cs_loadgen_blocking \[cs_loadgen\] (blocking, inferred) .* blocks=0\$" "$W/all-empty.out" ||
	fail "--all: empty blocking head missing"
grep -Eq "\((raw|atomic), inferred\) .* blocks=0\$" "$W/all-empty.out" &&
	fail "--all: shows an empty raw/atomic guess"
# -v lists every rejected candidate with its status
run all-v chains --all -v
expect_eq "--all -v: exit" "$rc" 0
n=$(sed -n 's/.*--all: [0-9]* heads shown, \([0-9]*\) candidate symbols rejected$/\1/p' "$W/all-v.err")
expect_ge "--all -v: candidates rejected" "$n" 1
expect_eq "--all -v: rejected ones listed" \
	"$(grep -c '^chainscope chains: --all: .*: [a-z-]*$' "$W/all-v.err")" "$n"
grep -q '^chainscope chains: --all: cs_loadgen_raw \[cs_loadgen\]: no-evidence$' "$W/all-v.err" ||
	fail "--all -v: the empty raw head is not listed as no-evidence"

# -w: every head the notifier events of the window name, walked, with
# the kind the event gave (tracepoints mode on our kernel, probes mode's
# fentry on the chain API on stock) and marked "source":"seen": the
# loadgen's heads are in no table. Each chain is named by one kind of
# event only: atomic and srcu by calls, blocking by a robust call, raw
# by a registration. Ctrl-C ends the window.
case $CS_VARIANT in
stock) WMODE=probes ;;
*) WMODE=tracepoints ;;
esac
ctl "add atomic fast prio=3"
ctl "add blocking fast2 prio=5"
ctl "add srcu fast prio=1"
cs_start watch chains -w 600 -j
grep -q "^Tracing notifier chain heads for 600 s (mode $WMODE, " "$W/watch.err" ||
	fail "-w: not mode $WMODE: $(cat "$W/watch.err")"
ctl "call atomic 2"
ctl "robust blocking 1"
ctl "call srcu 1"
ctl "add raw fast2 prio=9"
cs_stop
expect_eq "-w -j: one line" "$(wc -l < "$OUT")" 1
# wobj FILE NAME: the chains[] object of head NAME in chains -j output
wobj() {
	awk -v name="$2" '{
		n = split($0, parts, /\{"chain":/)
		for (i = 2; i <= n; i++)
			if (index(parts[i], "\"" name "\",") == 1)
				print parts[i]
	}' "$1"
}
WANT_W_atomic=cs_loadgen_cb_fast:3
WANT_W_blocking=cs_loadgen_cb_fast2:5
WANT_W_srcu=cs_loadgen_cb_fast:1
WANT_W_raw=cs_loadgen_cb_fast2:9
for k in atomic blocking srcu raw; do
	o=$(wobj "$OUT" cs_loadgen_$k)
	[ -n "$o" ] || fail "-w: cs_loadgen_$k not listed"
	echo "$o" | grep -q "\"kind\":\"$k\",\"kind_inferred\":false,\"status\":\"ok\",\"stable\":true," ||
		fail "-w: cs_loadgen_$k: kind/status: $o"
	echo "$o" | grep -q '"source":"seen","seen_events":[1-9][0-9]*}' ||
		fail "-w: cs_loadgen_$k: not marked seen: $o"
	eval want=\$WANT_W_$k
	got=$(echo "{\"chain\":$o" > "$W/wobj"; json_order "$W/wobj")
	expect_eq "-w: cs_loadgen_$k blocks" "$got" "$want"
done
# the table's heads are still there, as such
wobj "$OUT" reboot_notifier_list | grep -q '"status":"ok",.*"source":"table","seen_events":[0-9]*}' ||
	fail "-w: reboot_notifier_list not listed with source table"
grep -q -- "-w: [0-9]* heads seen in notifier events" "$W/watch.err" ||
	fail "-w: no 'heads seen' line"

# calls_during CHAIN NAME ARGS...: chainscope ARGS in the background,
# calling CHAIN once every 0.1 s until it exits (a kthread calling
# non-stop would starve a non-preemptible stock guest); rc as run()'s
calls_during() {
	chain=$1
	name=$2
	shift 2
	"$CS" "$@" > "$W/$name.out" 2> "$W/$name.err" &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		echo "call $chain 1" > "$CTL"
		usleep 100000
	done
	wait "$pid"
	rc=$?
	echo "\$ chainscope $* (exit $rc)"
	cat "$W/$name.out" "$W/$name.err"
}

# The window ends by itself, text output; a -c head keeps source cli
# and gets the event's count (0 here: nothing calls blocking).
calls_during atomic watch-text chains -w 2 -c cs_loadgen_blocking
expect_eq "-w 2: exit" "$rc" 0
grep -q "^chain: cs_loadgen_atomic \[cs_loadgen\] (atomic) addr=0x[0-9a-f]* source=seen seen=[1-9][0-9]* stable blocks=1\$" \
	"$W/watch-text.out" || fail "-w 2: cs_loadgen_atomic not seen (text)"
grep -q "^chain: cs_loadgen_blocking \[cs_loadgen\] (blocking, inferred) addr=0x[0-9a-f]* source=cli seen=0 stable blocks=1\$" \
	"$W/watch-text.out" || fail "-w 2: -c head not marked cli (text)"
grep -q '^chain: reboot_notifier_list ' "$W/watch-text.out" &&
	fail "-w 2 -c: the table is listed although -c was given"
if [ "$CS_VARIANT" = stock ]; then
	run watch-tp chains -w 1 --mode tracepoints
	expect_eq "stock: -w --mode tracepoints: exit" "$rc" 5
else
	# our kernel has the chain API too: probes mode sees the same
	calls_during srcu watch-probes chains -w 2 --mode probes -j
	expect_eq "-w --mode probes: exit" "$rc" 0
	o=$(wobj "$W/watch-probes.out" cs_loadgen_srcu)
	echo "$o" | grep -q '"kind":"srcu","kind_inferred":false,"status":"ok",.*"source":"seen","seen_events":[1-9][0-9]*}' ||
		fail "-w --mode probes: cs_loadgen_srcu not seen: $o"
fi

cs_cleanup
echo "chains: order, priorities and callbacks as registered on all four kinds; wrong kinds and non-heads rejected; -w lists the heads events name (mode $WMODE)"
