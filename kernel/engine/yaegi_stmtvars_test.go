package engine

import (
	"strings"
	"testing"
)

// TestFuncUsesStatementVar checks the error of a cell whose function uses
// a variable that a statement of the same cell declares: it names the
// variable and says what to write.
func TestFuncUsesStatementVar(t *testing.T) {
	e := newEngine(t)
	for _, code := range []string{
		"func Bar() bool { return Obj.Foo() }\nvar Obj = &T{}\ntype T struct{}\nfunc (t *T) Foo() bool { return t != nil }",
		"func NewT(name string) *T { return &T{name} }\nvar C = NewT(\"test\")\nfunc (t *T) f() { println(t == C) }\ntype T struct {\n\tName string\n}",
	} {
		err := fails(t, e, code)
		if !strings.Contains(err.Value, "is declared by a statement of this cell: declare it in an earlier cell") {
			t.Errorf("%q: %s", code, tb(err))
		}
	}
	// A name that no statement declares keeps the plain diagnostic.
	err := fails(t, e, "func g() int { return nowhere }")
	if strings.Contains(err.Value, "statement of this cell") {
		t.Errorf("an undefined name explained as a statement's: %s", tb(err))
	}
	// Declared in an earlier cell, it works.
	ok(t, e, "type T struct{}\nfunc (t *T) Foo() bool { return t != nil }\nvar Obj = &T{}")
	_, r := ok(t, e, "func Bar() bool { return Obj.Foo() }\nfmt.Println(Bar())")
	expect(t, "the function in a later cell", r.text("stdout"), "true\n")
}
