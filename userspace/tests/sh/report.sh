#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Host tests of `chainscope report`: crafted trace files and output paths
# (nothing from either may reach an interpreter), the SVG output, rows of
# repeated callback names, return-code classes, a bounded fuzz run and a
# benchmark line. One line per case: "PASS: host.report.<case>",
# "FAIL: ...: why", "SKIP: ...: why"; "BENCH: ..." lines only inform.
#
#   tests/sh/report.sh CHAINSCOPE CS-MKREPORT FUZZ-BINARY CS-GENTRACE
#   (FUZZ_CC, FUZZ_RUNS, MAKE_FUZZ from report.mk build and run the fuzzer,
#   through tests/fuzz/fuzz_run.sh)
set -uo pipefail

CS=$(readlink -f "${1:?usage: report.sh CHAINSCOPE CS-MKREPORT FUZZ CS-GENTRACE}")
MK=$(readlink -f "${2:?}")
FUZZ=${3:?}
GEN=$(readlink -f "${4:?}")
HERE=$(dirname "$(readlink -f "$0")")
PREFIX=host.report
# shellcheck source=userspace/tests/sh/lib.sh
. "$(dirname "$(readlink -f "$0")")/lib.sh"

# one line, no control bytes: what a message must be
one_line() {
	[ -n "$1" ] && [ "$(printf '%s' "$1" | wc -l)" = 0 ] &&
		! printf '%s' "$1" | LC_ALL=C grep -q '[[:cntrl:]]'
}

# byte N of FILE as two hex digits
byte_at() {
	od -An -tx1 -j "$2" -N1 "$1" | tr -d ' \n'
}

MARK=$TMP/pwned
NL=$'\n'

# --- crafted names: refused by the reader, exit 2, the offending byte named --
# crafted NAME HEXBYTE WHY-REGEX -- MKREPORT-NAMES-ARGS...
crafted() {
	local name=$1 want=$2 why=$3 f=$TMP/crafted-$1.cstrace off
	shift 4
	rm -f "$MARK"
	"$MK" names "$f" "$@" || { fail "crafted.$name" "cs-mkreport failed"; return; }
	run "$CS" report --svg "$TMP/svg-$name" "$f"
	off=$(sed -n 's/.*corrupted at byte offset \([0-9]*\): .*/\1/p' <<<"$err")
	if [ -e "$MARK" ]; then
		fail "crafted.$name" "a command from the trace file ran"
	elif [ "$rc" != 2 ]; then
		fail "crafted.$name" "exit $rc, want 2: ${err:0:300}"
	elif ! one_line "$err" || [ -n "$out" ]; then
		fail "crafted.$name" "want one message line and no output: $(printf '%q' "$err")"
	elif [ -z "$off" ] || ! grep -Eq -- "$why" <<<"$err"; then
		fail "crafted.$name" "message does not match /$why/: $err"
	elif [ "$(byte_at "$f" "$off")" != "$want" ]; then
		fail "crafted.$name" "offset $off holds byte $(byte_at "$f" "$off"), want $want: $err"
	elif [ -e "$TMP/svg-$name" ]; then
		fail "crafted.$name" "the SVG directory was created for a refused file"
	else
		pass "crafted.$name"
	fi
	cp "$f" "$TMP/corpus-crafted-$name" 2>/dev/null
}

long=$(printf 'a%.0s' $(seq 600))
crafted chain-newline-bang 0a 'symbol name of 0xffffffffc0001000 has a byte' -- \
	"evil${NL}!touch $MARK${NL}" cb_x
crafted callback-newline-bang 0a 'symbol name of 0xffffffffc0100000 has a byte' -- \
	test_chain "cb${NL}!touch $MARK"
crafted single-quote 27 'symbol name .* has a byte' -- "it's" cb_x
crafted double-quote 22 'symbol name .* has a byte' -- 'a"b' cb_x
crafted backslash 5c 'symbol name .* has a byte' -- 'a\b' cb_x
crafted backtick 60 'symbol name .* has a byte' -- test_chain "a\`touch $MARK\`"
crafted command-substitution 28 'symbol name .* has a byte' -- test_chain "a\$(touch $MARK)"
crafted escape-sequence 1b 'symbol name .* has a byte' -- test_chain $'red\e[31m'
crafted space 20 'symbol name .* has a byte' -- 'a b' cb_x
crafted non-ascii c3 'symbol name .* has a byte' -- $'caf\xc3\xa9' cb_x
crafted empty 00 'symbol name .* is empty' -- test_chain ''
crafted long 61 'longer than 511 bytes' -- "$long" cb_x
crafted very-long 62 'longer than 511 bytes' -- test_chain "$(printf 'b%.0s' $(seq 100000))"
crafted bad-offset 71 'offset that is not \+0x' -- test_chain 'cb+0x1q'
crafted module-newline 0a 'module name of 0xffffffffc0100000 has a byte' -- \
	test_chain cb_x "mod${NL}!touch $MARK"
crafted release-newline 0a 'kernel release has a byte' -- \
	test_chain cb_x testmod "6.1${NL}!touch $MARK"
crafted boot-id-quote 27 "boot id has a byte" -- \
	test_chain cb_x testmod 6.1.0 "0000'1111"

# --- names of every allowed shape pass, and are printed as they are --------
"$MK" names "$TMP/ok.cstrace" 'test_chain' 'cb_x.isra.0' 'snd-hda_intel' \
	'6.1.0-rc1+' >/dev/null
run "$CS" report "$TMP/ok.cstrace"
if [ "$rc" = 0 ] && grep -q '^chain: test_chain (blocking) callback: cb_x.isra.0  count=7 ' <<<"$out"; then
	pass names-allowed
else
	fail names-allowed "exit $rc: ${out:0:300} ${err:0:300}"
fi
"$MK" names "$TMP/off.cstrace" 'test_chain+0x10' 'sym$x+0xffffffffffffffff' >/dev/null
run "$CS" report "$TMP/off.cstrace"
if [ "$rc" = 0 ] && grep -q '^chain: test_chain+0x10 (blocking) callback: sym\$x+0xffffffffffffffff  count=7 ' <<<"$out"; then
	pass names-offset-form
else
	fail names-offset-form "exit $rc: ${out:0:300} ${err:0:300}"
fi

# --- return-code classes (callback_row.c), text and JSON --------------------------
"$MK" names "$TMP/n.cstrace" test_chain cb_x testmod >/dev/null
run "$CS" report "$TMP/n.cstrace"
if [ "$rc" = 0 ] && grep -q '^chain: test_chain (blocking) callback: cb_x  count=7 .* stop=2 bad=1 errno=2$' <<<"$out"; then
	pass classes-text
else
	fail classes-text "exit $rc: ${out:0:400}"
fi
run "$CS" report -j "$TMP/n.cstrace"
if [ "$rc" = 0 ] && grep -q '"callback":"cb_x",[^}]*"stop":2,"bad":1,"errno":2,' <<<"$out"; then
	pass classes-json
else
	fail classes-json "exit $rc: ${out:0:400}"
fi

# --- SVG: a normal trace; the chain and callback names are in its text -----
svg_ok() {	# svg_ok FILE: an SVG document naming test_chain, cb_x and cb_ok
	grep -q '^<svg ' "$1" 2>/dev/null && grep -q '</svg>$' "$1" &&
		grep -q '>test_chain (blocking): callback latency</text>' "$1" &&
		grep -q '>cb_x</text>' "$1" && grep -q '>cb_ok</text>' "$1" &&
		! LC_ALL=C grep -q '[^[:print:][:space:]]' "$1"
}
run "$CS" report --svg "$TMP/svg" "$TMP/n.cstrace"
if [ "$rc" = 0 ] && svg_ok "$TMP/svg/test_chain.svg" &&
   grep -qx "wrote $TMP/svg/test_chain.svg" <<<"$out"; then
	pass svg
else
	fail svg "exit $rc: ${err:0:300}; $(ls "$TMP/svg" 2>&1)"
fi
if command -v python3 >/dev/null; then
	if python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' \
		"$TMP/svg/test_chain.svg" 2>"$TMP/xml"; then
		pass svg-well-formed
	else
		fail svg-well-formed "$(head -c 300 "$TMP/xml")"
	fi
else
	skip svg-well-formed "no python3 to parse the XML"
fi

# --- SVG directories the shell or gnuplot would read as code ---------------
# svgdir NAME DIR: report writes DIR/test_chain.svg and .timeline.svg, runs nothing
svgdir() {
	local name=$1 dir=$2
	rm -f "$MARK"
	mkdir -p -- "$dir"
	run "$CS" report --svg "$dir" "$TMP/n.cstrace"
	if [ -e "$MARK" ]; then
		fail "svg-dir.$name" "a command from the directory name ran"
	elif [ "$rc" != 0 ] || [ -n "$err" ]; then
		fail "svg-dir.$name" "exit $rc: $(printf '%q' "$err")"
	elif ! svg_ok "$dir/test_chain.svg"; then
		fail "svg-dir.$name" "no SVG naming the chain and callbacks in the directory"
	elif [ "$(grep -c '^wrote ' <<<"$out")" != 2 ] ||
	     ! one_line "$(grep '^wrote .*/test_chain.svg$' <<<"$out")" ||
	     ! one_line "$(grep '^wrote .*/test_chain.timeline.svg$' <<<"$out")"; then
		fail "svg-dir.$name" "want two 'wrote' lines (histogram, timeline) without control bytes: $(printf '%q' "$out")"
	else
		pass "svg-dir.$name"
	fi
}
svgdir single-quote "$TMP/it's"
svgdir double-quote "$TMP/say \"hi\""
svgdir command-substitution "$TMP/\$(touch $MARK)"
svgdir backtick "$TMP/\`touch $MARK\`"
svgdir newline-bang "$TMP/x'${NL}!touch $MARK${NL}'"
svgdir newline-bang-dq "$TMP/y\"${NL}!touch $MARK${NL}\""

# a file name that is a symlink is not followed out of DIR
mkdir -p "$TMP/svg-link"
echo untouched > "$TMP/target"
ln -sf "$TMP/target" "$TMP/svg-link/test_chain.svg"
run "$CS" report --svg "$TMP/svg-link" "$TMP/n.cstrace"
if [ "$rc" = 1 ] && one_line "$err" && grep -q 'cannot write .*test_chain.svg' <<<"$err" &&
   [ "$(cat "$TMP/target")" = untouched ]; then
	pass svg-no-follow
else
	fail svg-no-follow "exit $rc: ${err:0:300}; target now: $(head -c 100 "$TMP/target")"
fi
# a directory that cannot be made
run "$CS" report --svg "$TMP/missing/parent${NL}x" "$TMP/n.cstrace"
if [ "$rc" = 1 ] && one_line "$err" && grep -q 'cannot create directory .*\\x0ax: No such file' <<<"$err" &&
   [ -z "$out" ]; then
	pass svg-dir-error
else
	fail svg-dir-error "exit $rc: $(printf '%q' "$err")"
fi
# a trace path with a newline: still one message line
run "$CS" report "$TMP/no${NL}such.cstrace"
if [ "$rc" = 2 ] && one_line "$err" && grep -q 'no\\x0asuch.cstrace: cannot open' <<<"$err"; then
	pass path-in-message
else
	fail path-in-message "exit $rc: $(printf '%q' "$err")"
fi

# --- a callback name that repeats on a chain names its block ---------------
"$MK" dupname "$TMP/dup.cstrace"
run "$CS" report "$TMP/dup.cstrace"
rows=$(grep '^chain: module_notify_list' <<<"$out")
if [ "$rc" = 0 ] && [ "$(wc -l <<<"$rows")" = 6 ] &&
   grep -q 'callback: trace_module_notify \[nb=trace_module_nb\]  count=3 ' <<<"$rows" &&
   grep -q 'callback: trace_module_notify \[nb=trace_event_module_nb\]  count=3 ' <<<"$rows" &&
   grep -q 'callback: cpu_cb \[nb=0xffff888000100000\]  count=3 ' <<<"$rows" &&
   grep -q 'callback: cpu_cb \[nb=0xffff888000100040\]  count=3 ' <<<"$rows" &&
   grep -q 'callback: no_block \[cb=0xffffffffc0103000\]  count=3 ' <<<"$rows" &&
   grep -q 'callback: no_block \[cb=0xffffffffc0104000\]  count=3 ' <<<"$rows" &&
   [ "$(sed 's/  count=.*//' <<<"$rows" | sort -u | wc -l)" = 6 ]; then
	pass repeated-name-text
else
	fail repeated-name-text "exit $rc: $rows"
fi
# each row's nb, and no two rows alike in (chain, callback, nb, address)
json_rows() {
	python3 -c 'import json, sys
for c in json.load(sys.stdin)["callbacks"]:
    print(c["chain"], c["callback"], c.get("nb"), c.get("nb_addr"), c["callback_addr"])'
}
run "$CS" report -j "$TMP/dup.cstrace"
if ! command -v python3 >/dev/null; then
	skip repeated-name-json "no python3 to read the JSON"
elif [ "$rc" = 0 ] && rows=$(json_rows <<<"$out") &&
   grep -qx 'module_notify_list trace_module_notify trace_event_module_nb 0xffffffffc0109000 0xffffffffc0101000' <<<"$rows" &&
   grep -qx 'module_notify_list trace_module_notify trace_module_nb 0xffffffffc0108000 0xffffffffc0100000' <<<"$rows" &&
   grep -qx 'module_notify_list cpu_cb 0xffff888000100040 0xffff888000100040 0xffffffffc0102000' <<<"$rows" &&
   grep -qx 'module_notify_list no_block None None 0xffffffffc0104000' <<<"$rows" &&
   [ "$(sort -u <<<"$rows" | wc -l)" = 6 ]; then
	pass repeated-name-json
else
	fail repeated-name-json "exit $rc: ${rows:-${out:0:300}}"
fi
run "$CS" report --svg "$TMP/svg-dup" "$TMP/dup.cstrace"
if [ "$rc" = 0 ] &&
   grep -q '>trace_module_notify \[nb=trace_event_module_nb\]</text>' "$TMP/svg-dup/module_notify_list.svg"; then
	pass repeated-name-svg
else
	fail repeated-name-svg "exit $rc: ${err:0:300}"
fi

# --svg '': a usage error, one line
run "$CS" report --svg '' "$TMP/dup.cstrace"
if [ "$rc" = 2 ] && one_line "$err" && grep -q 'empty --svg directory' <<<"$err"; then
	pass svg-empty-dir
else
	fail svg-empty-dir "exit $rc: $(printf '%q' "$err")"
fi

# SVG file names depend on the chain, not on the order chains come in:
# '.' escaped (my.chain -> my-2echain.svg), a name two chains share gets
# each chain's address (twice--0xHEAD.svg for both)
svgnames() {	# svgnames NAME CHAIN... : the files written, sorted, one line
	"$MK" chains "$TMP/$1.cstrace" "${@:2}" || { echo "cs-mkreport failed"; return; }
	rm -rf "$TMP/svgn-$1"
	"$CS" report --svg "$TMP/svgn-$1" "$TMP/$1.cstrace" >/dev/null 2>&1 || echo "report failed"
	ls "$TMP/svgn-$1" | sort | tr '\n' ' '
}
want="my-2echain.svg my-2echain.timeline.svg my_chain.svg my_chain.timeline.svg "
a=$(svgnames dot-first my.chain my_chain)
b=$(svgnames dot-last my_chain my.chain)
if [ "$a" = "$want" ] && [ "$b" = "$want" ] &&
   grep -q '>my\.chain (' "$TMP/svgn-dot-first/my-2echain.svg" &&
   grep -q '>my\.chain (' "$TMP/svgn-dot-last/my-2echain.svg" &&
   grep -q '>my_chain (' "$TMP/svgn-dot-last/my_chain.svg"; then
	pass svg-names-order-free
else
	fail svg-names-order-free "files '$a' and '$b', want '$want' both"
fi
a=$(svgnames shared twice other twice)
want="other.svg other.timeline.svg twice--0xffffffffc0001000.svg twice--0xffffffffc0001000.timeline.svg "
want+="twice--0xffffffffc0003000.svg twice--0xffffffffc0003000.timeline.svg "
if [ "$a" = "$want" ]; then
	pass svg-names-shared
else
	fail svg-names-shared "files '$a', want '$want'"
fi
# a name longer than SVG_NAME_MAX (200) is cut there and gets the address;
# the timeline's file keeps its whole suffix (it lost "vg" before: the
# report fuzzer's crash, tests/fuzz/corpus/report/crash-long-timeline-name)
l201=$(printf 'a%.0s' $(seq 201))
a=$(svgnames long-name "$l201" "${l201:1}b")
l200=${l201:1}
want="$l200--0xffffffffc0001000.svg $l200--0xffffffffc0001000.timeline.svg "
want+="$l200--0xffffffffc0002000.svg $l200--0xffffffffc0002000.timeline.svg "
if [ "$a" = "$want" ]; then
	pass svg-names-long
else
	fail svg-names-long "files '$a', want '$want'"
fi

# --- fuzz report end to end (text, JSON, SVG) ------------------------------
if fuzz_ready; then
	# the seeds: the crafted files above, cs-gentrace's scenarios, and one
	# large deeply nested trace (1 MB: one task nesting 2700 passes)
	mkdir -p "$TMP/corpus"
	for f in "$TMP"/corpus-crafted-* "$TMP/n.cstrace" "$TMP/dup.cstrace" \
		 "$TMP/ok.cstrace" "$TMP/off.cstrace"; do
		[ "$(stat -c %s "$f")" -le 16384 ] && cp "$f" "$TMP/corpus/"
	done
	"$MK" bench "$TMP/corpus/many.cstrace" 60 20
	"$GEN" --seeds "$TMP/corpus" && "$GEN" --count 2700 deep-closed "$TMP/corpus/large-deep.cstrace"
	cp -r "$TMP/corpus" "$TMP/seeds"
	if out=$(FUZZ_KEEP=${CS_FUZZ_KEEP:-} FUZZ_MAX_LEN=16384 bash "$HERE/../fuzz/fuzz_run.sh" report "$FUZZ" "$TMP/corpus"); then
		pass fuzz
	else
		fail fuzz "$out"
	fi
	# the same commit, the same inputs: two short runs keep the same corpus
	# (the JSON's clock, json-c's hash seed and addresses once made it vary)
	if ! setarch -R true 2>/dev/null; then
		skip fuzz.same-inputs "setarch -R does not work here"
	else
		for i in 1 2; do
			FUZZ_RUNS=2000 FUZZ_MAX_LEN=16384 FUZZ_KEEP="$TMP/keep" \
				bash "$HERE/../fuzz/fuzz_run.sh" report "$FUZZ" "$TMP/same$i" "$TMP/seeds" >/dev/null
			ls "$TMP/same$i" >"$TMP/same$i.list"
		done
		if cmp -s "$TMP/same1.list" "$TMP/same2.list"; then
			pass fuzz.same-inputs
		else
			fail fuzz.same-inputs "two runs with -seed=1 kept $(grep -c '' <"$TMP/same1.list") and $(grep -c '' <"$TMP/same2.list") inputs, not the same"
		fi
	fi
fi

# --- benchmark: events/s and 10^5 vs 10^6 events ----------------------------
# CPU seconds (user + system) of `report` on a generated trace: wall time
# on a shared machine says more about the neighbours.
bench() {	# bench EVENTS CALLBACKS
	local f=$TMP/bench.cstrace TIMEFORMAT='%U %S' t
	"$MK" bench "$f" "$1" "$2" || return 1
	t=$( { time "$CS" report "$f" >/dev/null; } 2>&1 ) || return 1
	rm -f "$f"
	awk '{ printf "%.3f", $1 + $2 }' <<<"$t"
}
for cbs in 100 80000; do
	if s5=$(bench 100000 $cbs) && s6=$(bench 1000000 $cbs); then
		awk -v a="$s5" -v b="$s6" -v c=$cbs 'BEGIN {
			printf "BENCH: report, %d callbacks: 10^5 events %.3f s (%.2fM events/s), 10^6 events %.3f s (%.2fM events/s), time x%.1f for 10x the events (CPU time)\n",
				c, a, 0.1 / (a ? a : 0.001), b, 1 / (b ? b : 0.001), b / (a ? a : 0.001) }'
	else
		fail bench "cs-mkreport or report failed"
	fi
done

exit $failed
