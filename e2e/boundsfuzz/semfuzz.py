#!/usr/bin/env python3
"""Random programs beyond bounds checks, run by go run and by gocl pasted whole
and in notebook form, to find a silent wrong answer (issue 24).

boundsfuzz.py compares index and slice panics; this one the constructs where
yaegi (or gocl's rewrites of it) gave wrong answers before: multi-value
assignments with receives, loop variables and their addresses (Go 1.22's
per-iteration variables), method sets (value and pointer receivers through
interfaces, method values and expressions, assertions), and values of the
program's types crossing into encoding/json, fmt and errors. Each program is
a few random cases; a case's names carry its number, and a case is either a
block or top-level statements of main (so in notebook form, where main's body
is a cell, the top-level ones are the cell's own top-level statements).

go run is the oracle. For each form, gocl's stdout is compared line by line
with go run's:
  WRONG    a line differs from go run's, or gocl printed more lines, with no
           error: a silent wrong answer, the one thing gocl must never give;
  STOPPED  gocl printed the first lines right and then an error (a refusal or
           a run-time stop of valid Go): reported with the error and the case,
           not a failure; the case is dropped and the rest run again.

Run: go build -o bin/gocl . && nice python3 e2e/boundsfuzz/semfuzz.py FIRST_SEED LAST_SEED [GOCL_BIN]
(a few seconds a seed; not run by the test suite). With -v, every program that
is not right is printed. Exit status 1 when a WRONG was found.
"""
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from boundsfuzz import go_run, gocl_run  # noqa: E402

DECLS = '''import (
	"encoding/json"
	"errors"
	"fmt"
)

type V struct {
	N int    `json:"n"`
	S string `json:"s,omitempty"`
}

func (v V) Get() int { return v.N }
func (v *V) Inc()    { v.N++ }

type Getter interface{ Get() int }
type Incer interface{ Inc() }
type GetIncer interface {
	Getter
	Incer
}

type P struct{ N int }

func (p *P) String() string { return fmt.Sprint("P", p.N) }

type W struct{ N int }

func (w W) String() string { return fmt.Sprint("W", w.N) }

type E struct{ Code int }

func (e E) Error() string { return fmt.Sprint("E", e.Code) }

type PE struct{ Msg string }

func (e *PE) Error() string { return "PE " + e.Msg }

var ErrBase = errors.New("base")

var _ = json.Valid

type Rec struct {
	Name string         `json:"name"`
	Tags []string       `json:"tags"`
	M    map[string]int `json:"m,omitempty"`
	Ptr  *V             `json:"ptr"`
	Any  any            `json:"any"`
}

func send(c chan int, v int) { c <- v }

func two(a int) (int, int) { return a, a * 10 }

func ident(v int) int { return v }
'''


def program(seed, n):
    """The declarations and main's statements of the program of seed."""
    R = random.Random(seed)
    num = lambda: R.randrange(-3, 10)
    cases = []
    for k in range(n):
        kind = R.choice([recv_case, loop_case, method_case, json_case, fmt_case, errors_case])
        body = kind(R, k, num)
        label = 'fmt.Println("case%d")' % k
        if R.random() < 0.5:
            cases.append("{\n%s\n%s\n}" % (label, body))
        else:
            cases.append("%s\n%s" % (label, body))
    return DECLS, cases


def recv_case(R, k, num):
    a, b, c = num(), num(), num()
    v = R.randrange(6)
    pre = "c%d := make(chan int, 4)\nc%d <- %d\nc%d <- %d\n" % (k, k, a, k, b)
    if R.random() < 0.3:
        pre = "c%d := make(chan int)\ngo send(c%d, %d)\n" % (k, k, a)
        if v in (1, 2, 5):
            v = 0  # one value only
    if v == 0:
        s = "x%d, y%d := <-c%d, %d" % (k, k, k, c)
    elif v == 1:
        s = "var x%d, y%d int\nx%d, y%d = <-c%d, <-c%d" % (k, k, k, k, k, k)
    elif v == 2:
        s = "x%d, y%d := ident(%d), <-c%d\nx%d, y%d = y%d, x%d" % (k, k, c, k, k, k, k, k)
    elif v == 3:
        s = "x%d, y%d := <-c%d, len(c%d)" % (k, k, k, k)
    elif v == 4:
        s = "y%d, _ := two(%d)\nx%d := <-c%d\nx%d, y%d = y%d+x%d, x%d" % (k, c, k, k, k, k, k, k, k)
    else:
        s = "close(c%d)\nx%d, ok%d := <-c%d\n_, _ = <-c%d\ny%d, ok2%d := <-c%d\nfmt.Println(ok%d, ok2%d)" % (
            k, k, k, k, k, k, k, k, k, k)
    return pre + s + "\nfmt.Println(x%d, y%d)" % (k, k)


def loop_case(R, k, num):
    lo, hi, m = R.randrange(0, 2), R.randrange(2, 5), R.randrange(1, 4)
    v = R.randrange(5)
    out = "var ps%d []*int\nvar fs%d []func() int\n" % (k, k)
    inner = "ps%d = append(ps%d, &i)\nfs%d = append(fs%d, func() int { return i * %d })" % (k, k, k, k, m)
    extra = R.choice(["", "if i == %d {\ncontinue\n}" % lo, "p := &i\n*p += 0", "i := i + 1\n_ = i"])
    if v == 0:
        out += "for i := %d; i < %d; i++ {\n%s\n%s\n}\n" % (lo, hi, inner, extra)
    elif v == 1:
        out += "for i := range %d {\n%s\n%s\n}\n" % (hi, inner, extra)
    elif v == 2:
        out += "for _, i := range []int{%d, %d, %d} {\n%s\n%s\n}\n" % (num(), num(), num(), inner, extra)
    elif v == 3:
        # The body changes the loop variable through its address: the next
        # iteration starts from the changed copy.
        out += "for i := %d; i < %d; i++ {\n%s\np := &i\n*p += %d\n}\n" % (lo, hi + 4, inner, R.randrange(0, 3))
    else:
        out += "{\ni := %d\nfor i < %d {\n%s\ni++\n}\n}\n" % (lo, hi, inner)  # one variable for every iteration
    out += "for j := range ps%d {\nfmt.Println(j, *ps%d[j], fs%d[j]())\n}" % (k, k, k)
    return out


def method_case(R, k, num):
    a = num()
    v = R.randrange(6)
    s = "v%d := V{N: %d}\n" % (k, a)
    if v == 0:
        s += ("var g%d Getter = v%d\nv%d.Inc()\nvar gi%d GetIncer = &v%d\ngi%d.Inc()\n"
              "fmt.Println(g%d.Get(), gi%d.Get(), v%d.N)") % ((k,) * 9)
    elif v == 1:
        s += "f%d := v%d.Get\ninc%d := v%d.Inc\ninc%d()\nfmt.Println(f%d(), v%d.Get(), V.Get(v%d))\n(*V).Inc(&v%d)\nfmt.Println(v%d.N)" % ((k,) * 10)
    elif v == 2:
        s += ("gs%d := []Getter{v%d, &v%d, V{N: %d}}\nv%d.Inc()\nfor _, g := range gs%d {\n"
              "_, ok := g.(Incer)\nfmt.Println(g.Get(), ok)\n}") % (k, k, k, num(), k, k)
    elif v == 3:
        s += ("var g%d Getter = &v%d\nswitch x := g%d.(type) {\ncase V:\nfmt.Println(\"V\", x.N)\n"
              "case *V:\nx.Inc()\nfmt.Println(\"*V\", x.N, v%d.N)\n}") % (k, k, k, k)
    elif v == 4:
        s += ("var i%d any = v%d\n_, isG := i%d.(Getter)\n_, isI := i%d.(Incer)\n"
              "var j%d any = &v%d\n_, jsI := j%d.(Incer)\nfmt.Println(isG, isI, jsI)") % ((k,) * 7)
    else:
        s += ("arr%d := []V{{N: 1}, {N: 2}}\nfor _, x := range arr%d {\nx.Inc()\n}\n"
              "for i := range arr%d {\narr%d[i].Inc()\n}\npv%d := &arr%d[0]\npv%d.Inc()\nfmt.Println(arr%d, v%d)") % ((k,) * 9)
    return s


def json_case(R, k, num):
    a = num()
    anyv = R.choice(['"s"', "%d" % a, "[]int{%d, 2}" % a, "map[string]int{\"k\": %d}" % a, "V{N: %d}" % a, "nil", "true"])
    v = R.randrange(5)
    if v == 0:
        tags = R.choice(["nil", "[]string{}", '[]string{"a", "b"}'])
        m = R.choice(["nil", 'map[string]int{"z": 1, "a": %d}' % a])
        ptr = R.choice(["nil", "&V{N: %d, S: \"p\"}" % a])
        return ("r%d := Rec{Name: \"n%d\", Tags: %s, M: %s, Ptr: %s, Any: %s}\nb%d, err%d := json.Marshal(r%d)\n"
                "fmt.Println(string(b%d), err%d)\nvar back%d Rec\nerr%d = json.Unmarshal(b%d, &back%d)\n"
                "fmt.Println(back%d.Name, back%d.Tags == nil, len(back%d.M), back%d.Ptr != nil, back%d.Any, err%d)\n"
                "fmt.Printf(\"%%T\\n\", back%d.Any)") % (
            k, a, tags, m, ptr, anyv, k, k, k, k, k, k, k, k, k, k, k, k, k, k, k, k)
    if v == 1:
        return ("vs%d := []*V{{N: %d}, nil, {S: \"x\"}}\nb%d, _ := json.MarshalIndent(map[string]any{\"vs\": vs%d, \"w\": W{%d}, \"e\": E{1}}, \"\", \" \")\n"
                "fmt.Println(string(b%d))") % (k, a, k, k, a, k)
    if v == 2:
        doc = R.choice(['{"n": %d, "s": "q"}' % a, '{"n": "bad"}', '[1, 2]', '{"n": 1.5}', '{"x": {"y": [1, "z", null]}}', 'nul'])
        return ("var x%d V\nerr%d := json.Unmarshal([]byte(`%s`), &x%d)\nfmt.Println(x%d, err%d)\n"
                "var a%d any\nerr%d = json.Unmarshal([]byte(`%s`), &a%d)\nfmt.Println(a%d, err%d)\n"
                "var m%d map[string]any\nerr%d = json.Unmarshal([]byte(`%s`), &m%d)\nfmt.Println(m%d, err%d)") % (
            (k, k, doc, k, k, k) * 3)
    if v == 3:
        return ("var i%d any = %s\nb%d, err%d := json.Marshal(i%d)\nfmt.Println(string(b%d), err%d)\n"
                "b%d, err%d = json.Marshal([]any{i%d, &V{N: %d}, Getter(V{N: 2})})\nfmt.Println(string(b%d), err%d)") % (
            k, anyv, k, k, k, k, k, k, k, k, a, k, k)
    return ("var ms%d map[string]V\nerr%d := json.Unmarshal([]byte(`{\"a\": {\"n\": %d}, \"b\": {}}`), &ms%d)\n"
            "fmt.Println(ms%d[\"a\"].N, ms%d[\"b\"], len(ms%d), err%d)\nvar ps%d []*V\n"
            "err%d = json.Unmarshal([]byte(`[{\"n\": %d}, null]`), &ps%d)\nfmt.Println(len(ps%d), ps%d[0].N, ps%d[1] == nil, err%d)") % (
        k, k, a, k, k, k, k, k, k, k, a, k, k, k, k, k)


def fmt_case(R, k, num):
    a = num()
    verbs = R.sample(["%v", "%+v", "%#v", "%T", "%d", "%s", "%q", "%x", "%5v", "%-4v|"], 3)
    val = R.choice(["V{N: %d, S: \"s\"}" % a, "&V{N: %d}" % a, "W{%d}" % a, "&W{%d}" % a, "P{%d}" % a, "&P{%d}" % a,
                    "E{%d}" % a, "&PE{\"m\"}", "[]W{{1}, {%d}}" % a, "map[string]W{\"k\": {%d}}" % a,
                    "[]any{W{1}, &P{2}, E{%d}, nil}" % a, "Getter(V{N: %d})" % a, "error(E{%d})" % a])
    v = R.randrange(3)
    if v == 0:
        return "x%d := %s\nfmt.Printf(\"%s %s %s\\n\", x%d, x%d, x%d)" % (k, val, verbs[0], verbs[1], verbs[2], k, k, k)
    if v == 1:
        return "x%d := %s\nfmt.Println(x%d, fmt.Sprint(x%d, %d), fmt.Sprintf(\"%s\", x%d))" % (k, val, k, k, a, verbs[0], k)
    return "x%d := %s\nvar s%d fmt.Stringer\ns%d, ok%d := any(x%d).(fmt.Stringer)\nfmt.Println(ok%d, s%d != nil)" % (
        k, val, k, k, k, k, k, k)


def errors_case(R, k, num):
    a = num()
    v = R.randrange(5)
    if v == 0:
        return ("e%d := fmt.Errorf(\"wrap %d: %%w\", E{%d})\nvar t%d E\nfmt.Println(errors.As(e%d, &t%d), t%d.Code, errors.Is(e%d, ErrBase), e%d)\n"
                "fmt.Println(errors.Unwrap(e%d) == E{%d}, errors.Is(e%d, E{%d}), errors.Is(e%d, E{%d}))") % (
            k, a, a, k, k, k, k, k, k, k, a, k, a, k, a + 1)
    if v == 1:
        return ("e%d := fmt.Errorf(\"x: %%w\", ErrBase)\nj%d := errors.Join(e%d, E{%d}, nil)\n"
                "fmt.Println(errors.Is(j%d, ErrBase), j%d)\nvar t%d E\nfmt.Println(errors.As(j%d, &t%d), t%d)") % (
            k, k, k, a, k, k, k, k, k, k)
    if v == 2:
        return ("var pe%d *PE\nok%d := errors.As(fmt.Errorf(\"%%w\", &PE{\"m%d\"}), &pe%d)\nfmt.Println(ok%d, pe%d.Msg, pe%d)\n"
                "var err%d error = &PE{\"q\"}\nfmt.Println(err%d, errors.As(err%d, &pe%d), pe%d.Msg)") % (
            k, k, a, k, k, k, k, k, k, k, k, k)
    if v == 3:
        return ("var err%d error = E{%d}\nfmt.Println(err%d == E{%d}, err%d != nil, err%d.Error())\nswitch x := err%d.(type) {\n"
                "case interface{ Unwrap() error }:\nfmt.Println(\"wraps\", x)\ncase E:\nfmt.Println(\"E\", x.Code)\n}") % (
            k, a, k, a, k, k, k)
    return ("es%d := []error{E{%d}, &PE{\"p\"}, ErrBase, fmt.Errorf(\"f%%d\", %d)}\nfor _, e := range es%d {\n"
            "var t E\nfmt.Println(e, errors.As(e, &t), t.Code, errors.Is(e, ErrBase))\n}") % (k, a, a, k)


def pasted(decls, body):
    return "package main\n\n%s\nfunc main() {\n%s\n}\n" % (decls, body)


# A pointer printed by %v, %#v, %x or %d: its address differs from run to run.
ADDRESS = re.compile(r"0x[0-9a-f]{6,}|\b\d{10,}\b")


def compare(want, got):
    """WRONG, STOPPED or '' (right), and the first line that differs."""
    want = [ADDRESS.sub("ADDR", l) for l in want]
    got = [ADDRESS.sub("ADDR", l) for l in got]
    err = next((i for i, l in enumerate(got) if l.startswith("ERROR ")), None)
    lines = got if err is None else got[:err]
    for i, l in enumerate(lines):
        if i >= len(want) or l != want[i]:
            return "WRONG", i
    if err is not None:
        return "STOPPED", err
    if len(lines) < len(want):
        return "WRONG", len(lines)  # stopped with no error
    return "", None


def main():
    verbose = "-v" in sys.argv
    args = [a for a in sys.argv[1:] if a != "-v"]
    first, last = int(args[0]), int(args[1])
    gocl = args[2] if len(args) > 2 else os.path.join(os.path.dirname(__file__), "..", "..", "bin", "gocl")
    tally = {"": 0, "WRONG": 0, "STOPPED": 0}
    for seed in range(first, last + 1):
        decls, cases = program(seed, 8)
        for form in ("pasted", "notebook"):
            # A stop ends the program: the case that stopped is reported and
            # dropped, and the rest run again, so that a stop hides no
            # wrong answer of a later case.
            left = list(range(len(cases)))
            while left:
                body = "\n".join(cases[i] for i in left)
                src = pasted(decls, body)
                try:
                    want = go_run(src)
                except subprocess.CalledProcessError as e:
                    print("seed %d: the generated program does not build (a bug of this generator):\n%s" % (seed, e.stderr.decode()))
                    break
                if want is None:
                    print("seed %d: go run's program did not end; skipped" % seed)
                    break
                got = gocl_run(gocl, [src] if form == "pasted" else [decls, body])
                verdict, at = compare(want, got)
                tally[verdict] += 1
                if verdict:
                    print("%s seed %d (%s) at line %d:\n  go run: %s\n  gocl:   %s" % (
                        verdict, seed, form, at + 1, want[at] if at < len(want) else "<end>",
                        got[at] if at < len(got) else "<end>"), flush=True)
                    if verbose:
                        print(src)
                if verdict != "STOPPED":
                    break
                label = [l for l in want[:at + 1] if re.match(r"case\d+$", l)]
                if not label:
                    break
                k = int(label[-1][4:])
                print("  in this case (dropped, the rest run again):\n    " + cases[k].replace("\n", "\n    "))
                left.remove(k)
    print("seeds %d-%d: %d runs right, %d WRONG, %d STOPPED (a refusal or a stop after right lines)" % (
        first, last, tally[""], tally["WRONG"], tally["STOPPED"]))
    sys.exit(1 if tally["WRONG"] else 0)


if __name__ == "__main__":
    main()
