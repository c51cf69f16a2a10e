#!/opt/gocl/venv/bin/python
"""What the debugger costs while it is off (issue 20): two gocl binaries, same run.

  /opt/gocl/venv/bin/python bench/debugger/offcost.py \\
      --bin before=/tmp/x/gocl-before --bin after=/tmp/x/gocl-after [--rounds 40] [--n 100]

Each binary is installed into its own temporary prefix by `gocl install
--prefix` (its kernelspec renamed gocl-LABEL there, argv untouched) and
started once through jupyter_client's KernelManager; no debug_request is ever
sent, so the debugger stays off. Then ROUNDS rounds, the binaries alternating
and the first of each round alternating too, so a busy moment on a shared
machine falls on all of them. In each round each kernel gets:

  (a) N execute_requests of `x := 1`, each timed from send to execute_reply
      and the idle status (BlockingKernelClient, as bench/kernel does);
  (b) one cell running an interpreted loop, timed inside the cell by
      time.Since and printed with the loop's sum, which is checked against
      Python's.

Around both, the CPU time (utime+stime from /proc/PID/stat) of the kernel
process and of its children (the engine), so a slower wall clock can be told
from more work. The load average is sampled every round. Prints a markdown
table, ratios against the first --bin (of medians, and the median of
per-round paired ratios with quartiles), for bench/RESULTS.md.
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

LOOP_N = 3_000_000
LOOP = ('import "time"\n'
        't0 := time.Now()\n'
        's := 0\n'
        'for i := 0; i < %d; i++ { s += i %% 7 }\n'
        'fmt.Println("LOOP", time.Since(t0).Nanoseconds(), s)\n' % LOOP_N)
LOOP_SUM = sum(i % 7 for i in range(LOOP_N))
TICK = os.sysconf("SC_CLK_TCK")


def install(label, gocl):
    """Installs gocl's kernelspec into a fresh prefix as gocl-LABEL; returns
    the prefix."""
    prefix = tempfile.mkdtemp(prefix="gocl-offcost-%s-" % label)
    subprocess.run([gocl, "install", "--prefix", prefix], check=True, stdout=subprocess.DEVNULL)
    kernels = os.path.join(prefix, "share", "jupyter", "kernels")
    os.rename(os.path.join(kernels, "gocl"), os.path.join(kernels, "gocl-" + label))
    os.environ["JUPYTER_PATH"] = os.path.join(prefix, "share", "jupyter") + os.pathsep + os.environ.get("JUPYTER_PATH", "")
    return prefix


def cpu(pid):
    """Seconds of CPU (user+system) used by pid itself."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime (fields 14, 15)


def children(pid):
    out = []
    for task in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/children" % (pid, task)) as f:
                out += [int(c) for c in f.read().split()]
        except OSError:
            pass
    return out


class Kernel:
    def __init__(self, label):
        self.label = label
        self.km = KernelManager(kernel_name="gocl-" + label)
        self.km.start_kernel(stderr=subprocess.DEVNULL)
        self.kc = self.km.client()
        self.kc.start_channels()
        self.kc.wait_for_ready(timeout=60)
        self.pid = self.km.provisioner.process.pid

    def cpu(self):
        """(kernel process CPU s, engine processes CPU s)."""
        eng = 0.0
        for c in children(self.pid):
            try:
                eng += cpu(c)
            except OSError:
                pass
        return cpu(self.pid), eng

    def rss(self):
        """The engine processes' resident memory, in MiB."""
        kb = 0
        for c in children(self.pid):
            try:
                with open("/proc/%d/status" % c) as f:
                    kb += sum(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))
            except OSError:
                pass
        return kb / 1024

    def execute(self, code):
        """Runs code; returns its stdout once the reply and the idle status
        have come; fails unless the reply is ok."""
        msg_id = self.kc.execute(code)
        out, ok, idle = [], None, False
        while ok is None:
            m = self.kc.get_shell_msg(timeout=60)
            if m["parent_header"].get("msg_id") == msg_id:
                ok = m["content"]
        while not idle:
            m = self.kc.get_iopub_msg(timeout=60)
            if m["parent_header"].get("msg_id") != msg_id:
                continue
            if m["msg_type"] == "stream":
                out.append(m["content"]["text"])
            idle = m["msg_type"] == "status" and m["content"]["execution_state"] == "idle"
        if ok["status"] != "ok":
            raise RuntimeError("%s: the cell failed: %s" % (self.label, ok))
        return "".join(out)

    def close(self):
        self.kc.stop_channels()
        self.km.shutdown_kernel(now=True)


def round_trips(k, n):
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        k.execute("x := 1")
        times.append(time.perf_counter() - t0)
    return times


def loop(k):
    """Seconds the loop took inside the cell."""
    out = k.execute(LOOP)
    for line in out.splitlines():
        f = line.split()
        if f[:1] == ["LOOP"]:
            if int(f[2]) != LOOP_SUM:
                raise RuntimeError("%s: the loop's sum is %s, Go's is %d" % (k.label, f[2], LOOP_SUM))
            return int(f[1]) / 1e9
    raise RuntimeError("%s: the loop cell printed no timing: %r" % (k.label, out))


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


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
    ap.add_argument("--bin", action="append", required=True, metavar="LABEL=PATH",
                    help="a gocl binary; the first is the one the others are compared with")
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--n", type=int, default=100, help="round trips per kernel per round")
    args = ap.parse_args()
    bins = [tuple(b.split("=", 1)) for b in args.bin]
    prefixes = [install(label, os.path.abspath(path)) for label, path in bins]
    ks = []
    got = {label: {"rt": [], "loop": [], "rt_cpu": [0.0, 0.0], "loop_cpu": [0.0, 0.0]} for label, _ in bins}
    loads = [os.getloadavg()[0]]
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    try:
        ks = [Kernel(label) for label, _ in bins]
        for k in ks:  # warm-up, not counted
            round_trips(k, 20)
            loop(k)
        for r in range(args.rounds):
            for k in (ks if r % 2 == 0 else ks[::-1]):
                g = got[k.label]
                c0 = k.cpu()
                g["rt"] += round_trips(k, args.n)
                c1 = k.cpu()
                g["loop"].append(loop(k))
                c2 = k.cpu()
                for i in range(2):
                    g["rt_cpu"][i] += c1[i] - c0[i]
                    g["loop_cpu"][i] += c2[i] - c1[i]
            loads.append(os.getloadavg()[0])
            print("round %d: %s; load %.1f" % (r, ", ".join(
                "%s rt %.2f ms loop %.0f ms" % (l, statistics.median(got[l]["rt"][-args.n:]) * 1e3,
                                                 got[l]["loop"][-1] * 1e3) for l, _ in bins), loads[-1]),
                  file=sys.stderr)
        for k in ks:
            got[k.label]["rss"] = k.rss()
    finally:
        for k in ks:
            k.close()
        for p in prefixes:
            shutil.rmtree(p, ignore_errors=True)

    base = bins[0][0]
    n_rt = args.rounds * args.n
    print("\nMachine: %s, %d cores; %s; load average (1 min) %.1f-%.1f over the run; "
          "%d rounds, %d round trips and %d loop cells per binary.\n" % (
              cpu_model(), os.cpu_count(), started, min(loads), max(loads), args.rounds, n_rt, args.rounds))
    print("Binaries: " + "; ".join("%s = %s" % (l, p) for l, p in bins) + "\n")
    head = "| measure | " + " | ".join(l for l, _ in bins) + " | " + \
        " | ".join("%s/%s" % (l, base) for l, _ in bins[1:]) + " |"
    print(head)
    print("|" + "---|" * (1 + len(bins) + len(bins) - 1))

    def row(name, f, fmt):
        vals = [f(got[l]) for l, _ in bins]
        print("| %s | %s | %s |" % (name, " | ".join(fmt % v for v in vals),
                                     " | ".join("%.3fx" % (v / vals[0]) for v in vals[1:])))

    row("`x := 1` round trip, median", lambda g: statistics.median(g["rt"]) * 1e3, "%.3f ms")
    row("`x := 1` round trip, p90", lambda g: pct(g["rt"], 0.9) * 1e3, "%.3f ms")
    row("kernel CPU per round trip", lambda g: g["rt_cpu"][0] / n_rt * 1e3, "%.3f ms")
    row("engine CPU per round trip", lambda g: g["rt_cpu"][1] / n_rt * 1e3, "%.3f ms")
    row("loop of %s iterations (in-cell time.Since), median" % format(LOOP_N, ","),
        lambda g: statistics.median(g["loop"]) * 1e3, "%.0f ms")
    row("loop, min", lambda g: min(g["loop"]) * 1e3, "%.0f ms")
    row("engine CPU per loop cell", lambda g: g["loop_cpu"][1] / args.rounds * 1e3, "%.0f ms")
    row("engine resident memory after the run", lambda g: g["rss"], "%.0f MiB")

    # Paired: each round's ratio to the first binary in the same round, so a
    # busy stretch of the machine cancels; the quartiles show the noise.
    print("\nPer-round ratios to %s (median, quartiles over %d rounds):\n" % (base, args.rounds))
    print("| measure | " + " | ".join("%s/%s" % (l, base) for l, _ in bins[1:]) + " |")
    print("|" + "---|" * len(bins))
    for name, f in (("round trip, the round's median", lambda g, r: statistics.median(g["rt"][r * args.n:(r + 1) * args.n])),
                    ("loop cell", lambda g, r: g["loop"][r])):
        cells = []
        for l, _ in bins[1:]:
            rs = [f(got[l], r) / f(got[base], r) for r in range(args.rounds)]
            cells.append("%.3fx (%.3f-%.3f)" % (statistics.median(rs), pct(rs, 0.25), pct(rs, 0.75)))
        print("| %s | %s |" % (name, " | ".join(cells)))


if __name__ == "__main__":
    main()
