#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# Host tests of report --boot and of check on boot-time buffers
# (report/boot.c, check's early history): synthetic boot buffers of
# cs-gentracedat (boot8, bootstock, bootbad8, bootnoreg8) as trace.dat
# files and as made-up tracefs DIRs (--tracefs, as tracefs.sh does: never
# the host's tracefs), and genconsole.py's boot logs (--console). Asserts
# on the text and the JSON: registration order and priorities per chain,
# the call order, the slowest list, the early-history mark, check passing
# the boot buffer and failing a crafted real violation, upstream's
# (stock) events, and the refusals with their exit codes. One line per
# case, host.boot.<case>.
#
#   tests/sh/boot.sh CHAINSCOPE CS-GENTRACEDAT GENCONSOLE.PY HEADER
set -uo pipefail

CS=$(readlink -f "${1:?usage: boot.sh CHAINSCOPE CS-GENTRACEDAT GENCONSOLE.PY HEADER}")
GEN=$(readlink -f "${2:?}")
GENCON=$(readlink -f "${3:?}")
HDR=$(readlink -f "${4:?}")
PREFIX=host.boot
# shellcheck source=userspace/tests/sh/lib.sh
. "$(dirname "$(readlink -f "$0")")/lib.sh"

for s in boot8 bootstock bootbad8 bootnoreg8 bootenoent8; do
	if ! "$GEN" "$s" "$TMP/$s.dat" 2>"$TMP/generr"; then
		fail "$s.gen" "$(cat "$TMP/generr")"
		exit 1
	fi
done
"$GEN" --tracefs boot8 "$TMP/tf" 2>"$TMP/generr" || { fail tf.gen "$(cat "$TMP/generr")"; exit 1; }
python3 "$GENCON" "$HDR" boot "$TMP/boot.log" && python3 "$GENCON" "$HDR" bootstock "$TMP/bootstock.log" ||
	{ fail console.gen "genconsole.py boot"; exit 1; }

# the JSON's boot member, checked in Python: WHAT names the checks
jcheck() { # NAME PYTHON-EXPR-FILE < report -j
	local name=$1 prog=$2 res
	if res=$(python3 -c "$prog" 2>&1); then pass "$name"; else fail "$name" "$res"; fi
}

# --- ours: trace.dat, tracefs and console give the same answer ---------------
for input in dat tracefs console; do
	case $input in
	dat) args=("$TMP/boot8.dat") ;;
	tracefs) args=(--tracefs "$TMP/tf") ;;
	console) args=(--console "$TMP/boot.log") ;;
	esac
	export CHAINSCOPE_KALLSYMS=$TMP/tf/kallsyms
	run "$CS" report --boot "${args[@]}"
	if [ "$rc" = 0 ] &&
		grep -q "^boot: 3 chains, 11 registrations, 1 unregistrations, 15 runs; early history missing on 1 chain$" <<<"$out" &&
		grep -Eq "^ +1  max=2000us total=6000us count=3  cb=cs_boot_m_c chain=[^ ]+ \(blocking\)$" <<<"$out" &&
		grep -Eq "^ +2  max=700us total=1400us count=2  cb=cs_boot_n_lo chain=[^ ]+ \(raw\)$" <<<"$out" &&
		grep -Eq "^chain: [^ ]+ \(raw\) registrations=2 unregistrations=0 runs=6 total=1470us  \[early history missing\]$" <<<"$out" &&
		grep -q "^  early history missing: 1 block ran whose notifier_register is not in the buffer (registered before tracing was up)$" <<<"$out" &&
		grep -Eq "^ +2  prio=0 +cb=cs_boot_n_lo nb=[^ ]+  \(registered before tracing\)$" <<<"$out" &&
		! grep -q "^chain: .*(blocking).*early history" <<<"$out" &&
		! grep -q "usecs  *: count" <<<"$out"; then
		pass "$input.text"
	else
		fail "$input.text" "exit $rc: ${out:0:600} ${err:0:200}"
	fi
	# the order of registration and the call order, per chain, as printed
	reg=$(awk '/^chain: .*registrations=5/{c=1} /^chain: .*registrations=4/{c=0} /^chain: .*registrations=2/{c=0}
		c && /^ +[0-9]+  at /{print $5 $6}' <<<"$out" | tr '\n' ' ')
	order=$(awk '/^chain: .*registrations=5/{c=1;next} /^chain: /{c=0} c && /call order/{o=1;next} c && o && /^ +[0-9]+  prio=/{print $2 $3}' <<<"$out" | tr '\n' ' ')
	if [ "$reg" = "prio=0cb=cs_boot_r_a prio=128cb=cs_boot_r_b prio=0cb=cs_boot_r_c prio=-1cb=cs_boot_r_d prio=128cb=cs_boot_r_e " ] &&
		[ "$order" = "prio=128cb=cs_boot_r_b prio=128cb=cs_boot_r_e prio=0cb=cs_boot_r_a prio=0cb=cs_boot_r_c prio=-1cb=cs_boot_r_d " ]; then
		pass "$input.reboot-order"
	else
		fail "$input.reboot-order" "registered: $reg; call order: $order"
	fi
	"$CS" report --boot -j "${args[@]}" >"$TMP/$input.json" 2>/dev/null
	jcheck "$input.json" "
import json
d = json.load(open('$TMP/$input.json'))
b = d['boot']
assert b['format'] == 'ours' and b['times'] is True, b['format']
assert b['registrations'] == 11 and b['unregistrations'] == 1 and b['runs'] == 15, b
assert b['early_history_missing_chains'] == 1
c = {x['kind'] + str(x['registrations_count']): x for x in b['chains']}
r, m, n = c['blocking5'], c['blocking4'], c['raw2']
regs = [(x['callback'], x['priority'], x.get('seq')) for x in r['registrations']]
assert regs == [('cs_boot_r_a', 0, 1), ('cs_boot_r_b', 128, 2), ('cs_boot_r_c', 0, 3),
                ('cs_boot_r_d', -1, 4), ('cs_boot_r_e', 128, 5)], regs
assert [x['callback'] for x in r['call_order']] == ['cs_boot_r_b', 'cs_boot_r_e', 'cs_boot_r_a',
                                                    'cs_boot_r_c', 'cs_boot_r_d']
assert [x['event'] for x in m['registrations']] == ['register'] * 3 + ['unregister', 'register']
assert [x['callback'] for x in m['call_order']] == ['cs_boot_m_c', 'cs_boot_m_b', 'cs_boot_m_a']
assert [x['callback'] for x in n['call_order']] == ['cs_boot_n_b', 'cs_boot_n_lo', 'cs_boot_n_a']
assert [x['registered_in_buffer'] for x in n['call_order']] == [True, False, True]
assert n['early_history_missing'] is True and n['early_blocks'] == 1
assert not r['early_history_missing'] and not m['early_history_missing']
mc = [x for x in m['callbacks'] if x['callback'] == 'cs_boot_m_c'][0]
assert (mc['count'], mc['total_ns'], mc['max_ns']) == (3, 6000000, 2000000), mc
s = [(x['callback'], x['max_ns']) for x in b['slowest']]
assert s[0] == ('cs_boot_m_c', 2000000) and s[1] == ('cs_boot_n_lo', 700000), s
assert len(s) == 6 and b['slowest'][1]['kind'] == 'raw'
assert d['callbacks'] and d['chains'], 'the report rows are still there'
"
	run "$CS" check "${args[@]}"
	if [ "$rc" = 0 ] && grep -q " 0 violations " <<<"$out" &&
		grep -q ": early history missing: 1 chains ran blocks whose notifier_register is not in the trace" <<<"$out"; then
		pass "$input.check-passes"
	else
		fail "$input.check-passes" "exit $rc: ${out:0:400}"
	fi
	unset CHAINSCOPE_KALLSYMS
done

# --- the exports are the report's own, with --boot as without ---------------
"$CS" report --boot --perfetto "$TMP/b.json" --folded "$TMP/b.folded" --svg "$TMP/svg-b" \
	"$TMP/boot8.dat" >/dev/null 2>&1
rb=$?
"$CS" report --perfetto "$TMP/p.json" --folded "$TMP/p.folded" --svg "$TMP/svg-p" \
	"$TMP/boot8.dat" >/dev/null 2>&1
if [ "$rb" = 0 ] && cmp -s "$TMP/b.folded" "$TMP/p.folded" && [ -s "$TMP/b.folded" ] &&
	grep -q "^module_notify_list;cs_boot_m_c 6000000$" "$TMP/b.folded" &&
	python3 -c "import json; json.load(open('$TMP/b.json'))" &&
	diff -rq "$TMP/svg-b" "$TMP/svg-p" >/dev/null && ls "$TMP/svg-b" | grep -q "netdev_chain.svg"; then
	pass exports
else
	fail exports "exit $rb; folded: $(head -c 300 "$TMP/b.folded" 2>&1)"
fi

# --- check: a crafted real violation is still caught --------------------------
run "$CS" check "$TMP/bootbad8.dat"
if [ "$rc" = 1 ] && grep -q " 2 violations " <<<"$out" &&
	grep -q "chain module_notify_list: callback cs_boot_m_b: rule registration-order: " <<<"$out" &&
	grep -q "chain netdev_chain: callback cs_boot_n_a: rule run-after-unregister: " <<<"$out" &&
	! grep -q "cs_boot_n_lo" <<<"$out"; then
	pass check-violation
else
	fail check-violation "exit $rc: ${out:0:600}"
fi

# -ENOENT for a block on the chain only by a run of a pass begun before it
# was traced: unknown (early history); for one that ran in a traced pass:
# still a violation
run "$CS" check "$TMP/bootenoent8.dat"
if [ "$rc" = 1 ] && grep -q " 1 violation " <<<"$out" &&
	grep -q "chain netdev_chain: callback cs_boot_n_lo: rule membership-enoent: " <<<"$out" &&
	! grep -q "callback cs_boot_n_x: rule" <<<"$out" &&
	grep -q ": early history missing: 1 chains .*; 1 judgements unknown$" <<<"$out"; then
	pass check-enoent-early-unknown
else
	fail check-enoent-early-unknown "exit $rc: ${out:0:600}"
fi

# --- stock: upstream's three cb-only events -----------------------------------
for input in dat console; do
	case $input in
	dat) args=("$TMP/bootstock.dat") ;;
	console) args=(--console "$TMP/bootstock.log") ;;
	esac
	run "$CS" report --boot "${args[@]}"
	regs=$(awk '/^registration order/{c=1;next} /^$/{c=0} c && /^ +[0-9]+  at /{print $5}' <<<"$out" | tr '\n' ' ')
	if [ "$rc" = 0 ] &&
		[ "$(grep -c "times need chainscope's notifier core" <<<"$out")" = 1 ] &&
		grep -q "^boot: 11 registrations, 1 unregistrations, 15 runs; upstream's events name no chain, block or priority" <<<"$out" &&
		[ "$regs" = "cb=cs_boot_r_a cb=cs_boot_r_b cb=cs_boot_m_a cb=cs_boot_r_c cb=cs_boot_n_a cb=cs_boot_m_b cb=cs_boot_r_d cb=cs_boot_n_b cb=cs_boot_m_c cb=cs_boot_r_e cb=cs_boot_m_a " ] &&
		grep -q "^  cb=cs_boot_m_c count=3$" <<<"$out" &&
		grep -q "^  cb=cs_boot_n_lo count=2 (registration not in the buffer)$" <<<"$out" &&
		! grep -q "^runs: callback" <<<"$out" && ! grep -q "max=" <<<"$out"; then
		pass "stock.$input.text"
	else
		fail "stock.$input.text" "exit $rc: registrations: $regs; ${out:0:500}"
	fi
	"$CS" report --boot -j "${args[@]}" >"$TMP/stock-$input.json" 2>/dev/null
	jcheck "stock.$input.json" "
import json
b = json.load(open('$TMP/stock-$input.json'))['boot']
assert b['format'] == 'stock' and b['times'] is False and 'notifier core' in b['note']
o = [x['callback'] for x in b['registration_order'] if x['event'] == 'register']
assert o[:3] == ['cs_boot_r_a', 'cs_boot_r_b', 'cs_boot_m_a'] and len(o) == 11, o
assert all('priority' not in x for x in b['registration_order'])
runs = {x['callback']: x['count'] for x in b['callbacks']}
assert runs == {'cs_boot_m_c': 3, 'cs_boot_m_b': 3, 'cs_boot_m_a': 3, 'cs_boot_n_b': 2,
                'cs_boot_n_lo': 2, 'cs_boot_n_a': 2}, runs
"
	run "$CS" check "${args[@]}"
	if [ "$rc" = 0 ] && grep -q " 0 violations " <<<"$out"; then pass "stock.$input.check"; else
		fail "stock.$input.check" "exit $rc: ${out:0:300}"; fi
done

# --- refusals -----------------------------------------------------------------
run "$CS" report --boot "$TMP/bootnoreg8.dat"
if [ "$rc" = 17 ] && [ -z "$out" ] &&
	[ "$(grep -c "error" <<<"$err")" = 1 ] &&
	grep -q "^chainscope report: error: .*bootnoreg8.dat: --boot: no notifier_register event in it (40 events): boot with trace_event=notifier:notifier_register," <<<"$err"; then
	pass no-registrations
else
	fail no-registrations "exit $rc (want 17): ${err:0:400}"
fi
# without --boot the same input is an ordinary report
run "$CS" report "$TMP/bootnoreg8.dat"
if [ "$rc" = 0 ] && grep -q "callback: cs_boot_m_c " <<<"$out"; then pass no-registrations.plain; else
	fail no-registrations.plain "exit $rc"; fi
printf '' > "$TMP/empty.log"
run "$CS" report --boot --console "$TMP/empty.log"
if [ "$rc" = 12 ] && [ "$nerr" = 1 ]; then pass empty-console; else
	fail empty-console "exit $rc (want 12): $err"; fi
expect_exit with-passes 2 "^chainscope report: error: --boot and --passes exclude each other" \
	"$CS" report --boot --passes "$TMP/boot8.dat"
expect_exit with-openmetrics 2 "^chainscope report: error: --boot and --openmetrics exclude each other" \
	"$CS" report --openmetrics --boot "$TMP/boot8.dat"
run "$CS" report --help
if [ "$rc" = 0 ] && grep -q -- "--boot" <<<"$out" && grep -q "17" <<<"$out" &&
	grep -q "trace_event=notifier:notifier_register" <<<"$out"; then pass help; else
	fail help "exit $rc; no --boot, exit 17 or the command line in --help"; fi
exit $failed
