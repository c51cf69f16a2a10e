package clapi

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/cellctx"
)

func TestProfilingTimes(t *testing.T) {
	ctx, q := testQueue(t)
	a := RandomSeed(1<<16, 2)
	buf := NewBufferSize(ctx, ReadWrite, 8*len(a))
	ev := EnqueueCopy(q, buf, a, NonBlocking)
	ev.Wait()
	if ev.Queued() > ev.Submit() || ev.Submit() > ev.Start() || ev.Start() > ev.End() {
		t.Fatalf("profiling times out of order: %d %d %d %d", ev.Queued(), ev.Submit(), ev.Start(), ev.End())
	}
	if ev.DeviceTime() != time.Duration(ev.End()-ev.Start()) || ev.DeviceTime() < 0 {
		t.Fatalf("DeviceTime %v", ev.DeviceTime())
	}
	if ev.HostBlocked() < 0 || ev.HostReturn().Before(ev.HostStart()) {
		t.Fatalf("host times: %v %v", ev.HostStart(), ev.HostReturn())
	}
	// Times survive Release.
	end := ev.End()
	ev.Release()
	ev.Release()
	if ev.End() != end {
		t.Fatal("End changed after Release")
	}
	// A queue without profiling says how to fix it.
	plain := NewQueue(ctx)
	defer plain.Release()
	ev2 := EnqueueCopy(plain, buf, a)
	mustFail(t, func() { ev2.DeviceTime() }, "CL_PROFILING_INFO_NOT_AVAILABLE", "cl.Profiling")
	if !strings.Contains(ev2.String(), "complete") {
		t.Errorf("card text lacks the status: %s", ev2.String())
	}
}

func TestUserEventMarkerBarrier(t *testing.T) {
	ctx, q := testQueue(t)
	ooo := Try(func() { NewQueue(ctx, OutOfOrder|Profiling).Release() })
	if ooo != nil {
		t.Logf("out-of-order queues unsupported here: %v", ooo)
	}
	u := NewUserEvent(ctx)
	m := EnqueueMarker(q, WaitFor(u))
	b := EnqueueBarrier(q, WaitFor(m))
	q.Flush()
	select {
	case <-m.Done():
		t.Fatal("marker completed before the user event")
	case <-time.After(50 * time.Millisecond):
	}
	if s := m.Status(); s == "complete" {
		t.Fatalf("marker status %q before the user event", s)
	}
	u.SetComplete()
	WaitAll(m, b)
	if m.Status() != "complete" || b.Status() != "complete" || u.Status() != "complete" {
		t.Fatalf("statuses %q %q %q", m.Status(), b.Status(), u.Status())
	}
	mustFail(t, func() { u.SetComplete() }, "clSetUserEventStatus")
	mustFail(t, func() { m.SetComplete() }, "not a user event")
	mustFail(t, func() { u.DeviceTime() }, "user events")
	mustFail(t, func() { EnqueueMarker(q, NonBlocking) }, "does not apply")

	// A failed user event reports its status and its Wait fails. (What
	// happens to commands that wait for it is implementation-defined; PoCL
	// leaves them queued, so none is enqueued here.)
	f := NewUserEvent(ctx)
	f.SetFailed(-1)
	e := mustFail(t, f.Wait, "CL_DEVICE_NOT_FOUND")
	if e.Code != -1 || f.Status() != "CL_DEVICE_NOT_FOUND" {
		t.Fatalf("failed user event: code %d, status %q", e.Code, f.Status())
	}
	mustFail(t, func() { f.SetFailed(1) }, "not negative")
	q.Finish()
}

func TestWaitIsInterruptible(t *testing.T) {
	ctx, _ := testQueue(t)
	u := NewUserEvent(ctx)
	c, cancel := context.WithCancel(context.Background())
	_, end := cellctx.Begin(c, cellctx.IO{}) // as the engine does for a cell
	defer end()
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	done := make(chan error, 1)
	go func() { done <- Try(u.Wait) }()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("interrupted wait returned %v, want one wrapping context.Canceled", err)
		}
		e, _ := AsError(err)
		if e.Name != "INTERRUPTED" {
			t.Fatalf("name %q", e.Name)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Wait ignored the cell's cancellation")
	}
	u.SetComplete()
	end()
	u.Wait()
}

func TestWaitForRefusesBadEvents(t *testing.T) {
	ctx, q := testQueue(t)
	other := CreateSomeContext()
	defer other.Release()
	foreign := NewUserEvent(other)
	mustFail(t, func() { EnqueueMarker(q, WaitFor(foreign)) }, "another context")
	mustFail(t, func() { EnqueueMarker(q, WaitFor(nil)) }, "nil")
	u := NewUserEvent(ctx)
	u.SetComplete()
	u.Release()
	mustFail(t, func() { EnqueueMarker(q, WaitFor(u)) }, "CL_INVALID_EVENT", "released")
}
