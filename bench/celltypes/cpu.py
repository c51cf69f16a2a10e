#!/usr/bin/env python3
"""CPU time per cell of kernel/engine's BenchmarkCellCost, for engine test
binaries built from two commits, so that a loaded machine (whose wall clock
says little) can still compare them: each sub-benchmark runs as a process of
its own with N cells and with 1, and the difference of the processes' CPU time
(user + system, every thread of the engine) over N - 1 cells is its cost.
Rounds alternate between the binaries; the table gives each one's median.

Run (from the repository root):
  git worktree add /tmp/before BEFORE && (cd /tmp/before && go test -c -o /tmp/before.test ./kernel/engine/)
  go test -c -o /tmp/after.test ./kernel/engine/
  python3 bench/celltypes/cpu.py /tmp/before.test /tmp/after.test [N] [ROUNDS]
"""
import os
import resource
import statistics
import subprocess
import sys

CELLS = [
    ("no check (x := 1)", "no_check"),
    ("checked, a cell value (fmt.Println(p))", "checked,_a_cell_value"),
    ("checked, plain values (fmt.Println(1))", "checked,_plain_values"),
    ("checked, shown (p)", "checked,_shown"),
]


def cpu(binary, sub, n):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([binary, "-test.run", "^$", "-test.bench", "BenchmarkCellCost/" + sub,
                    "-test.benchtime", "%dx" % n], cwd="kernel/engine", check=True,
                   stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main():
    bins = sys.argv[1:3]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 500
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    got = {(b, c): [] for b in bins for c, _ in CELLS}
    for _ in range(rounds):
        for name, sub in CELLS:
            for b in bins:
                per = (cpu(b, sub, n) - cpu(b, sub, 1)) / (n - 1)
                got[(b, name)].append(per * 1e3)
    print("| cell | %s | %s | after/before |" % tuple(os.path.basename(b) for b in bins))
    print("|---|---|---|---|")
    for name, _ in CELLS:
        m = [statistics.median(got[(b, name)]) for b in bins]
        runs = ["%.3f ms (%s)" % (m[i], " ".join("%.3f" % v for v in got[(b, name)])) for i, b in enumerate(bins)]
        print("| %s | %s | %s | %.2fx |" % (name, runs[0], runs[1], m[1] / m[0]))


main()
