package engine

import "testing"

// TestNamedBasicValueInAnInterface: yaegi held a Celsius in an any as a
// bare float64: `case float64:` matched, %T said float64, and an assertion
// to Celsius held for a plain 2.5.
func TestNamedBasicValueInAnInterface(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "type Celsius float64\ntype Fahrenheit float64\nfunc reading() any { return Celsius(21.5) }")
	for _, c := range []struct{ code, want string }{
		{"var v any = Celsius(3)\nswitch v.(type) {\ncase float64:\n\tfmt.Println(\"float64\")\ndefault:\n\tfmt.Println(\"other\")\n}\nfmt.Printf(\"%T %v\\n\", v, v)", "other\nmain.Celsius 3\n"},
		{"var f any = 2.5\n_, isC := f.(Celsius)\nvar g any = Fahrenheit(1)\n_, isC2 := g.(Celsius)\nc, isC3 := reading().(Celsius)\nfmt.Println(isC, isC2, c, isC3)", "false false 21.5 true\n"},
		{"m := map[any]int{}\nm[Celsius(1)]++\nm[Celsius(1)]++\nm[1.0]++\nfmt.Println(len(m), m[Celsius(1)])", "2 2\n"},
		{"fmt.Println(reading() == Celsius(21.5), reading() == any(21.5))", "true false\n"},
		{"defer func() { fmt.Println(recover()) }()\nvar f any = 2.5\n_ = f.(Celsius)", "interface conversion: interface {} is float64, not main.Celsius\n"},
	} {
		if _, r := ok(t, e, c.code); r.text("stdout") != c.want {
			t.Errorf("%s\nprinted %q, want %q (Go's)", c.code, r.text("stdout"), c.want)
		}
	}
}

// TestAssertionToNamedTypeWithMethods: yaegi's v.(Level) held for a plain
// int (Level a named int with a String method).
func TestAssertionToNamedTypeWithMethods(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "type Level int\nfunc (l Level) String() string { return \"L\" }\ntype Rank int\nfunc (r Rank) String() string { return \"R\" }")
	_, r := ok(t, e, "var v any = Level(1)\nvar w any = 5\nvar k any = Rank(1)\n_, a := v.(Level)\n_, b := w.(Level)\n_, c := k.(Level)\nfmt.Println(a, b, c)")
	if got := r.text("stdout"); got != "true false false\n" {
		t.Errorf("printed %q, want %q (Go's)", got, "true false false\n")
	}
}
