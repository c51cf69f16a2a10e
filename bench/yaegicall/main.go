// Command yaegicall measures what yaegi's call of a compiled function costs
// a cell, by the function's signature: cl.EnqueueCopy's (a queue, two
// interfaces, variadic options returning an event) against simpler ones, so
// that issue 21's "cell's own work" can be split into the interpreter's call
// and the binding's work. No OpenCL is needed: the functions do nothing.
//
// Each call is compiled twice, through reflect.Value.Call (yaegi's way)
// and through the direct callers of clapi/direct (gocl's patch), and the
// two are timed in turns in one process. -sleep D sleeps D before every
// timed call, so that each is the first call after a wait (cold), as a
// cell's copy after its last one's Wait.
//
//	go run ./bench/yaegicall [-n 200000] [-sleep 0]
package main

import (
	"flag"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"

	"github.com/seed43a1e1ab/gocl/clapi"
	_ "github.com/seed43a1e1ab/gocl/clapi/direct"
)

// small is an option of one pointer, against clapi.Option's 64 bytes.
type small struct{ p *int }

var samples = map[string][]time.Duration{}

// body is one round of timed calls; %[1]s names the way ("reflect" or
// "direct").
const body = `
func round_%[1]s(q *clapi.Queue, s any) {
	x.Before()
	start := time.Now()
	x.Variadic(q, s, s, x.NonBlocking)
	x.Add("%[1]s|EnqueueCopy's signature: (q, any, any, ...Option) *Event", time.Since(start))
	x.Before()
	start = time.Now()
	x.Fixed(q, s, s, x.NonBlocking)
	x.Add("%[1]s|one Option, not variadic", time.Since(start))
	x.Before()
	start = time.Now()
	x.NoOpts(q, s, s)
	x.Add("%[1]s|no options: (q, any, any) *Event", time.Since(start))
	x.Before()
	start = time.Now()
	x.Nothing()
	x.Add("%[1]s|func()", time.Since(start))
	x.Before()
	start = time.Now()
	x.Add("%[1]s|the clock alone", time.Since(start))
}
`

func main() {
	n := flag.Int("n", 200000, "rounds (each way's calls once per round)")
	sleep := flag.Duration("sleep", 0, "sleep this long before every timed call (0: warm)")
	flag.Parse()
	i := interp.New(interp.Options{})
	i.Use(stdlib.Symbols)
	var ev clapi.Event
	var q clapi.Queue
	before := func() {}
	if *sleep > 0 {
		before = func() { time.Sleep(*sleep) }
	}
	i.Use(interp.Exports{"x/x": {
		"Q":           reflect.ValueOf(&q),
		"Src":         reflect.ValueOf(new(clapi.PinnedHost)),
		"Variadic":    reflect.ValueOf(func(*clapi.Queue, any, any, ...clapi.Option) *clapi.Event { return &ev }),
		"Fixed":       reflect.ValueOf(func(*clapi.Queue, any, any, clapi.Option) *clapi.Event { return &ev }),
		"NoOpts":      reflect.ValueOf(func(*clapi.Queue, any, any) *clapi.Event { return &ev }),
		"Nothing":     reflect.ValueOf(func() {}),
		"NonBlocking": reflect.ValueOf(&clapi.NonBlocking).Elem(),
		"Before":      reflect.ValueOf(before),
		"Add":         reflect.ValueOf(func(name string, d time.Duration) { samples[name] = append(samples[name], d) }),
	}, "clapi/clapi": {"Queue": reflect.ValueOf((*clapi.Queue)(nil))}})
	head := "package main\nimport (\"time\"; x \"x/x\"; \"clapi\")\nvar _ = clapi.Queue{}\n"
	if _, err := i.Eval(head); err != nil {
		panic(err)
	}
	for _, way := range []string{"reflect", "direct"} {
		interp.SetDirectCalls(way == "direct")
		if _, err := i.Eval(fmt.Sprintf(body, way)); err != nil {
			panic(err)
		}
	}
	interp.SetDirectCalls(true)
	if _, err := i.Eval(fmt.Sprintf(`for i := 0; i < %d; i++ {
	if i%%2 == 0 { round_reflect(x.Q, x.Src); round_direct(x.Q, x.Src) } else { round_direct(x.Q, x.Src); round_reflect(x.Q, x.Src) }
}`, *n)); err != nil {
		panic(err)
	}
	warm := "warm"
	if *sleep > 0 {
		warm = fmt.Sprintf("each call after sleeping %v", *sleep)
	}
	fmt.Printf("yaegicall, %d rounds, %s: median (p10, p90)\n\n| call from interpreted code (yaegi) | reflect.Value.Call | direct (clapi/direct) | direct / reflect |\n|---|---|---|---|\n", *n, warm)
	for _, name := range []string{"EnqueueCopy's signature: (q, any, any, ...Option) *Event", "one Option, not variadic", "no options: (q, any, any) *Event",
		"func()", "the clock alone"} {
		var cells []string
		var meds []time.Duration
		for _, way := range []string{"reflect", "direct"} {
			s := samples[way+"|"+name]
			sort.Slice(s, func(a, b int) bool { return s[a] < s[b] })
			meds = append(meds, s[len(s)/2])
			cells = append(cells, fmt.Sprintf("%v (%v, %v)", s[len(s)/2], s[len(s)/10], s[len(s)*9/10]))
		}
		fmt.Printf("| %s | %s | %.2f |\n", name, strings.Join(cells, " | "), float64(meds[1])/float64(meds[0]))
	}
}
