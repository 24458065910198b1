#!/usr/bin/env bash
# chainscope's test run (make test): host unit tests, the guest test plan
# on the stock and chainscope kernels of Linux 6.1 and 6.12, the harness
# self-tests, a CONFIG_TRACEPOINTS=n compile check of the core and the
# patch series (make patches) on both trees and the debug-kernel soak
# (6.1), aggregated into one report
# ending in
#   N passed, N failed, N skipped
#
#   qemu/test.sh [-t GLOB] [-n]
#     -t GLOB  only tests whose full name matches GLOB, e.g.
#              'chainscope.kunit.notifier_api.*', 'host.*', '*.tracepoints'
#     -n       no debug soak (faster local runs)
#
# Test names: host.<suite>.<case>, <variant>.<test>,
# <variant>.kunit.<suite>.<case>, <variant>.torture.<test> (the torture
# module's tests), selftest.<case>, bench.smoke, debug.<...>,
# build.<...> (kernel builds; build.notrace-*: the core without
# tracepoints; build.patches-*: the patch series, make patches),
# <variant>.scrape.<check> (a real Prometheus scrapes the guest:
# chainscope and stock-612), <variant>.panic (a boot of its own that
# panics: chainscope and chainscope-612), <variant>.boot.<check> (a boot
# with our events from its command line: chainscope, chainscope-612,
# stock-612), chainscope-612.persist-shutdown and .persist-panic (two
# boots of their own each: 6.12's persistent ring buffer across a warm
# reboot, and across a panic).
# <variant> is stock or chainscope on 6.1, stock-612 or chainscope-612 on
# 6.12.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(dirname "$HERE")
OUTROOT=${CS_OUTPUT:-$REPO/output}/test
GLOB='*'
DEBUG=1
SOAK_ITERS=${CS_SOAK_ITERS:-125000}
while getopts 't:n' opt; do
	case $opt in
	t) GLOB=$OPTARG ;;
	n) DEBUG=0 ;;
	*) echo "usage: test.sh [-t GLOB] [-n]" >&2; exit 2 ;;
	esac
done

mkdir -p "$OUTROOT"
# One test run at a time per kernel cache: the kernels and the modules
# that guests boot are built in place there, so a second checkout's run
# would rebuild them under this one's guests.
CACHE_DIR=${CHAINSCOPE_CACHE:-/var/cache/chainscope}
mkdir -p "$CACHE_DIR"
exec 8>"$CACHE_DIR/.test.lock"
if ! flock -n 8; then
	echo "[$(date +%H:%M:%S)] test.sh: waiting for another test run on $CACHE_DIR" >&2
	flock 8
fi
export CS_TEST_LOCK_HELD=1	# (qemu/bench.sh --smoke runs under it)
RESULTS=$OUTROOT/results.txt
: >"$RESULTS"
log() { echo "[$(date +%H:%M:%S)] test.sh: $*" >&2; }

# Keep the result lines whose test name matches GLOB.
record() {
	local line name
	while IFS= read -r line; do
		case "$line" in PASS:* | FAIL:* | SKIP:*) ;; *) continue ;; esac
		name=${line#*: }
		name=${name%%: *}
		# shellcheck disable=SC2254
		case "$name" in $GLOB) echo "$line" | tee -a "$RESULTS" ;; esac
	done
}

# Could GLOB match a name that starts with PREFIX.?
selected() {
	case "$GLOB" in *.*) ;; *) return 0 ;; esac
	# shellcheck disable=SC2254
	case "$1" in ${GLOB%%.*}) return 0 ;; esac
	return 1
}

# Boot a kernel, run a plan and record its tests under PREFIX.
guest_run() { # guest_run PREFIX VARIANT FLAVOR [run.sh options...]
	local prefix=$1 variant=$2 flavor=$3 out rc=0
	shift 3
	out=$OUTROOT/$prefix
	mkdir -p "$out"
	"$HERE/run.sh" -o "$out" -f "$(guest_filter "$prefix" "$variant")" "$@" \
		"$variant" "$flavor" 2>"$out/run.err" || rc=$?
	cat "$out/run.err" >&2
	# The guest names its tests <variant>.<test>; report them as <prefix>.
	sed -E "s/^(PASS|FAIL|SKIP): $variant\./\1: $prefix./" \
		"$out/guest/results.txt" 2>/dev/null | record
	if ls "$out"/guest/kunit/*.ktap >/dev/null 2>&1; then
		"$HERE/ktap.sh" "$prefix.kunit" "$out"/guest/kunit/*.ktap | record
	fi
	case $rc in
	0 | 1) ;;
	3) echo "FAIL: $prefix.boot: guest hung and was killed" | record ;;
	4) echo "FAIL: $prefix.boot: guest died without reporting" | record ;;
	5) echo "FAIL: $prefix.boot: console badness: $(head -n1 "$out/badness.txt")" | record ;;
	*) echo "FAIL: $prefix.boot: run.sh exit $rc: $(grep 'error:' "$out/run.err" | tail -n 1)" | record ;;
	esac
	GUEST_RC=$rc	# for the callers that check the guest's results on the host
	return 0
}

# did_boot NAME: after guest_run, whether the plan ran (run.sh exit 0 or
# 1); if not, NAME fails here, so that no host checker reads a folder the
# plan did not write (run.sh empties it first) and a glob on NAME sees it
did_boot() { # did_boot NAME
	case $GUEST_RC in
	0 | 1) return 0 ;;
	esac
	echo "FAIL: $1: the boot failed (run.sh exit $GUEST_RC; see the .boot result of its run)" | record
	return 1
}

# The host-built CLI that the host-side checkers run on a guest's results
HOST_CS=$REPO/userspace/.output/chainscope
host_cs() { # host_cs NAME: whether it is there; if not, NAME fails here
	[ -x "$HOST_CS" ] && return 0
	echo "FAIL: $1: no host-built CLI (userspace/.output/chainscope)" | record
	return 1
}

# The guest plan filters on <variant>.<test>; map our prefix onto that.
guest_filter() {
	case "$GLOB" in
	"$1".*) echo "$2${GLOB#"$1"}" ;;
	*) echo '*' ;;
	esac
}

# A harness self-test: boot a plan and expect run.sh to exit with CODE.
selftest() { # selftest NAME PLAN CODE [run.sh options]
	local name=$1 plan=$2 want=$3 rc=0
	shift 3
	selected selftest || return 0
	case "selftest.$name" in $GLOB) ;; *) return 0 ;; esac
	"$HERE/run.sh" -o "$OUTROOT/selftest-$name" -p "$plan" "$@" chainscope \
		>/dev/null 2>"$OUTROOT/selftest-$name.err" || rc=$?
	if [ "$rc" = "$want" ]; then
		echo "PASS: selftest.$name" | record
	else
		echo "FAIL: selftest.$name: run.sh exit $rc, expected $want" | record
	fi
}

# Guest-run prefix of VARIANT on kernel KVER: 6.1 keeps the bare names.
prefix_of() { # prefix_of VARIANT KVER
	case "$2" in
	6.1) echo "$1" ;;
	*) echo "$1-${2//./}" ;;
	esac
}

# Build both kernel variants of both trees up front (stock first:
# switching to ours is then one incremental step); the CLI is built
# against our 6.1 kernel's BTF, so that one comes last.
for kver in 6.12 6.1; do
	for variant in stock chainscope; do
		p=$(prefix_of "$variant" "$kver")
		selected "$p" || { [ "$variant" = chainscope ] && [ "$kver" = 6.1 ]; } ||
			continue
		if ! CS_KERNEL=$kver "$REPO/kernel/build.sh" build "$variant" normal >/dev/null; then
			echo "FAIL: build.kernel-$p: kernel build failed" | record
			echo "0 passed, 1 failed"
			exit 1
		fi
	done
done

# Compile-only: the core without CONFIG_TRACEPOINTS, on both trees.
if selected build; then
	for kver in 6.1 6.12; do
		name=build.notrace-${kver//./}
		# shellcheck disable=SC2254
		case "$name" in $GLOB) ;; *) continue ;; esac
		if CS_KERNEL=$kver "$REPO/kernel/build.sh" notrace-check \
			>"$OUTROOT/$name.log" 2>&1; then
			echo "PASS: $name: $(tail -n 1 "$OUTROOT/$name.log")" | record
		else
			echo "FAIL: $name: $(grep 'error:' "$OUTROOT/$name.log" | tail -n 1)" | record
		fi
	done
fi

# The patch series of each tree (make patches): format, checkpatch
# --strict, every patch built, the KUnit patch alone on stock.  Signed
# off by a test identity, which only -t accepts (the real series takes
# the user's, and refuses a placeholder); skipped while its inputs are
# those of a run that passed.
if selected build; then
	for kver in 6.1 6.12; do
		name=build.patches-${kver//./}
		# shellcheck disable=SC2254
		case "$name" in $GLOB) ;; *) continue ;; esac
		key=$( { echo "$kver"; CS_KERNEL=$kver "$REPO/kernel/build.sh" tree 2>/dev/null;
			cat "$REPO"/scripts/mkpatches.sh "$REPO"/scripts/series.sh "$REPO"/scripts/series_*.py \
				"$REPO"/kernel/series/* "$REPO"/kernel/series/*/* \
				"$REPO"/kernel/notifier*.[ch] "$REPO"/include-trace/trace/events/notifier.h \
				"$REPO"/kernel/patches/*.patch "$REPO"/kernel/patches/"$kver"/*.patch \
				"$REPO"/kernel/patches/"$kver"/*/*.patch \
				"$REPO"/docs/bench.md 2>/dev/null; } | sha256sum | cut -c1-16)
		stamp=${CHAINSCOPE_CACHE:-/var/cache/chainscope}/patches-$kver-$key.ok
		if [ -f "$stamp" ]; then
			echo "PASS: $name: $(cat "$stamp") (unchanged since that run)" | record
			continue
		fi
		printf '[user]\n\tname = chainscope make test\n\temail = make-test@chainscope.invalid\n' \
			>"$OUTROOT/gitconfig"
		if GIT_CONFIG_GLOBAL=$OUTROOT/gitconfig "$REPO/scripts/mkpatches.sh" -t -k "$kver" \
			"$OUTROOT/patches" >"$OUTROOT/$name.log" 2>&1; then
			n=$(ls "$OUTROOT/patches/$kver"/0*.patch | grep -vc cover-letter)
			msg="$n patches, each checkpatch --strict clean and building; $(grep -c '^object code unchanged' "$OUTROOT/$name.log") nfc patch(es) with unchanged object code; the KUnit patch builds alone on stock"
			echo "$msg" >"$stamp"
			echo "PASS: $name: $msg" | record
		else
			echo "FAIL: $name: $(grep -E 'FAIL|error' "$OUTROOT/$name.log" | head -n 1) (log: $OUTROOT/$name.log)" | record
		fi
	done
fi

log "host tests"
if selected host; then
	for t in "$HERE"/tests/*.sh; do
		bash "$t" | record
	done
	if [ -f "$REPO/userspace/Makefile" ]; then
		# -k: a failing suite must not hide the ones after it
		make -k -s -C "$REPO/userspace" test 2>&1 | record
	fi
fi

# The CLI and its guest test programs go into every guest.
if [ -f "$REPO/userspace/Makefile" ]; then
	log "building the chainscope CLI"
	if make -s -C "$REPO/userspace" >"$OUTROOT/userspace-build.log" 2>&1; then
		CS_GUEST_BINS=$(make -s -C "$REPO/userspace" guest-bins | tr '\n' ' ')
		export CS_GUEST_BINS
	else
		echo "FAIL: host.cli.build: make -C userspace failed (see $OUTROOT/userspace-build.log)" | record
	fi
fi

# Would GLOB run test NAME, or one of its parts (NAME.<part>)?
wants() { # wants NAME
	# shellcheck disable=SC2254
	case "$1" in $GLOB) return 0 ;; esac
	case "$GLOB" in "$1".*) return 0 ;; esac
	return 1
}

# Ctrl-C or a kill: no driver (and its Prometheus) outlives the run
trap '[ -n "${scrape_pid:-}" ] && { touch "$scrape_dir/guest-ended"; kill "$scrape_pid" 2>/dev/null; }; exit 130' INT TERM

# A real Prometheus scrapes serve in the guest (issue 27; guest test
# scrape.sh): on our 6.1 kernel (tracepoints mode) and on stock 6.12
# (probes mode). qemu/scrape.py runs Prometheus on the host and talks to
# the guest on its second serial port; QEMU gives the guest a virtio NIC
# on user networking with restrict=on and one hostfwd, on 127.0.0.1.
scrape_start() { # scrape_start PREFIX VARIANT: sets scrape_pid and the ports
	local p=$1 mode=tracepoints env
	scrape_pid=''
	case "$p" in chainscope | stock-612) ;; *) return 0 ;; esac
	wants "$p.scrape" || return 0
	[ "$2" = stock ] && mode=probes
	scrape_dir=$OUTROOT/$p/scrape
	rm -rf "$scrape_dir"
	mkdir -p "$scrape_dir"
	python3 "$HERE/scrape.py" "$p" "$scrape_dir" "$mode" \
		>"$scrape_dir/results.txt" 2>"$scrape_dir/driver.err" &
	scrape_pid=$!
	env=$scrape_dir/scrape.env
	while [ ! -f "$env" ] && kill -0 "$scrape_pid" 2>/dev/null; do
		sleep 0.2
	done
	scrape_fwd=$(sed -n 's/^FWD_PORT=\([0-9][0-9]*\)$/\1/p' "$env" 2>/dev/null)
	scrape_prom=$(sed -n 's/^PROM_PORT=\([0-9][0-9]*\)$/\1/p' "$env" 2>/dev/null)
	scrape_sock=$(sed -n 's|^SOCK=\(/[A-Za-z0-9_./-]*\)$|\1|p' "$env" 2>/dev/null)
	if [ -z "$scrape_fwd" ] || [ -z "$scrape_prom" ] || [ -z "$scrape_sock" ]; then
		touch "$scrape_dir/guest-ended"	# (a driver waiting for QEMU gives up)
		wait "$scrape_pid"
		scrape_pid=''
		record <"$scrape_dir/results.txt"
		echo "FAIL: $p.scrape.driver: the host's driver did not start, or wrote an unusable $env: $(tail -n 1 "$scrape_dir/driver.err")" | record
	fi
}
scrape_end() { # scrape_end PREFIX: the driver's verdicts, once the guest is gone
	local n
	[ -n "$scrape_pid" ] || return 0
	touch "$scrape_dir/guest-ended"
	wait "$scrape_pid"
	record <"$scrape_dir/results.txt"
	# one line per check, whatever happened (scrape.py's CHECKS)
	n=$(grep -cE "^(PASS|FAIL): $1\.scrape\." "$scrape_dir/results.txt")
	[ "$n" -ge 11 ] ||
		echo "FAIL: $1.scrape.driver: $n verdicts of 11 from qemu/scrape.py: $(tail -n 1 "$scrape_dir/driver.err")" | record
	grep -q . "$scrape_dir/driver.err" && sed 's/^/scrape.py: /' "$scrape_dir/driver.err" >&2
	scrape_pid=''
}

for kver in 6.1 6.12; do
	for variant in stock chainscope; do
		p=$(prefix_of "$variant" "$kver")
		selected "$p" || continue
		log "guest tests on the $variant $kver kernel"
		# upstream-*: bpftrace, perf and trace-cmd in the initramfs.
		# The boot's timeout only catches a hang: a chainscope guest's
		# plan takes about 3 min alone on the machine, and CI slows
		# guests 2-10x, so 1800 s (run.sh's default 600 s would fail
		# a guest that is merely slow).
		# tp_printk: ours print their notifier events on the console
		# from the plan's end to the power-off (guest/shutdown.sh); the
		# sysctl alone cannot turn it on without the boot parameter
		append=''
		[ "$variant" = chainscope ] && append=tp_printk
		qextra=''
		scrape_start "$p" "$variant"
		if [ -n "$scrape_pid" ]; then
			qextra="-netdev user,id=net0,restrict=on,hostfwd=tcp:127.0.0.1:$scrape_fwd-10.0.2.15:9469"
			qextra+=" -device virtio-net-pci,netdev=net0"
			qextra+=" -chardev socket,id=csctl,path=$scrape_sock -serial chardev:csctl"
			append+=" chainscope.scrape=$scrape_prom"
		fi
		CS_KERNEL=$kver CS_GUEST_TOOLS=upstream \
			guest_run "$p" "$variant" normal -p test -t "${CS_GUEST_TIMEOUT:-1800}" \
			-a "$append" -q "$qextra"
		scrape_end "$p"
		ran_guests="${ran_guests:-} $p"
	done
done

# The same cs_loadgen scenario on both kernels of a tree (guest test
# cli-agree): stock in probes mode against ours in tracepoints mode, and
# ours in both (only results of this run: a guest not run may have left
# older ones).
ran() { # ran GUEST: did GUEST run in this test.sh run?
	case " ${ran_guests:-} " in *" $1 "*) return 0 ;; esac
	return 1
}
agree() { # agree STOCK OURS
	if ran "$1" && ran "$2"; then
		python3 "$HERE/agree.py" "$1" "$OUTROOT/$1/guest" probes \
			"$2" "$OUTROOT/$2/guest" tracepoints | record
	else
		echo "SKIP: agree.$1-vs-$2: both guests did not run" | record
	fi
	case " ${ran_guests:-} " in
	*" $2 "*)
		python3 "$HERE/agree.py" "$2" "$OUTROOT/$2/guest" probes \
			"$2" "$OUTROOT/$2/guest" tracepoints | record
		;;
	*) echo "SKIP: agree.$2-modes: the $2 guest did not run" | record ;;
	esac
}
if selected agree; then
	agree stock chainscope
	agree stock-612 chainscope-612
fi

# The kernel's own traces against chainscope record of the same run:
# trace-cmd's trace.dat (guest test cli-tracedat), read here by the host's
# chainscope build, and what report/check --tracefs read from the live
# ring buffer in the guest (cli-tracefs)
for p in ${ran_guests:-}; do
	for t in cli-tracedat cli-tracefs; do
		python3 "$HERE/tracedat_agree.py" "$p" "$OUTROOT/$p/guest" \
			"$HOST_CS" "$t" | record
	done
done

# The reboot chain at each guest's power-off, from its last boot's console
# (guest/shutdown.sh armed tp_printk at the plan's end; qemu/shutdown.py)
for p in ${ran_guests:-}; do
	name=$p.shutdown
	# shellcheck disable=SC2254
	case "$name" in $GLOB) ;; *) continue ;; esac
	case $p in
	stock*)
		echo "SKIP: $name: a stock kernel has no notifier_run/notifier_return pairs with times (6.1: no notifier events; 6.12: upstream's cb-only notifier_run): no reboot-chain report" | record
		;;
	*)
		host_cs "$name" &&
			python3 "$HERE/shutdown.py" "$name" "$OUTROOT/$p/guest" \
				"$OUTROOT/$p/console.log" "$HOST_CS" | record
		;;
	esac
done

# Boot (issue 25): a boot of its own per kernel with our events on from
# the command line (so that no other test runs with the call key switched
# on from boot); plan boot stops the buffer and brings home its trace.dat,
# which the host's chainscope reads (qemu/boot.py). Stock 6.12 has
# upstream's three events (notifier:*); stock 6.1 has none.
BOOT_EVENTS=notifier:notifier_register,notifier:notifier_unregister,notifier:notifier_run,notifier:notifier_return,notifier:notifier_call_begin,notifier:notifier_call_end
# and the initcall events, whose times for event_trace_enable_again tell
# check where the kernel switched the events off and on again (--gap)
BOOT_INITCALL=initcall:initcall_start,initcall:initcall_finish
BOOT_BUF=${CS_BOOT_BUF:-1024k}	# per CPU: README, "Boot", has the measured need
for kver in 6.1 6.12; do
	for variant in chainscope stock; do
		[ "$variant/$kver" = stock/6.1 ] && continue
		p=$(prefix_of "$variant" "$kver")
		wants "$p.boot" || continue
		ev=$BOOT_EVENTS,$BOOT_INITCALL
		kind=ours
		[ "$variant" = stock ] && { ev="notifier:*,$BOOT_INITCALL"; kind=stock; }
		log "boot-time events on the $variant $kver kernel"
		# tsc=reliable: TCG's vCPUs share one TSC, but the kernel's
		# sync check sometimes finds them apart; marked unstable,
		# sched_clock (trace_clock=local) is per CPU, and an event on
		# one CPU could sort before what caused it on the other
		CS_KERNEL=$kver CS_GUEST_TOOLS=upstream guest_run "$p-boot" "$variant" normal \
			-p boot -t 900 -a "trace_event=$ev trace_buf_size=$BOOT_BUF trace_clock=local tsc=reliable"
		did_boot "$p.boot.run" && host_cs "$p.boot.run" &&
			python3 "$HERE/boot.py" "$p" "$OUTROOT/$p-boot/guest" "$HOST_CS" "$kind" | record
	done
done

# The panic chain (issue 26): on each kernel of ours a short boot of its
# own (plan panic) arms our events on the console, writes its results
# and panics with sysrq c, announced, so that its console alone may say
# "Kernel panic" (qemu/badness.sh); the pass comes from the console.
for kver in 6.1 6.12; do
	p=$(prefix_of chainscope "$kver")
	wants "$p.panic" || continue
	log "panic boot on the chainscope $kver kernel"
	# (600 s: a hang bound; the boot panics a few seconds after init)
	# tsc=reliable: TCG's two vCPUs' TSCs look unsynchronized, and with
	# the TSC unstable sched_clock follows the tick, which stands still
	# in panic() (interrupts off): every line of the pass would get one
	# timestamp. no_hash_pointers: %p prints "(____ptrval____)" until
	# the hashing key exists (after "crng init done", a few seconds in,
	# later or sooner): the console's heads would be placeholders, which
	# --console cannot tell apart, whenever the panic comes first
	CS_KERNEL=$kver guest_run "$p-panic" chainscope normal -p panic -t 600 \
		-a "tp_printk tsc=reliable no_hash_pointers"
	did_boot "$p.panic" && host_cs "$p.panic" &&
		python3 "$HERE/shutdown.py" --panic "$p.panic" "$OUTROOT/$p-panic/guest" \
			"$OUTROOT/$p-panic/console.log" "$HOST_CS" | record
done

# The reboot chain read back from 6.12's persistent ring buffer (issue
# 26): a boot of its own (plan persist) on our 6.12 kernel with an
# instance in reserved memory, events on and tracing off from the command
# line, turns its tracing on and reboots warm (run.sh -R: QEMU resets, RAM
# kept); the second boot reads the first one's reboot chain from that
# instance with report --tracefs and powers off; qemu/persist.py checks.
p=$(prefix_of chainscope 6.12)
if wants "$p.persist-shutdown"; then
	log "persistent-buffer boots on the chainscope 6.12 kernel"
	# (600 s: a hang bound; the two boots take well under a minute)
	CS_KERNEL=6.12 guest_run "$p-persist" chainscope normal -p persist -R -t 600 \
		-a "reserve_mem=4M:4096:cstrace trace_instance=csboot^traceoff@cstrace,notifier"
	did_boot "$p.persist-shutdown" &&
		python3 "$HERE/persist.py" "$p.persist-shutdown" "$OUTROOT/$p-persist/guest" | record
fi
# The same across a panic (panic=1: the kernel restarts a second later):
# the buffer keeps the panic chain's pass up to the ring buffer's own
# panic callback, which turns recording off (persist.py --panic).
if wants "$p.persist-panic"; then
	log "persistent-buffer boots across a panic on the chainscope 6.12 kernel"
	CS_KERNEL=6.12 guest_run "$p-persist-panic" chainscope normal -p persist -R -t 600 \
		-a "reserve_mem=4M:4096:cstrace trace_instance=csboot^traceoff@cstrace,notifier chainscope.persist=panic panic=1 tsc=reliable"
	did_boot "$p.persist-panic" &&
		python3 "$HERE/persist.py" --panic "$p.persist-panic" "$OUTROOT/$p-persist-panic/guest" | record
fi

# What serve exposed in each guest (cli-serve brings it home), through
# Prometheus' own checker.
for p in ${ran_guests:-}; do
	name=$p.serve-promtool
	# shellcheck disable=SC2254
	case "$name" in $GLOB) ;; *) continue ;; esac
	f=$OUTROOT/$p/guest/logs/serve-metrics.txt
	if [ ! -s "$f" ]; then
		echo "FAIL: $name: no exposition from the guest ($f)" | record
	elif msg=$(promtool check metrics <"$f" 2>&1) && [ -z "$msg" ]; then
		echo "PASS: $name: $(grep -vc '^#' "$f") samples" | record
	else
		echo "FAIL: $name: promtool: $(echo "$msg" | head -n 2 | tr '\n' ' ')" | record
	fi
done

if selected bench; then
	# shellcheck disable=SC2254
	case bench.smoke in $GLOB)
		log "bench smoke"
		"$HERE/bench.sh" --smoke -o "$OUTROOT/bench-smoke" \
			2>"$OUTROOT/bench-smoke.err" | record
		;;
	esac
fi

log "harness self-tests"
# (600 s: a hang bound for a slowed guest, not a time limit; the hang
# self-test's 20 s is the point of that test and kills it whatever the speed)
selftest fail-detected selftest-fail 1 -t 600
selftest warn-detected selftest-warn 5 -t 600
selftest announced-warn-excused selftest-announced 0 -t 600
selftest hang-killed selftest-hang 3 -t 20

# The debug soak runs on 6.1 by default: on 6.12 as well it adds a
# second cold debug build (7.5 min here) and soak (7.6 min) to a cold
# run, which would then take about an hour of CI's 90 minutes.
# CS_DEBUG_KERNELS="6.1 6.12" (make test-debug-all) runs both.
for kver in ${CS_DEBUG_KERNELS:-6.1}; do
	p=$(prefix_of debug "$kver")
	[ "$DEBUG" = 1 ] && selected "$p" || continue
	log "debug soak on $kver (lockdep, PROVE_RCU, KASAN; torture stress_iters=$SOAK_ITERS)"
	start=$(date +%s)
	# 3000 s: the soak takes about 7 min alone on the machine (a hang
	# bound for a guest CI slows, not a time limit)
	CS_KERNEL=$kver guest_run "$p" chainscope debug -p soak -t 3000 \
		-a "chainscope.torture=stress_iters=$SOAK_ITERS"
	log "debug soak on $kver took $(($(date +%s) - start)) s"
done

pass=$(grep -c '^PASS' "$RESULTS")
fail=$(grep -c '^FAIL' "$RESULTS")
skip=$(grep -c '^SKIP' "$RESULTS")
if [ $((pass + fail + skip)) = 0 ]; then
	echo "test.sh: error: no test matched '$GLOB'" >&2
	fail=1
fi
echo
echo "Failures:" >&2
grep '^FAIL' "$RESULTS" >&2 || echo "  none" >&2
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
