// Command yaegicall measures what yaegi's call of a compiled function costs
// a cell, by the function's signature: cl.EnqueueCopy's (a queue, two
// interfaces, variadic options returning an event) against simpler ones, so
// that issue 21's "cell's own work" can be split into the interpreter's call
// and the binding's work. No OpenCL is needed: the functions do nothing.
//
//	go run ./bench/yaegicall [-n 200000]
package main

import (
	"flag"
	"fmt"
	"reflect"
	"sort"
	"time"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"

	"github.com/seed43a1e1ab/gocl/clapi"
)

// small is an option of one pointer, against clapi.Option's 64 bytes.
type small struct{ p *int }

var samples = map[string][]time.Duration{}

func main() {
	n := flag.Int("n", 200000, "calls of each")
	flag.Parse()
	i := interp.New(interp.Options{})
	i.Use(stdlib.Symbols)
	var ev clapi.Event
	var q clapi.Queue
	i.Use(interp.Exports{"x/x": {
		"Q":             reflect.ValueOf(&q),
		"Src":           reflect.ValueOf(new(clapi.PinnedHost)),
		"Variadic":      reflect.ValueOf(func(*clapi.Queue, any, any, ...clapi.Option) *clapi.Event { return &ev }),
		"Fixed":         reflect.ValueOf(func(*clapi.Queue, any, any, clapi.Option) *clapi.Event { return &ev }),
		"NoOpts":        reflect.ValueOf(func(*clapi.Queue, any, any) *clapi.Event { return &ev }),
		"Typed":         reflect.ValueOf(func(*clapi.Queue, *clapi.PinnedHost, *clapi.PinnedHost) *clapi.Event { return &ev }),
		"Nothing":       reflect.ValueOf(func() {}),
		"SmallVariadic": reflect.ValueOf(func(*clapi.Queue, any, any, ...small) *clapi.Event { return &ev }),
		"SmallOpt":      reflect.ValueOf(small{new(int)}),
		"NonBlocking":   reflect.ValueOf(clapi.NonBlocking),
		"Add":           reflect.ValueOf(func(name string, d time.Duration) { samples[name] = append(samples[name], d) }),
	}})
	src := fmt.Sprintf(`package main
import ("time"; x "x/x")
func main() {
	q, s := x.Q, x.Src
	for i := 0; i < %d; i++ {
		start := time.Now()
		x.Variadic(q, s, s, x.NonBlocking)
		x.Add("EnqueueCopy's signature: (q, any, any, ...Option) *Event", time.Since(start))
		start = time.Now()
		x.Fixed(q, s, s, x.NonBlocking)
		x.Add("one Option, not variadic", time.Since(start))
		start = time.Now()
		x.NoOpts(q, s, s)
		x.Add("no options: (q, any, any) *Event", time.Since(start))
		start = time.Now()
		x.Typed(q, s, s)
		x.Add("concrete types: (q, *PinnedHost, *PinnedHost) *Event", time.Since(start))
		start = time.Now()
		x.SmallVariadic(q, s, s, x.SmallOpt)
		x.Add("variadic of an 8-byte option", time.Since(start))
		start = time.Now()
		x.Nothing()
		x.Add("func()", time.Since(start))
		start = time.Now()
		x.Add("the clock alone", time.Since(start))
	}
}`, *n)
	if _, err := i.Eval(src); err != nil {
		panic(err)
	}
	fmt.Printf("| call from interpreted code (yaegi) | median | p10 | p90 |\n|---|---|---|---|\n")
	for _, name := range []string{"EnqueueCopy's signature: (q, any, any, ...Option) *Event", "one Option, not variadic", "no options: (q, any, any) *Event",
		"concrete types: (q, *PinnedHost, *PinnedHost) *Event", "variadic of an 8-byte option", "func()", "the clock alone"} {
		s := samples[name]
		sort.Slice(s, func(a, b int) bool { return s[a] < s[b] })
		fmt.Printf("| %s | %v | %v | %v |\n", name, s[len(s)/2], s[len(s)/10], s[len(s)*9/10])
	}
}
