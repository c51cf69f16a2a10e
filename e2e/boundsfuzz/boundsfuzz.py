#!/usr/bin/env python3
"""Random programs that index and slice, run by go run and by gocl, to find a
bounds check of kernel/engine/yaegi_bounds.go that changes what a program does.

Each program is 40 cases, each a few random statements (indexes and slices of
variables, calls that change them, &&, ||, switches, loops, closures, tuple
assignments, divisions by zero) run under recover, printing the panic and the
variables after it. gocl runs each program twice, pasted whole: as it is, and
with a local variable named len declared (gocl then adds no checks). A line
that differs between the two other than by Go's numbers, or whose numbers are
not go run's where the rest of the line is, is reported: the checks must only
add Go's numbers. (yaegi's own differences from go run show in both runs.)

Run: go build -o bin/gocl . && nice python3 e2e/boundsfuzz/boundsfuzz.py FIRST_SEED LAST_SEED [GOCL_BIN]
(about 15 s a seed on 2 cores; not run by the test suite.)
"""
import json
import os
import random
import re
import subprocess
import sys
import tempfile


HEADER = '''package main

import "fmt"

var g int
var i, j, k, n, z, t int
var xs, ys []int
var arr [4]int
var s string
var m map[int]int

func bump() int { i++; g++; xs = xs[:len(xs)-1+1]; return g % 3 }

func id(v int) int { g++; return v }

type box struct{ v int }

func (b *box) add(v int) int { b.v += v; return b.v }

func try(what string, f func()) {
	defer func() {
		r := recover()
		fmt.Println(what, r, i, j, k, t, g, xs, ys, arr)
	}()
	f()
}

func main() {
	q := 0
	_ = q
	get := func() int { j--; return j }
	bx := &box{}
	_ = bx'''


def program(seed, n):
    R = random.Random(seed)
    out = []
    def idx(d=0):
        c = R.choice(["i", "j", "k", "i+1", "j-1", "2", "0", "len(xs)", "len(ys)-1", "k%3", "q"] + (["bump()", "xs[j]", "ys[i]"] if d < 1 else []))
        return c
    def atom(d=0):
        c = R.randrange(16)
        if c == 0: return "xs[%s]" % idx(d)
        if c == 1: return "ys[%s]" % idx(d)
        if c == 2: return "arr[%s]" % idx(d)
        if c == 3: return "int(s[%s])" % idx(d)
        if c == 4: return "len(xs[%s:%s])" % (R.choice(["", "i", "1", "j"]), R.choice(["", "k", "2", "len(xs)", "j+1"]))
        if c == 5: return "bump()"
        if c == 6: return "m[%s]" % idx(d)
        if c == 7: return "i"
        if c == 8: return "10 / z"
        if c == 9: return "cap(ys[:%s:%s])" % (R.choice(["1", "i", "j"]), R.choice(["3", "k", "cap(ys)"]))
        if c == 10: return "get()"
        # Calls, conversions and builtins whose arguments index: in the
        # right operand of && or ||, none may run before the guard.
        if c == 11 and d < 2: return "id(%s)" % atom(d+1)
        if c == 12 and d < 2: return "int(int64(%s))" % atom(d+1)
        if c == 13 and d < 2: return "min(%s, 3)" % atom(d+1)
        if c == 14 and d < 2: return "bx.add(%s)" % atom(d+1)
        return str(R.randrange(3))
    def expr(d=0):
        if d > 1 or R.random() < 0.4: return atom(d)
        op = R.choice(["+", "-", "*"])
        return "%s %s %s" % (expr(d+1), op, expr(d+1))
    def cond():
        f = R.choice(["%s > 0 && %s > 0", "%s < 2 || %s > 0", "%s == %s", "len(xs) > %s && %s > 0", "k < len(ys) && (%s > 1 || %s > 0)"])
        return f % (expr(), expr())
    def stmt(d=0):
        c = R.randrange(15 if d < 2 else 9)
        if c == 0: return "_ = %s" % expr()
        if c == 1: return "t = %s" % expr()
        if c == 2: return "xs[%s] = %s" % (idx(), expr())
        if c == 3: return "ys[%s] += %s" % (idx(), expr())
        if c == 4: return "fmt.Println(%s, %s)" % (expr(), expr())
        if c == 5: return "i, j = %s, %s" % (expr(), expr())
        if c == 6: return "xs[%s], ys[%s] = %s, %s" % (idx(), idx(), expr(), expr())
        if c == 7: return "i++"
        if c == 8: return "xs = append(xs, %s)" % expr()
        if c == 9: return "if %s {\n%s\n} else {\n%s\n}" % (cond(), stmt(d+1), stmt(d+1))
        if c == 10: return "for q := %s; q < %s; q++ {\n_ = q\n%s\n%s\n}" % (R.choice(["0", "1", "i"]), R.choice(["len(xs)", "n", "k", "len(ys)"]), stmt(d+1), stmt(d+1))
        if c == 11: return "for q := range %s {\n_ = q\n%s\n%s\n}" % (R.choice(["xs", "ys", "s"]), stmt(d+1), stmt(d+1))
        if c == 12: return "switch {\ncase %s:\n%s\ncase %s:\n%s\n}" % (cond(), stmt(d+1), cond(), stmt(d+1))
        if c == 13:
            # The guard idiom: the index is only in range when the guard holds.
            v, x = R.choice([("i", "xs"), ("j", "ys"), ("k", "xs"), ("q", "ys")]), R.choice(["id(%s)", "int(int64(%s))", "min(%s, 3)", "bx.add(%s)", "%s"])
            g = R.choice(["%s < len(%s) && %s > 0", "%s >= len(%s) || %s > 0", "!(%s >= len(%s)) && %s != 9"])
            return "if %s {\n%s\n}" % (g % (v[0], v[1], x % ("%s[%s]" % (v[1], v[0]))), stmt(d+1))
        return "func() {\n%s\n}()" % stmt(d+1)
    out.append(HEADER)
    for c in range(n):
        out.append('\ti, j, k, n, z, t, g = %d, %d, %d, %d, 0, 0, 0' % (R.randrange(-1, 6), R.randrange(-1, 6), R.randrange(-1, 6), R.randrange(0, 7)))
        out.append('\txs = []int{1, 2, 3}'); out.append('\tys = make([]int, 2, 4)'); out.append('\ts = "hé"'); out.append('\tarr = [4]int{}')
        out.append('\tm = map[int]int{1: 1}')
        body = "\n".join(stmt() for _ in range(R.randrange(1, 4)))
        out.append('\ttry("case%d", func() {\n%s\n\t})' % (c, body))
    out.append('}')

    return "\n".join(out) + "\n"


def gocl_run(gocl, src):
    """What gocl run prints for src, one cell or a list of cells."""
    cells = [src] if isinstance(src, str) else src
    nb = {"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {"name": "gocl", "display_name": "Go (gocl)"}},
          "cells": [{"cell_type": "code", "id": "c%d" % i, "metadata": {}, "source": c, "outputs": [], "execution_count": None}
                    for i, c in enumerate(cells)]}
    with tempfile.TemporaryDirectory() as d:
        a, b = os.path.join(d, "in.ipynb"), os.path.join(d, "out.ipynb")
        with open(a, "w") as f:
            json.dump(nb, f)
        subprocess.run([gocl, "run", a, "-o", b, "--allow-errors", "--timeout", "2m"], capture_output=True)
        if not os.path.exists(b):
            return ["<gocl run wrote no notebook>"]
        with open(b) as f:
            outputs = [o for c in json.load(f)["cells"] for o in c["outputs"]]
    text = ""
    for o in outputs:
        if o.get("text"):
            text += "".join(o["text"])
        elif o.get("ename"):
            text += "ERROR %s %s\n" % (o["ename"], o["evalue"])
    return text.splitlines()


def go_run(src):
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "main.go"), "w") as f:
            f.write(src)
        with open(os.path.join(d, "go.mod"), "w") as f:
            f.write("module fuzz\n\ngo 1.26\n")
        subprocess.run(["go", "build", "-o", "prog", "."], cwd=d, check=True, capture_output=True)
        try:
            return subprocess.run(["./prog"], cwd=d, capture_output=True, text=True, timeout=20).stdout.splitlines()
        except subprocess.TimeoutExpired:
            return None  # a random loop that never ends


def cases(lines):
    """The lines that end a case ("caseN panic-value variables..."), by case."""
    return {l.split(" ", 1)[0]: l for l in lines if re.match(r"case\d+ ", l)}


NUMBERS = re.compile(r" \[[-0-9:]*\]( with (length|capacity) \d+)?")


def main():
    first, last = int(sys.argv[1]), int(sys.argv[2])
    gocl = sys.argv[3] if len(sys.argv) > 3 else os.path.join(os.path.dirname(__file__), "..", "..", "bin", "gocl")
    changed = wrong = added = 0
    for seed in range(first, last + 1):
        print("seed", seed, flush=True)
        src = program(seed, 40)
        want = go_run(src)
        if want is None:
            print("seed %d: go run's program did not end in 20 s; skipped" % seed)
            continue
        got = gocl_run(gocl, src)
        raw = gocl_run(gocl, src.replace("func main() {", "func asWritten() { len := 0; _ = len }\n\nfunc main() {", 1))
        want, got, raw = cases(want), cases(got), cases(raw)
        for label in sorted(set(got) | set(raw), key=lambda l: int(l[4:])):
            g, w, o = got.get(label, "<none>"), raw.get(label, "<none>"), want.get(label, "<none>")
            if g == w:
                continue
            if g == o:
                added += 1  # now exactly go run's
                continue
            if NUMBERS.sub("", g) != w:
                changed += 1
                print("CHANGED seed %d %s\n  go run:    %s\n  checked:   %s\n  unchecked: %s" % (seed, label, o, g, w))
            elif NUMBERS.sub("", o) == w:
                wrong += 1
                print("WRONG NUMBERS seed %d %s\n  go run:    %s\n  checked:   %s\n  unchecked: %s" % (seed, label, o, g, w))
            else:
                added += 1  # numbers where yaegi already differs from go run
    print("seeds %d-%d: %d lines changed otherwise than by Go's numbers, %d with numbers not go run's, %d with Go's numbers added"
          % (first, last, changed, wrong, added))
    sys.exit(1 if changed or wrong else 0)


if __name__ == "__main__":
    main()
