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
#   tests/openmetrics.sh CHAINSCOPE CS-GENTRACE CS-MKREPORT CS-OM-CRAFTED
set -uo pipefail

CS=$(readlink -f "${1:?usage: openmetrics.sh CHAINSCOPE CS-GENTRACE CS-MKREPORT CS-OM-CRAFTED}")
GEN=$(readlink -f "${2:?}")
MK=$(readlink -f "${3:?}")
CRAFTED=$(readlink -f "${4:?}")
PREFIX=host.openmetrics
# shellcheck source=userspace/tests/lib.sh
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

# --- report --openmetrics of every generated scenario -----------------------
for sc in $("$GEN" --list) dupname; do
	f=$TMP/$sc.cstrace
	if [ "$sc" = dupname ]; then
		"$MK" dupname "$f" || { fail "report.$sc" "cs-mkreport failed"; continue; }
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

# --- serve's counters (omlive.c) from two synthetic samples, no BPF ----------
"$CRAFTED" --live >"$TMP/live.prom"
L='chain="0xffffffff82000000",callback="0xffffffffc0000100",module="",kind="blocking",block=""'
for want in "chainscope_callback_duration_seconds_count{$L} 5" \
	"chainscope_callback_duration_seconds_bucket{${L},le=\"1.6e-05\"} 4" \
	"chainscope_callback_duration_seconds_bucket{${L},le=\"+Inf\"} 5" \
	"chainscope_callback_duration_seconds_sum{$L} 0.000080000" \
	"chainscope_callback_returns_total{${L},outcome=\"ok\"} 3" \
	"chainscope_callback_returns_total{${L},outcome=\"bad\"} 1" \
	'chainscope_callback_duration_seconds_count{chain="0xffffffff82000100",callback="0xffffffffc0000200",module="",kind="atomic",block=""} 2' \
	'chainscope_chain_passes_total{chain="0xffffffff82000000",module="",kind="blocking"} 4' \
	'chainscope_chain_rollbacks_total{chain="0xffffffff82000000",module="",kind="blocking"} 1' \
	'chainscope_lock_wait_seconds_count{chain="0xffffffff82000000",module="",kind="blocking",op="read"} 2' \
	'chainscope_map_full_drops_total 3' 'chainscope_events_missed_total 2' \
	'chainscope_mode_info{mode="probes"} 1'; do
	n=$((${n:-0} + 1))
	if grep -qxF -- "$want" "$TMP/live.prom"; then
		pass "live.sums.$n.${want%%[{ ]*}"
	else
		fail "live.sums.$n.${want%%[{ ]*}" "no line '$want'"
	fi
done
promcheck live "$TMP/live.prom"
"$CRAFTED" --live --only-first-chain >"$TMP/live1.prom"
if grep -q 'chainscope_callback_duration_seconds_count{chain="0xffffffff82000000"' "$TMP/live1.prom" &&
	! grep -q 'chain="0xffffffff82000100"' "$TMP/live1.prom"; then
	pass live.chain-filter
else
	fail live.chain-filter "with one -c chain, another chain's series are shown or its own are not"
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

# start_serve FILE: serve it on 127.0.0.1, port chosen by the kernel: sets PORT
start_serve() {
	local i

	PORT=
	"$CS" serve --trace "$1" --listen 127.0.0.1:0 2>"$TMP/serve.err" &
	SERVE_PID=$!
	# up to 120 s: a loaded CI host can be slow to start it (a bound, not a timing)
	for i in $(seq 1200); do
		PORT=$(sed -n 's|.*serving http://127\.0\.0\.1:\([0-9]*\)/metrics.*|\1|p' "$TMP/serve.err")
		[ -n "$PORT" ] && return 0
		kill -0 "$SERVE_PID" 2>/dev/null || break
		sleep 0.1
	done
	return 1
}

if ! start_serve "$TMP/clean.cstrace"; then
	fail serve.start "no 'serving http://127.0.0.1:PORT/metrics' line: $(head -c 300 "$TMP/serve.err")"
	exit 1
fi
pass serve.start
URL=http://127.0.0.1:$PORT

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

# the per-client connection limit (16): a 17th connection is turned away,
# and once the idle ones go, scrapes work again
fds=()
for i in $(seq 16); do
	exec {fd}<>"/dev/tcp/127.0.0.1/$PORT" && fds+=("$fd")
done
sleep 0.2
c=$(curl -s -m 60 -o /dev/null -w '%{http_code}' "$URL/metrics")
for fd in "${fds[@]}"; do
	exec {fd}>&-
done
# the server sees the closes when it gets to them: retry until it has
# (up to 120 s), failing only at the bound
for i in $(seq 600); do
	c2=$(curl -s -m 60 -o /dev/null -w '%{http_code}' "$URL/metrics")
	[ "$c2" = 200 ] && break
	sleep 0.2
done
if [ "${#fds[@]}" = 16 ] && [ "$c" != 200 ] && [ "$c2" = 200 ]; then
	pass serve.connection-limit
else
	fail serve.connection-limit "${#fds[@]} idle connections, then status $c (want none), after closing them $c2 (want 200)"
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
exit $failed
