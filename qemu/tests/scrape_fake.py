#!/usr/bin/env python3
"""A stand-in guest for qemu/scrape.py (qemu/tests/scrape.sh).

    scrape_fake.py OUTDIR BEHAVIOUR

Waits for OUTDIR/scrape.env, serves an exposition like chainscope
serve's on its FWD_PORT and speaks the guest's side of the protocol on
its SOCK, as qemu/guest/tests/scrape.sh does. BEHAVIOUR is one way to be
right or wrong:
  good         as a guest should be
  unreachable  says ready but never listens
  garbage      serves a body that is no exposition
  wrongcount   claims 5 more calls than it made
  fast         every call in the bucket below the delay's (faster than
               it can be)
  breach       reports that it reached the host's Prometheus
  anyaddr      listens on every address, not 127.0.0.1 only
Touches OUTDIR/guest-ended when it is done, as test.sh does.
"""
import http.server
import os
import select
import socket
import sys
import threading
import time

DELAY_US = 20000
LES = [0.002048 * 2 ** i for i in range(10)]  # 2.048 ms .. 1.048576 s


class State:
    def __init__(self, behaviour):
        self.behaviour = behaviour
        self.count = 0
        self.lock = threading.Lock()

    def exposition(self):
        with self.lock:
            c = self.count
        if self.behaviour == "garbage":
            return "this is not { an exposition\n"
        lab = 'chain="cs_loadgen_blocking",callback="cs_loadgen_cb_busy",module="cs_loadgen",kind="blocking",block=""'
        # every call in the delay's bucket (16.384, 32.768] ms, or the next one
        first = 0.032768 if self.behaviour != "fast" else 0.016384
        out = ["# TYPE chainscope_callback_duration_seconds histogram"]
        for le in LES:
            out.append('chainscope_callback_duration_seconds_bucket{%s,le="%g"} %d' %
                       (lab, le, c if le >= first - 1e-12 else 0))
        out.append('chainscope_callback_duration_seconds_bucket{%s,le="+Inf"} %d' % (lab, c))
        out.append("chainscope_callback_duration_seconds_sum{%s} %g" % (lab, c * 0.0201))
        out.append("chainscope_callback_duration_seconds_count{%s} %d" % (lab, c))
        for fam in ("events_lost", "events_missed", "map_full_drops", "rows_overflow"):
            out.append("# TYPE chainscope_%s_total counter" % fam)
            out.append("chainscope_%s_total 0" % fam)
        out.append("# TYPE chainscope_mode_info gauge")
        out.append('chainscope_mode_info{mode="tracepoints"} 1')
        return "\n".join(out) + "\n"


def serve_http(state, port, addr):
    class H(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = state.exposition().encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/plain; version=0.0.4")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *a):
            pass
    http.server.ThreadingHTTPServer.allow_reuse_address = True
    srv = http.server.ThreadingHTTPServer((addr, port), H)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def main():
    out, behaviour = sys.argv[1], sys.argv[2]
    env = os.path.join(out, "scrape.env")
    while not os.path.exists(env):
        if os.path.exists(os.path.join(out, "guest-ended")):
            return      # the driver gave up before it wrote scrape.env
        time.sleep(0.1)
    kv = dict(line.strip().split("=", 1) for line in open(env) if "=" in line)
    state = State(behaviour)
    if behaviour != "unreachable":
        serve_http(state, int(kv["FWD_PORT"]),
                   "0.0.0.0" if behaviour == "anyaddr" else "127.0.0.1")
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(kv["SOCK"])
    buf = [b""]

    def say(msg):
        s.sendall(("noise before\r\ncs-scrape: %s\r\n" % msg).encode())

    def hear(timeout=None):
        """The host's next line; None after TIMEOUT seconds without one."""
        while b"\n" not in buf[0]:
            r, _, _ = select.select([s], [], [], timeout)
            if not r:
                return None
            chunk = s.recv(4096)
            if not chunk:
                return "done"
            buf[0] += chunk
        line, buf[0] = buf[0].split(b"\n", 1)
        return line.decode().strip()

    isolated = "10.0.2.2:%s" % kv["PROM_PORT"] if behaviour == "breach" else "yes"
    say("ready delay_us=%d isolated=%s" % (DELAY_US, isolated))
    made = 0
    while True:
        cmd = hear()
        if cmd == "prime":
            with state.lock:
                state.count = 1
            say("primed")
        elif cmd == "load":
            say("loading")
            while True:
                with state.lock:
                    state.count += 10
                made += 10
                cmd = hear(0.5)
                if cmd in ("stop", "done"):
                    break
            if cmd == "done":
                break
            say("loaded %d" % (made + (5 if behaviour == "wrongcount" else 0)))
        elif cmd == "done":
            say("bye")
            break
    open(os.path.join(out, "guest-ended"), "w").close()


if __name__ == "__main__":
    try:
        main()
    finally:
        # as test.sh when QEMU ends, whatever ended it (a port it could not
        # bind): the driver, waiting for this guest, then gives up
        if len(sys.argv) > 1:
            open(os.path.join(sys.argv[1], "guest-ended"), "w").close()
