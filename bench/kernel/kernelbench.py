#!/usr/bin/python3
"""Kernel benchmarks: gocl against Debian's ipykernel, same client, same run.

  /usr/bin/python3 bench/kernel/kernelbench.py [--n 500] [--starts 10] [--gocl bin/gocl]

round trip: an execute_request of `x = 1` from send to execute_reply and the
idle status, median and p99 over N, through three clients that both kernels
share: jupyter_client's BlockingKernelClient; a lean client (pyzmq sockets
and jupyter_client's Session, parsing each message as it arrives); and a
wire-level client that stops the clock when the messages arrive and verifies
them afterwards. Cold start: process start to the first kernel_info_reply,
median over STARTS, through BlockingKernelClient. Prints a markdown table with
ratios (gocl / ipykernel) for bench/RESULTS.md.
"""
import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from jupyter_client.manager import KernelManager

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))


def install_gocl(gocl):
    prefix = tempfile.mkdtemp(prefix="gocl-bench-")
    subprocess.run([gocl, "install", "--prefix", prefix], check=True, stdout=subprocess.DEVNULL)
    os.environ["JUPYTER_PATH"] = os.path.join(prefix, "share", "jupyter") + os.pathsep + os.environ.get("JUPYTER_PATH", "")
    os.environ["JUPYTER_DATA_DIR"] = os.path.join(prefix, "data")
    return prefix


def wait_idle(kc, msg_id):
    while True:
        m = kc.get_iopub_msg(timeout=30)
        if m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "status" \
                and m["content"]["execution_state"] == "idle":
            return


def reply_to(kc, msg_id):
    while True:
        reply = kc.get_shell_msg(timeout=30)
        if reply["parent_header"].get("msg_id") == msg_id:
            assert reply["content"]["status"] == "ok", reply
            return reply


def round_trip(kernel_name, code, n):
    km = KernelManager(kernel_name=kernel_name)
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=60)
        for _ in range(20):  # warm-up
            msg_id = kc.execute(code)
            reply_to(kc, msg_id)
            wait_idle(kc, msg_id)
        times = []
        for _ in range(n):
            t0 = time.perf_counter()
            msg_id = kc.execute(code)
            reply_to(kc, msg_id)
            wait_idle(kc, msg_id)
            times.append(time.perf_counter() - t0)
        return times
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


class BareClient:
    """pyzmq shell (DEALER) and IOPub (SUB) sockets on a fresh kernel, with
    jupyter_client's Session for signing and parsing: no channel threads, no
    queues."""

    def __init__(self, kernel_name):
        import zmq
        from jupyter_client.session import Session
        self.km = KernelManager(kernel_name=kernel_name)
        self.km.start_kernel()
        ci = self.km.get_connection_info()
        key = ci["key"] if isinstance(ci["key"], bytes) else ci["key"].encode()
        self.session = Session(key=key)
        self.ctx = zmq.Context()
        self.shell = self.ctx.socket(zmq.DEALER)
        self.shell.connect("tcp://%s:%d" % (ci["ip"], ci["shell_port"]))
        self.iopub = self.ctx.socket(zmq.SUB)
        self.iopub.setsockopt(zmq.SUBSCRIBE, b"")
        self.iopub.connect("tcp://%s:%d" % (ci["ip"], ci["iopub_port"]))
        self.poller = zmq.Poller()
        self.poller.register(self.shell, zmq.POLLIN)
        self.poller.register(self.iopub, zmq.POLLIN)
        deadline = time.time() + 60
        while True:  # until IOPub is connected: a kernel_info answered with its idle status
            self.session.send(self.shell, "kernel_info_request", {})
            if self.iopub.poll(1000):
                break
            if time.time() > deadline:
                raise RuntimeError(kernel_name + " did not answer")
        time.sleep(0.5)
        while self.iopub.poll(0) or self.shell.poll(0):
            (self.iopub if self.iopub.poll(0) else self.shell).recv_multipart()

    def send_execute(self, code):
        return self.session.send(self.shell, "execute_request", {
            "code": code, "silent": False, "store_history": True, "user_expressions": {},
            "allow_stdin": False})["header"]["msg_id"]

    def time(self, once, n):
        """Runs once 20 times to warm up, then n times; returns its results
        and closes the client."""
        try:
            for _ in range(20):
                once()
            return [once() for _ in range(n)]
        finally:
            self.close()

    def close(self):
        self.shell.close(0)
        self.iopub.close(0)
        self.ctx.term()
        self.km.shutdown_kernel(now=True)


def lean_round_trip(kernel_name, code, n):
    """The same round trip through bare pyzmq sockets and jupyter_client's
    Session, which verifies and parses each message as it arrives: what is
    left when the blocking client's own machinery (its channel threads and
    queues) is taken out."""
    c = BareClient(kernel_name)

    def once():
        t0 = time.perf_counter()
        msg_id = c.send_execute(code)
        while True:
            _, reply = c.session.recv(c.shell, mode=0)
            if reply["parent_header"].get("msg_id") == msg_id:
                break
        while True:
            _, m = c.session.recv(c.iopub, mode=0)
            if m["msg_type"] == "status" and m["parent_header"].get("msg_id") == msg_id \
                    and m["content"]["execution_state"] == "idle":
                return time.perf_counter() - t0

    return c.time(once, n)


def wire_round_trip(kernel_name, code, n):
    """The same round trip with the clock stopped when the execute_reply and
    the idle status have arrived at the client's sockets, before the client
    verifies and parses them: the kernel's latency, with the client's own
    per-message work (the same for every kernel) left out of the clock but
    still done, after it. Each message is verified by Session afterwards and
    the reply must be ok."""
    c = BareClient(kernel_name)

    def once():
        t0 = time.perf_counter()
        msg_id = c.send_execute(code)
        want = msg_id.encode()
        frames, reply, idle = [], False, False
        while not (reply and idle):
            for sock, _ in c.poller.poll():
                msg = sock.recv_multipart(copy=True)
                frames.append(msg)
                i = msg.index(b"<IDS|MSG>")
                if want not in msg[i + 3]:  # parent header
                    continue
                if sock is c.shell:
                    reply = True
                elif b'"idle"' in msg[i + 5] and b'"status"' in msg[i + 2]:
                    idle = True
        elapsed = time.perf_counter() - t0
        seen = set()
        for msg in frames:  # what the clock left out: verify and parse every message
            _, parts = c.session.feed_identities(msg)
            m = c.session.deserialize(parts)
            if m["parent_header"].get("msg_id") != msg_id:
                continue
            if m["msg_type"] == "execute_reply":
                assert m["content"]["status"] == "ok", m["content"]
            seen.add((m["msg_type"], m["content"].get("execution_state")))
        assert {("execute_reply", None), ("status", "busy"), ("status", "idle")} <= seen, seen
        return elapsed

    return c.time(once, n)


def cold_start(kernel_name):
    km = KernelManager(kernel_name=kernel_name)
    t0 = time.perf_counter()
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    try:
        while True:  # kernel_info until the first reply, as a front end does
            kc.kernel_info()
            try:
                kc.get_shell_msg(timeout=0.05)
                break
            except Exception:
                if time.perf_counter() - t0 > 60:
                    raise RuntimeError(kernel_name + " did not answer kernel_info within 60 s")
        return time.perf_counter() - t0
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def p99(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.99 * (len(xs) - 1))))]


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=500)
    ap.add_argument("--starts", type=int, default=10)
    ap.add_argument("--gocl", default=os.environ.get("GOCL_BIN") or os.path.join(ROOT, "bin", "gocl"))
    args = ap.parse_args()
    prefix = install_gocl(os.path.abspath(args.gocl))
    try:
        rows = {}
        for name, code in (("gocl", "x := 1"), ("python3", "x = 1")):
            rt = round_trip(name, code, args.n)
            lean = lean_round_trip(name, code, args.n)
            wire = wire_round_trip(name, code, args.n)
            cs = [cold_start(name) for _ in range(args.starts)]
            rows[name] = (statistics.median(rt), p99(rt), statistics.median(cs), statistics.median(lean), p99(lean),
                          statistics.median(wire), p99(wire))
            print(f"{name}: round trip median {rows[name][0]*1e3:.2f} ms p99 {rows[name][1]*1e3:.2f} ms, "
                  f"cold start median {rows[name][2]*1e3:.0f} ms", file=sys.stderr)
    finally:
        shutil.rmtree(prefix, ignore_errors=True)
    g, p = rows["gocl"], rows["python3"]
    print(f"\nMachine: {cpu_model()}, {os.cpu_count()} cores; {time.strftime('%Y-%m-%d')}; "
          f"client jupyter_client (Debian), n={args.n} round trips, {args.starts} cold starts.\n")
    print("| measure | gocl | ipykernel | ratio gocl/ipykernel | target |")
    print("|---|---|---|---|---|")
    print(f"| execute round trip, median | {g[0]*1e3:.2f} ms | {p[0]*1e3:.2f} ms | {g[0]/p[0]:.2f}x | <= 0.2x |")
    print(f"| execute round trip, p99 | {g[1]*1e3:.2f} ms | {p[1]*1e3:.2f} ms | {g[1]/p[1]:.2f}x | |")
    print(f"| cold start to kernel_info_reply, median | {g[2]*1e3:.0f} ms | {p[2]*1e3:.0f} ms | {g[2]/p[2]:.2f}x | <= 0.1x |")
    print(f"| round trip, lean client (pyzmq + Session), median | {g[3]*1e3:.2f} ms | {p[3]*1e3:.2f} ms | {g[3]/p[3]:.2f}x | |")
    print(f"| round trip, lean client, p99 | {g[4]*1e3:.2f} ms | {p[4]*1e3:.2f} ms | {g[4]/p[4]:.2f}x | |")
    print(f"| round trip, wire-level client (clock stops on arrival), median | {g[5]*1e3:.2f} ms | {p[5]*1e3:.2f} ms | {g[5]/p[5]:.2f}x | |")
    print(f"| round trip, wire-level client, p99 | {g[6]*1e3:.2f} ms | {p[6]*1e3:.2f} ms | {g[6]/p[6]:.2f}x | |")


if __name__ == "__main__":
    main()
