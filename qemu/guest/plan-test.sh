#!/bin/sh
# Guest test plan: run every /chainscope/tests/*.sh whose full name
# ($CS_VARIANT.<script name>) matches $CS_FILTER. A test exits 0 (pass),
# 77 (skip, first line of its output says why) or anything else (fail).
# Results go to /out/results.txt as "PASS: name", "FAIL: name: why",
# "SKIP: name: why"; each test's output to /out/logs/<name>.log.
# A test may add results of its own parts, named $CS_VARIANT.<test>.<part>,
# to /out/results.txt itself (torture.sh does, one per torture test).
# The plan exits 1 when any test failed.
mkdir -p /out/logs
: > /out/results.txt
for t in /chainscope/tests/*.sh; do
	name="$CS_VARIANT.$(basename "$t" .sh)"
	# The kunit and torture tests report one result per case; let them
	# run when the filter names one of their cases.
	case "$name" in
	$CS_FILTER) ;;
	*) case "$CS_FILTER" in "$name".*) ;; *) continue ;; esac ;;
	esac
	echo "chainscope-guest: running $name"
	log=/out/logs/$name.log
	sh "$t" > "$log" 2>&1
	rc=$?
	case $rc in
	0) echo "PASS: $name" ;;
	77) echo "SKIP: $name: $(head -n1 "$log")" ;;
	*) echo "FAIL: $name: exit $rc: $(tail -n1 "$log")" ;;
	esac | tee -a /out/results.txt
done
! grep -q '^FAIL' /out/results.txt
