#!/usr/bin/env python3
"""A real Prometheus scrapes `chainscope serve` in a guest (issue 27).

    qemu/scrape.py PREFIX OUTDIR MODE

Started by qemu/test.sh before it boots guest PREFIX (chainscope,
stock-612, ...), whose guest test scrape.sh is the other end. MODE is the
mode serve must report (tracepoints on our kernels, probes on stock).

1. Picks two free ports on 127.0.0.1: one for QEMU's hostfwd to the
   guest's serve, one for Prometheus' web API. Starts Debian's
   prometheus as a plain process (never the packaged service) with its
   storage in OUTDIR/prometheus, listening on 127.0.0.1 only, scraping
   the forwarded port every second. It is stopped on every way out.
2. Listens on a unix socket that QEMU connects the guest's second serial
   port (ttyS1) to, and writes OUTDIR/scrape.env (the ports and the
   socket) for test.sh to build QEMU's arguments from.
3. Runs the guest through its steps, one line each way ("cs-scrape: ..."):
   ready (serve listens, isolation checked), prime (one call, so that the
   busy callback's series exists before the load), load/stop, done.
4. Judges, with Prometheus' HTTP API, and prints one PASS/FAIL line per
   check, named PREFIX.scrape.<check>.

No verdict depends on how fast anything runs: every wait is for a
condition (a line from the guest, a sample in Prometheus), bounded only
by counts of scrapes, and the rate is checked over a window chosen from
the samples themselves (see check_rate). test.sh touches
OUTDIR/guest-ended once the guest is gone; every wait ends then.

Exit: 0 all checks passed, 1 a check failed, 2 usage or set-up error.
"""
import ctypes
import json
import math
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

SERIES = 'chain="cs_loadgen_blocking",callback="cs_loadgen_cb_busy"'
COUNT = 'chainscope_callback_duration_seconds_count{%s}' % SERIES
BUCKET = 'chainscope_callback_duration_seconds_bucket{%s}' % SERIES
# Must be 0: nothing lost, dropped or left uncounted.
HEALTH = ("chainscope_events_lost_total", "chainscope_map_full_drops_total",
          "chainscope_rows_overflow_total")
# Reported, not judged: the events the kernel's BPF recursion protection
# skipped. A notifier call in an interrupt (pvclock_gtod_chain runs on
# every tick) that arrives while one of serve's programs runs on that CPU
# is skipped; how many depends on where the ticks fall. Those are events
# of chains serve does not watch (-c): the count check, exact, proves
# that none of the watched chain's were skipped.
MISSED = "chainscope_events_missed_total"
# How many scrapes (attempts, not seconds) a state may take before the
# test gives up on it: generous, since a guest under TCG in CI is slow,
# and counted in scrapes so that a slow machine gets as many chances.
MAX_SCRAPES = int(os.environ.get("CS_SCRAPE_MAX_SCRAPES", "120"))
# The gap put before the first sample of the rate window (check_rate).
DELTA = 0.25

CHECKS = ("prometheus", "guest-ready", "guest-isolated", "target-up", "quantile",
          "count", "rate", "health", "mode", "hostfwd-loopback", "guest-bye")


class Failed(Exception):
    """A check failed; the message says which and why."""

    def __init__(self, check, msg):
        super().__init__(msg)
        self.check = check


class GuestGone(Exception):
    pass


class Interrupted(Exception):
    pass


def interpolate(phi, buckets):
    """histogram_quantile()'s answer for sorted (le, rate) buckets: linear
    within the bucket the rank falls in, 0 as the first bucket's start,
    the last finite bound if the rank falls in +Inf; None without data."""
    if not buckets or buckets[-1][0] != math.inf or buckets[-1][1] <= 0:
        return None
    rank = phi * buckets[-1][1]
    prev_le, prev_c = 0.0, 0.0
    for le, c in buckets:
        if c >= rank:
            if le == math.inf:
                return prev_le
            if c == prev_c:
                return le
            return prev_le + (le - prev_le) * (rank - prev_c) / (c - prev_c)
        prev_le, prev_c = le, c
    return None


def free_port(slot):
    """A port free now, below the kernel's ephemeral range: a port in it
    is also what connect() gives the other side of a connection, and
    with Prometheus scraping every second (and the host tests running
    side by side) one took the port picked for the guest before it was
    bound. SLOT (0-15): this driver's 16 ports start at 16 * its pid in
    that span, so drivers that run side by side do not pick alike."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            lo = int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        lo = 32768
    first = max(1024, lo - 8192)
    span = lo - first
    if span < 1024:             # a range that leaves no room below it
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()
        return port
    for i in range(span):
        port = first + (16 * os.getpid() + slot + 16 * i) % span
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            s.bind(("127.0.0.1", port))
            return port
        except OSError:
            continue
        finally:
            s.close()
    raise Failed("prometheus", "no free port below %d" % lo)


def die_with_parent():
    # PR_SET_PDEATHSIG: Prometheus goes when this script goes, however.
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, signal.SIGKILL, 0, 0, 0)
    if os.getppid() == 1:       # the parent went before prctl took
        os._exit(1)


class Driver:
    def __init__(self, prefix, out, mode):
        self.prefix, self.out, self.mode = prefix, out, mode
        self.ended = os.path.join(out, "guest-ended")
        self.results = {}
        self.prom = None
        self.conn = None
        self.buf = b""
        self.step = "prometheus"
        self.sockdir = tempfile.mkdtemp(prefix="cs-scrape.")

    # -- results -------------------------------------------------------
    def result(self, check, ok, msg):
        if check in self.results:
            return
        self.results[check] = ok
        print("%s: %s.scrape.%s: %s" % ("PASS" if ok else "FAIL", self.prefix,
                                         check, msg), flush=True)

    # -- Prometheus ----------------------------------------------------
    def start_prometheus(self):
        exe = shutil.which("prometheus")
        if not exe:
            raise Failed("prometheus", "no prometheus binary (Debian's prometheus "
                         "package: scripts/deps.sh)")
        pdir = os.path.join(self.out, "prometheus")
        # a free port is free when picked, not when bound: another process
        # may take it in between (free_port() makes that unlikely); a
        # Prometheus that cannot bind exits, and gets new ports (at most 5
        # times)
        for attempt in range(5):
            self.fwd_port, self.prom_port = free_port(2 * attempt), free_port(2 * attempt + 1)
            shutil.rmtree(pdir, ignore_errors=True)
            os.makedirs(pdir)
            self.cfg = os.path.join(pdir, "prometheus.yml")
            with open(self.cfg, "w") as f:
                f.write(PROM_CONFIG % {"target": "127.0.0.1:%d" % self.fwd_port})
            self.prom_log = os.path.join(pdir, "prometheus.log")
            with open(self.prom_log, "w") as log:
                self.prom = subprocess.Popen(
                    [exe, "--config.file=" + self.cfg,
                     "--storage.tsdb.path=" + os.path.join(pdir, "data"),
                     "--web.listen-address=127.0.0.1:%d" % self.prom_port,
                     "--log.level=info"],
                    stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                    preexec_fn=die_with_parent, cwd=pdir)
            self.api = "http://127.0.0.1:%d" % self.prom_port
            if self.prom_ready():
                break
            if "address already in use" not in self.last_log_line():
                raise Failed("prometheus", "prometheus exited %d at start: %s" %
                             (self.prom.returncode, self.last_log_line()))
        else:
            raise Failed("prometheus", "prometheus found no free port in 5 tries: %s" %
                         self.last_log_line())
        self.result("prometheus", True, "prometheus %s on 127.0.0.1:%d, scraping "
                    "127.0.0.1:%d every 1s" % (self.prom_version(), self.prom_port,
                                                self.fwd_port))

    def prom_ready(self):
        """True once /-/ready answers 200; False if Prometheus exited. A
        hang bound, not a time limit: 600 tries, each up to 5 s."""
        for _ in range(600):
            if self.prom.poll() is not None:
                return False
            try:
                with urllib.request.urlopen(self.api + "/-/ready", timeout=5) as r:
                    if r.status == 200:
                        return True
            except (urllib.error.URLError, OSError):
                pass
            self.idle(0.2)
        raise Failed("prometheus", "prometheus neither ready nor gone after 600 tries: %s"
                     % self.last_log_line())

    def prom_version(self):
        try:
            data = self.get("/api/v1/status/buildinfo")
            return data.get("version", "?")
        except Failed:
            return "?"

    def last_log_line(self):
        try:
            with open(self.prom_log) as f:
                lines = [ln.strip() for ln in f if ln.strip()]
            return lines[-1] if lines else "(no log)"
        except OSError:
            return "(no log)"

    def stop_prometheus(self):
        if self.prom and self.prom.poll() is None:
            self.prom.terminate()
            try:
                self.prom.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.prom.kill()
                self.prom.wait()

    def get(self, path, params=None, check="prometheus"):
        url = self.api + path
        if params:
            url += "?" + urllib.parse.urlencode(params)
        try:
            with urllib.request.urlopen(url, timeout=30) as r:
                doc = json.load(r)
        except (urllib.error.URLError, OSError, ValueError) as e:
            raise Failed(check, "Prometheus API %s: %s" % (path, e))
        if doc.get("status") != "success":
            raise Failed(check, "Prometheus API %s: %s" % (path, doc.get("error")))
        return doc["data"]

    def query(self, expr, at, check):
        return self.get("/api/v1/query", {"query": expr, "time": "%.3f" % at}, check)

    def samples(self, check):
        """The busy callback's count series: [(t, v)], oldest first."""
        data = self.query("%s[1h]" % COUNT, time.time(), check)
        if not data["result"]:
            return []
        if len(data["result"]) > 1:
            raise Failed(check, "%d series match %s" % (len(data["result"]), COUNT))
        return [(float(t), float(v)) for t, v in data["result"][0]["values"]]

    def target(self):
        data = self.get("/api/v1/targets", check="target-up")
        active = [t for t in data.get("activeTargets", [])
                  if t.get("labels", {}).get("job") == "chainscope"]
        return active[0] if active else None

    # -- the guest's serial line --------------------------------------
    def idle(self, secs):
        """Sleep SECS, keeping what the guest says; raise GuestGone once
        test.sh says the guest ended, Failed when its line closed."""
        if self.conn is None:
            if os.path.exists(self.ended):
                raise GuestGone()
            time.sleep(secs)
            return
        r, _, _ = select.select([self.conn], [], [], secs)
        if r:
            chunk = self.conn.recv(4096)
            if not chunk:
                raise Failed(self.step, "the guest's serial line closed during "
                             "this step (the guest is gone)")
            self.buf += chunk
        elif os.path.exists(self.ended):
            raise GuestGone()

    def accept(self):
        self.sock_path = os.path.join(self.sockdir, "ctl.sock")
        srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        srv.bind(self.sock_path)
        srv.listen(1)
        env = os.path.join(self.out, "scrape.env")
        with open(env + ".tmp", "w") as f:
            f.write("FWD_PORT=%d\nPROM_PORT=%d\nSOCK=%s\n" %
                    (self.fwd_port, self.prom_port, self.sock_path))
        os.rename(env + ".tmp", env)
        while True:
            r, _, _ = select.select([srv], [], [], 1.0)
            if r:
                self.conn, _ = srv.accept()
                srv.close()
                return
            self.idle(0)

    def line(self, want, check, resend=None):
        """The next "cs-scrape: WANT ..." line from the guest: its words.
        RESEND: a command said again each second meanwhile (the guest's
        read with a timeout may have lost part of it)."""
        while True:
            while b"\n" in self.buf:
                raw, self.buf = self.buf.split(b"\n", 1)
                text = raw.decode("ascii", "replace").strip("\r\x00 ")
                if not text.startswith("cs-scrape: "):
                    continue
                words = text[len("cs-scrape: "):].split()
                if not words:
                    continue
                if words[0] == "fail":
                    raise Failed(check, "the guest: " + " ".join(words[1:]))
                if words[0] == want:
                    return words[1:]
            self.step = check
            self.idle(1.0)
            if resend:
                self.send(resend)

    def send(self, cmd):
        try:
            self.conn.sendall(("%s\n" % cmd).encode())
        except OSError as e:
            raise Failed(self.step, "the guest's serial line closed (%s): the guest is "
                         "gone" % e.strerror)

    # -- the steps -----------------------------------------------------
    def wait_up(self):
        """Until a scrape succeeded; tells an unreachable guest from a
        scrape error by Prometheus' lastError."""
        self.step = "target-up"
        seen, errors = set(), []
        while True:
            t = self.target()
            if t:
                last = t.get("lastScrape", "")
                if t.get("health") == "up":
                    return t
                if last and last not in seen and not last.startswith("0001-"):
                    seen.add(last)
                    errors.append(t.get("lastError", ""))
            if len(seen) >= MAX_SCRAPES:
                err = errors[-1]
                unreachable = any(s in err for s in (
                    "connection refused", "connection reset", "EOF", "no route"))
                slow = any(s in err for s in ("context deadline exceeded", "i/o timeout"))
                what = ("guest unreachable" if unreachable else
                        "guest too slow to answer" if slow else "scrape error")
                raise Failed("target-up", "%s: %d scrapes failed, lastError: %s" %
                             (what, len(seen), err))
            self.idle(0.5)

    def wait_samples(self, check, after, cond, what):
        """Samples newer than AFTER until COND(samples) holds; bounded by
        MAX_SCRAPES scrapes (attempts: a target gone down counts too)."""
        self.step = check
        tried = set()
        while True:
            s = [x for x in self.samples(check) if x[0] > after]
            if cond(s):
                return s
            t = self.target() or {}
            tried.add(t.get("lastScrape", ""))
            if len(tried) > MAX_SCRAPES:
                down = ("; the target is down, lastError: %s" % t.get("lastError")
                        if t.get("health") != "up" else "")
                raise Failed(check, "%s: not after %d scrapes (last value %s)%s" %
                             (what, len(tried) - 1, s[-1][1] if s else "none", down))
            self.idle(0.5)

    def run(self):
        self.start_prometheus()
        self.accept()
        words = self.line("ready", "guest-ready")
        info = dict(w.split("=", 1) for w in words if "=" in w)
        try:
            delay_us = int(info["delay_us"])
            isolated = info["isolated"]
        except (KeyError, ValueError):
            raise Failed("guest-ready", "guest's ready line lacks delay_us/isolated: %s" %
                         " ".join(words)[:200])
        if not 2 <= delay_us <= 1000000:
            raise Failed("guest-ready", "guest's delay_us %d is not 2 us to 1 s" % delay_us)
        self.result("guest-ready", True, "serve listening on the guest's eth0, "
                    "busy callback delay %d us" % delay_us)
        if isolated == "yes":
            self.result("guest-isolated", True, "the guest reached neither the host's "
                        "Prometheus (10.0.2.2:%d) nor 10.0.2.3:53 nor 192.0.2.1:80 "
                        "(restrict=on)" % self.prom_port)
        else:
            self.result("guest-isolated", False, "the guest reached %s" %
                        isolated)

        t = self.wait_up()
        self.result("target-up", True, "%s up (scrape of %s took %ss)" %
                    (t.get("scrapeUrl"), t.get("scrapeUrl"),
                     t.get("lastScrapeDuration")))

        # one call, so that the series exists (value 1) before the load
        self.send("prime")
        self.line("primed", "count")
        t_primed = time.time()
        s = self.wait_samples("count", 0, lambda s: len(s) >= 2 and s[-1][1] == 1
                              and s[-2][1] == 1 and s[-1][0] > t_primed,
                              "the count at 1 (the priming call) on two scrapes")
        t_load = time.time()
        self.send("load")
        self.line("loading", "quantile")
        # while the load runs: p99 over the last 10 s, once the count has
        # risen on three scrapes
        s = self.wait_samples("quantile", t_load,
                              lambda s: sum(1 for i in range(1, len(s))
                                            if s[i][1] > s[i - 1][1]) >= 3,
                              "the count rising on three scrapes during the load")
        self.check_quantile(s[-1][0], delay_us)
        self.send("stop")
        words = self.line("loaded", "count", resend="stop")
        if len(words) != 1 or not words[0].isdigit():
            raise Failed("count", "the guest's loaded line is not a count: %s" %
                         " ".join(words)[:200])
        n = int(words[0])
        t_loaded = time.time()
        final = 1 + n
        def settled(s):
            if any(v > final for _, v in s):
                raise Failed("count", "the count reached %g, above the loadgen's "
                             "%d calls" % (max(v for _, v in s), final))
            return len(s) >= 2 and s[-1][1] == final and s[-2][1] == final \
                and s[-1][0] > t_loaded
        self.wait_samples("count", t_load, settled,
                          "wrong value: the count is not the loadgen's %d calls "
                          "(1 priming + %d under load) on two scrapes" % (final, n))
        self.result("count", True, "busy callback count %d = the loadgen's own "
                    "(1 priming call + %d under load)" % (final, n))
        self.check_rate(n)
        self.check_health()
        self.check_hostfwd()
        self.send("done")
        self.line("bye", "guest-bye")
        self.result("guest-bye", True, "the guest stopped serve (exit 0) and ends its test")

    def check_quantile(self, at, delay_us):
        """p99 during the load, from Prometheus, against the delay's bucket.

        A callback's time is wall time: the host can stretch a call (the
        QEMU thread off the CPU), never shorten it below the delay. So
        p99 must lie above the bucket below the delay's, whatever the
        timing, and must be what histogram_quantile's interpolation gives
        for the bucket rates Prometheus holds at that moment (computed
        here); that it lands in the delay's own bucket is said, and is
        what an unloaded run gives, but a stretched call may lift it one
        bucket, which no timing-free test can rule out."""
        hi = 1 << max(1, math.ceil(math.log2(delay_us)))
        lo = hi // 2
        rates = "sum by (le) (rate(%s[10s]))" % BUCKET
        expr = "histogram_quantile(0.99, %s)" % rates
        data = self.query(expr, at, "quantile")
        if not data["result"]:
            raise Failed("quantile", "%s: no result" % expr)
        q = float(data["result"][0]["value"][1])
        buckets = []
        for r in self.query(rates, at, "quantile")["result"]:
            le = r["metric"].get("le", "")
            buckets.append((math.inf if le == "+Inf" else float(le),
                            float(r["value"][1])))
        want = interpolate(0.99, sorted(buckets))
        if want is None or not math.isclose(q, want, rel_tol=1e-9):
            raise Failed("quantile", "%s = %s, but the bucket rates it had give %s" %
                         (expr, q, want))
        if not q > lo / 1e6:
            raise Failed("quantile", "p99 %.6f s at or below %g s: faster than the loadgen's "
                         "%d us delay can be: %s" % (q, lo / 1e6, delay_us, expr))
        where = ("in (%g, %g] s, the bucket of the busy callback's %d us" %
                 (lo / 1e6, hi / 1e6, delay_us) if q <= hi / 1e6 else
                 "above the %d us delay's bucket (%g, %g] s: calls stretched by the host" %
                 (delay_us, lo / 1e6, hi / 1e6))
        self.result("quantile", True, "during the load, p99 %.6f s %s; as interpolated "
                    "from the bucket rates: %s" % (q, where, expr))

    def check_rate(self, n):
        """rate() over a window that holds exactly the load.

        ts: the last sample before the load (value 1), te: the first with
        the final value 1 + n. Over [ts - DELTA, te] the samples rise by
        exactly n. Prometheus extrapolates a counter's increase from the
        first sample back to the window's start (less than 1.1 average
        sample intervals away), by at most DELTA / (te - ts) of it, and
        not at all at the end, which is a sample. So rate * W lies in
        [n, n * (te - ts + DELTA) / (te - ts)]: the loadgen's own count
        over the same window, up to that extrapolation, which no timing
        changes."""
        s = self.samples("rate")
        first_final = next((i for i, (_, v) in enumerate(s) if v == 1 + n), None)
        if first_final is None:
            raise Failed("rate", "no sample at the final count %d" % (1 + n))
        before = [i for i in range(first_final) if s[i][1] == 1]
        if not before:
            raise Failed("rate", "no sample at 1 before the load")
        ts, te = s[before[-1]][0], s[first_final][0]
        span = te - ts
        w_ms = int(round((span + DELTA) * 1000))
        w = w_ms / 1000.0
        expr = "rate(%s[%dms])" % (COUNT, w_ms)
        data = self.query(expr, te, "rate")
        if not data["result"]:
            raise Failed("rate", "%s at %.3f: no result" % (expr, te))
        rate = float(data["result"][0]["value"][1])
        got = rate * w
        hi = n * w / span
        if not (n * (1 - 1e-9) <= got <= hi * (1 + 1e-9)):
            raise Failed("rate", "%s = %.6f/s, x %.3f s = %.3f calls; the loadgen made %d "
                         "(allowed: %d to %.3f, Prometheus' extrapolation)" %
                         (expr, rate, w, got, n, n, hi))
        self.result("rate", True, "%s at the load's end = %.4f/s; x %.3f s = %.3f calls, the "
                    "loadgen's %d (within [%d, %.3f]: extrapolation over the %.2f s before "
                    "the window's first sample)" % (expr, rate, w, got, n, n, hi, DELTA))
        self.t_end = te

    def check_health(self):
        at = self.t_end
        up = self.query('up{job="chainscope"}', at, "health")["result"]
        if not up or float(up[0]["value"][1]) != 1:
            raise Failed("health", "up{job=\"chainscope\"} is %s, not 1" %
                         (up[0]["value"][1] if up else "absent"))
        bad = []
        for fam in HEALTH:
            r = self.query(fam, at, "health")["result"]
            if not r:
                bad.append("%s absent" % fam)
            elif float(r[0]["value"][1]) != 0:
                bad.append("%s = %s" % (fam, r[0]["value"][1]))
        if bad:
            raise Failed("health", "; ".join(bad))
        r = self.query(MISSED, at, "health")["result"]
        if not r:
            raise Failed("health", "%s absent" % MISSED)
        self.result("health", True, "up 1; %s all 0; %s %s (nested events of other "
                    "chains the kernel skipped; the watched chain's count was exact)" %
                    (", ".join(HEALTH), MISSED, r[0]["value"][1]))
        r = self.query("chainscope_mode_info", at, "mode")["result"]
        modes = sorted(x["metric"].get("mode", "") for x in r
                       if float(x["value"][1]) == 1)
        if modes != [self.mode]:
            raise Failed("mode", "chainscope_mode_info says %s, expected %s" %
                         (modes or "nothing", self.mode))
        self.result("mode", True, "chainscope_mode_info{mode=\"%s\"} 1" % self.mode)

    def check_hostfwd(self):
        """QEMU's forward listens on 127.0.0.1 only."""
        found = []
        for path in ("/proc/net/tcp", "/proc/net/tcp6"):
            try:
                with open(path) as f:
                    rows = f.read().splitlines()[1:]
            except OSError:
                continue
            for row in rows:
                cols = row.split()
                addr, port = cols[1].rsplit(":", 1)
                if cols[3] == "0A" and int(port, 16) == self.fwd_port:
                    found.append(addr)
        if not found:
            raise Failed("hostfwd-loopback", "nothing listens on port %d" % self.fwd_port)
        other = [a for a in found if a != "0100007F"]
        if other:
            raise Failed("hostfwd-loopback", "port %d also listens on %s" %
                         (self.fwd_port, ", ".join(other)))
        self.result("hostfwd-loopback", True, "QEMU's forward listens on 127.0.0.1:%d only"
                    % self.fwd_port)

    def finish(self, why):
        for c in CHECKS:
            if c not in self.results:
                self.result(c, False, "not reached: %s" % why)


PROM_CONFIG = """\
# written by qemu/scrape.py (docs/fleet.md shows the same)
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: chainscope
    static_configs:
      - targets: ['%(target)s']
"""


def main():
    if len(sys.argv) != 4 or sys.argv[3] not in ("tracepoints", "probes"):
        print("usage: scrape.py PREFIX OUTDIR tracepoints|probes", file=sys.stderr)
        return 2
    prefix, out, mode = sys.argv[1:]
    os.makedirs(out, exist_ok=True)
    d = Driver(prefix, out, mode)

    def on_term(signum, frame):
        raise Interrupted(signal.Signals(signum).name)
    # (SIGINT too: a background job of a shell script starts with it ignored)
    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(s, on_term)
    try:
        d.run()
    except Failed as e:
        check = e.check if e.check not in d.results else d.step
        d.result(check, False, str(e))
        d.finish("%s failed" % check)
    except GuestGone:
        d.finish("the guest ended first (did its scrape test run?)")
    except Interrupted as e:
        d.finish("interrupted (%s)" % e)
    except Exception as e:      # a bug, or input nobody thought of: still a verdict
        d.result(d.step, False, "scrape.py: %s: %s" % (type(e).__name__, e))
        d.finish("scrape.py failed in %s" % d.step)
    finally:
        if d.conn:
            try:
                d.send("done")
            except Failed:
                pass
        d.stop_prometheus()
        shutil.rmtree(d.sockdir, ignore_errors=True)
    return 0 if all(d.results.get(c) for c in CHECKS) else 1


if __name__ == "__main__":
    sys.exit(main())
