package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// runInterrupted sends code, presses interrupt at each of the offsets after
// it started (on control, as the toolbar's button does) and returns the
// execute_reply's content.
func (k *kernel) runInterrupted(code string, presses ...time.Duration) map[string]any {
	k.t.Helper()
	id := k.send(k.shell, "execute_request", map[string]any{"code": code, "silent": false, "store_history": true,
		"user_expressions": map[string]any{}, "allow_stdin": false, "stop_on_error": true})
	// The presses count from when the kernel says it took the cell (busy):
	// a press that reaches the control channel before the shell request is
	// taken is a press while idle, which stops nothing (the soak test's
	// 0 ms presses raced the request that way).
	k.waitBusy(id, 10*time.Second)
	start := time.Now()
	for _, at := range presses {
		time.Sleep(time.Until(start.Add(at)))
		k.request(k.control, "interrupt_request", map[string]any{}, 10*time.Second, false)
	}
	for {
		m := k.recv(k.shell, 30*time.Second)
		if m == nil {
			k.t.Fatalf("no reply to the interrupted cell %q\n%s", code, k.stderr.String())
		}
		if m.ParentHeader != nil && m.ParentHeader.MsgID == id {
			k.waitIdle(id, 10*time.Second)
			return decode(k.t, m)
		}
	}
}

// waitBusy waits until the kernel has published busy for the request id.
func (k *kernel) waitBusy(id string, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		for _, st := range k.statuses(id) {
			if st == "busy" {
				return true
			}
		}
		select {
		case <-k.pubC:
		case <-time.After(5 * time.Millisecond):
		}
	}
	return false
}

// expectPrints runs code and fails unless it succeeds and prints want.
func (k *kernel) expectPrints(what, code, want string) {
	k.t.Helper()
	rep, outs := k.execute(code, nil)
	got := stream(k.t, outs, "stdout")
	if rep["status"] != "ok" || got != want {
		k.t.Errorf("%s: %q printed %q (%v %v), want %q", what, code, got, rep["ename"], rep["evalue"], want)
	}
}

// The session's values of every kind, made before any interrupt.
const interruptSetup = `import "sync/atomic"
keep := 7
twice := func(n int) int { return 2 * n }
type counter struct{ n int }
func (c *counter) Inc() int { c.n++; return c.n }
ctr := &counter{}
inc := ctr.Inc
adder := func(k int) func(int) int { return func(n int) int { return n + k } }
add3 := adder(3)
recvFrom := func(ch chan int) int { v := <-ch; return v } // not return <-ch: yaegi fails it when the receive blocks
ticks := int64(0)
go func() {
	for {
		atomic.AddInt64(&ticks, 1)
		time.Sleep(5 * time.Millisecond)
	}
}()
doubler := make(chan int)
doubled := make(chan int)
go func() {
	for v := range doubler {
		doubled <- twice(v)
	}
}()
`

// checkSession fails unless every value made by interruptSetup works as
// before, the background goroutines included.
func (k *kernel) checkSession(after string) {
	k.t.Helper()
	k.expectPrints(after+": values", `fmt.Println(keep, twice(21), add3(4))`, "7 42 7\n")
	k.expectPrints(after+": method value", `n := inc(); fmt.Println(n == ctr.n, n > 0)`, "true true\n")
	k.expectPrints(after+": closure receiving", `ch := make(chan int)
go func() { time.Sleep(20 * time.Millisecond); ch <- 5 }()
fmt.Println(recvFrom(ch))`, "5\n")
	k.expectPrints(after+": goroutine of an earlier cell", `t0 := atomic.LoadInt64(&ticks)
time.Sleep(100 * time.Millisecond)
fmt.Println(atomic.LoadInt64(&ticks) > t0)`, "true\n")
	k.expectPrints(after+": channel goroutine of an earlier cell", `doubler <- 8; fmt.Println(<-doubled)`, "16\n")
}

// TestInterruptKeepsSession is issue 23: after interrupts of every kind of
// waiting, every func value, method value, closure and goroutine made before
// works as before, and the engine is never replaced.
func TestInterruptKeepsSession(t *testing.T) {
	k := startKernel(t)
	if rep, _ := k.execute(interruptSetup, nil); rep["status"] != "ok" {
		t.Fatalf("setup: %v", rep)
	}
	k.checkSession("before any interrupt")
	for _, c := range []struct{ name, code string }{
		{"interpreted loop", "for {}"},
		{"loop in a func value", "spin := func() { for {} }; spin()"},
		{"time.Sleep", "time.Sleep(time.Hour)"},
		{"channel receive", "<-make(chan int)"},
		{"closure receiving", "recvFrom(make(chan int))"},
		{"select", "select { case <-make(chan int): case <-make(chan bool): }"},
	} {
		rep := k.runInterrupted(c.code, 300*time.Millisecond)
		if rep["ename"] != "Interrupted" {
			t.Errorf("%s: reply %v, want Interrupted", c.name, rep)
		}
		k.checkSession("after interrupting " + c.name)
	}
	// Rhythms: two presses 100 ms apart on one cell; one press on each of
	// two cells about 1.5 s apart; a press while idle, then one on a cell.
	k.runInterrupted("for {}", 300*time.Millisecond, 400*time.Millisecond)
	k.checkSession("after two presses 100 ms apart")
	k.runInterrupted("for {}", 300*time.Millisecond)
	start := time.Now()
	k.runInterrupted("for {}", 1500*time.Millisecond-time.Since(start))
	k.checkSession("after one press on each of two cells")
	k.request(k.control, "interrupt_request", map[string]any{}, 10*time.Second, false)
	k.runInterrupted("for {}", time.Second)
	k.checkSession("after a press while idle")
	// sync.WaitGroup.Wait is a compiled call: the statement stays stuck
	// until a later cell releases it, and everything else works meanwhile.
	k.execute("var wg sync.WaitGroup\nwg.Add(1)", nil)
	if rep := k.runInterrupted("wg.Wait()", 300*time.Millisecond); rep["ename"] != "Interrupted" {
		t.Errorf("wg.Wait: reply %v, want Interrupted", rep)
	}
	k.checkSession("after interrupting wg.Wait")
	k.expectPrints("releasing wg.Wait", "wg.Done(); fmt.Println(keep)", "7\n")
	if strings.Contains(k.stderr.String(), "replacing the engine") {
		t.Errorf("the engine was replaced:\n%s", k.stderr.String())
	}
}

// TestInterruptKeepsSessionAfterCLWait interrupts a wait for an OpenCL
// event that would never complete.
func TestInterruptKeepsSessionAfterCLWait(t *testing.T) {
	needOpenCL(t)
	k := startKernel(t)
	if rep, _ := k.execute(interruptSetup, nil); rep["status"] != "ok" {
		t.Fatalf("setup: %v", rep)
	}
	k.execute("ctx := cl.CreateSomeContext()\nq := cl.NewQueue(ctx, cl.Profiling)\nu := cl.NewUserEvent(ctx)\nm := cl.EnqueueMarker(q, cl.WaitFor(u))\nq.Flush()", nil)
	if rep := k.runInterrupted("m.Wait()", 300*time.Millisecond); !strings.Contains(fmt.Sprint(rep["ename"], rep["evalue"]), "nterrupt") {
		t.Errorf("cl wait: reply %v, want interrupted", rep)
	}
	k.checkSession("after interrupting a cl wait")
	k.expectPrints("the event afterwards", "u.SetComplete(); m.Wait(); fmt.Println(m.Status())", "complete\n")
}

// TestInterruptReplacesOnlyAStuckStatement runs a compiled cell's loop that
// never returns: an interrupt leaves it stuck and the session intact; a
// press on another cell, or a single press while idle, replaces nothing; a
// second press on the stuck statement replaces the engine, and the next
// cell says so.
func TestInterruptReplacesOnlyAStuckStatement(t *testing.T) {
	k := startKernel(t, "GOCL_MODDIR="+t.TempDir(), "GOCL_PLUGIN_CACHE="+t.TempDir())
	if rep, _ := k.execute(interruptSetup, nil); rep["status"] != "ok" {
		t.Fatalf("setup: %v", rep)
	}
	if rep, _ := k.execute(`//gocl:compile
func Spin(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i % 7
	}
	return s
}`, nil); rep["status"] != "ok" {
		t.Skipf("no compiled cells here: %v", rep["evalue"])
	}
	rep := k.runInterrupted("Spin(1 << 62)", 300*time.Millisecond)
	if rep["ename"] != "Interrupted" || !strings.Contains(fmt.Sprint(rep["traceback"]), "compiled call") {
		t.Errorf("compiled loop: reply %v, want Interrupted, still inside a compiled call", rep)
	}
	k.checkSession("after interrupting a compiled loop")
	k.runInterrupted("for {}", 300*time.Millisecond)
	time.Sleep(300 * time.Millisecond)
	k.request(k.control, "interrupt_request", map[string]any{}, 10*time.Second, false)
	time.Sleep(300 * time.Millisecond)
	if strings.Contains(k.stderr.String(), "replacing the engine") {
		t.Fatalf("the engine was replaced before a second press on the stuck statement:\n%s", k.stderr.String())
	}
	k.expectPrints("after a press on another cell and one while idle", "fmt.Println(keep)", "7\n")
	k.request(k.control, "interrupt_request", map[string]any{}, 10*time.Second, false)
	k.request(k.control, "interrupt_request", map[string]any{}, 10*time.Second, false)
	rep, outs := k.execute("1 + 2", nil)
	if rep["status"] != "ok" || !strings.Contains(stream(t, outs, "stderr"), "replaced after a second interrupt") {
		t.Errorf("two presses on the stuck statement: next cell %v %q, want a note that the engine was replaced", rep, stream(t, outs, "stderr"))
	}
}
