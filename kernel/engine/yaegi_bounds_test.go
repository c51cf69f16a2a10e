package engine

import (
	"bytes"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/printer"
	"go/token"
	"go/types"
	"runtime"
	"strings"
	"testing"
)

// boundsRewrite type-checks src (a file of package main, without the
// package clause) and returns it with the checks of yaegi_bounds.go.
func boundsRewrite(t *testing.T, src string) string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", "package main\n\n"+src, 0)
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, src)
	}
	info := &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
	}
	conf := types.Config{Importer: importer.Default(), Error: func(err error) {
		if !strings.Contains(err.Error(), "declared and not used") && !strings.Contains(err.Error(), "imported and not used") {
			t.Fatalf("type check: %v\n%s", err, src)
		}
	}}
	conf.Check("main", fset, []*ast.File{f}, info)
	newBounder(info).file(f)
	var buf bytes.Buffer
	if err := printer.Fprint(&buf, fset, f); err != nil {
		t.Fatal(err)
	}
	return strings.TrimPrefix(buf.String(), "package main\n\n")
}

// boundsPrelude declares what the cases of TestBoundsChecks use; their
// statements go into main.
const boundsPrelude = `import "fmt"

var g int

func f() int { g++; return 0 }

func f2(x int) int { return x }

type counter struct{ n int }

func (c *counter) next() int { c.n = 0; return 2 }

func (c *counter) add(x int) int { c.n += x; return c.n }

func main() {
	xs, ys := []int{1, 2, 3}, []int{4}
	i, j, n, z := 5, 7, 2, 0
	var u uint8
	var arr [4]int
	var p *[3]int
	var m map[int]int
	var v, w any
	ch := make(chan int, 1)
	c := &counter{}
	s := "abc"
	const k = 1
`

// TestBoundsChecks counts the checks put into each statement. The cases
// that want none are each one where a check would panic where Go does not,
// or before Go's own panic, if the rule that skips it were missing.
func TestBoundsChecks(t *testing.T) {
	for _, c := range []struct {
		name, body string
		want       int
	}{
		// Checked.
		{"an index", "_ = xs[i]", 1},
		{"arithmetic", "_ = xs[i-1] + xs[i%4] + xs[k] + xs[len(ys)]", 4},
		{"an unsigned index", "_ = xs[u]", 1},
		{"an array and a string", "_ = arr[i] + int(s[i])", 2},
		{"slices", "_ = xs[i:]\n_ = xs[:i]\n_ = xs[1:i:n]\n_ = s[i:j]\n_ = len(xs[i:]) + len(xs[:j])", 6},
		{"the call an index is an argument of", "fmt.Println(xs[i], len(ys))", 1},
		{"a division after the index", "_ = xs[i] / z", 1},
		{"the left operand of &&", "if xs[i] > 0 && f() > 0 {\n}", 1},
		{"both sides of =", "xs[i] = ys[j]", 2},
		{"return", "func() int { return xs[i] }()", 1},
		{"a closure's body", "get := func() int { return xs[i] }\n_ = get", 1},
		{"a range expression", "for range xs[:i] {\n}", 1},
		{"an if without init", "if xs[i] > 0 {\n}", 1},
		{"an if's init", "if x := xs[i]; x > 0 {\n}", 1},
		{"a map's key", "_ = m[xs[i]]", 1},
		{"an index in an index", "_ = xs[ys[j]]", 1},
		{"defer's argument", "defer fmt.Println(xs[i])", 1},

		// Not checked.
		{"the right operand of &&", "if i < len(xs) && xs[i] > 0 {\n}", 0},
		{"the right operand of ||", "if i >= len(xs) || xs[i] == 0 {\n}", 0},
		{"a call's argument in the right operand of &&", "if i < len(xs) && f2(xs[i]) > 0 {\n}", 0},
		{"a conversion's and a builtin's argument in the right operand of ||", "_ = i >= len(xs) || int64(xs[i]) == 0 || min(xs[i], 1) == 0", 0},
		{"a method call's argument in the right operand of &&", "_ = i < len(xs) && c.add(xs[i]) > 0", 0},
		{"a case expression", "switch {\ncase i >= len(xs):\ncase xs[i] > 0:\n}", 0},
		{"a switch tag after its init", "switch i := 0; xs[i] {\n}", 0},
		{"an if's condition after its init", "if i := 0; xs[i] > 0 {\n}", 0},
		{"a for loop's condition", "for x := 0; x < len(xs) && xs[x] != 0; x++ {\n}", 0},
		{"a for loop's post", "for x := 0; x < 2; _ = xs[i] {\n\tx++\n}", 0},
		{"an else-if condition", "if i < len(xs) {\n} else if xs[i] > 0 {\n}", 0},
		{"a select case", "select {\ncase ch <- xs[i]:\ndefault:\n}", 0},
		{"an operand declared by an earlier spec", "{\n\tvar (\n\t\ti = 0\n\t\tx = xs[i]\n\t)\n\t_ = x\n}", 0},
		{"a call before the index", "fmt.Println(f(), xs[g])", 0},
		{"a method call before the index", "_ = c.next() + xs[c.n] + xs[i]", 0},
		{"a closure called before the index", "_ = func() int { i = 0; return 0 }() + xs[i]", 0},
		{"a closure not called", "get := func() int { return xs[i] }\ni = 0\n_ = get()", 1},
		{"a division by a variable first", "_ = 1/z + xs[i]", 0},
		{"a negative shift first", "_ = 1<<n + xs[i]", 0},
		{"a dereference first", "_ = p[0] + xs[i]", 0},
		{"a receive first", "_ = <-ch + xs[i]", 0},
		{"a type assertion first", "_ = v.(int) + xs[i]", 0},
		{"interfaces compared first", "_ = []bool{v == w, xs[i] > 0}", 0},
		{"a map literal's interface key first", "_ = map[any]int{v: 1, 2: xs[i]}", 0},
		{"a map literal's key", "_ = map[int]int{xs[i]: 1}", 1},
		{"an unchecked index first", "_ = xs[ys[j]] + xs[i]", 0},
		{"a tuple assignment's targets", "xs[0], xs[i] = 7, 8", 0},
		{"an index on the left of a call", "xs[f()] = xs[i]", 0},
		{"a map", "_ = m[i]", 0},
		{"a map index evaluated early", "_ = ys[i] + m[xs[j]]", 0},
		{"a slice evaluated early", "_ = xs[j] + len(ys[i:])", 0},
		{"a slice evaluated before the operand of op=", "ys[i] += cap(ys[:i:k])", 0},
		{"min evaluated early", "_ = ys[i] + min(xs[j], 1)", 0},
		{"early and in order", "_ = m[xs[j]] + ys[i]", 2},
		{"two slices in a tuple", "_, _ = xs[i:], xs[:j]", 0},
		{"a tuple assignment's values", "i, j = xs[i], ys[j]", 0},
		{"one value of a tuple assignment", "i, j = xs[i], 2", 1},
		{"a pointer to an array", "_ = p[i]", 0},
		{"a constant index into an array", "_ = arr[3]", 0},
		{"a generic function", "}\nfunc gen[T any](xs []T, i int) T { return xs[i] }\nfunc _() {", 0},
	} {
		out := boundsRewrite(t, boundsPrelude+c.body+"\n}\n")
		if got := strings.Count(out, helperPrefix+"hook.Bounds"); got != c.want {
			t.Errorf("%s: %d checks, want %d:\n%s", c.name, got, c.want, out[strings.Index(out, "const k = 1"):])
		}
	}
}

// TestBoundsCheckOrder checks that the checks come in Go's order: the
// right side of = before the index on the left, the operand of op= first.
func TestBoundsCheckOrder(t *testing.T) {
	for body, first := range map[string]string{
		"xs[i] = ys[j]":                       "len(ys), int64(j)",
		"xs[i] += ys[j]":                      "len(xs), int64(i)",
		"_ = xs[i] + ys[j]":                   "len(xs), int64(i)",
		"_ = map[int]int{xs[i]: ys[j]}":       "len(ys), int64(j)",
		"_ = map[int]int{1: xs[i], 2: ys[j]}": "len(xs), int64(i)",
		"_ = [...]int{2: xs[i], 0: ys[j]}":    "len(xs), int64(i)",
		"_ = xs[ys[j]:xs[i]]":                 "len(ys), int64(j)",
	} {
		out := boundsRewrite(t, boundsPrelude+body+"\n}\n")
		at := strings.Index(out, helperPrefix+"hook.Bounds")
		if at < 0 || !strings.HasPrefix(out[at:], helperPrefix+"hook.Bounds(0, 0, "+first) {
			t.Errorf("%s: the first check is not of %s:\n%s", body, first, out)
		}
	}
}

// TestBoundsInLoops checks the loops whose indexes need no check, or a
// check only when one test before the loop says it may fail.
func TestBoundsInLoops(t *testing.T) {
	for _, c := range []struct {
		name, body    string
		checks, guard int
	}{
		{"range over the slice", "for x := range xs {\n\t_ = xs[x]\n}", 0, 0},
		{"counted to its length", "for x := 0; x < len(xs); x++ {\n\t_ = xs[x]\n}", 0, 0},
		{"the slice assigned in the body", "for x := range xs {\n\txs = ys\n\t_ = xs[x]\n}", 1, 0},
		{"the index assigned in the body", "for x := 0; x < len(xs); x++ {\n\tx += 2\n\t_ = xs[x]\n}", 1, 0},
		{"to a bound", "for x := 0; x < n; x++ {\n\t_ = xs[x] + ys[x]\n}", 2, 1},
		{"from a variable", "for x := i; x <= n; x++ {\n\t_ = xs[x]\n}", 1, 1},
		{"range over another", "for x := range ys {\n\t_ = xs[x]\n}", 1, 1},
		{"labelled", "L:\nfor x := 0; x < n; x++ {\n\t_ = xs[x]\n\tcontinue L\n}", 1, 0},
		{"the bound assigned in the body", "for x := 0; x < n; x++ {\n\tn--\n\t_ = xs[x]\n}", 1, 0},
		{"neighbours", "for x := 1; x < len(xs); x++ {\n\t_ = xs[x] - xs[x-1]\n}", 0, 0},
		{"the next one", "for x := 0; x < len(xs); x++ {\n\t_ = xs[x+1]\n}", 1, 1},
		{"the one before the first", "for x := 0; x < n; x++ {\n\t_ = xs[x-1]\n}", 1, 0},
		{"an operand declared in the body", "for x := 0; x < n; x++ {\n\trow := xs\n\t_ = row[x]\n}", 1, 0},
		{"a bound declared by the init", "for x, e := 0, 3; x < e; x++ {\n\t_ = xs[x]\n}", 1, 0},
	} {
		out := boundsRewrite(t, boundsPrelude+c.body+"\n}\n")
		if got := strings.Count(out, helperPrefix+"hook.Bounds"); got != c.checks {
			t.Errorf("%s: %d checks, want %d:\n%s", c.name, got, c.checks, out)
		}
		if got := strings.Count(out, helperPrefix+"out1 :="); got != c.guard {
			t.Errorf("%s: %d guards, want %d:\n%s", c.name, got, c.guard, out)
		}
	}
}

// TestBoundsRewrite checks one rewrite whole.
func TestBoundsRewrite(t *testing.T) {
	out := boundsRewrite(t, `func main() {
	xs, ys, n, s := []int{1}, []int{2}, 2, 0
	for j := 0; j < n; j++ {
		s += xs[j] + xs[j+1]
	}
	for _, k := range ys {
		s += xs[k] + xs[k-1]
	}
	_ = xs[1:n]
}
`)
	want := `func main() {
	xs, ys, n, s := []int{1}, []int{2}, 2, 0
	{
		__gocl_out1 := n > len(xs) || n+1 > len(xs)
		for j := 0; j < n; j++ {
			if __gocl_out1 {
				if j >= len(xs) {
					panic(__gocl_hook.Bounds(0, 0, len(xs), int64(j), 0, 0))
				}
				if j+1 >= len(xs) {
					panic(__gocl_hook.Bounds(0, 0, len(xs), int64(j+1), 0, 0))
				}
			}
			s += xs[j] + xs[j+1]
		}
	}
	for _, k := range ys {
		if k >= len(xs) {
			panic(__gocl_hook.Bounds(0, 0, len(xs), int64(k), 0, 0))
		}
		if k-1 < 0 || k-1 >= len(xs) {
			panic(__gocl_hook.Bounds(0, 0, len(xs), int64(k-1), 0, 0))
		}
		s += xs[k] + xs[k-1]
	}
	if n < 0 || n > cap(xs) || 1 > n {
		panic(__gocl_hook.Bounds(1, 0, cap(xs), int64(1), int64(n), int64(1)))
	}
	_ = xs[1:n]
}
`
	expect(t, "rewrite", out, want)
}

// TestBoundsErrorTexts checks the hook's texts against Go's (the runtime's
// own errors, made by the same indexes in compiled code).
func TestBoundsErrorTexts(t *testing.T) {
	goText := func(f func()) (text string) {
		defer func() { text = recover().(error).Error() }()
		f()
		return ""
	}
	xs := make([]int, 2, 4)
	str := "abc"
	var arr [3]int
	i, neg, two := 5, -1, 2
	var u8 uint8 = 200
	var big uint64 = 1 << 63
	for _, c := range []struct {
		got  error
		want func()
	}{
		{boundsError(boundsIndex, 0, 2, 5, 0, 0), func() { _ = xs[i] }},
		{boundsError(boundsIndex, 0, 2, -1, 0, 0), func() { _ = xs[neg] }},
		{boundsError(boundsIndex, 1, 2, 200, 0, 0), func() { _ = xs[u8] }},
		{boundsError(boundsIndex, 1, 2, int64(big), 0, 0), func() { _ = xs[big] }},
		{boundsError(boundsSliceCap, 0, 4, 0, 5, 0), func() { _ = xs[:i] }},
		{boundsError(boundsSliceCap, 0, 4, 0, -1, 0), func() { _ = xs[:neg] }},
		{boundsError(boundsSliceCap, 0, 4, 5, 2, 0), func() { _ = xs[i:] }},
		{boundsError(boundsSliceCap, 0, 4, -1, 2, 0), func() { _ = xs[neg:] }},
		{boundsError(boundsSliceCap, 0, 4, 2, 1, 0), func() { _ = xs[two:1] }},
		{boundsError(boundsSliceLen, 0, 3, 0, 5, 0), func() { _ = str[:i] }},
		{boundsError(boundsSliceLen, 0, 3, 5, 3, 0), func() { _ = arr[i:] }},
		{boundsError(boundsSlice3Cap, 0, 4, 0, 1, 5), func() { _ = xs[0:1:i] }},
		{boundsError(boundsSlice3Cap, 0, 4, 0, 1, -1), func() { _ = xs[0:1:neg] }},
		{boundsError(boundsSlice3Cap, 0, 4, 0, 3, 2), func() { _ = xs[0 : 3+i-i : 2] }},
		{boundsError(boundsSlice3Cap, 0, 4, 0, -1, 2), func() { _ = xs[0:neg:2] }},
		{boundsError(boundsSlice3Cap, 0, 4, 2, 1, 2), func() { _ = xs[two:1:2] }},
		{boundsError(boundsSlice3Cap, 0, 4, -1, 1, 2), func() { _ = xs[neg:1:2] }},
		{boundsError(boundsSlice3Len, 0, 3, 0, 1, 5), func() { _ = arr[0:1:i] }},
	} {
		want := goText(c.want)
		if _, ok := c.got.(runtime.Error); !ok || c.got.Error() != want {
			t.Errorf("got %q (%T), want Go's %q", c.got.Error(), c.got, want)
		}
	}
}

// TestBoundsNumbersInCells runs cells through the engine: Go's numbers in
// a recovered value, an uncaught panic and a guarded top-level loop, and
// no checks in a cell that declares len.
func TestBoundsNumbersInCells(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "import \"runtime\"")
	_, r := ok(t, e, `xs := []int{1, 2, 3}
n := 5
func() {
	defer func() {
		r := recover()
		_, isRuntime := r.(runtime.Error)
		fmt.Printf("%v %v\n", r, isRuntime)
	}()
	s := 0
	for i := 0; i < n; i++ {
		s += xs[i]
	}
}()`)
	expect(t, "recovered", r.text("stdout"), "runtime error: index out of range [3] with length 3 true\n")
	err := fails(t, e, "for i := range n {\n\tfmt.Print(i)\n}\nfmt.Println(xs[1:n])")
	expect(t, "uncaught", err.Value, "runtime error: slice bounds out of range [:5] with capacity 3")
	if strings.Contains(tb(err), "does not report") {
		t.Errorf("the note that the numbers are missing, with the numbers:\n%s", tb(err))
	}
	_, r = ok(t, e, "total := 0\nfor i := 0; i < len(xs); i++ {\n\ttotal += xs[i]\n}\nfmt.Println(total)")
	expect(t, "a provable loop", r.text("stdout"), "6\n")
	err = fails(t, e, "for i := 1; i <= n; i++ {\n\tlast := xs[i-1]\n\tfmt.Print(last, \" \")\n}")
	expect(t, "a guarded top-level loop", err.Value, "runtime error: index out of range [3] with length 3")
	_, r = ok(t, e, "fmt.Println(total, n)")
	expect(t, "after the guarded loop", r.text("stdout"), "6 5\n")
	_, r = ok(t, e, "func sum[T int | float64](xs []T, n int) T {\n\tvar s T\n\tfor i := 0; i < n; i++ {\n\t\ts += xs[i]\n\t}\n\treturn s\n}\nfmt.Println(sum([]float64{1.5, 2}, 2))")
	expect(t, "a generic function, as written", r.text("stdout"), "3.5\n")
	err = fails(t, e, "func len(xs []int) int { return 1 }\nfmt.Println(xs[n])")
	expect(t, "a cell that declares len", err.Value, "runtime error: index out of range")
}
