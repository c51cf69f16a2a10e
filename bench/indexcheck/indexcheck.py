#!/usr/bin/env python3
"""What Go's bounds-error numbers cost in interpreted cells (issue 8).

gocl puts Go's bounds check before the statements of a cell that index or
slice (kernel/engine/yaegi_bounds.go), so that an index out of range says
"index out of range [3] with length 0" as Go does. Loops whose index is in
range by construction get no check; other counted loops one test before the
loop; other indexes a check each time (in a loop, against the length
only, unless the index subtracts).

This runs one notebook through `gocl run` (the real binary). Cell 1 declares
loop functions, which gocl checks; cell 2 declares the same functions again
under other names, in a cell that also declares a local variable named len
(gocl then leaves the whole cell as written: its checks would call it). Cell
3 times each pair alternately, in the same rounds, fastest of ROUNDS each,
and prints the ratio checked/as written. A second section runs the check by
hand (`if uint(i) >= uint(len(a))`, the form measured before this rewrite)
for comparison.

Run: go build -o bin/gocl . && nice python3 bench/indexcheck/indexcheck.py [GOCL_BIN]
"""
import json
import os
import subprocess
import sys
import tempfile

ROUNDS = 7
REPS = 1000  # each loop runs over 1000 elements REPS times

LOOPS = """
func rangeSame%(s)s(a, idx []int, n int) int {
	s := 0
	for i := range a {
		s += a[i]
	}
	return s
}

func countedLen%(s)s(a, idx []int, n int) int {
	s := 0
	for i := 0; i < len(a); i++ {
		s += a[i]
	}
	return s
}

func neighbours%(s)s(a, idx []int, n int) int {
	s := 0
	for i := 1; i < len(a); i++ {
		s += a[i] - a[i-1]
	}
	return s
}

func countedN%(s)s(a, idx []int, n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += a[i]
	}
	return s
}

func rangeOther%(s)s(a, idx []int, n int) int {
	s := 0
	for i := range idx {
		s += a[i]
	}
	return s
}

func indirect%(s)s(a, idx []int, n int) int {
	s := 0
	for _, j := range idx {
		s += a[j]
	}
	return s
}

func behind%(s)s(a, idx []int, n int) int {
	s := 0
	for _, j := range idx {
		s += a[j-1]
	}
	return s
}

func manual%(s)s(a, idx []int, n int) int {
	s := 0
	for _, j := range idx {
		if uint(j) >= uint(len(a)) {
			panic("out of range")
		}
		s += a[j]
	}
	return s
}
"""

KINDS = [
    ("rangeSame", "for i := range a { s += a[i] }", "in range: no check"),
    ("countedLen", "for i := 0; i < len(a); i++ { s += a[i] }", "in range: no check"),
    ("neighbours", "for i := 1; i < len(a); i++ { s += a[i] - a[i-1] }", "in range: no check"),
    ("countedN", "for i := 0; i < n; i++ { s += a[i] }", "one guard before the loop"),
    ("rangeOther", "for i := range idx { s += a[i] }", "one guard before the loop"),
    ("indirect", "for _, j := range idx { s += a[j] }", "a check per index: j >= len(a)"),
    ("behind", "for _, j := range idx { s += a[j-1] }", "a check per index: j-1 < 0 || j-1 >= len(a)"),
]

TIMER = """
a := make([]int, 1000)
idx := make([]int, 1000)
for i := range a {
	a[i], idx[i] = i, (i*7)%%999+1
}
type loop func(a, idx []int, n int) int
kinds := []struct {
	name string
	checked, plain loop
}{
%(pairs)s
}
best := make([][2]time.Duration, len(kinds))
for k := range best {
	best[k] = [2]time.Duration{1 << 62, 1 << 62}
}
sum := 0
for round := 0; round < %(rounds)d; round++ {
	for k, kind := range kinds {
		for side, f := range []loop{kind.checked, kind.plain} {
			t0 := time.Now()
			for r := 0; r < %(reps)d; r++ {
				sum += f(a, idx, len(a))
			}
			best[k][side] = min(best[k][side], time.Since(t0))
		}
	}
}
for k, kind := range kinds {
	fmt.Printf("%%-11s checked %%8.1f ms, as written %%8.1f ms, ratio %%.2fx\\n", kind.name,
		float64(best[k][0])/1e6, float64(best[k][1])/1e6, float64(best[k][0])/float64(best[k][1]))
}
fmt.Println("(sum", sum, ")")
"""


def notebook():
    pairs = "\n".join('\t{"%s", %s, %sRaw},' % (k, k, k) for k, _, _ in KINDS)
    pairs += '\n\t{"by hand", manualRaw, indirectRaw},'
    cells = [
        "import \"time\"",
        LOOPS % {"s": ""},
        LOOPS % {"s": "Raw"} + "\n// A local len: gocl leaves this cell without checks.\nfunc asWritten() int {\n\tlen := 0\n\treturn len\n}\n",
        TIMER % {"pairs": pairs, "rounds": ROUNDS, "reps": REPS},
    ]
    return {"nbformat": 4, "nbformat_minor": 5,
            "metadata": {"kernelspec": {"name": "gocl", "display_name": "Go (gocl)"}},
            "cells": [{"cell_type": "code", "id": "c%d" % i, "metadata": {}, "source": c,
                       "outputs": [], "execution_count": None} for i, c in enumerate(cells)]}


def main():
    gocl = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "bin", "gocl")
    print("loops of %d x 1000 indexes; fastest of %d rounds; 'by hand' is the check written in the cell "
          "(uint(j) >= uint(len(a))) against the same loop without it, both as written" % (REPS, ROUNDS))
    for name, code, what in KINDS:
        print("  %-11s %-55s %s" % (name, code, what))
    with tempfile.TemporaryDirectory() as d:
        src, out = os.path.join(d, "in.ipynb"), os.path.join(d, "out.ipynb")
        with open(src, "w") as f:
            json.dump(notebook(), f)
        # gocl run prints the cells' output as they run.
        subprocess.run([gocl, "run", src, "-o", out, "--timeout", "10m"], check=True)


if __name__ == "__main__":
    main()
