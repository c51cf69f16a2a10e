#!/usr/bin/env python3
"""What it would cost to give Go's bounds-error numbers in interpreted cells.

yaegi does not say which index or length was out of range, so gocl's
"runtime error: index out of range" lacks Go's "[3] with length 0". The only
way to get them would be a check in interpreted code before every index
(`if uint(i) >= uint(len(a)) { panic(...) }`). This measures a loop of a[i]
with and without that check, in one cell run by `gocl run` (the real binary),
alternating the two loops in the same rounds, fastest of ROUNDS each.

Run: go build -o bin/gocl . && nice python3 bench/indexcheck/indexcheck.py [GOCL_BIN]
"""
import json
import os
import subprocess
import sys
import tempfile

ROUNDS = 7
CELL = """a := make([]int, 1000)
for i := range a {
	a[i] = i
}
n := 0
plain, guarded := time.Duration(1<<62), time.Duration(1<<62)
for round := 0; round < %d; round++ {
	t0 := time.Now()
	for r := 0; r < 2000; r++ {
		for i := 0; i < len(a); i++ {
			n += a[i]
		}
	}
	plain = min(plain, time.Since(t0))
	t0 = time.Now()
	for r := 0; r < 2000; r++ {
		for i := 0; i < len(a); i++ {
			if uint(i) >= uint(len(a)) {
				panic(fmt.Sprintf("runtime error: index out of range [%%d] with length %%d", i, len(a)))
			}
			n += a[i]
		}
	}
	guarded = min(guarded, time.Since(t0))
}
fmt.Printf("loop of 2e6 a[i], plain:   %%v (fastest of %d)\\n", plain)
fmt.Printf("the same with the check:   %%v\\n", guarded)
fmt.Printf("ratio checked/plain:       %%.2fx (sum %%d)\\n", float64(guarded)/float64(plain), n)
""" % (ROUNDS, ROUNDS)


def main():
    gocl = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "bin", "gocl")
    nb = {"nbformat": 4, "nbformat_minor": 5,
          "metadata": {"kernelspec": {"name": "gocl", "display_name": "Go (gocl)"}},
          "cells": [{"cell_type": "code", "id": "bench", "metadata": {}, "source": CELL,
                     "outputs": [], "execution_count": None}]}
    with tempfile.TemporaryDirectory() as d:
        src, out = os.path.join(d, "in.ipynb"), os.path.join(d, "out.ipynb")
        with open(src, "w") as f:
            json.dump(nb, f)
        # gocl run prints the cell's output as it runs.
        subprocess.run([gocl, "run", src, "-o", out, "--timeout", "10m"], check=True)

if __name__ == "__main__":
    main()
