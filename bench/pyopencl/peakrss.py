"""Runs a command and writes its peak resident memory as JSON.

    python3 peakrss.py OUT.json CMD [ARGS...]

The command's stdout and stderr pass through; the exit status is the
command's. The peak is ru_maxrss of the child (Linux reports KiB), the same
measure for C, gocl and Python, so bench/pyopencl/report.py can compare them.
"""
import json
import resource
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: peakrss.py OUT.json CMD [ARGS...]")
    out, cmd = sys.argv[1], sys.argv[2:]
    t0 = time.perf_counter()
    rc = subprocess.call(cmd)
    wall = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    with open(out, "w") as f:
        json.dump({"cmd": cmd, "exit": rc, "wall_s": wall, "peak_rss_bytes": peak}, f, indent=1)
        f.write("\n")
    sys.exit(rc)


if __name__ == "__main__":
    main()
