#!/usr/bin/env bash
# Host tests of qemu/agree.py, the stock-vs-ours comparison that
# qemu/test.sh runs after both guests: equal numbers pass, a differing
# count, pass count or bucket fails naming it, so does a missing file; a
# guest that did not run (no results directory) skips.
set -uo pipefail
Q=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

check() { # check NAME CONDITION-RESULT DETAIL
	if [ "$2" = 0 ]; then echo "PASS: host.agree.$1"; else echo "FAIL: host.agree.$1: $3"; fi
}

# write DIR MODE BUSY-COUNT RAW-ROLLBACKS LATENCY-BUCKET-MIN
write() {
	mkdir -p "$1"
	cat > "$1/agree-$2.report.json" <<JSON
{"type":"report","mode":"$2","lost":0,"missed":0,"callbacks":[{"chain":"cs_loadgen_blocking","callback":"cs_loadgen_cb_busy","count":$3,"stop":0,"bad":0,"errno":0,"histogram":[{"min":128,"max":255,"count":1},{"min":256,"max":511,"count":24}]},{"chain":"cs_loadgen_raw","callback":"cs_loadgen_cb_veto","count":20,"stop":0,"bad":20,"errno":0,"histogram":[]}],"locks":[],"chains":[{"chain":"cs_loadgen_raw","kind":"raw","passes":20,"robust":5,"stopped":20,"rollbacks":$4,"callbacks":45}]}
JSON
	echo "{\"type\":\"latency\",\"callbacks\":[{\"chain\":\"cs_loadgen_blocking\",\"callback\":\"cs_loadgen_cb_busy\",\"count\":20,\"histogram\":[{\"min\":$5,\"max\":1,\"count\":20}]}]}" \
		> "$1/agree-$2.latency.json"
}

run() { out=$(python3 "$Q/agree.py" stock "$TMP/s" probes ours "$TMP/o" tracepoints); }

write "$TMP/s" probes 25 5 256
write "$TMP/o" tracepoints 25 5 256
run
[ "$(grep -c '^PASS: agree.stock-probes-vs-ours-tracepoints\.' <<<"$out")" = 3 ]
check equal-passes $? "$out"

write "$TMP/o" tracepoints 24 4 512
run
grep -q "^FAIL: agree.stock-probes-vs-ours-tracepoints.calls: ('cs_loadgen_blocking', 'cs_loadgen_cb_busy'): (25, 0, 0, 0) vs (24, 0, 0, 0)$" <<<"$out" &&
grep -q "^FAIL: agree.stock-probes-vs-ours-tracepoints.passes: cs_loadgen_raw: (20, 5, 20, 5, 45) vs (20, 5, 20, 4, 45)$" <<<"$out" &&
grep -q "^FAIL: agree.stock-probes-vs-ours-tracepoints.bucket: latency: 256 vs 512$" <<<"$out"
check differences-fail $? "$out"

rm "$TMP/o/agree-tracepoints.latency.json"
run
[ "$(grep -c '^FAIL: agree.* no .*agree-tracepoints.latency.json$' <<<"$out")" = 3 ]
check missing-file-fails $? "$out"

mv "$TMP/o" "$TMP/o.away"
run
[ "$(grep -c '^SKIP: agree.* (that guest did not run)$' <<<"$out")" = 3 ]
check missing-guest-skips $? "$out"
mv "$TMP/o.away" "$TMP/o"

echo '{"callbacks": [' > "$TMP/o/agree-tracepoints.latency.json"
run
[ "$(grep -c '^FAIL: agree.*\.\(calls\|passes\|bucket\): ' <<<"$out")" = 3 ]
check bad-json-fails $? "$out"

# valid JSON of the wrong shape (no "stop", no "rollbacks", "callbacks": null):
# FAIL lines naming it, never a traceback that leaves no result at all
# (qemu/test.sh pipes agree.py into its log: its exit status is lost)
write "$TMP/o" tracepoints 25 5 256
sed -i 's/"stop":0,//; s/"rollbacks":5,//' "$TMP/o/agree-tracepoints.report.json"
echo '{"type":"latency","callbacks":null}' > "$TMP/s/agree-probes.latency.json"
out=$(python3 "$Q/agree.py" stock "$TMP/s" probes ours "$TMP/o" tracepoints 2>&1)
[ "$(grep -c '^FAIL: agree.*\.\(calls\|passes\|bucket\): ' <<<"$out")" = 3 ] &&
! grep -q Traceback <<<"$out"
check wrong-shape-fails $? "$out"
