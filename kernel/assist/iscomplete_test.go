package assist

import "testing"

func TestIsComplete(t *testing.T) {
	tests := []struct {
		code, status, indent string
	}{
		{"", "complete", ""},
		{"x := 1", "complete", ""},
		{`fmt.Println("hi")`, "complete", ""},
		{"func f() int {\n\treturn 1\n}", "complete", ""},
		{"import \"fmt\"\nfmt.Println(1)", "complete", ""}, // mixed declarations and statements
		{"type T struct{ X int }\nv := T{X: 1}\nfunc (t T) M() {}", "complete", ""},
		{"for i := 0; i < 3; i++ {", "incomplete", "    "},
		{"func f() {\n\tif true {", "incomplete", "        "},
		{"fmt.Println(1,", "incomplete", "    "},
		{"x := []int{\n\t1,\n\t2,", "incomplete", "    "},
		{"m := map[string]int{\"a\": 1}[", "incomplete", "    "},
		{"s := `raw\nstring", "incomplete", ""},
		{"x := 1 +", "incomplete", "    "},
		{"ok := a &&", "incomplete", "    "},
		{"x :=", "incomplete", "    "},
		{"f(a,\n  b) // done", "complete", ""},
		{"/* open comment", "incomplete", ""},
		{"}", "invalid", ""},
		{"x := (1]", "invalid", ""},
		{"f())", "invalid", ""},
		{"s := \"broken\nx := 1", "invalid", ""},
		{"x := 1 1", "invalid", ""},
		{"if x {\n} else", "incomplete", "    "},
		{"func f()", "incomplete", ""},
		{"if x", "incomplete", ""},
		{"package main\n\nfunc main() {}", "complete", ""},
		{"func() { fmt.Println(1) }()", "complete", ""},
	}
	for _, tt := range tests {
		status, indent := IsComplete(tt.code)
		if status != tt.status || indent != tt.indent {
			t.Errorf("IsComplete(%q) = %q, %q; want %q, %q", tt.code, status, indent, tt.status, tt.indent)
		}
	}
}
