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
	Return  float64   `json:"return_s"`            // from just before the call until it returned
	Binding float64   `json:"binding_s,omitempty"` // the driver call alone, timed by gocl (gocl ways only)
	Before  float64   `json:"before_s,omitempty"`  // from just before the call until gocl called the driver (gocl ways only)
	Device  float64   `json:"device_s"`            // profiled start to end
	Wait    *waitCost `json:"wait,omitempty"`      // the wait after the call (C and compiled ways)
	// Steps split gocl's own work (built with -tags goclprobe): from just
	// before the call to each of clapi's probe points, then to the driver
	// call, and after it to the event made and to the return (seconds).
	Steps []float64 `json:"steps_s,omitempty"`
	// After is where the condition's wait before the call left the
	// goroutine (cspin, csleep, spin, lockspin, sleep conditions).
	After *betweenInfo `json:"after_wait,omitempty"`
}

// bench holds the objects the three ways use and what they measured.
type bench struct {
	q       *clapi.Queue
	buf     *clapi.Buffer
	pinned  *clapi.PinnedHost
	source  any // what the gocl ways copy from: pinned, or a Go slice with -pageable
	rounds  int
	samples map[string][]sample
	memory  string // "pinned" or "pageable", for the table's title
	// between is what the host does just before each timed call, alike for
	// every way (see between.go); cond names it in the samples' keys.
	between func()
	cond    string
	conds   []condition
	last    *betweenInfo // the last condition's wait, for the next timed call's sample
}

func (b *bench) add(way string, ret, binding, device time.Duration) {
	b.addWait(way, ret, binding, 0, device, nil)
}

func (b *bench) addWait(way string, ret, binding, before, device time.Duration, w *waitCost) {
	key := way
	if b.cond != "" {
		key = b.cond + "/" + way
	}
	b.samples[key] = append(b.samples[key], sample{ret.Seconds(), binding.Seconds(), before.Seconds(), device.Seconds(), w, nil, b.last})
	b.last = nil
}

// stepNames name a sample's Steps.
func stepNames() []string {
	names, _, _ := clapi.CopyProbes()
	out := []string{"the call until EnqueueCopy " + names[0]}
	for _, n := range names[1 : len(names)-1] {
		out = append(out, n)
	}
	return append(out, "until the driver call", names[len(names)-1], "back in the caller")
}

// addSteps splits the last sample of way by clapi's probe points, given
// the event of its call, when clapi was built with them.
func (b *bench) addSteps(way string, ev *clapi.Event) {
	_, t, ok := clapi.CopyProbes()
	key := way
	if b.cond != "" {
		key = b.cond + "/" + way
	}
	s := b.samples[key]
	if !ok || len(s) == 0 {
		return
	}
	x := &s[len(s)-1]
	start := ev.HostStart().UnixNano() - int64(x.Before*1e9) // just before the call
	ret := start + int64(x.Return*1e9)
	prev := start
	var steps []float64
	for _, p := range t[:len(t)-1] {
		steps = append(steps, float64(p-prev)/1e9)
		prev = p
	}
	end := t[len(t)-1]
	steps = append(steps, float64(ev.HostStart().UnixNano()-prev)/1e9, float64(end-ev.HostReturn().UnixNano())/1e9, float64(ret-end)/1e9)
	x.Steps = steps
}

// c makes one copy through the C reference.
func (b *bench) c() {
	b.between()
	ret, dev, w, err := writeC()
	if err != nil {
		panic(err)
	}
	b.addWait("C", ret, 0, 0, dev, &w)
}

// compiled makes one copy through clapi from compiled Go, timed as the
// cells time it.
func (b *bench) compiled(dst, src any) {
	b.between()
	start := time.Now()
	ev := clapi.EnqueueCopy(b.q, dst, src, clapi.NonBlocking)
	ret := time.Since(start)
	w0, p0 := time.Now(), processCPU()
	ev.Wait()
	w := waitCost{Wall: time.Since(w0).Seconds(), ProcCPU: processCPU() - p0}
	b.addWait("compiled", ret, ev.HostBlocked(), ev.HostStart().Sub(start), ev.DeviceTime(), &w)
	b.addSteps("compiled", ev)
}

// timedSource is the cell's timed copy: bench/transfer/cells.ipynb's
// timed(), then the splits of its own work. %[1]s names the function,
// %[2]q the way its samples are kept under. It is compiled twice, once with
// yaegi's direct calls (clapi/direct: how gocl runs cells) and once with
// reflect.Value.Call for every call of compiled code (before issue 21's
// patch), so that the two are compared in one process.
const timedSource = `%[1]s := func(dst, src any) {
	hb.Between()
	start := time.Now()
	ev := cl.EnqueueCopy(q, dst, src, cl.NonBlocking)
	ret := time.Since(start)
	ev.Wait()
	hb.Cell(%[2]q, ret, ev.HostBlocked(), ev.HostStart().Sub(start), ev.DeviceTime())
	hb.Steps(%[2]q, ev)
	// The interpreter's share: the same call of a compiled function
	// that does nothing.
	start = time.Now()
	ev = hb.Nop(q, dst, src, cl.NonBlocking)
	hb.Add(%[2]q + ", a do-nothing call", time.Since(start))
	// The same again at once: what the call costs warm.
	start = time.Now()
	ev = hb.Nop(q, dst, src, cl.NonBlocking)
	hb.Add(%[2]q + ", the same call again", time.Since(start))
	// The cell's clock alone: what timing a call this way adds to it.
	start = time.Now()
	hb.Add(%[2]q + ", the clock alone", time.Since(start))
}
`

// reflectSource is the first cell: the objects, and the timed copy
// compiled with reflect.Value.Call.
const reflectSource = `import hb "gocl.bench/hostblocked"

q, buf, pinned := hb.Queue(), hb.Buffer(), hb.Source()
`

// loopSource is the last cell: the rounds, each making one copy each way,
// the ways in each of their orders in turn (so that no way always follows
// the same one).
const loopSource = `for c := 0; c < hb.Conditions(); c++ {
hb.Condition(c)
for i := 0; i < hb.Rounds(); i++ {
	for _, way := range hb.Order(i) {
		switch way {
		case 0:
			hb.C()
		case 1:
			hb.Compiled(buf, pinned)
		case 2:
			timed(buf, pinned)
		default:
			timedReflect(buf, pinned)
		}
	}
}
}
`

// cellWays are the cell's ways, as the table names them: first the one
// gocl runs, then the same cell through reflect.Value.Call.
var cellWays = []string{"cell", "cell via reflect.Value.Call"}

// orders are the permutations of the four ways (C, compiled, cell, cell
// via reflect), in a fixed order.
var orders = func() [][]int {
	var out [][]int
	var perm func(p []int, rest []int)
	perm = func(p, rest []int) {
		if len(rest) == 0 {
			out = append(out, append([]int(nil), p...))
			return
		}
		for i := range rest {
			r := append(append([]int(nil), rest[:i]...), rest[i+1:]...)
			perm(append(p, rest[i]), r)
		}
	}
	perm(nil, []int{0, 1, 2, 3})
	return out
}()

func main() {
	bytes := flag.Float64("bytes", 16e6, "bytes per copy")
	rounds := flag.Int("rounds", 60, "rounds (one copy each way per round), after "+fmt.Sprint(warmup)+" dropped")
	jsonOut := flag.String("json", "", "also write every sample as JSON to this file")
	pageable := flag.Bool("pageable", false, "copy from pageable memory (malloc in C, a Go slice in gocl) instead of pinned: the driver stages it inside the call, and the device rates compare the binding's copies in one process")
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
	src := reflectSource
	if *lock {
		src = "import \"runtime\"\n\nruntime.LockOSThread()\n" + src
	}
	if err := run(int(*bytes), *rounds, *jsonOut, conds, src, *pageable); err != nil {
		fmt.Fprintln(os.Stderr, "hostblocked:", err)
		os.Exit(1)
	}
}

func run(nbytes, rounds int, jsonOut string, conds []condition, src string, pageable bool) error {
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
		b.source = b.pinned
		if pageable {
			p := make([]byte, nbytes)
			for i := range p {
				p[i] = 1
			}
			b.source = p
		}
	}); err != nil {
		return err
	}
	if err := setupC(dev.Platform.Name, dev.Name, nbytes); err != nil {
		return err
	}
	if pageable {
		if err := usePageableC(); err != nil {
			return err
		}
	}
	b.memory = "pinned"
	if pageable {
		b.memory = "pageable"
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
			"bytes": nbytes, "rounds": rounds, "memory": b.memory, "commit": commit(), "samples": b.samples}, "", " ")
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
		"Source":     reflect.ValueOf(func() any { return b.source }),
		"Rounds":     reflect.ValueOf(func() int { return b.rounds }),
		"Conditions": reflect.ValueOf(func() int { return len(b.conds) }),
		"Condition": reflect.ValueOf(func(i int) {
			c := b.conds[i]
			b.cond, b.between = c.name, func() { c.run(b) }
			setWaitMode(c.wait)
		}),
		"Between":  reflect.ValueOf(func() { b.between() }),
		"C":        reflect.ValueOf(b.c),
		"Compiled": reflect.ValueOf(b.compiled),
		"Cell": reflect.ValueOf(func(way string, ret, binding, before, device time.Duration) {
			b.addWait(way, ret, binding, before, device, nil)
		}),
		"Nop": reflect.ValueOf(func(*clapi.Queue, any, any, ...clapi.Option) *clapi.Event { return nil }),
		"Add": reflect.ValueOf(func(way string, ret time.Duration) {
			b.add(way, ret, 0, 0)
		}),
		"Steps": reflect.ValueOf(b.addSteps),
		"Order": reflect.ValueOf(func(i int) []int { return orders[i%len(orders)] }),
	}}
	e, err := engine.New(engine.Options{
		Exports:    []interp.Exports{symbols.Symbols, exports},
		Preimports: session.Preimports,
	})
	if err != nil {
		return fmt.Errorf("start gocl's engine: %w", err)
	}
	defer e.Close()
	// The cells in turn: the objects and the reflect way compiled without
	// the direct calls, then the direct way and the loop with them.
	defer interp.SetDirectCalls(true)
	for _, c := range []struct {
		src    string
		direct bool
	}{
		{src + fmt.Sprintf(timedSource, "timedReflect", cellWays[1]), false},
		{fmt.Sprintf(timedSource, "timed", cellWays[0]) + loopSource, true},
	} {
		interp.SetDirectCalls(c.direct)
		var sink textSink
		r := e.Execute(context.Background(), c.src, &sink)
		if r.Err != nil {
			return fmt.Errorf("the cell failed: %s: %s\n%s%s", r.Err.Name, r.Err.Value, strings.Join(r.Err.Traceback, "\n"), sink.String())
		}
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
	fmt.Fprintf(&w, "### Host-blocked time of a non-blocking %s write: %s (%s), %.3g bytes, %d rounds%s\n\n", b.memory, dev.Name, dev.Platform.Name, float64(nbytes), n, title)
	fmt.Fprintf(&w, "bench/hostblocked at %s, GOMAXPROCS %d, %s. Times from just before the call until it returned; one copy each way per round, interleaved.\n\n", commit(), runtime.GOMAXPROCS(0), runtime.Version())
	fmt.Fprintln(&w, "| way | median | p10 | p90 | driver call inside gocl (median) | gocl's own work (median of the difference) | of which before the driver call (median) | device GB/s (median) | median / C's | the wait: CPUs busy (process; waiting thread) |")
	fmt.Fprintln(&w, "|---|---|---|---|---|---|---|---|---|---|")
	cMed := median(pick(b.samples[key("C")], func(s sample) float64 { return s.Return }))
	ways := []string{"C", "compiled"}
	for _, c := range cellWays {
		ways = append(ways, c, c+", a do-nothing call", c+", the same call again", c+", the clock alone")
	}
	for _, way := range ways {
		s := b.samples[key(way)]
		if len(s) == 0 {
			continue
		}
		ret := pick(s, func(s sample) float64 { return s.Return })
		bind, own, before := "—", "—", "—"
		if way == "compiled" || way == cellWays[0] || way == cellWays[1] {
			bind = us(median(pick(s, func(s sample) float64 { return s.Binding })))
			own = us(median(pick(s, func(s sample) float64 { return s.Return - s.Binding })))
			before = us(median(pick(s, func(s sample) float64 { return s.Before })))
		}
		gbps := "—"
		if d := median(pick(s, func(s sample) float64 { return s.Device })); d > 0 {
			gbps = fmt.Sprintf("%.2f", float64(nbytes)/d/1e9)
		}
		fmt.Fprintf(&w, "| %s | %s | %s | %s | %s | %s | %s | %s | %.2fx | %s |\n", way, us(median(ret)), us(quantile(ret, 0.1)), us(quantile(ret, 0.9)), bind, own, before, gbps, median(ret)/cMed, busy(s))
	}
	fmt.Fprintln(&w)
	w.WriteString(afterWait(b, key))
	if _, _, ok := clapi.CopyProbes(); ok {
		fmt.Fprintln(&w, "gocl's own work by step (clapi built with -tags goclprobe; medians; each probe reads the clock, which it adds to its step):")
		fmt.Fprintln(&w)
		fmt.Fprintln(&w, "| step | compiled | "+strings.Join(cellWays, " | ")+" |")
		fmt.Fprintln(&w, "|---|---|"+strings.Repeat("---|", len(cellWays)))
		for i, name := range stepNames() {
			row := "| " + name
			for _, way := range append([]string{"compiled"}, cellWays...) {
				var v []float64
				for _, x := range b.samples[key(way)] {
					if i < len(x.Steps) {
						v = append(v, x.Steps[i])
					}
				}
				row += " | " + us(median(v))
			}
			fmt.Fprintln(&w, row+" |")
		}
		fmt.Fprintln(&w)
	}
	return w.String()
}

func us(s float64) string { return fmt.Sprintf("%.1f µs", s*1e6) }

// busy is how many CPUs the waits kept busy: the process's CPU time over
// the wall time, summed over the samples, and the waiting thread's where
// measured ("—" where the way's waits were not measured).
func busy(s []sample) string {
	var wall, proc, thread float64
	for _, x := range s {
		if x.Wait != nil {
			wall, proc, thread = wall+x.Wait.Wall, proc+x.Wait.ProcCPU, thread+x.Wait.ThreadCPU
		}
	}
	if wall == 0 {
		return "—"
	}
	if thread == 0 {
		return fmt.Sprintf("%.2f", proc/wall)
	}
	return fmt.Sprintf("%.2f; %.2f", proc/wall, thread/wall)
}

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
