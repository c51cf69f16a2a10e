package engine

import "testing"

// TestValueMethodStructInAnError: a struct of two fields with a value
// receiver, held in an error. yaegi's wrapper kept its last field alone:
// err.Error() panicked in reflect, a named result came back nil, %T said
// interp._error, and errors.As and an assertion failed.
func TestValueMethodStructInAnError(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "import \"errors\"\ntype ValErr struct {\n\tCode int\n\tMsg  string\n}\n"+
		"func (e ValErr) Error() string { return fmt.Sprintf(\"%d: %s\", e.Code, e.Msg) }\n"+
		"func named() (err error) {\n\terr = ValErr{4, \"named\"}\n\treturn\n}\n"+
		"func local() string {\n\tvar r error = ValErr{5, \"local\"}\n\treturn r.Error()\n}")
	for _, c := range []struct{ code, want string }{
		{"fmt.Println(named(), local())", "4: named 5: local\n"},
		{"err := named()\nvar v ValErr\nfmt.Printf(\"%T %v\\n\", err, errors.As(err, &v))\nfmt.Println(v.Code)", "main.ValErr true\n4\n"},
		{"back, isVal := named().(ValErr)\nfmt.Println(back.Msg, isVal)", "named true\n"},
	} {
		if _, r := ok(t, e, c.code); r.text("stdout") != c.want {
			t.Errorf("%s\nprinted %q, want %q (Go's)", c.code, r.text("stdout"), c.want)
		}
	}
}
