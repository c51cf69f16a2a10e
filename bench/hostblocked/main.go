// Command hostblocked measures how long a non-blocking copy from pinned
// host memory holds the host (issue 12's "host-blocked time"), three ways
// in one process, interleaved round by round so that all three see the
// same machine at the same moment:
//
//	C          clEnqueueWriteBuffer timed in C, as bench/transfer/clref.c does
//	           (its own context, queue and ALLOC_HOST_PTR memory on the same device)
//	compiled   cl.EnqueueCopy(q, buf, pinned, cl.NonBlocking) from compiled Go
//	cell       the same call from a notebook cell, in gocl's engine (yaegi),
//	           written as bench/transfer/cells.ipynb's timed() writes it
//
// Each way's time runs from just before the call until it returned; for the
// two gocl ways it also gives the driver call alone, as the binding timed it
// (Event.HostBlocked). It prints a markdown table with the medians and the
// ratios against C measured in the same run.
//
//	go build -o bench/transfer/bin/hostblocked ./bench/hostblocked
//	bench/transfer/bin/hostblocked [-bytes 16e6] [-rounds 60] [-json FILE]
//
// GOCL_CTX picks the device as in cells ("0", "nvidia", "0:1"). Timing is
// never a pass/fail test: the exit status is 0 whenever the table was made.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"github.com/traefik/yaegi/interp"

	"github.com/seed43a1e1ab/gocl/clapi"
	"github.com/seed43a1e1ab/gocl/kernel/cellio"
	"github.com/seed43a1e1ab/gocl/kernel/engine"
	"github.com/seed43a1e1ab/gocl/kernel/session"
	"github.com/seed43a1e1ab/gocl/kernel/symbols"
)

// warmup rounds are made and dropped: the first copies pay for lazy
// allocation in the driver.
const warmup = 3

// sample is one timed copy.
type sample struct {
	Return  float64 `json:"return_s"`            // from just before the call until it returned
	Binding float64 `json:"binding_s,omitempty"` // the driver call alone, timed by gocl (gocl ways only)
	Device  float64 `json:"device_s"`            // profiled start to end
}

// bench holds the objects the three ways use and what they measured.
type bench struct {
	q       *clapi.Queue
	buf     *clapi.Buffer
	pinned  *clapi.PinnedHost
	rounds  int
	samples map[string][]sample
	// between is what the host does just before each timed call, alike for
	// every way (see between.go); cond names it in the samples' keys.
	between func()
	cond    string
	conds   []condition
}

func (b *bench) add(way string, ret, binding, device time.Duration) {
	key := way
	if b.cond != "" {
		key = b.cond + "/" + way
	}
	b.samples[key] = append(b.samples[key], sample{ret.Seconds(), binding.Seconds(), device.Seconds()})
}

// c makes one copy through the C reference.
func (b *bench) c() {
	b.between()
	ret, dev, err := writeC()
	if err != nil {
		panic(err)
	}
	b.add("C", ret, 0, dev)
}

// compiled makes one copy through clapi from compiled Go, timed as the
// cells time it.
func (b *bench) compiled(dst, src any) {
	b.between()
	start := time.Now()
	ev := clapi.EnqueueCopy(b.q, dst, src, clapi.NonBlocking)
	ret := time.Since(start)
	ev.Wait()
	b.add("compiled", ret, ev.HostBlocked(), ev.DeviceTime())
}

// cellSource is the cell: bench/transfer/cells.ipynb's timed(), then the
// rounds, each making one copy each way, in each of the six orders in turn
// (so that no way always follows the same one).
const cellSource = `import hb "gocl.bench/hostblocked"

q, buf, pinned := hb.Queue(), hb.Buffer(), hb.Pinned()
timed := func(dst, src any) {
	hb.Between()
	start := time.Now()
	ev := cl.EnqueueCopy(q, dst, src, cl.NonBlocking)
	ret := time.Since(start)
	ev.Wait()
	hb.Cell(ret, ev.HostBlocked(), ev.DeviceTime())
	// The interpreter's share: the same call of a compiled function
	// that does nothing.
	start = time.Now()
	ev = hb.Nop(q, dst, src, cl.NonBlocking)
	hb.NopCall(time.Since(start))
}
orders := [][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
for c := 0; c < hb.Conditions(); c++ {
hb.Condition(c)
for i := 0; i < hb.Rounds(); i++ {
	for _, way := range orders[i%len(orders)] {
		switch way {
		case 0:
			hb.C()
		case 1:
			hb.Compiled(buf, pinned)
		default:
			timed(buf, pinned)
		}
	}
}
}
`

func main() {
	bytes := flag.Float64("bytes", 16e6, "bytes per copy")
	rounds := flag.Int("rounds", 60, "rounds (one copy each way per round), after "+fmt.Sprint(warmup)+" dropped")
	jsonOut := flag.String("json", "", "also write every sample as JSON to this file")
	lock := flag.Bool("lock", false, "lock the cell's goroutine to its OS thread (runtime.LockOSThread), so every call comes from one thread")
	betweenSpec := flag.String("between", "none", "what the host does before each timed call, each in turn: none, spin:50us, sleep:50us, churn:4M (comma-separated)")
	flag.Parse()
	conds, err := parseConditions(*betweenSpec)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostblocked:", err)
		os.Exit(2)
	}
	if *bytes < 8 || *bytes > 1<<40 || *rounds < 1 {
		fmt.Fprintln(os.Stderr, "usage: hostblocked [-bytes N >= 8] [-rounds R >= 1] [-json FILE]")
		os.Exit(2)
	}
	src := cellSource
	if *lock {
		src = "import \"runtime\"\n\nruntime.LockOSThread()\n" + src
	}
	if err := run(int(*bytes), *rounds, *jsonOut, conds, src); err != nil {
		fmt.Fprintln(os.Stderr, "hostblocked:", err)
		os.Exit(1)
	}
}

func run(nbytes, rounds int, jsonOut string, conds []condition, src string) error {
	b := &bench{rounds: rounds + warmup, samples: map[string][]sample{}, conds: conds, between: func() {}}
	if len(conds) == 1 && conds[0].name == "none" {
		conds[0].name = "" // one plain run: the sample keys and the table as before
	}
	var dev clapi.Device
	if err := clapi.Try(func() {
		ctx := clapi.CreateSomeContext()
		dev = *ctx.Device()
		b.q = clapi.NewQueue(ctx, clapi.Profiling)
		b.buf = clapi.NewBufferSize(ctx, clapi.ReadWrite, nbytes)
		b.pinned = clapi.NewPinnedHost(b.q, nbytes)
		for i, p := 0, b.pinned.Bytes(); i < len(p); i++ {
			p[i] = 1
		}
	}); err != nil {
		return err
	}
	if err := setupC(dev.Platform.Name, dev.Name, nbytes); err != nil {
		return err
	}
	out := engine.OriginalStdout()
	if err := runCell(b, src); err != nil {
		return err
	}
	for way, s := range b.samples {
		if len(s) > warmup {
			b.samples[way] = s[warmup:]
		}
	}
	for _, c := range b.conds {
		fmt.Fprint(out, table(b, dev, nbytes, c.name))
	}
	if jsonOut != "" {
		js, err := json.MarshalIndent(map[string]any{"device": dev.Name, "platform": dev.Platform.Name, "driver": dev.DriverVersion,
			"bytes": nbytes, "rounds": rounds, "commit": commit(), "samples": b.samples}, "", " ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(jsonOut, append(js, '\n'), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// runCell runs the cell in gocl's engine, with the bench's objects exported
// to it as the package gocl.bench/hostblocked.
func runCell(b *bench, src string) error {
	exports := interp.Exports{"gocl.bench/hostblocked/hostblocked": {
		"Queue":      reflect.ValueOf(func() *clapi.Queue { return b.q }),
		"Buffer":     reflect.ValueOf(func() *clapi.Buffer { return b.buf }),
		"Pinned":     reflect.ValueOf(func() *clapi.PinnedHost { return b.pinned }),
		"Rounds":     reflect.ValueOf(func() int { return b.rounds }),
		"Conditions": reflect.ValueOf(func() int { return len(b.conds) }),
		"Condition":  reflect.ValueOf(func(i int) { b.cond, b.between = b.conds[i].name, b.conds[i].run }),
		"Between":    reflect.ValueOf(func() { b.between() }),
		"C":          reflect.ValueOf(b.c),
		"Compiled":   reflect.ValueOf(b.compiled),
		"Cell": reflect.ValueOf(func(ret, binding, device time.Duration) {
			b.add("cell", ret, binding, device)
		}),
		"Nop": reflect.ValueOf(func(*clapi.Queue, any, any, ...clapi.Option) *clapi.Event { return nil }),
		"NopCall": reflect.ValueOf(func(ret time.Duration) {
			b.add("cell, a do-nothing call", ret, 0, 0)
		}),
	}}
	e, err := engine.New(engine.Options{
		Exports:    []interp.Exports{symbols.Symbols, exports},
		Preimports: session.Preimports,
	})
	if err != nil {
		return fmt.Errorf("start gocl's engine: %w", err)
	}
	defer e.Close()
	var sink textSink
	r := e.Execute(context.Background(), src, &sink)
	if r.Err != nil {
		return fmt.Errorf("the cell failed: %s: %s\n%s%s", r.Err.Name, r.Err.Value, strings.Join(r.Err.Traceback, "\n"), sink.String())
	}
	return nil
}

// textSink keeps what the cell printed, for an error message.
type textSink struct{ strings.Builder }

func (s *textSink) Stream(_, text string)              { s.WriteString(text) }
func (s *textSink) Display(cellio.Message)             {}
func (s *textSink) Input(string, bool) (string, error) { return "", engine.ErrNoStdin }

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

func quantile(v []float64, q float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	return s[int(q*float64(len(s)-1))]
}

func pick(s []sample, f func(sample) float64) []float64 {
	v := make([]float64, len(s))
	for i, x := range s {
		v[i] = f(x)
	}
	return v
}

func table(b *bench, dev clapi.Device, nbytes int, cond string) string {
	var w strings.Builder
	key := func(way string) string {
		if cond == "" {
			return way
		}
		return cond + "/" + way
	}
	n := len(b.samples[key("C")])
	title := ""
	if cond != "" {
		title = ", before each call: " + cond
	}
	fmt.Fprintf(&w, "### Host-blocked time of a non-blocking pinned write: %s (%s), %.3g bytes, %d rounds%s\n\n", dev.Name, dev.Platform.Name, float64(nbytes), n, title)
	fmt.Fprintf(&w, "bench/hostblocked at %s, GOMAXPROCS %d, %s. Times from just before the call until it returned; one copy each way per round, interleaved.\n\n", commit(), runtime.GOMAXPROCS(0), runtime.Version())
	fmt.Fprintln(&w, "| way | median | p10 | p90 | driver call inside gocl (median) | gocl's own work (median of the difference) | device GB/s (median) | median / C's |")
	fmt.Fprintln(&w, "|---|---|---|---|---|---|---|---|")
	cMed := median(pick(b.samples[key("C")], func(s sample) float64 { return s.Return }))
	for _, way := range []string{"C", "compiled", "cell", "cell, a do-nothing call"} {
		s := b.samples[key(way)]
		ret := pick(s, func(s sample) float64 { return s.Return })
		bind, own := "—", "—"
		if way == "compiled" || way == "cell" {
			bind = us(median(pick(s, func(s sample) float64 { return s.Binding })))
			own = us(median(pick(s, func(s sample) float64 { return s.Return - s.Binding })))
		}
		gbps := "—"
		if d := median(pick(s, func(s sample) float64 { return s.Device })); d > 0 {
			gbps = fmt.Sprintf("%.2f", float64(nbytes)/d/1e9)
		}
		fmt.Fprintf(&w, "| %s | %s | %s | %s | %s | %s | %s | %.2fx |\n", way, us(median(ret)), us(quantile(ret, 0.1)), us(quantile(ret, 0.9)), bind, own, gbps, median(ret)/cMed)
	}
	fmt.Fprintln(&w)
	return w.String()
}

func us(s float64) string { return fmt.Sprintf("%.1f µs", s*1e6) }

// commit is the VCS revision the binary was built from, if Go recorded it.
func commit() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		rev, dirty := "", ""
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					dirty = "+changes"
				}
			}
		}
		if len(rev) > 7 {
			return rev[:7] + dirty
		}
	}
	return "an unknown commit"
}
