#!/usr/bin/python3
"""The supervised engine's cost and its recovery (issue 9).

  /usr/bin/python3 bench/kernel/supervisedbench.py [--n 500] [--crashes 10] [--gocl bin/gocl]

round trip: an execute_request of `x := 1` (gocl) or anything (the
do-nothing kernel, bench/kernel/nullkernel.py) from send to execute_reply
and idle, median over N through jupyter_client's BlockingKernelClient, for
the do-nothing kernel, gocl with its engine in a child process (today) and
gocl with GOCL_ENGINE=in-process (before), all in one run, interleaved. Crash recovery:
from the execute_reply of a cell that kills the engine to the execute_reply
of the next cell (which waits for the fresh engine), and from sending the
crashing cell to that reply, medians over CRASHES.
Prints a markdown table for bench/RESULTS.md.
"""
import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import kernelbench  # noqa: E402
from jupyter_client.manager import KernelManager  # noqa: E402


def install_null():
    d = os.path.join(tempfile.mkdtemp(prefix="null-kernel-"), "kernels", "gocl-null")
    os.makedirs(d)
    with open(os.path.join(d, "kernel.json"), "w") as f:
        json.dump({"argv": [sys.executable, os.path.join(HERE, "nullkernel.py"), "-f", "{connection_file}"],
                   "display_name": "null", "language": "null"}, f)
    os.environ["JUPYTER_PATH"] = os.path.dirname(os.path.dirname(d)) + os.pathsep + os.environ.get("JUPYTER_PATH", "")


class Kernel:
    """One kernel and its BlockingKernelClient."""

    def __init__(self, kernel_name, env=None):
        self.km = KernelManager(kernel_name=kernel_name)
        self.km.start_kernel(env={**os.environ, **(env or {})})
        self.kc = self.km.client()
        self.kc.start_channels()
        self.kc.wait_for_ready(timeout=60)

    def once(self):
        t0 = time.perf_counter()
        msg_id = self.kc.execute("x := 1")
        kernelbench.reply_to(self.kc, msg_id)
        kernelbench.wait_idle(self.kc, msg_id)
        return time.perf_counter() - t0

    def close(self):
        self.kc.stop_channels()
        self.km.shutdown_kernel(now=True)


def round_trips(kernels, n):
    """Times n round trips on each kernel, interleaved (one on each in turn),
    so that the load of a shared machine falls on all of them alike."""
    times = {name: [] for name in kernels}
    for _ in range(20):  # warm-up
        for k in kernels.values():
            k.once()
    for _ in range(n):
        for name, k in kernels.items():
            times[name].append(k.once())
    return times


def crash_recovery(crashes):
    km = KernelManager(kernel_name="gocl")
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    times, whole = [], []
    try:
        kc.wait_for_ready(timeout=60)
        for _ in range(crashes):
            t_crash = time.perf_counter()
            # A fatal error of the Go runtime, at once: the engine dies.
            r = kc.execute_interactive("var mu sync.Mutex\nmu.Unlock()", timeout=60)
            assert "EngineCrash" == r["content"].get("ename"), r["content"]
            assert r["content"]["status"] == "error", r["content"]
            t0 = time.perf_counter()
            r = kc.execute_interactive("x := 1", timeout=60)
            assert r["content"]["status"] == "ok", r["content"]
            times.append(time.perf_counter() - t0)
            whole.append(time.perf_counter() - t_crash)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    return times, whole


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=500)
    ap.add_argument("--crashes", type=int, default=10)
    ap.add_argument("--gocl", default=os.path.join(kernelbench.ROOT, "bin", "gocl"))
    a = ap.parse_args()
    kernelbench.install_gocl(a.gocl)
    install_null()
    ms = lambda xs: statistics.median(xs) * 1e3
    kernels = {"null": Kernel("gocl-null"), "supervised": Kernel("gocl"),
               "inproc": Kernel("gocl", {"GOCL_ENGINE": "in-process"})}
    try:
        t = round_trips(kernels, a.n)
    finally:
        for k in kernels.values():
            k.close()
    null, supervised, inproc = t["null"], t["supervised"], t["inproc"]
    rec, whole = crash_recovery(a.crashes)
    floor = ms(null)
    print(f"Machine: {kernelbench.cpu_model()}, {os.cpu_count()} cores; {time.strftime('%Y-%m-%d')}; "
          f"n={a.n} round trips per kernel, {a.crashes} crashes; python {platform.python_version()}\n")
    print("| measure | median | ratio to the do-nothing kernel | goal |")
    print("|---|---|---|---|")
    print(f"| do-nothing kernel (pyzmq), round trip | {floor:.2f} ms | 1.00x | |")
    print(f"| gocl, engine in-process (before), `x := 1` | {ms(inproc):.2f} ms | {ms(inproc) / floor:.2f}x | <= 1.15x |")
    print(f"| gocl, supervised engine process (after), `x := 1` | {ms(supervised):.2f} ms | {ms(supervised) / floor:.2f}x | <= 1.15x |")
    print(f"| crash (`mu.Unlock()` of an unlocked mutex) to next cell's reply | {ms(rec):.0f} ms | | < 500 ms |")
    print(f"| crash cell sent to next cell's reply (crash, report, fresh engine, next cell) | {ms(whole):.0f} ms | | |")
    print(f"\n(p99: do-nothing {kernelbench.p99(null) * 1e3:.2f} ms, gocl supervised {kernelbench.p99(supervised) * 1e3:.2f} ms, in-process {kernelbench.p99(inproc) * 1e3:.2f} ms)")


if __name__ == "__main__":
    main()
