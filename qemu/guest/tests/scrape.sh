#!/bin/sh
# A real Prometheus on the host scrapes chainscope serve here (issue 27):
# the guest's half of qemu/scrape.py, which judges. Runs only when the
# host set it up: chainscope.scrape=PROMPORT on the command line (the
# port of the host's Prometheus, which this guest must NOT reach), a
# virtio NIC on QEMU user networking with restrict=on, and the host's
# driver on the second serial port (ttyS1). Lines each way start with
# "cs-scrape: ".
#
# Steps: eth0 gets 10.0.2.15/24 (QEMU's user network, default route via
# its 10.0.2.2); serve listens on eth0; the guest tries to reach the
# host's Prometheus through 10.0.2.2, QEMU's DNS at 10.0.2.3 and an
# outside address, all of which restrict=on must drop (nc reaching serve
# on the guest's own address first shows nc works); then the host says prime
# (one call), load (calls in chunks of 10 until the host says stop: the
# host queries while the load runs), done.
. /chainscope/tests/cli-common.inc
PROM_PORT=
for arg in $(cat /proc/cmdline); do
	case "$arg" in chainscope.scrape=*) PROM_PORT=${arg#*=} ;; esac
done
[ -n "$PROM_PORT" ] || skip "no chainscope.scrape= on the command line: the host runs no Prometheus for this boot (qemu/test.sh starts one for chainscope and stock-612)"
[ -d /sys/class/net/eth0 ] || fail "chainscope.scrape= given but no eth0 (QEMU's virtio-net-pci missing?)"
[ -c /dev/ttyS1 ] || fail "no /dev/ttyS1 for the host's driver"

DELAY_US=20000	# 20 ms: chainscope's bucket (16.384, 32.768] ms, 12 ms of slack
ADDR=10.0.2.15
CHUNK=10

# This shell, the load it makes and serve (with its HTTP child) all run on
# CPU 0: TCG runs one vCPU at a time, so work on the other vCPU while a
# callback busy-waits would stretch the callback's time; on one CPU, a
# kernel without preemption (PREEMPT_NONE) lets the callback finish first.
taskset -p 1 $$ > /dev/null || fail "cannot pin the test to CPU 0"

stty -F /dev/ttyS1 raw -echo 2>/dev/null || fail "cannot set ttyS1 raw"
exec 3<>/dev/ttyS1
say() {
	echo "cs-scrape: $*" >&3
	echo "-> $*"
}
# hear WORD: wait for the host's WORD (600 s: the host waits on scrapes,
# each a second; a silent host is a hang, not a slow one)
hear() {
	while :; do
		if ! read -r -t 600 cmd <&3; then
			fail "no '$1' from the host's driver in 600 s"
		fi
		cmd=$(echo "$cmd" | tr -d '\r')
		case "$cmd" in
		"$1") echo "<- $cmd"; return 0 ;;
		done) fail "the host ended the scrape early (waiting for '$1'; see qemu/scrape.py's FAIL line)" ;;
		esac
	done
}
guest_fail() {
	say "fail $*"
	fail "$*"
}
net_down() {
	ip addr flush dev eth0 2>/dev/null
	ip link set eth0 down 2>/dev/null
}

ip link set lo up || guest_fail "cannot bring lo up"
ip addr add "$ADDR/24" dev eth0 || guest_fail "cannot address eth0"
ip link set eth0 up || guest_fail "cannot bring eth0 up"
ip route add default via 10.0.2.2 || guest_fail "no default route"

loadgen
ctl "add blocking busy prio=10 delay_us=$DELAY_US"
serve_start "$ADDR:9469" -c cs_loadgen_blocking 1 || guest_fail "$WHY"

# restrict=on: nothing the guest starts gets out. Each must fail; with
# the default route in place, a failure is QEMU's dropping, not a
# missing route; and the same nc reaching serve on the guest's own
# address first shows that a failure is not nc's (nc -w: a connect that
# hangs gives up after 3 s).
command -v nc > /dev/null || guest_fail "no nc in the guest (busybox)"
echo | nc -w 3 "$ADDR" 9469 > /dev/null 2>&1 ||
	guest_fail "nc cannot reach serve on the guest's own $ADDR:9469: the isolation checks would prove nothing"
isolated=yes
for dest in "10.0.2.2 $PROM_PORT" "10.0.2.3 53" "192.0.2.1 80"; do
	# shellcheck disable=SC2086
	if echo | nc -w 3 $dest > /dev/null 2>&1; then
		isolated=$(echo "$dest" | tr " " :)
		echo "reached $dest"
	else
		echo "cannot reach $dest (as it should be)"
	fi
done

say "ready delay_us=$DELAY_US isolated=$isolated"
hear prime
ctl "call blocking 1"
say primed
hear load
before=$(block_calls blocking cs_loadgen_cb_busy)
say loading
# chunks of CHUNK calls, about a second apart, until the host says stop
# (the read's timeout is the pause)
while :; do
	echo "call blocking $CHUNK" > "$CTL" || guest_fail "loadgen call failed"
	if read -r -t 1 cmd <&3; then
		cmd=$(echo "$cmd" | tr -d '\r')
		case "$cmd" in
		stop) echo "<- stop"; break ;;
		done) fail "the host ended the scrape during the load" ;;
		esac
	fi
done
n=$(( $(block_calls blocking cs_loadgen_cb_busy) - before ))
say "loaded $n"
hear "done"
cs_stop
say bye
net_down
[ "$isolated" = yes ] || fail "the guest reached $isolated despite restrict=on"
echo "scrape: $n calls under load, scraped by the host's Prometheus; isolated"
