package e2e

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"

	"github.com/seed43a1e1ab/gocl/clapi"
	"github.com/seed43a1e1ab/gocl/kernel/wire"
)

// TestInterruptSoak presses interrupt at random moments, over a session
// that runs cells (loops, sleeps, cl copies, quick ones), widget callbacks
// and presses while idle: afterwards every earlier name gives its value,
// the engine's goroutines and file descriptors did not grow, and the engine
// was never replaced. GOCL_SOAK_INTERRUPTS sets the number of presses
// (default 200, under a minute).
func TestInterruptSoak(t *testing.T) {
	n := 200
	if s := os.Getenv("GOCL_SOAK_INTERRUPTS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatalf("GOCL_SOAK_INTERRUPTS=%q: %v", s, err)
		}
	}
	k := startKernel(t)
	if rep, _ := k.execute(interruptSetup, nil); rep["status"] != "ok" {
		t.Fatalf("setup: %v", rep)
	}
	rep, outs := k.execute(`
fired := int64(0)
size := widgets.NewIntSlider("size", 0, 1000, 1)
size.OnChange(func(n int) { atomic.AddInt64(&fired, 1); _ = twice(n) })
widgets.Show(size)
copies := func() bool { return true }
`, nil)
	if rep["status"] != "ok" {
		t.Fatalf("widget setup: %v", rep)
	}
	sizeID := viewIDs(t, outs, "display_data")[0]
	loops := []string{"for {}", "time.Sleep(time.Hour)", "<-make(chan int)", "x := twice(3); _ = x", "for i := 0; i < 1e5; i++ { _ = add3(i) }"}
	if hasOpenCL() {
		if rep, _ := k.execute(`ctx := cl.CreateSomeContext()
q := cl.NewQueue(ctx, cl.Profiling)
a := cl.Random(1 << 16)
buf := cl.NewBuffer(ctx, cl.ReadWrite|cl.CopyHostPtr, a)
copies = func() bool {
	back := make([]float64, len(a))
	cl.EnqueueCopy(q, buf, a)
	cl.EnqueueCopy(q, back, buf)
	return cl.Equal(back, a)
}`, nil); rep["status"] != "ok" {
			t.Fatalf("cl setup: %v", rep)
		}
		loops = append(loops, "for copies() {}", "for copies() {}")
	}
	k.expectPrints("copies", "fmt.Println(copies())", "true\n")
	engines := enginePIDs(k.cmd.Process.Pid)
	if len(engines) != 1 {
		t.Fatalf("engine processes %v", engines)
	}
	counts := func() (goroutines, fds int) {
		_, outs := k.execute("import \"runtime\"\nfmt.Println(runtime.NumGoroutine())", nil)
		goroutines, err := strconv.Atoi(strings.TrimSpace(stream(t, outs, "stdout")))
		if err != nil {
			t.Fatalf("counting goroutines: %v", err)
		}
		ents, _ := os.ReadDir(filepath.Join("/proc", strconv.Itoa(engines[0]), "fd"))
		return goroutines, len(ents)
	}
	g0, f0 := counts()

	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	start := time.Now()
	for i := 0; i < n; i++ {
		at := time.Duration(rng.Intn(150)) * time.Millisecond
		switch rng.Intn(4) {
		case 0: // a widget callback, interrupted or not
			m, err := wire.NewMessage("comm_msg", k.session, nil, map[string]any{"comm_id": sizeID,
				"data": map[string]any{"method": "update", "state": map[string]any{"value": rng.Intn(1000)}, "buffer_paths": []any{}}})
			if err != nil {
				t.Fatal(err)
			}
			frames, _ := k.signer.Encode(m)
			if err := k.shell.Send(zmq4.NewMsgFrom(frames...)); err != nil {
				t.Fatal(err)
			}
			time.Sleep(at)
			k.request(k.control, "interrupt_request", map[string]any{}, 10*time.Second, false)
			if !k.waitIdle(m.Header.MsgID, 30*time.Second) {
				t.Fatalf("press %d: the callback did not end", i)
			}
		case 1: // a press while idle
			time.Sleep(at)
			k.request(k.control, "interrupt_request", map[string]any{}, 10*time.Second, false)
		default:
			k.runInterrupted(loops[rng.Intn(len(loops))], at)
		}
	}
	t.Logf("%d presses in %v", n, time.Since(start))
	k.checkSession(fmt.Sprintf("after %d presses", n))
	k.expectPrints("callbacks and copies", `before := atomic.LoadInt64(&fired)
size.SetValue(size.Value() + 1)
fmt.Println(atomic.LoadInt64(&fired) > before, copies())`, "true true\n")
	time.Sleep(500 * time.Millisecond) // interrupted cl waits settle
	g1, f1 := counts()
	t.Logf("goroutines %d -> %d, file descriptors %d -> %d", g0, g1, f0, f1)
	if g1 > g0+3 {
		t.Errorf("the engine's goroutines grew from %d to %d", g0, g1)
	}
	if f1 > f0+3 {
		t.Errorf("the engine's file descriptors grew from %d to %d", f0, f1)
	}
	if now := enginePIDs(k.cmd.Process.Pid); len(now) != 1 || now[0] != engines[0] {
		t.Errorf("engine before %v, after %v: it was replaced", engines, now)
	}
	if strings.Contains(k.stderr.String(), "replacing the engine") {
		t.Errorf("the engine was replaced:\n%s", k.stderr.String())
	}
}

func hasOpenCL() bool { return len(clapi.Platforms()) > 0 }
