package engine

// passCases are an input source and the output source of each pass of the
// table (TestPassRewrites), run alone after the session's cells; a pass
// named "a,b" runs a and b in that order.
var passCases = []passCase{
	{pass: "errors-astype", session: "import \"errors\"\nimport \"io/fs\"", in: "var err error\npe, ok := errors.AsType[*fs.PathError](err)\n_, _ = pe, ok", out: "var err error pe, ok := func() (*fs.PathError, bool) { var __gocl_astarget *fs.PathError __gocl_asok := errors.As(err, &__gocl_astarget) return __gocl_astarget, __gocl_asok }() _, _ = pe, ok"},
	{pass: "recursive-types", in: "type P *P", out: "refused: this cell is valid Go, but the interpreter (yaegi v0.16.1) cannot run a type that refers to itself other than through a struct or an interface"},
	{pass: "use-before-decl", in: "var a = b\nvar b = \"x\"\nfmt.Println(a)", out: "refused: undefined: b (in a cell, the top-level statements run as one function body"},
	{pass: "method-values", session: "type Dog struct{ name string }\nfunc (d Dog) Sound() string { return d.name }",
		in: "d := Dog{\"Rex\"}\nf := d.Sound\n_ = f", out: "d := Dog{\"Rex\"} f := func(__gocl_r Dog) func() string { return __gocl_r.Sound }(d) _ = f"},
	{pass: "typed-ranges", session: "type Size int", in: "var s Size = 3\nfor i := range s { _ = i }", out: "var s Size = 3 { __gocl_n := s for i := __gocl_n - __gocl_n; i < __gocl_n; i++ { _ = i } }"},
	{pass: "crossings", session: "type T struct{ A int }\nfunc (t T) String() string { return \"t\" }", in: "fmt.Println(T{1})", out: "__gocl_hook.FmtPrintln(__gocl_hook.Box(T{1}, 0))"},
	{pass: "crossings,insert-helpers", session: "type T struct{ A int }\nfunc (t T) String() string { return \"t\" }", in: "fmt.Println(T{1})", out: "func __gocl_cvN_String(v T) string { return v.String() } func __gocl_cvN_String(v *T) string { return v.String() } func __gocl_cvtN(v T) { } __gocl_hook.FmtPrintln(__gocl_hook.Box(T{1}, 0))"},
	{pass: "iface-conversions", session: "type S int\nfunc (s S) String() string { return \"s\" }", in: "x := any(S(1))\n_ = x", out: "x := func() any { var __gocl_conv any = S(1) return __gocl_conv }() _ = x"},
	{pass: "untyped-cases", session: "type Celsius float64", in: "var v any = 1\nswitch v.(type) {\ncase Celsius:\n}", out: "refused: a type switch case on Celsius cannot be answered right here"},
	{pass: "generic-names", in: "func Reverse[T any](s []T) {}", out: "refused: a generic function named Reverse is not supported in a cell"},
	{pass: "redeclared", in: "type foo struct{}\nvar foo int", out: "refused: foo redeclared in this block"},
	{pass: "builtin-values", in: "f := println\n_ = f", out: "refused: use of builtin println not in function call"},
	{pass: "iter-pull", session: "import \"iter\"", in: "var seq iter.Seq[int]\nnext, stop := iter.Pull(seq)\n_, _ = next, stop", out: "refused: iter.Pull is not supported in a cell"},
	{pass: "pkg-vars", session: "import \"os\"", in: "os.Args = []string{\"a\"}", out: "__gocl_hook.SetVar(0, []string{\"a\"})"},
	{pass: "recv-conds", in: "ch := make(chan bool)\nok := <-ch && true\n_ = ok", out: "ch := make(chan bool) ok := (<-ch == true) && true _ = ok"},
	{pass: "parallel-values", in: "var s string\nvar n int\ns, n = \"x\", len(s)", out: "var s string var n int s, n = \"x\", (len(s))"},
	{pass: "case-lists", in: "y := 2\nswitch {\ncase y == 1, y == 2:\n}", out: "y := 2 switch { case (y == 1) || (y == 2): }"},
	{pass: "rune-consts", in: "a := 'r' + 1", out: "a := rune('r' + 1)"},
	{pass: "modern", session: "type Dog struct{}\nfunc (d Dog) Sound() string { return \"woof\" }", in: "for i := range 10 { _ = i }\nf := Dog.Sound\n_ = f", out: "{ __gocl_n := 10 for i := __gocl_n - __gocl_n; i < __gocl_n; i++ { _ = i } } f := func(__gocl_recv Dog) string { return __gocl_recv.Sound() } _ = f"},
	{pass: "cell-assertions", session: "type P struct{ X int }", in: "var v any = P{1}\np := v.(P)\n_ = p", out: "var v any = P{1} p := __gocl_unwrapped(v).(P) _ = p"},
	{pass: "type-switches", in: "var x any = 1\nswitch x.(type) {\ncase error:\n}", out: "var x any = 1 { __gocl_tsN := x __gocl_tsNk := -1 switch __gocl_tsN.(type) { } __gocl_tsNmN, __gocl_tsNmNk := __gocl_match(__gocl_tsN, (*error)(nil)) if !__gocl_tsNmNk && __gocl_tsN != nil { __gocl_tv, __gocl_ok := __gocl_tsN.(error) __gocl_tsNmN = __gocl_ok } switch { case __gocl_tsNmN: } }"},
	{pass: "defers", in: "func f() {\n\tx := 0\n\tdefer fmt.Println(x)\n\tx = 5\n}", out: "func f() { var __gocl_defersN []func() defer func() { for __gocl_i := len(__gocl_defersN) - 1; __gocl_i >= 0; __gocl_i-- { __gocl_defersN[__gocl_i]() } }() x := 0 __gocl_defersN = append(__gocl_defersN, func() func() { __gocl_dfN, __gocl_daN_N := fmt.Println, x return func() { __gocl_dfN(__gocl_daN_N) } }()) x = 5 }"},
	{pass: "multi-vars", in: "package main\n\nfunc r2() (int, int) { return 1, 2 }\n\nvar a, b int = r2()\n\nfunc main() {}", out: "func r2() (int, int) { return 1, 2 } var ( __gocl_mvN_N, __gocl_mvN_N = r2() a, b int = __gocl_mvN_N, __gocl_mvN_N ) func main() { }"},
	{pass: "selects", in: "func f(ch chan int) {\n\tfor {\n\t\tselect {\n\t\tcase <-ch:\n\t\t\tbreak\n\t\t}\n\t}\n}", out: "func f(ch chan int) { for { { __gocl_selN: select { case <-ch: break __gocl_selN } } } }"},
	{pass: "recovers", in: "func f() (v any) {\n\tdefer func() { v = recover() }()\n\tpanic(1)\n}", out: "func f() (v any) { defer func() { v = __gocl_hook.Recover(recover()) }() panic(1) }"},
	{pass: "generic-defines", session: "import \"slices\"", in: "s := []int{1}\nall := slices.Collect(slices.Values(s))\n_ = all", out: "s := []int{1} var all []int = slices.Collect(slices.Values(s)) _ = all"},
	{pass: "bounds", in: "xs := []int{1}\ni := 0\nn := xs[i]\n_ = n", out: "xs := []int{1} i := 0 if i < 0 || i >= len(xs) { panic(__gocl_hook.Bounds(0, 0, len(xs), int64(i), 0, 0)) } n := xs[i] _ = n"},
	{pass: "changed-decls", session: "type T int", in: "type T string", out: "refused: type T was declared in an earlier cell as \"T int\""},
	{pass: "dropped-names", in: "fmt.Println(y)", out: "refused: undefined: y (cell #1 declared it, but failed before that statement ran"},
}
