package clapi

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/cellctx"
)

// withWaitMode makes every Wait in the test wait the given way.
func withWaitMode(t *testing.T, mode int) {
	old := waitModeOverride
	waitModeOverride = mode
	t.Cleanup(func() { waitModeOverride = old })
}

// spinModes are the wait modes that spin, by GOCL_WAIT name.
var spinModes = []string{"spin", "spinlock", "spinc"}

func TestSpinningWaitCompletesCopies(t *testing.T) {
	for _, name := range spinModes {
		t.Run(name, func(t *testing.T) { testSpinningWaitCompletesCopies(t, waitModeNames[name]) })
	}
}

func testSpinningWaitCompletesCopies(t *testing.T, mode int) {
	withWaitMode(t, mode)
	ctx, q := testQueue(t)
	a := RandomSeed(1<<20, 3)
	buf := NewBufferSize(ctx, ReadWrite, 8*len(a))
	for i := 0; i < 20; i++ {
		ev := EnqueueCopy(q, buf, a, NonBlocking)
		ev.Wait()
		if ev.Status() != "complete" {
			t.Fatalf("copy %d: status %q after a spinning Wait", i, ev.Status())
		}
		ev.mu.Lock()
		started := ev.cWaited != nil
		ev.mu.Unlock()
		if started {
			t.Fatalf("copy %d: a spinning Wait started the goroutine that waits in C", i)
		}
	}
	back := make([]float64, len(a))
	EnqueueCopy(q, back, buf)
	if !Equal(back, a) {
		t.Fatal("the buffer does not hold what the spinning waits said was written")
	}
}

func TestSpinningWaitIsInterruptible(t *testing.T) {
	for _, name := range spinModes {
		t.Run(name, func(t *testing.T) { testSpinningWaitIsInterruptible(t, waitModeNames[name]) })
	}
}

func testSpinningWaitIsInterruptible(t *testing.T, mode int) {
	withWaitMode(t, mode)
	ctx, q := testQueue(t)
	u := NewUserEvent(ctx)
	m := EnqueueMarker(q, WaitFor(u))
	q.Flush()
	c, cancel := context.WithCancel(context.Background())
	_, end := cellctx.Begin(c, cellctx.IO{}) // as the engine does for a cell
	defer end()
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	done := make(chan error, 1)
	go func() { done <- Try(m.Wait) }()
	select {
	case err := <-done:
		if e, _ := AsError(err); !errors.Is(err, context.Canceled) || e == nil || e.Name != "INTERRUPTED" {
			t.Fatalf("interrupted spinning wait returned %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a spinning Wait ignored the cell's cancellation")
	}
	end()
	u.SetComplete()
	m.Wait()
	if m.Status() != "complete" {
		t.Fatalf("marker %q after its user event completed", m.Status())
	}
}

func TestSpinningWaitParksAfterSpinFor(t *testing.T) {
	withWaitMode(t, waitSpin)
	old := spinFor
	spinFor = 5 * time.Millisecond
	t.Cleanup(func() { spinFor = old })
	ctx, q := testQueue(t)
	u := NewUserEvent(ctx)
	m := EnqueueMarker(q, WaitFor(u))
	q.Flush()
	go func() { time.Sleep(100 * time.Millisecond); u.SetComplete() }()
	m.Wait()
	m.mu.Lock()
	parked := m.cWaited != nil
	m.mu.Unlock()
	if !parked {
		t.Fatal("a wait longer than spinFor never parked (no goroutine waited in C)")
	}
}

func TestWaitModeByDevice(t *testing.T) {
	withWaitMode(t, -1)
	gpu := &Queue{dev: &Device{Type: "GPU"}}
	cpu := &Queue{dev: &Device{Type: "CPU"}}
	if got := waitMode(cpu); got != waitBlock {
		t.Errorf("a CPU device's wait mode is %d, want blocking", got)
	}
	want := waitSpin
	if runtime.NumCPU() == 1 {
		want = waitBlock // one CPU: a spinning wait would keep the driver's threads off it
	}
	if got := waitMode(gpu); got != want {
		t.Errorf("a GPU's wait mode is %d, want %d", got, want)
	}
	waitModeOverride = waitBlock
	if waitMode(gpu) != waitBlock {
		t.Error("GOCL_WAIT=block did not override the GPU's spinning")
	}
	for _, name := range spinModes {
		if _, ok := waitModeNames[name]; !ok {
			t.Errorf("GOCL_WAIT=%s is not a wait mode", name)
		}
	}
}
