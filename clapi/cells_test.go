package clapi_test

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"

	"github.com/seed43a1e1ab/gocl/clapi"
	"github.com/seed43a1e1ab/gocl/kernel/display"
	"github.com/seed43a1e1ab/gocl/kernel/engine"
	"github.com/seed43a1e1ab/gocl/kernel/symbols"
)

// TestMain keeps the test binary's output on the real descriptors: the
// engine captures fds 1 and 2 for cells.
func TestMain(m *testing.M) {
	os.Stdout = engine.OriginalStdout()
	os.Stderr = engine.OriginalStderr()
	os.Exit(m.Run())
}

// sink records what cells print.
type sink struct {
	mu  sync.Mutex
	out strings.Builder
}

func (s *sink) Stream(name, text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.out.WriteString(text)
}
func (s *sink) Display(display.Message)                      {}
func (s *sink) Input(prompt string, pw bool) (string, error) { return "", context.Canceled }

func newEngine(t *testing.T) *engine.Engine {
	t.Helper()
	if len(clapi.Platforms()) == 0 {
		t.Skip("no OpenCL platform")
	}
	e, err := engine.New(engine.Options{
		Exports:    []interp.Exports{symbols.Symbols}, // the engine adds the standard library
		Preimports: map[string]string{"cl": "github.com/seed43a1e1ab/gocl/clapi"},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// run executes a cell, failing the test on a cell error.
func run(t *testing.T, e *engine.Engine, code string) (engine.Result, string) {
	t.Helper()
	s := &sink{}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second) // hang guard only
	defer cancel()
	r := e.Execute(ctx, code, s)
	if r.Err != nil {
		t.Fatalf("cell failed: %s: %s\n%s\ncell:\n%s", r.Err.Name, r.Err.Value, strings.Join(r.Err.Traceback, "\n"), code)
	}
	return r, s.out.String()
}

// TestSeedCell runs the cell at 1e6 elements, then a pinned variant.
func TestSeedCell(t *testing.T) {
	e := newEngine(t)
	r, out := run(t, e, `
ctx := cl.CreateSomeContext()
queue := cl.NewQueue(ctx, cl.Profiling)
a := cl.Random(1000 * 1000)
start := time.Now()
aBuf := cl.NewBuffer(ctx, cl.ReadWrite|cl.CopyHostPtr, a)
fmt.Printf("Buffer creation time: %.4f s\n", time.Since(start).Seconds())
start = time.Now()
ev := cl.EnqueueCopy(queue, aBuf, a, cl.NonBlocking)
ev.Wait()
fmt.Printf("Copy time blocking 1: %.4f s\n", time.Since(start).Seconds())
ev3 := cl.EnqueueCopy(queue, aBuf, a, cl.NonBlocking)
ev3
`)
	for _, w := range []string{"Buffer creation time:", "Copy time blocking 1:"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	html, _ := r.Data["text/html"].(string)
	text, _ := r.Data["text/plain"].(string)
	for _, w := range []string{"8", "host→device", "pageable"} {
		if !strings.Contains(html, w) || !strings.Contains(text, w) {
			t.Errorf("event card lacks %q:\nHTML: %s\ntext: %s", w, html, text)
		}
	}

	// The pinned variant. The copy waits for a user event, so it cannot run
	// inside the call: if the call returns while the copy is still pending,
	// it did not block (no timing involved).
	r, out = run(t, e, `
pinned := cl.NewPinnedHost(queue, 8*len(a))
copy(pinned.Float64s(), a)
gate := cl.NewUserEvent(ctx)
evp := cl.EnqueueCopy(queue, aBuf, pinned, cl.NonBlocking, cl.WaitFor(gate))
pending := evp.Status() != "complete"
gate.SetComplete()
evp.Wait()
fmt.Println("returned before the copy ran:", pending)
evp
`)
	if !strings.Contains(out, "returned before the copy ran: true") {
		t.Errorf("the pinned non-blocking copy did not return before running: %s", out)
	}
	text, _ = r.Data["text/plain"].(string)
	for _, w := range []string{"pinned", "non-blocking", "complete"} {
		if !strings.Contains(text, w) {
			t.Errorf("pinned card lacks %q:\n%s", w, text)
		}
	}
	t.Logf("pinned card:\n%s", text)
	_, out = run(t, e, `
back := make([]float64, len(a))
cl.EnqueueCopy(queue, back, aBuf)
fmt.Println("equal:", cl.Equal(back, a), "sum close:", cl.Sum(back) == cl.Sum(a))
pinned.Close()
`)
	if !strings.Contains(out, "equal: true sum close: true") {
		t.Errorf("round trip through cells: %s", out)
	}
}

// TestCellErrors checks that a failing call reaches the user as an
// OpenCLError naming the call, and that Try hands it back as a value.
func TestCellErrors(t *testing.T) {
	e := newEngine(t)
	run(t, e, `
ctx := cl.CreateSomeContext()
q := cl.NewQueue(ctx)
buf := cl.NewBufferSize(ctx, cl.ReadWrite, 16)`)
	s := &sink{}
	r := e.Execute(context.Background(), `cl.EnqueueCopy(q, buf, make([]float64, 100))`, s)
	if r.Err == nil || r.Err.Name != "OpenCLError" || !strings.Contains(r.Err.Value, "clEnqueueWriteBuffer") {
		t.Fatalf("cell error: %+v", r.Err)
	}
	r = e.Execute(context.Background(), `
prog := cl.BuildProgram(ctx, "__kernel void k(__global int *x, int n) { x[0] = n; }", "")
k := prog.Kernel("k")
k.SetArgs(buf, 7)`, s)
	if r.Err == nil || !strings.Contains(r.Err.Value, "int32(x) or int64(x)") {
		t.Fatalf("Go int kernel arg: %+v", r.Err)
	}
	_, out := run(t, e, `
err := cl.Try(func() { cl.NewBufferSize(ctx, cl.ReadWrite, 0) })
fmt.Println("caught:", err != nil)
k.SetArgs(buf, int32(7))
cl.EnqueueKernel(q, k, []int{1}, nil).Wait()
got := make([]int32, 4)
cl.EnqueueCopy(q, got, buf)
fmt.Println("kernel wrote", got[0])
ev := cl.EnqueueCopy(q, buf, got, cl.NonBlocking, cl.WaitFor(cl.EnqueueMarker(q)), cl.DstOffset(0), cl.ByteCount(8))
cl.Timeline(ev).Method != ""`)
	if !strings.Contains(out, "caught: true") || !strings.Contains(out, "kernel wrote 7") {
		t.Errorf("output: %s", out)
	}
}

// TestPlatformsCell shows the platform list and a device as tables.
func TestPlatformsCell(t *testing.T) {
	e := newEngine(t)
	r, _ := run(t, e, `cl.Platforms()`)
	if html, _ := r.Data["text/html"].(string); !strings.Contains(html, "<table") {
		t.Fatalf("platform list is not a table: %v", r.Data)
	}
	r, _ = run(t, e, `cl.Platforms()[0].Devices()[0]`)
	if html, _ := r.Data["text/html"].(string); !strings.Contains(html, "compute units") {
		t.Fatalf("device is not a table: %v", r.Data)
	}
	r, _ = run(t, e, `cl.Platforms()[0].Devices()`)
	if html, _ := r.Data["text/html"].(string); !strings.Contains(html, "OpenCL devices") || !strings.Contains(html, "<table") {
		t.Fatalf("a platform's devices are not a table: %v", r.Data)
	}
}
