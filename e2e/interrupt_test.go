package e2e

import (
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
	if strings.Contains(k.stderr.String(), "replacing the engine") {
		t.Errorf("the engine was replaced:\n%s", k.stderr.String())
	}
}
