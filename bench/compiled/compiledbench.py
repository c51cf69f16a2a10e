#!/usr/bin/python3
"""Compiled cells (issue 10): build time, loop speed, call overhead, memory.

  /usr/bin/python3 bench/compiled/compiledbench.py [--gocl bin/gocl] [--n 100000000] [--cold]

Through jupyter_client, against the gocl kernel:
- warm build: execute_request to execute_reply of a small compiled cell (one
  function, imports fmt and cl) with the build cache filled; median of 5;
- first build in a fresh kernel (the cache as install.sh leaves it), and with
  --cold a build with an empty GOCACHE (everything compiled for the plugin);
- a loop over N float64 (s += x*x): compiled cell vs the same function in an
  interpreted cell vs a plain compiled Go program (bench/compiled/plain);
  the fastest of 15 calls on the same data, in rounds alternating with the
  plain program (the interpreted one: 1 call);
- per call: a small compiled function called 100000 times from an
  interpreted loop, minus the same loop calling an interpreted function
  (and the empty loop, for scale);
- a cell loaded from the plugin cache (built before by the same binary);
- memory: the kernel's RSS growth per loaded compiled cell, over 10 cells.
Prints a markdown section for bench/RESULTS.md.
"""
import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

from jupyter_client.manager import KernelManager

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))

SMALL = """//gocl:compile
import "fmt"

func Describe%d(q *cl.Queue) string { return fmt.Sprintf("queue %%p", q) }
"""

LOOP = """func Loop(xs []float64) float64 {
	s := 0.0
	for i := range xs {
		s += xs[i] * xs[i]
	}
	return s
}
"""


def install_gocl(gocl):
    prefix = tempfile.mkdtemp(prefix="gocl-bench-")
    subprocess.run([gocl, "install", "--prefix", prefix], check=True, stdout=subprocess.DEVNULL)
    os.environ["JUPYTER_PATH"] = os.path.join(prefix, "share", "jupyter") + os.pathsep + os.environ.get("JUPYTER_PATH", "")
    os.environ["JUPYTER_DATA_DIR"] = os.path.join(prefix, "data")


class Kernel:
    def __init__(self, env=None):
        self.km = KernelManager(kernel_name="gocl")
        self.km.start_kernel(env={**os.environ, **(env or {})})
        self.kc = self.km.client()
        self.kc.start_channels()
        self.kc.wait_for_ready(timeout=60)

    def timed(self, code, timeout=600):
        """Runs code; returns (seconds from execute_request to execute_reply, text/plain)."""
        t = time.perf_counter()
        msg_id = self.kc.execute(code)
        while True:
            reply = self.kc.get_shell_msg(timeout=timeout)
            if reply["parent_header"].get("msg_id") == msg_id:
                break
        took = time.perf_counter() - t
        if reply["content"]["status"] != "ok":
            raise RuntimeError(f"cell failed: {reply['content'].get('traceback')}\n{code}")
        value = None
        while True:
            m = self.kc.get_iopub_msg(timeout=timeout)
            if m["parent_header"].get("msg_id") != msg_id:
                continue
            if m["msg_type"] == "execute_result":
                value = m["content"]["data"]["text/plain"]
            if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
                break
        return took, value

    def value(self, code):
        return self.timed(code)[1]

    def close(self):
        self.kc.stop_channels()
        self.km.shutdown_kernel(now=True)


def children_cpu(pid):
    """User + system seconds of the kernel's finished child processes (go build and what it ran)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")  # cutime, cstime


def rss_kb(k):
    return int(k.value('func() int { b, _ := os.ReadFile("/proc/self/status"); for _, l := range strings.Split(string(b), "\\n") '
                       '{ if strings.HasPrefix(l, "VmRSS:") { var n int; fmt.Sscan(strings.Fields(l)[1], &n); return n } }; return 0 }()'))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gocl", default=os.path.join(ROOT, "bin", "gocl"))
    ap.add_argument("--n", type=int, default=100_000_000)
    ap.add_argument("--cold", action="store_true", help="also time a build with an empty GOCACHE")
    a = ap.parse_args()
    install_gocl(os.path.abspath(a.gocl))
    moddir = tempfile.mkdtemp(prefix="gocl-bench-mod-")
    rows = []

    cold = None
    if a.cold:
        cache = tempfile.mkdtemp(prefix="gocl-bench-cache-")
        k = Kernel({"GOCACHE": cache, "GOCL_MODDIR": moddir, "GOCL_PLUGIN_CACHE": "off"})
        cold, _ = k.timed(SMALL % 0)
        k.close()
        subprocess.run(["rm", "-rf", cache])

    # The plugin cache: a kernel that builds the cell into a fresh cache, then
    # a new kernel that runs the same first cell and loads it from there.
    plugins = tempfile.mkdtemp(prefix="gocl-bench-plugins-")
    k = Kernel({"GOCL_MODDIR": moddir, "GOCL_PLUGIN_CACHE": plugins})
    k.timed(SMALL % 1000)
    k.close()
    k = Kernel({"GOCL_MODDIR": moddir, "GOCL_PLUGIN_CACHE": plugins})
    hit, _ = k.timed(SMALL % 1000)
    k.close()
    subprocess.run(["rm", "-rf", plugins])

    k = Kernel({"GOCL_MODDIR": moddir, "GOCL_PLUGIN_CACHE": "off"})
    pid = int(k.value("os.Getpid()"))
    first, _ = k.timed(SMALL % 1)
    warm, cpu = [], []
    for i in range(5):
        c0 = children_cpu(pid)
        warm.append(k.timed(SMALL % (i + 2))[0])
        cpu.append(children_cpu(pid) - c0)
    rows.append(("small compiled cell, execute_request to execute_reply, warm cache (median of 5)",
                 f"{statistics.median(warm):.2f} s", "≤ 1.5 s"))
    rows.append(("CPU time of those builds (go command, compiler, linker: user + system, median)",
                 f"{statistics.median(cpu):.2f} s", "what the load does not change"))
    rows.append(("the same, first compiled cell of a fresh kernel", f"{first:.2f} s", "report"))
    rows.append(("the same cell in a new kernel, loaded from the plugin cache (no build)", f"{hit:.2f} s", "report"))
    if cold is not None:
        rows.append(("the same, empty GOCACHE (cold)", f"{cold:.2f} s", "report"))

    # The loop: compiled, interpreted, plain Go.
    k.value(f"xs := cl.Random({a.n})\nlen(xs)")
    k.value("//gocl:compile\n" + LOOP)
    k.value("func LoopI" + LOOP[len("func Loop"):])
    k.value("Loop(xs)")  # fault the pages in once
    # Rounds alternate the kernel and the plain program, so that both see the
    # same machine load; each figure is the fastest call (of 5 per round).
    subprocess.run(["go", "build", "-o", os.path.join(moddir, "plain"), "./bench/compiled/plain"], cwd=ROOT, check=True)
    comp, plain = [], []
    for _ in range(3):
        for _ in range(5):
            comp.append(float(k.value("t0 := time.Now(); _ = Loop(xs); time.Since(t0).Seconds()")))
        out = subprocess.run([os.path.join(moddir, "plain"), "-n", str(a.n), "-runs", "5"],
                             check=True, capture_output=True, text=True).stdout.split()
        plain.append(float(out[0]))
    interp = float(k.value("t1 := time.Now(); _ = LoopI(xs); time.Since(t1).Seconds()"))
    same = k.value("Loop(xs) == LoopI(xs)")
    c, p = min(comp), min(plain)
    rows.append((f"loop over {a.n:.0e} float64 (s += x*x), compiled cell (fastest of 15)", f"{c * 1000:.1f} ms", ""))
    rows.append((f"the same loop interpreted (1 run); same result: {same}", f"{interp * 1000:.0f} ms",
                 f"compiled {interp / c:.0f}x faster (≥ 30x)"))
    rows.append(("the same loop in a plain Go program (fastest of 15, rounds alternating with the kernel)", f"{p * 1000:.1f} ms",
                 f"compiled cell at {c / p:.2f}x of it (≤ 1.2x)"))

    # Per-call overhead.
    k.value("//gocl:compile\nfunc Add(a, b int) int { return a + b }\n")
    k.value("func addI(a, b int) int { return a + b }")
    calls = 100000
    def loop(body):
        return float(k.value(f"func() float64 {{ s := 0; t := time.Now(); for i := 0; i < {calls}; i++ {{ {body} }}; _ = s; "
                             f"return time.Since(t).Seconds() }}()"))
    empty = min(loop("s += i") for _ in range(5))
    viaC = min(loop("s = Add(s, i)") for _ in range(5))
    viaI = min(loop("s = addI(s, i)") for _ in range(5))
    rows.append(("call of a small compiled function from an interpreted loop, per call (fastest of 5 loops)",
                 f"{(viaC - empty) / calls * 1e6:.2f} us",
                 f"interpreted function: {(viaI - empty) / calls * 1e6:.2f} us; empty loop step {empty / calls * 1e6:.2f} us"))

    # Memory per loaded cell.
    before = rss_kb(k)
    for i in range(10):
        k.timed(SMALL % (100 + i))
    after = rss_kb(k)
    rows.append(("kernel RSS growth per loaded small compiled cell (10 cells)", f"{(after - before) / 10 / 1024:.1f} MB", "report"))
    k.close()

    cpu = "unknown CPU"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    go = subprocess.run(["go", "version"], capture_output=True, text=True).stdout.strip()
    print(f"Machine: {cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}; {go}; "
          f"load average {os.getloadavg()[0]:.2f} after the run.\n")
    print("| measurement | value | against / goal |")
    print("|---|---|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")


if __name__ == "__main__":
    sys.exit(main())
