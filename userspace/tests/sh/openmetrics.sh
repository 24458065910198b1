#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Host tests of the Prometheus exposition and of `chainscope serve
# --trace` (no BPF): promtool on `report --openmetrics` of generated
# traces, the numbers against report -j, label escaping (and promtool
# refusing the unescaped form), then HTTP on 127.0.0.1 with an
# ephemeral port. One line per case: "PASS: host.openmetrics.<case>",
# "FAIL: ...: why", "SKIP: ...: why".
#
#   tests/sh/openmetrics.sh CHAINSCOPE CS-GENTRACE CS-MKREPORT CS-OM-CRAFTED
set -uo pipefail

CS=$(readlink -f "${1:?usage: openmetrics.sh CHAINSCOPE CS-GENTRACE CS-MKREPORT CS-OM-CRAFTED [FUZZ]}")
GEN=$(readlink -f "${2:?}")
MK=$(readlink -f "${3:?}")
CRAFTED=$(readlink -f "${4:?}")
FUZZ=${5:-}
PREFIX=host.openmetrics
# shellcheck source=userspace/tests/sh/lib.sh
. "$(dirname "$(readlink -f "$0")")/lib.sh"

have_promtool=1
command -v promtool >/dev/null || have_promtool=0

# promcheck NAME FILE: promtool accepts FILE with no lint problem
promcheck() {
	local name=$1 f=$2 msg

	if [ "$have_promtool" = 0 ]; then
		skip "$name.promtool" "promtool not installed (Debian package prometheus)"
		return
	fi
	if msg=$(promtool check metrics <"$f" 2>&1) && [ -z "$msg" ]; then
		pass "$name.promtool"
	else
		fail "$name.promtool" "promtool: ${msg:0:300}"
	fi
}

# consistent NAME FILE JSON: every histogram's +Inf bucket equals its
# _count and its buckets never decrease; no series twice; the callback
# calls (returns_total over outcomes) and the passes match report -j
consistent() {
	python3 - "$1" "$2" <<'PY'
import json, re, sys
expo, js = sys.argv[1], json.load(open(sys.argv[2]))
series, buckets, counts, why = {}, {}, {}, []
ret = passes = 0
for line in open(expo):
    if line.startswith('#') or not line.strip():
        continue
    m = re.match(r'^([a-z_]+)(\{.*\})? (\S+)$', line.rstrip('\n'))
    if not m:
        why.append('unparsed line: ' + line[:80]); continue
    name, labels, v = m.group(1), m.group(2) or '', float(m.group(3))
    if (name, labels) in series:
        why.append('series twice: ' + name + labels[:80])
    series[(name, labels)] = v
    if name.endswith('_bucket'):
        base = re.sub(r',le="[^"]*"\}$', '}', labels)
        prev = buckets.get((name[:-7], base))
        if prev is not None and v < prev:
            why.append('bucket decreases: ' + line[:80])
        buckets[(name[:-7], base)] = v
    elif name.endswith('_count'):
        counts[(name[:-6], labels)] = v
    if name == 'chainscope_callback_returns_total':
        ret += v
    if name == 'chainscope_chain_passes_total':
        passes += v
for k, v in counts.items():
    if buckets.get(k) != v:
        why.append('+Inf bucket %s != _count %s for %s' % (buckets.get(k), v, k[0] + k[1][:60]))
want = sum(c['count'] for c in js['callbacks'])
if ret != want:
    why.append('returns_total sums to %d, report -j counts %d calls' % (ret, want))
want = sum(c['passes'] for c in js['chains'])
if passes != want:
    why.append('passes_total sums to %d, report -j %d' % (passes, want))
if why:
    print('; '.join(why[:3]))
    sys.exit(1)
PY
}

# noaddr NAME FILE: no kernel address in FILE (0xffff... or a bare ffff... of 16 digits)
noaddr() {
	local hit

	hit=$(grep -m1 -E 'ffff[0-9a-f]{12}' "$2")
	if [ -z "$hit" ]; then
		pass "$1.no-address"
	else
		fail "$1.no-address" "an address shows: ${hit:0:200}"
	fi
}
# nodup NAME FILE: no series (name and label set) twice
nodup() {
	local d

	d=$(grep -v '^#' "$2" | sed 's/ [^ ]*$//' | sort | uniq -d | head -n1)
	if [ -z "$d" ]; then
		pass "$1.no-duplicate-series"
	else
		fail "$1.no-duplicate-series" "twice: ${d:0:200}"
	fi
}

# --- report --openmetrics of every generated scenario -----------------------
for sc in $("$GEN" --list) dupname dupheads; do
	f=$TMP/$sc.cstrace
	if [ "$sc" = dupname ] || [ "$sc" = dupheads ]; then
		"$MK" "$sc" "$f" || { fail "report.$sc" "cs-mkreport failed"; continue; }
	else
		"$GEN" "$sc" "$f" || { fail "report.$sc" "cs-gentrace failed"; continue; }
	fi
	run "$CS" report --openmetrics "$f"
	printf '%s\n' "$out" >"$TMP/$sc.prom"
	if [ "$rc" != 0 ] || [ -n "$err" ]; then
		fail "report.$sc" "exit $rc: ${err:0:200}"
		continue
	fi
	if [ "$(tail -n1 "$TMP/$sc.prom")" = "# EOF" ] && [ "$(grep -c '^# EOF$' "$TMP/$sc.prom")" = 1 ]; then
		pass "report.$sc"
	else
		fail "report.$sc" "the exposition does not end with one '# EOF' line"
	fi
	promcheck "report.$sc" "$TMP/$sc.prom"
	noaddr "report.$sc" "$TMP/$sc.prom"
	nodup "report.$sc" "$TMP/$sc.prom"
	"$CS" report -j "$f" >"$TMP/$sc.json" 2>/dev/null
	if why=$(consistent "$TMP/$sc.prom" "$TMP/$sc.json"); then
		pass "report.$sc.consistent"
	else
		fail "report.$sc.consistent" "$why"
	fi
done
# the families a dashboard relies on, with their labels, from the clean trace
for want in 'chainscope_callback_duration_seconds_bucket{chain="test_chain",callback="cb_a",module="testmod",kind="blocking",block="",le="+Inf"} 12' \
	'chainscope_callback_returns_total{chain="test_chain",callback="cb_b",module="testmod",kind="blocking",block="",outcome="bad"} 1' \
	'chainscope_chain_rollbacks_total{chain="test_chain",module="testmod",kind="blocking"} 1' \
	'chainscope_lock_wait_seconds_count{chain="test_chain",module="testmod",kind="blocking",op="read"} 5' \
	'chainscope_mode_info{mode="tracepoints"} 1' 'chainscope_events_lost_total 0'; do
	if grep -qxF -- "$want" "$TMP/clean.prom"; then
		pass "report.clean.has.${want%%[{ ]*}"
	else
		fail "report.clean.has.${want%%[{ ]*}" "no line '$want'"
	fi
done
expect_usage() {
	run "$@"
	if [ "$rc" = 2 ] && [ "$nerr" = 1 ] && [ -z "$out" ]; then
		pass "$name"
	else
		fail "$name" "exit $rc, want 2 and one line: ${err:0:200}"
	fi
}
name=report.json-and-openmetrics expect_usage "$CS" report -j --openmetrics "$TMP/clean.cstrace"
name=report.show-addresses-alone expect_usage "$CS" report --show-addresses "$TMP/clean.cstrace"
# --show-addresses: the addresses no symbol names, as they are (and
# report.*.no-address above can fail: these traces have such addresses)
for sc in clean dupname dupheads; do
	run "$CS" report --openmetrics --show-addresses "$TMP/$sc.cstrace"
	if [ "$rc" = 0 ] && grep -qE 'ffff[0-9a-f]{12}' <<<"$out" && ! grep -q 'addr#' <<<"$out"; then
		pass "report.$sc.show-addresses"
	else
		fail "report.$sc.show-addresses" "exit $rc, or no address shown, or addr#N still: ${err:0:200}"
	fi
done

# --- escaping: what the format must escape, and promtool as the judge --------
"$CRAFTED" >"$TMP/crafted.prom"
if grep -qF 'callback="bad\\name\"}\nx{",module="mod\\x"' "$TMP/crafted.prom" &&
	grep -qF 'chain="chain\"q"' "$TMP/crafted.prom" &&
	[ "$(grep -c '^chainscope_callback_untimed_total{' "$TMP/crafted.prom")" = 1 ]; then
	pass crafted.escaped
else
	fail crafted.escaped "label values not escaped as backslash, quote, newline: $(grep -m1 untimed_total\{ "$TMP/crafted.prom")"
fi
promcheck crafted "$TMP/crafted.prom"
if [ "$have_promtool" = 1 ]; then
	"$CRAFTED" --raw >"$TMP/raw.prom"
	if promtool check metrics <"$TMP/raw.prom" >/dev/null 2>&1; then
		fail crafted.unescaped-refused "promtool accepted unescaped label values: it proves nothing"
	else
		pass crafted.unescaped-refused
	fi
fi

# --- serve's counters (om_counters.c) from two synthetic samples, no BPF ----------
# addresses hidden (the default): numbered in order of first use
"$CRAFTED" --live >"$TMP/live.prom"
# shown (--show-addresses): as they are
"$CRAFTED" --live --show-addresses >"$TMP/live-addrs.prom"
live_sums() {
	local tag=$1 f=$2 H1=$3 CB1=$4 H2=$5 CB2=$6 L n=0 want

	L="chain=\"$H1\",callback=\"$CB1\",module=\"\",kind=\"blocking\",block=\"\""
	for want in "chainscope_callback_duration_seconds_count{$L} 5" \
		"chainscope_callback_duration_seconds_bucket{${L},le=\"1.6e-05\"} 4" \
		"chainscope_callback_duration_seconds_bucket{${L},le=\"+Inf\"} 5" \
		"chainscope_callback_duration_seconds_sum{$L} 0.000080000" \
		"chainscope_callback_returns_total{${L},outcome=\"ok\"} 3" \
		"chainscope_callback_returns_total{${L},outcome=\"bad\"} 1" \
		"chainscope_callback_duration_seconds_count{chain=\"$H2\",callback=\"$CB2\",module=\"\",kind=\"atomic\",block=\"\"} 2" \
		"chainscope_chain_passes_total{chain=\"$H1\",module=\"\",kind=\"blocking\"} 4" \
		"chainscope_chain_rollbacks_total{chain=\"$H1\",module=\"\",kind=\"blocking\"} 1" \
		"chainscope_lock_wait_seconds_count{chain=\"$H1\",module=\"\",kind=\"blocking\",op=\"read\"} 2" \
		'chainscope_map_full_drops_total 3' 'chainscope_events_missed_total 2' \
		'chainscope_mode_info{mode="probes"} 1'; do
		n=$((n + 1))
		if grep -qxF -- "$want" "$f"; then
			pass "$tag.$n.${want%%[{ ]*}"
		else
			fail "$tag.$n.${want%%[{ ]*}" "no line '$want'"
		fi
	done
}
live_sums live.sums "$TMP/live.prom" 'addr#2' 'addr#1' 'addr#4' 'addr#3'
live_sums live.show-addresses "$TMP/live-addrs.prom" 0xffffffff82000000 0xffffffffc0000100 \
	0xffffffff82000100 0xffffffffc0000200
noaddr live "$TMP/live.prom"
promcheck live "$TMP/live.prom"
"$CRAFTED" --live --only-first-chain >"$TMP/live1.prom"
if grep -q 'chainscope_callback_duration_seconds_count{chain="addr#2"' "$TMP/live1.prom" &&
	[ "$(grep -c '^chainscope_callback_duration_seconds_count{' "$TMP/live1.prom")" = 1 ]; then
	pass live.chain-filter
else
	fail live.chain-filter "with one -c chain, another chain's series are shown or its own are not"
fi

# --- at most N rows: entries for more are counted, not kept ------------------
"$CRAFTED" --live --max-rows 2 >"$TMP/live-cap.prom"
# the first sample's two callback rows fill the table; its chain, the lock
# waits and the second sample's chain overflow (3); the second sample's
# entry of a kept row is still added
if grep -qxF 'chainscope_rows_overflow_total 3' "$TMP/live-cap.prom" &&
	[ "$(grep -c '^chainscope_callback_duration_seconds_count{' "$TMP/live-cap.prom")" = 2 ] &&
	! grep -q '^chainscope_chain_passes_total{' "$TMP/live-cap.prom" &&
	grep -qxF 'chainscope_callback_duration_seconds_count{chain="addr#2",callback="addr#1",module="",kind="blocking",block=""} 5' \
		"$TMP/live-cap.prom"; then
	pass live.max-rows
else
	fail live.max-rows "with 2 rows at most: $(grep -E '^chainscope_(rows_overflow|callback_duration_seconds_count|chain_passes)' "$TMP/live-cap.prom" | head -5 | tr '\n' ' ')"
fi
promcheck live-cap "$TMP/live-cap.prom"
if grep -qxF 'chainscope_rows_overflow_total 0' "$TMP/live.prom"; then
	pass live.no-overflow
else
	fail live.no-overflow "no 'chainscope_rows_overflow_total 0' without a maximum reached"
fi

# --- rows that print alike: two heads of one name, heap heads and blocks -----
for how in "" --show-addresses; do
	"$CRAFTED" --dup $how >"$TMP/dup$how.prom"
	nodup "dup$how" "$TMP/dup$how.prom"
	promcheck "dup$how" "$TMP/dup$how.prom"
done
noaddr dup "$TMP/dup.prom"
if grep -qF 'chainscope_chain_passes_total{chain="dup_chain",module="vmlinux",kind="blocking",head="0xffffffff82000100"} 2' \
	"$TMP/dup--show-addresses.prom" &&
	grep -qF 'chainscope_lock_wait_seconds_count{chain="dup_chain",module="vmlinux",kind="blocking",op="write"} 0' \
	"$TMP/dup--show-addresses.prom"; then
	pass dup.head-label-only-when-alike
else
	fail dup.head-label-only-when-alike "no head label on a chain named twice, or one on a row named once"
fi

# --- serve --trace over HTTP --------------------------------------------------
if ! command -v curl >/dev/null; then
	skip serve "curl not installed"
	exit $failed
fi
SERVE_PID=
stop_serve() {
	[ -n "$SERVE_PID" ] && kill "$SERVE_PID" 2>/dev/null && wait "$SERVE_PID" 2>/dev/null
	SERVE_PID=
}
trap 'stop_serve; rm -rf "$TMP"' EXIT

# wait_line FILE PID ERE: until FILE has a line matching ERE (0), or PID
# has ended or 120 s have passed (1): a bound for a loaded CI host, not a
# timing; the caller's verdict looks at FILE itself
wait_line() {
	local i

	for i in $(seq 1200); do
		grep -Eq -- "$3" "$1" && return 0
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# start_serve FILE [ARGS...]: serve it on 127.0.0.1, port chosen by the
# kernel: sets PORT (a bounded wait for the 'serving' line, not a verdict)
start_serve() {
	local f=$1

	shift
	PORT=
	"$CS" serve --trace "$f" --listen 127.0.0.1:0 "$@" 2>"$TMP/serve.err" &
	SERVE_PID=$!
	wait_line "$TMP/serve.err" "$SERVE_PID" 'serving http://127\.0\.0\.1:[0-9]+/metrics' ||
		return 1
	PORT=$(sed -n 's|.*serving http://127\.0\.0\.1:\([0-9]*\)/metrics.*|\1|p' "$TMP/serve.err")
}

if ! start_serve "$TMP/clean.cstrace"; then
	fail serve.start "no 'serving http://127.0.0.1:PORT/metrics' line: $(head -c 300 "$TMP/serve.err")"
	exit 1
fi
pass serve.start
URL=http://127.0.0.1:$PORT

# serve --trace needs no privilege: it has none by the time it listens
st=$(cat "/proc/$SERVE_PID/status")
capeff=$(sed -n 's/^CapEff:[[:space:]]*//p' <<<"$st")
capprm=$(sed -n 's/^CapPrm:[[:space:]]*//p' <<<"$st")
capbnd=$(sed -n 's/^CapBnd:[[:space:]]*//p' <<<"$st")
nnp=$(sed -n 's/^NoNewPrivs:[[:space:]]*//p' <<<"$st")
euid=$(awk '/^Uid:/ { print $3 }' <<<"$st")
if [ "$capeff" = 0000000000000000 ] && [ "$capprm" = 0000000000000000 ] && [ "$nnp" = 1 ] &&
	{ [ "$(id -u)" != 0 ] || { [ "$euid" = 65534 ] && [ "$capbnd" = 0000000000000000 ]; }; } &&
	grep -q "HTTP in pid $SERVE_PID, uid $euid, no capabilities" "$TMP/serve.err"; then
	pass serve.trace-no-privileges
else
	fail serve.trace-no-privileges "CapEff $capeff CapPrm $capprm CapBnd $capbnd NoNewPrivs $nnp euid $euid (we are $(id -u)): $(head -c 300 "$TMP/serve.err")"
fi
if grep -q 'warning' "$TMP/serve.err"; then
	fail serve.loopback-no-warning "$(grep -m1 warning "$TMP/serve.err")"
else
	pass serve.loopback-no-warning
fi

# code METHOD PATH: the status code (curl -w), headers in $TMP/h, body in $TMP/b
code() {
	curl -s -m 60 --path-as-is -X "$1" -D "$TMP/h" -o "$TMP/b" -w '%{http_code}' "$URL$2"
}
c=$(curl -s -m 60 -D "$TMP/h" -o "$TMP/b" -w '%{http_code}' "$URL/metrics")
ctype=$(sed -n 's/^Content-Type: *//Ip' "$TMP/h" | tr -d '\r')
if [ "$c" = 200 ] && [ "$ctype" = "text/plain; version=0.0.4; charset=utf-8" ]; then
	pass serve.metrics-200
else
	fail serve.metrics-200 "status $c, Content-Type '$ctype'"
fi
if cmp -s "$TMP/b" "$TMP/clean.prom"; then
	pass serve.metrics-body
else
	fail serve.metrics-body "the body differs from report --openmetrics of the same trace"
fi
promcheck serve.metrics "$TMP/b"
c=$(curl -s -m 60 -I -o "$TMP/b" -D "$TMP/h" -w '%{http_code}' "$URL/metrics")
if [ "$c" = 200 ] && [ "$(grep -v $'^\r*$' "$TMP/b" | grep -vc '^HTTP\|: ')" = 0 ]; then
	pass serve.head-200
else
	fail serve.head-200 "HEAD: status $c"
fi
for p in / /metricsx /metrics/ "/../metrics" /favicon.ico; do
	c=$(code GET "$p")
	if [ "$c" = 404 ]; then
		pass "serve.404.${p//\//_}"
	else
		fail "serve.404.${p//\//_}" "GET $p: status $c, want 404"
	fi
done
for m in POST PUT DELETE OPTIONS; do
	c=$(code "$m" /metrics)
	allow=$(sed -n 's/^Allow: *//Ip' "$TMP/h" | tr -d '\r')
	if [ "$c" = 405 ] && [ "$allow" = "GET, HEAD" ]; then
		pass "serve.405.$m"
	else
		fail "serve.405.$m" "$m /metrics: status $c, Allow '$allow', want 405 'GET, HEAD'"
	fi
done
# a request line that is not HTTP: a 4xx, and the server lives on
c=$(printf 'GARBAGE\r\n\r\n' | curl -s -m 60 -o /dev/null -w '%{http_code}' \
	--request-target '%%' "$URL/" 2>/dev/null)
if [[ "$c" =~ ^4 ]]; then
	pass serve.bad-request-4xx
else
	fail serve.bad-request-4xx "request target '%%': status $c, want 4xx"
fi

# clients that connect and send nothing (or half a request) stall no scrape.
# Not judged by the scrape's wall time (a loaded host can make any scrape
# slow): a server that stalled on them would answer only once their idle
# timeout (10 s) closed them, so the scrape must come back while both are
# still open (a read on them times out instead of seeing EOF).
exec 3<>"/dev/tcp/127.0.0.1/$PORT" && exec 4<>"/dev/tcp/127.0.0.1/$PORT" &&
	printf 'GET /metr' >&4
t0=$(date +%s%N)
c=$(curl -s -m 60 -o "$TMP/b" -w '%{http_code}' "$URL/metrics")
ms=$((($(date +%s%N) - t0) / 1000000))
open3=0 open4=0
read -r -t 0.2 -u 3 _ ; [ $? -gt 128 ] && open3=1
read -r -t 0.2 -u 4 _ ; [ $? -gt 128 ] && open4=1
if [ "$c" = 200 ] && cmp -s "$TMP/b" "$TMP/clean.prom" && [ "$open3$open4" = 11 ]; then
	pass serve.idle-client-no-stall
else
	fail serve.idle-client-no-stall "with two idle connections open: status $c after ${ms} ms; still open after it: $open3$open4 (want 11)"
fi
exec 3>&- 4>&-

# many idle connections from the scraper's own address (beyond the 56
# serve keeps, under the 64 it accepts): the oldest go, a scrape gets in
fds=()
for i in $(seq 60); do
	exec {fd}<>"/dev/tcp/127.0.0.1/$PORT" && fds+=("$fd")
done
c=$(curl -s -m 60 -o "$TMP/b" -w '%{http_code}' "$URL/metrics")
for fd in "${fds[@]}"; do
	exec {fd}>&-
done
if [ "${#fds[@]}" = 60 ] && [ "$c" = 200 ] && cmp -s "$TMP/b" "$TMP/clean.prom"; then
	pass serve.idle-connections-scrape
else
	fail serve.idle-connections-scrape "${#fds[@]} idle connections from 127.0.0.1, then a scrape: status $c (want 200)"
fi

# clients that trickle a request byte by byte (never idle for the idle
# timeout) hold no slot beyond the 10 s to receive a whole request, and a
# scrape meanwhile gets its answer. The trickler says 'ready' once all are
# connected, then reports how many the server closed, and when.
cat >"$TMP/trickle.py" <<'PY'
import socket, sys, time
port, n, cap = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
socks = []
for i in range(n):
    s = socket.create_connection(('127.0.0.1', port))
    s.sendall(b'GET /metrics HTTP/1.1\r\nHost: x\r\n')
    socks.append(s)
print('ready', flush=True)
t0, closed, last = time.monotonic(), set(), 0.0
while len(closed) < n and time.monotonic() - t0 < cap:
    for i, s in enumerate(socks):
        if i in closed:
            continue
        try:
            s.sendall(b'X')
            s.setblocking(False)
            try:
                if s.recv(1) == b'':
                    raise ConnectionResetError
            except BlockingIOError:
                pass
            s.setblocking(True)
        except OSError:
            closed.add(i)
            last = time.monotonic() - t0
    time.sleep(0.3)
print('closed %d of %d, the last after %.0f s' % (len(closed), n, last), flush=True)
PY
python3 "$TMP/trickle.py" "$PORT" 40 120 >"$TMP/trickle.out" 2>&1 &
tpid=$!
wait_line "$TMP/trickle.out" "$tpid" '^ready'
c=$(curl -s -m 60 -o "$TMP/b" -w '%{http_code}' "$URL/metrics")
if grep -q '^ready' "$TMP/trickle.out" && [ "$c" = 200 ] && cmp -s "$TMP/b" "$TMP/clean.prom"; then
	pass serve.trickle-scrape
else
	fail serve.trickle-scrape "40 trickling clients, then a scrape: status $c: $(head -c 200 "$TMP/trickle.out")"
fi
wait "$tpid"
read -r closed last <<<"$(sed -n 's/^closed \([0-9]*\) of 40, the last after \([0-9]*\) s$/\1 \2/p' "$TMP/trickle.out")"
# the deadline is 10 s; the trickler gives up after 120 s: without a
# deadline on the whole request none would be closed by then (a byte every
# 0.3 s keeps each one from ever idling); how soon they go is the host's
if [ "${closed:-0}" = 40 ]; then
	pass serve.trickle-closed
else
	fail serve.trickle-closed "the server closed ${closed:-?} of 40 trickling clients (last after ${last:-?} s), want all before the trickler gives up (120 s): $(tail -c 200 "$TMP/trickle.out")"
fi

# keep-alive: two pipelined requests on one connection get two answers
cat >"$TMP/keepalive.py" <<'PY'
import socket, sys
s = socket.create_connection(('127.0.0.1', int(sys.argv[1])), timeout=60)
s.sendall(b'GET /metrics HTTP/1.1\r\nHost: x\r\n\r\nHEAD /metrics HTTP/1.1\r\nHost: x\r\n\r\n')
got = b''
while got.count(b'HTTP/1.1 200') < 2:
    b = s.recv(65536)
    if not b:
        break
    got += b
print(got.count(b'HTTP/1.1 200'), b'Connection: close' in got)
PY
ka=$(python3 "$TMP/keepalive.py" "$PORT" 2>&1)
if [ "$ka" = "2 False" ]; then
	pass serve.keep-alive
else
	fail serve.keep-alive "two pipelined requests: answers, 'Connection: close' seen: $ka"
fi

# a client holding far more connections than serve keeps (200, never
# sending): the listen queue is drained, so a scrape still gets its answer
cat >"$TMP/hold.py" <<'PY'
import socket, sys
socks = [socket.create_connection(('127.0.0.1', int(sys.argv[1]))) for _ in range(200)]
print('ready', flush=True)
sys.stdin.read()
PY
mkfifo "$TMP/hold2"
python3 "$TMP/hold.py" "$PORT" <"$TMP/hold2" >"$TMP/hold.out" 2>&1 &
hpid=$!
exec 8>"$TMP/hold2"
wait_line "$TMP/hold.out" "$hpid" '^ready'
c=$(curl -s -m 120 -o "$TMP/b" -w '%{http_code} %{time_total}' "$URL/metrics")
exec 8>&-
wait "$hpid"
echo "serve: a scrape behind 200 held connections: status and seconds: $c"
if grep -q '^ready' "$TMP/hold.out" && [ "${c%% *}" = 200 ] && cmp -s "$TMP/b" "$TMP/clean.prom"; then
	pass serve.held-connections-scrape
else
	fail serve.held-connections-scrape "200 held connections, then a scrape: $c: $(head -c 200 "$TMP/hold.out")"
fi

# the same port again: exit 11, one line
run "$CS" serve --trace "$TMP/clean.cstrace" --listen "127.0.0.1:$PORT"
if [ "$rc" = 11 ] && [ "$nerr" = 1 ] && grep -q "cannot listen on 127.0.0.1:$PORT" <<<"$err"; then
	pass serve.port-in-use
else
	fail serve.port-in-use "exit $rc, want 11: ${err:0:200}"
fi

# an idle connection is closed by the server after its timeout (10 s):
# not before 9 s (the server's clock starts no later than our connect), and
# closed at all (cat sees EOF) within 120 s; how late depends on the host
exec 5<>"/dev/tcp/127.0.0.1/$PORT"
t0=$(date +%s%N)
timeout 120 cat <&5 >/dev/null
crc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
exec 5>&-
if [ "$crc" = 0 ] && [ "$ms" -ge 9000 ]; then
	pass serve.idle-timeout
else
	fail serve.idle-timeout "an idle connection was closed after ${ms} ms (cat exit $crc), want EOF after >= 9000 ms"
fi

# SIGTERM ends it with exit 0
kill -TERM "$SERVE_PID"
wait "$SERVE_PID"
rc=$?
SERVE_PID=
if [ "$rc" = 0 ]; then
	pass serve.sigterm-exit-0
else
	fail serve.sigterm-exit-0 "exit $rc"
fi
# INTERVAL COUNT: it ends by itself
run timeout 120 "$CS" serve --trace "$TMP/clean.cstrace" --listen 127.0.0.1:0 1 1
if [ "$rc" = 0 ]; then
	pass serve.count-ends
else
	fail serve.count-ends "serve ... 1 1: exit $rc: ${err:0:200}"
fi
# one buffer for every response: clients that take their answer slowly
# (12, each with its status line in, the rest of ~10 MB unread) cost
# serve no copy of the exposition each (its RSS grows by less than two)
"$MK" bench "$TMP/big.cstrace" 4000 2000
"$CS" report --openmetrics "$TMP/big.cstrace" >"$TMP/big.prom" 2>/dev/null
size=$(stat -c %s "$TMP/big.prom")
cat >"$TMP/slowread.py" <<'PY'
import socket, sys
port, n = int(sys.argv[1]), int(sys.argv[2])
socks = []
for i in range(n):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.settimeout(30)
    s.connect(('127.0.0.1', port))
    s.sendall(b'GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n')
    got = b''
    while len(got) < 12:
        b = s.recv(12 - len(got))
        if not b:
            break
        got += b
    if got != b'HTTP/1.1 200':
        print('status %r' % got, flush=True)
        sys.exit(1)
    socks.append(s)
print('ready', flush=True)
sys.stdin.read()
PY
if start_serve "$TMP/big.cstrace"; then
	rss0=$(awk '/^VmRSS:/ { print $2 }' "/proc/$SERVE_PID/status")
	mkfifo "$TMP/hold"
	python3 "$TMP/slowread.py" "$PORT" 12 <"$TMP/hold" >"$TMP/slowread.out" 2>&1 &
	spid=$!
	exec 7>"$TMP/hold"
	wait_line "$TMP/slowread.out" "$spid" '^(ready|status)'
	rss1=$(awk '/^VmRSS:/ { print $2 }' "/proc/$SERVE_PID/status")
	exec 7>&-
	wait "$spid"
	stop_serve
	grow=$(((rss1 - rss0) * 1024))
	if grep -q '^ready' "$TMP/slowread.out" && [ "$size" -gt 5000000 ] && [ "$grow" -lt $((2 * size)) ]; then
		pass serve.shared-buffer
	else
		fail serve.shared-buffer "12 slow readers of a $size-byte exposition: RSS grew by $grow bytes: $(head -c 200 "$TMP/slowread.out")"
	fi
else
	fail serve.shared-buffer "serve did not start: $(head -c 300 "$TMP/serve.err")"
fi
# beyond loopback: one warning line naming the risk and the fix
run timeout 120 "$CS" serve --trace "$TMP/clean.cstrace" --listen 0.0.0.0:0 1 1
w=$(grep warning <<<"$err")
if [ "$rc" = 0 ] && [ "$(grep -c '' <<<"$w")" = 1 ] && grep -q "0.0.0.0 is not loopback" <<<"$w" &&
	grep -q "reverse proxy with TLS and auth" <<<"$w" && grep -q "firewall" <<<"$w"; then
	pass serve.non-loopback-warning
else
	fail serve.non-loopback-warning "exit $rc: ${err:0:300}"
fi
# --show-addresses says so at start
run timeout 120 "$CS" serve --trace "$TMP/clean.cstrace" --listen 127.0.0.1:0 --show-addresses 1 1
if [ "$rc" = 0 ] && grep -q "warning: --show-addresses: .*kernel addresses" <<<"$err"; then
	pass serve.show-addresses-says-so
else
	fail serve.show-addresses-says-so "exit $rc: ${err:0:300}"
fi
# --- fuzz report --openmetrics (tests/fuzz/fuzz_openmetrics.c) -----------------------
if [ -z "$FUZZ" ]; then
	skip fuzz "no fuzz target given"
elif fuzz_ready; then
	# cs-gentrace's scenarios and one large deeply nested trace (1 MB)
	mkdir -p "$TMP/corpus"
	"$GEN" --seeds "$TMP/corpus" && "$GEN" --count 2700 deep-closed "$TMP/corpus/large-deep.cstrace"
	if out=$(bash "$(dirname "$(readlink -f "$0")")/../fuzz/fuzz_run.sh" openmetrics "$FUZZ" "$TMP/corpus"); then
		pass fuzz
	else
		fail fuzz "$out"
	fi
fi

exit $failed
