package supervisor

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/cellio"
)

// The supervisor's life cycle (start, crash, restart, shutdown) over the
// fake engine of fakeengine_test.go: no gocl binary needed.

// hangAfter bounds what must not hang; it is a hang detector, never a
// measure of speed.
const hangAfter = 20 * time.Second

func newFake(t *testing.T) *Supervisor {
	t.Helper()
	s, err := New(Config{Exe: os.Args[0]})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// within runs f and fails the test if it does not return within hangAfter.
func within[T any](t *testing.T, what string, f func() T) T {
	t.Helper()
	ch := make(chan T, 1)
	go func() { ch <- f() }()
	select {
	case v := <-ch:
		return v
	case <-time.After(hangAfter):
		t.Fatalf("%s did not return within %v", what, hangAfter)
		panic("unreachable")
	}
}

func run(t *testing.T, s *Supervisor, code string) (cellio.Result, string) {
	t.Helper()
	sink := &recSink{}
	res := within(t, "Execute("+code+")", func() cellio.Result { return s.Execute(context.Background(), code, sink) })
	return res, sink.String()
}

func mustRun(t *testing.T, s *Supervisor, code, want string) {
	t.Helper()
	res, out := run(t, s, code)
	if res.Err != nil {
		t.Fatalf("cell %q failed: %s: %s\noutput %q", code, res.Err.Name, res.Err.Value, out)
	}
	if !strings.Contains(out, want) {
		t.Fatalf("cell %q printed %q, want %q in it", code, out, want)
	}
}

// gate makes the fake engine wait before it says ready, until open is called.
func gate(t *testing.T) (open func()) {
	f := filepath.Join(t.TempDir(), "gate")
	t.Setenv("GOCL_FAKE_GATE", f)
	return func() {
		if err := os.WriteFile(f, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// pids returns the engine processes started so far, in order.
func pids(t *testing.T) func() []int {
	f := filepath.Join(t.TempDir(), "pids")
	t.Setenv("GOCL_FAKE_PIDS", f)
	return func() []int {
		b, _ := os.ReadFile(f)
		var out []int
		for _, l := range strings.Fields(string(b)) {
			n, _ := strconv.Atoi(l)
			out = append(out, n)
		}
		return out
	}
}

func gone(pid int) bool {
	for i := 0; i < 200; i++ {
		if syscall.Kill(pid, 0) != nil {
			return true
		}
		// A zombie until its parent (this test's supervisor) reaps it.
		if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil && strings.Contains(string(b), ") Z ") {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

func TestNewReturnsBeforeTheEngineIsReady(t *testing.T) {
	open := gate(t)
	s := within(t, "New", func() *Supervisor { return newFake(t) })
	if pid := s.PID(); pid != 0 {
		t.Fatalf("PID() = %d before the engine said ready", pid)
	}
	// A cell sent before the engine is up runs once it is.
	type ran struct {
		res cellio.Result
		out string
	}
	got := make(chan ran, 1)
	go func() {
		sink := &recSink{}
		res := s.Execute(context.Background(), "print early", sink)
		got <- ran{res, sink.String()}
	}()
	select {
	case r := <-got:
		t.Fatalf("the cell ended before the engine was ready: %+v %q", r.res.Err, r.out)
	case <-time.After(100 * time.Millisecond):
	}
	open()
	select {
	case r := <-got:
		if r.res.Err != nil || r.out != "early\n" {
			t.Fatalf("cell sent while the engine started: err %+v, output %q", r.res.Err, r.out)
		}
	case <-time.After(hangAfter):
		t.Fatal("the cell sent while the engine started never ran")
	}
	if err := s.Ready(context.Background()); err != nil {
		t.Fatal(err)
	}
	if s.PID() == 0 {
		t.Fatal("PID() = 0 once the engine is ready")
	}
}

func TestInterruptWhileTheEngineStarts(t *testing.T) {
	open := gate(t)
	s := newFake(t)
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan cellio.Result, 1)
	sink := &recSink{}
	go func() { got <- s.Execute(ctx, "print never", sink) }()
	time.Sleep(50 * time.Millisecond)
	cancel()
	select {
	case res := <-got:
		if res.Err == nil || res.Err.Name != "Interrupted" || !strings.Contains(res.Err.Value, "starting") {
			t.Fatalf("interrupted while the engine started: %+v, output %q", res.Err, sink)
		}
	case <-time.After(hangAfter):
		t.Fatal("an interrupt did not end a cell waiting for the engine")
	}
	open()
	mustRun(t, s, "print after", "after")
	if out := sink.String(); out != "" {
		t.Fatalf("the interrupted cell ran anyway: %q", out)
	}
}

func TestCloseWhileTheEngineStarts(t *testing.T) {
	gate(t) // never opened: the engine never says ready
	started := pids(t)
	s := newFake(t)
	for i := 0; len(started()) == 0; i++ {
		if i > 2000 {
			t.Fatal("the engine process never started")
		}
		time.Sleep(5 * time.Millisecond)
	}
	within(t, "Close", func() error { return s.Close() })
	if pid := started()[0]; !gone(pid) {
		t.Fatalf("engine process %d still runs after Close", pid)
	}
	res, _ := run(t, s, "print x")
	if res.Err == nil || !strings.Contains(res.Err.Value, "closed") {
		t.Fatalf("a cell after Close: %+v", res.Err)
	}
}

func TestCloseStopsTheEngine(t *testing.T) {
	s := newFake(t)
	mustRun(t, s, "print hello", "hello")
	pid := s.PID()
	within(t, "Close", func() error { return s.Close() })
	if !gone(pid) {
		t.Fatalf("engine process %d still runs after Close", pid)
	}
}

func TestCloseWhileACellRuns(t *testing.T) {
	s := newFake(t)
	if err := s.Ready(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := make(chan cellio.Result, 1)
	go func() { got <- s.Execute(context.Background(), "wait", &recSink{}) }()
	time.Sleep(50 * time.Millisecond)
	within(t, "Close", func() error { return s.Close() })
	select {
	case res := <-got:
		if res.Err == nil || res.Err.Name != "Restarted" {
			t.Fatalf("a cell running at Close: %+v", res.Err)
		}
	case <-time.After(hangAfter):
		t.Fatal("a cell running at Close never ended")
	}
}

func TestInterruptStopsARunningCell(t *testing.T) {
	s := newFake(t)
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan cellio.Result, 1)
	go func() { got <- s.Execute(ctx, "print before\nwait", &recSink{}) }()
	time.Sleep(50 * time.Millisecond)
	s.Interrupt()
	cancel()
	select {
	case res := <-got:
		if res.Err == nil || res.Err.Name != "Interrupted" {
			t.Fatalf("interrupted cell: %+v", res.Err)
		}
	case <-time.After(hangAfter):
		t.Fatal("an interrupt did not stop the cell")
	}
	mustRun(t, s, "print next", "next")
}

func TestCrashInACellStartsAFreshEngine(t *testing.T) {
	for _, cell := range []string{"print lost?\nexit 3", "panic"} {
		t.Run(strings.Fields(cell)[0], func(t *testing.T) {
			s := newFake(t)
			mustRun(t, s, "print first", "first")
			before := s.PID()
			res, out := run(t, s, cell)
			if res.Err == nil || !strings.Contains(res.Err.Value, "the engine process died") {
				t.Fatalf("cell that killed the engine: %+v, output %q", res.Err, out)
			}
			if cell == "panic" && !strings.Contains(strings.Join(res.Err.Traceback, "\n"), "the fake engine panics") {
				t.Errorf("the Go crash report is not in the error:\n%s", strings.Join(res.Err.Traceback, "\n"))
			}
			mustRun(t, s, "print second", "second")
			if after := s.PID(); after == before || after == 0 {
				t.Fatalf("engine pid %d before the crash, %d after", before, after)
			}
			if !gone(before) {
				t.Fatalf("the crashed engine %d is still there", before)
			}
		})
	}
}

func TestCrashBetweenCellsIsToldToTheNextCell(t *testing.T) {
	s := newFake(t)
	mustRun(t, s, "exitafter", "")
	before := s.PID()
	if !gone(before) {
		t.Fatal("the fake engine did not exit after its cell")
	}
	// A cell sent before the supervisor saw the death is the one that gets
	// the crash; wait until it saw.
	for i := 0; s.PID() == before; i++ {
		if i > 2000 {
			t.Fatal("the supervisor never noticed the engine's death")
		}
		time.Sleep(5 * time.Millisecond)
	}
	res, out := run(t, s, "print next")
	if res.Err != nil {
		t.Fatalf("the cell after a crash between cells failed: %+v", res.Err)
	}
	if !strings.Contains(out, "died after the last cell ran") || !strings.Contains(out, "next\n") {
		t.Fatalf("the cell after a crash between cells printed %q", out)
	}
	if s.PID() == before {
		t.Fatal("the same engine serves after it died")
	}
}

func TestEngineThatCannotStartFailsTheCellAndIsTriedAgain(t *testing.T) {
	t.Setenv("GOCL_FAKE_FAIL", filepath.Join(t.TempDir(), "failed-once"))
	s := newFake(t)
	res, _ := run(t, s, "print x")
	if res.Err == nil || res.Err.Name != "EngineUnavailable" || !strings.Contains(res.Err.Value, "fails its first start") {
		t.Fatalf("a cell while the engine cannot start: %+v", res.Err)
	}
	mustRun(t, s, "print again", "again")
}

func TestMissingBinaryIsAClearError(t *testing.T) {
	s, err := New(Config{Exe: filepath.Join(t.TempDir(), "no-such-gocl")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	res := within(t, "Execute", func() cellio.Result { return s.Execute(context.Background(), "print x", &recSink{}) })
	if res.Err == nil || res.Err.Name != "EngineUnavailable" || !strings.Contains(res.Err.Value, "no-such-gocl") {
		t.Fatalf("a cell with no engine binary: %+v", res.Err)
	}
}
