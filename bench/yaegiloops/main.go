// yaegiloops times yaegi's interpreted loops: the hot loop's stop check, a
// closure call per iteration (what gocl's interrupt patch changes:
// third_party/yaegi/PATCHES.md) and a plain func call per iteration.
//
//	go run ./bench/yaegiloops
//
// runs it on gocl's patched yaegi; for the unpatched one, build the same
// file in a scratch module that requires github.com/traefik/yaegi v0.16.1
// without the replace (bench/RESULTS.md, "Interrupts").
package main

import (
	"fmt"
	"time"

	"github.com/traefik/yaegi/interp"
)

func main() {
	for _, c := range []struct{ name, src string }{
		{"loop 3e7 adds", `s := 0; for i := 0; i < 30000000; i++ { s += i }`},
		{"closure 3e6 calls", `f := func(n int) int { return n + 1 }; s := 0; for i := 0; i < 3000000; i++ { s = f(s) }`},
		{"func 3e6 calls", `s := 0; for i := 0; i < 3000000; i++ { s = g(s) }`},
	} {
		in := interp.New(interp.Options{})
		if _, err := in.Eval(`func g(n int) int { return n + 1 }`); err != nil {
			panic(err)
		}
		t := time.Now()
		if _, err := in.Eval(c.src); err != nil {
			panic(err)
		}
		fmt.Printf("%-18s %6.0f ms\n", c.name, float64(time.Since(t).Microseconds())/1000)
	}
}
