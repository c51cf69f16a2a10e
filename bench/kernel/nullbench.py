#!/usr/bin/python3
"""gocl's execute round trip against a do-nothing kernel (nullkernel.py),
same clients, same run: how much of the round trip is gocl's own.

  /usr/bin/python3 bench/kernel/nullbench.py [--n 500] [--gocl bin/gocl]

Uses kernelbench.py's three clients (BlockingKernelClient, lean, wire-level)
on `x := 1` (gocl) and on the null kernel, and prints a markdown table with
the ratios for bench/RESULTS.md (issue 13's target: within 1.15x).
"""
import argparse
import json
import os
import shutil
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import kernelbench  # noqa: E402


def install_null(prefix):
    d = os.path.join(prefix, "share", "jupyter", "kernels", "gocl-null")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "kernel.json"), "w") as f:
        json.dump({"argv": ["/usr/bin/python3", os.path.join(HERE, "nullkernel.py"), "-f", "{connection_file}"],
                   "display_name": "null", "language": "none"}, f)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=500)
    ap.add_argument("--gocl", default=os.environ.get("GOCL_BIN") or os.path.join(kernelbench.ROOT, "bin", "gocl"))
    args = ap.parse_args()
    prefix = kernelbench.install_gocl(os.path.abspath(args.gocl))
    install_null(prefix)
    rows = {}
    try:
        for name, code in (("gocl", "x := 1"), ("gocl-null", "x = 1")):
            rows[name] = [f(name, code, args.n) for f in
                          (kernelbench.round_trip, kernelbench.lean_round_trip, kernelbench.wire_round_trip)]
            print(name, [round(statistics.median(r) * 1e3, 3) for r in rows[name]], file=sys.stderr)
    finally:
        shutil.rmtree(prefix, ignore_errors=True)
    print(f"\nMachine: {kernelbench.cpu_model()}, {os.cpu_count()} cores; {time.strftime('%Y-%m-%d')}; "
          f"n={args.n} round trips of `x := 1` (gocl) and of a do-nothing pyzmq kernel (bench/kernel/nullkernel.py).\n")
    print("| client | gocl median | null kernel median | ratio | gocl p99 | null p99 |")
    print("|---|---|---|---|---|---|")
    for i, client in enumerate(("jupyter_client BlockingKernelClient", "lean (pyzmq + Session)", "wire-level")):
        g, z = rows["gocl"][i], rows["gocl-null"][i]
        print(f"| {client} | {statistics.median(g)*1e3:.2f} ms | {statistics.median(z)*1e3:.2f} ms | "
              f"{statistics.median(g)/statistics.median(z):.2f}x | {kernelbench.p99(g)*1e3:.2f} ms | {kernelbench.p99(z)*1e3:.2f} ms |")


if __name__ == "__main__":
    main()
