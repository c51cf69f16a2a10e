#!/opt/gocl/venv/bin/python
"""Start-up time of gocl against ipykernel, side by side (issue 19).

  /opt/gocl/venv/bin/python bench/start/startbench.py [--rounds 20] [--gocl bin/gocl]

For each kernel, the clock starts before jupyter_client's
KernelManager.start_kernel() and stops when the first kernel_info_reply
arrives (one kernel_info_request sent as soon as the client's channels are
up, as a front end does), and a second clock stops at the first
execute_reply of a trivial cell (`x := 1`, `x = 1`) sent right after that
reply. The kernels run alternately, ROUNDS rounds, the first kernel of each
round alternating too, so a busy moment on a shared machine falls on both.
ipykernel is the one installed beside jupyter_client in this Python (the
script writes its own kernelspec for it). Prints medians, the ratio
gocl/ipykernel and the spread as a markdown table for bench/RESULTS.md.
"""
import argparse
import json
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


def install_kernels(gocl):
    """Writes both kernelspecs into a temporary Jupyter path: gocl's by
    `gocl install --prefix`, ipykernel's for this Python."""
    prefix = tempfile.mkdtemp(prefix="gocl-startbench-")
    subprocess.run([gocl, "install", "--prefix", prefix], check=True, stdout=subprocess.DEVNULL)
    kdir = os.path.join(prefix, "share", "jupyter", "kernels", "ipykernel-bench")
    os.makedirs(kdir)
    with open(os.path.join(kdir, "kernel.json"), "w") as f:
        json.dump({"argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                   "display_name": "ipykernel (bench)", "language": "python"}, f)
    os.environ["JUPYTER_PATH"] = os.path.join(prefix, "share", "jupyter") + os.pathsep + os.environ.get("JUPYTER_PATH", "")
    os.environ["JUPYTER_DATA_DIR"] = os.path.join(prefix, "data")
    return prefix


def reply(kc, msg_id, deadline):
    while True:
        left = deadline - time.perf_counter()
        if left <= 0:
            raise RuntimeError("no reply to %s in time" % msg_id)
        m = kc.get_shell_msg(timeout=left)
        if m["parent_header"].get("msg_id") == msg_id:
            return m


def one_start(kernel_name, code):
    """Returns (seconds to the first kernel_info_reply, seconds to the first
    execute_reply), both from before start_kernel()."""
    km = KernelManager(kernel_name=kernel_name)
    t0 = time.perf_counter()
    km.start_kernel(stderr=subprocess.DEVNULL)
    kc = km.client()
    kc.start_channels()
    try:
        deadline = t0 + 180
        reply(kc, kc.kernel_info(), deadline)
        t_info = time.perf_counter() - t0
        r = reply(kc, kc.execute(code), deadline)
        t_exec = time.perf_counter() - t0
        if r["content"]["status"] != "ok":
            raise RuntimeError("%s: the first cell failed: %s" % (kernel_name, r["content"]))
        return t_info, t_exec
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def ms(x):
    return "%.0f ms" % (x * 1e3)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--gocl", default=os.environ.get("GOCL_BIN") or os.path.join(ROOT, "bin", "gocl"))
    args = ap.parse_args()
    kernels = [("gocl", "x := 1"), ("ipykernel-bench", "x = 1")]
    prefix = install_kernels(os.path.abspath(args.gocl))
    got = {name: ([], []) for name, _ in kernels}
    load = os.getloadavg()[0]
    try:
        for name, code in kernels:  # warm the page cache; not counted
            one_start(name, code)
        for r in range(args.rounds):
            order = kernels if r % 2 == 0 else kernels[::-1]
            for name, code in order:
                i, e = one_start(name, code)
                got[name][0].append(i)
                got[name][1].append(e)
                print("round %d %s: kernel_info %s, first execute %s" % (r, name, ms(i), ms(e)), file=sys.stderr)
                time.sleep(0.2)
    finally:
        shutil.rmtree(prefix, ignore_errors=True)
    load = max(load, os.getloadavg()[0])
    g, p = got["gocl"], got["ipykernel-bench"]
    import ipykernel
    import jupyter_client
    print("\nMachine: %s, %d cores; %s; load average up to %.1f; jupyter_client %s, ipykernel %s; %d rounds.\n" % (
        cpu_model(), os.cpu_count(), time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), load,
        jupyter_client.__version__, ipykernel.__version__, args.rounds))
    print("| from start_kernel() to | gocl median (min-max) | ipykernel median (min-max) | ratio of medians | target |")
    print("|---|---|---|---|---|")
    for label, k, target in (("first kernel_info_reply", 0, "<= 0.1x"), ("first execute_reply", 1, "")):
        gm, pm = statistics.median(g[k]), statistics.median(p[k])
        print("| %s | %s (%s-%s) | %s (%s-%s) | %.2fx | %s |" % (
            label, ms(gm), ms(min(g[k])), ms(max(g[k])), ms(pm), ms(min(p[k])), ms(max(p[k])), gm / pm, target))


if __name__ == "__main__":
    main()
