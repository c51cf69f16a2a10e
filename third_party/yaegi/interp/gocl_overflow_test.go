// gocl patch: this whole file is gocl's (see ../PATCHES.md, "Constants that do not fit their type").

package interp_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
)

// goclGoWords are yaegi's programs that declare, in their "// Error:"
// comment, yaegi's former words for an error whose words are Go's now
// (gocl_overflow.go); TestFile skips them, and a gocl_ program in _test
// declares Go's words for the same program.
var goclGoWords = map[string]bool{
	"op1.go": true, // gocl_overflow_truncated.go
}

// TestConstantsFit checks the representability of constants: each source
// Go refuses is refused with go/types' words, and each one Go accepts
// prints Go's answer (the cases of issue 24, and those that must keep
// working).
func TestConstantsFit(t *testing.T) {
	refused := []struct{ src, err string }{
		{"var x int8 = 200", "cannot use 200 (untyped int constant) as int8 value in variable declaration (overflows)"},
		{"var x int8; x = 200", "cannot use 200 (untyped int constant) as int8 value in assignment (overflows)"},
		{"var i8 int8 = 127; _ = i8 + 200", "200 (untyped int constant) overflows int8"},
		{"var u uint8 = 3; _ = u - 300", "300 (untyped int constant) overflows uint8"},
		{"var z int8; z += 500", "500 (untyped int constant) overflows int8"},
		{"var i int8; _ = i == 200", "200 (untyped int constant) overflows int8"},
		{"var i int; _ = i + 1.5", "1.5 (untyped float constant) truncated to int"},
		{"_ = int8(1) << 8", "int8(1) << 8 (constant 256 of type int8) overflows int8"},
		{"_ = int8(100) * 2", "int8(100) * 2 (constant 200 of type int8) overflows int8"},
		{"_ = uint8(1) - 2", "uint8(1) - 2 (constant -1 of type uint8) overflows uint8"},
		{"_ = -int8(-128)", "-int8(-128) (constant 128 of type int8) overflows int8"},
		{"const c int8 = 100; _ = c * 2", "c * 2 (constant 200 of type int8) overflows int8"},
		{"_ = int8(200)", "constant 200 overflows int8"},
		{"_ = int8(int16(200))", "constant 200 overflows int8"},
		{"_ = int(1.5)", "cannot convert 1.5 (untyped float constant) to type int"},
		{"var x int8 = 100 + 100", "cannot use 100 + 100 (untyped int constant 200) as int8 value in variable declaration (overflows)"},
		{"const big = 300; var x int8 = big", "cannot use big (untyped int constant 300) as int8 value in variable declaration (overflows)"},
		{"x := 1 << 70", "cannot use 1 << 70 (untyped int constant 1180591620717411303424) as int value in assignment (overflows)"},
		{"var f float32 = 1e40", "cannot use 1e40 (untyped float constant 1e+40) as float32 value in variable declaration (overflows)"},
		{"ch := make(chan int8, 1); ch <- 200", "cannot use 200 (untyped int constant) as int8 value in send (overflows)"},
		{"f := func(a int8) {}; f(200)", "cannot use 200 (untyped int constant) as int8 value in argument to f (overflows)"},
		{"f := func() int8 { return 200 }; _ = f", "cannot use 200 (untyped int constant) as int8 value in return statement (overflows)"},
		{"type S struct{ a int8 }; _ = S{a: 200}", "cannot use 200 (untyped int constant) as int8 value in struct literal (overflows)"},
		{"_ = []uint8{1, 256}", "cannot use 256 (untyped int constant) as uint8 value in array or slice literal (overflows)"},
		{"const c int8 = 200", "cannot use 200 (untyped int constant) as int8 value in constant declaration (overflows)"},
	}
	for _, c := range refused {
		i := interp.New(interp.Options{})
		_, err := i.Eval("func main() {" + c.src + "}")
		if err == nil || !strings.HasSuffix(err.Error(), ": "+c.err) {
			t.Errorf("%s: got error %v, want %q", c.src, err, c.err)
		}
	}

	// Valid Go, each with Go's answer (go run prints the same): the body of
	// a function that returns it.
	fit := []struct{ src, res string }{
		{"var a int8 = 100; return a + 100", "-56"},
		{"var b uint8 = 3; return b - 4", "255"},
		{"var x int8 = (100 + 100) / 2; return x", "100"},
		{"var x float64 = 3 / 2; return x", "1"},
		{"var x float64; x = 7 / 2; return x", "3"},
		{"var x int8 = -128; return x", "-128"},
		{"var x uint8 = 1 - 2 + 5; return x", "4"},
		{"return ^uint(0)", "18446744073709551615"},
		{"return ^uint8(0)", "255"},
		{"return 1 << 62", "4611686018427387904"},
		{"return byte('a' + 1)", "98"},
		{"const huge = 1 << 100; var f float64 = huge >> 98; return f", "4"},
		{"return uint64(1<<64 - 1)", "18446744073709551615"},
		{"var i8 int8 = 'a'; return i8", "97"},
		{"return int8(-128) / 1", "-128"},
		{"var r byte = 0xff; return r", "255"},
		{"var f float32 = 1e-50; return f", "0"},
		{"const ( A uint8 = iota * 100; B; C ); return C", "200"},
	}
	for _, c := range fit {
		i := interp.New(interp.Options{})
		_, err := i.Eval("func f() interface{} {" + c.src + "}")
		var v reflect.Value
		if err == nil {
			v, err = i.Eval("f()")
		}
		if err != nil {
			t.Errorf("%s: %v", c.src, err)
			continue
		}
		if got := fmt.Sprint(v.Interface()); got != c.res {
			t.Errorf("%s = %s, want %s", c.src, got, c.res)
		}
	}
}
