package clapi

import (
	"testing"
	"time"
)

// settles fails the test unless st settles within a hang guard (not a
// timing condition), without anything that would adopt pending events.
func settles(t *testing.T, what string, st *eventState) {
	t.Helper()
	select {
	case <-st.doneChan():
	case <-time.After(20 * time.Second):
		t.Fatalf("%s never settled", what)
	}
}

// Commands nobody waits for are adopted in batches: the call that makes
// adoptBatch pending registers their completion callbacks (in the
// background), which settle them once they run.
func TestUnwaitedCommandsSettleInBatches(t *testing.T) {
	ctx, q := testQueue(t)
	p := NewPinnedHost(q, 4096)
	buf := NewBufferSize(ctx, ReadWrite, 4096)
	defer buf.Release()
	defer func() {
		if !t.Failed() { // Close would wait for the commands that never settled
			p.Close()
		}
	}()
	gate := NewUserEvent(ctx)
	adoptPending() // what earlier tests left
	var events []*Event
	for i := 0; i < adoptBatch; i++ {
		events = append(events, EnqueueCopy(q, buf, p, NonBlocking, WaitFor(gate)))
	}
	for i, e := range events {
		if e.st.settled() {
			t.Fatalf("command %d settled before its gate opened", i)
		}
	}
	gate.SetComplete()
	for _, e := range events {
		settles(t, "an unwaited command of a full batch", e.st)
	}
}

// Releasing the event of a command still queued registers its callback
// first: the Go memory it reads stays pinned until it has run, then is
// unpinned.
func TestReleasedQueuedCommandSettles(t *testing.T) {
	ctx, q := testQueue(t)
	buf := NewBufferSize(ctx, ReadWrite, 8*1024)
	defer buf.Release()
	gate := NewUserEvent(ctx)
	adoptPending()
	src := make([]float64, 1024)
	ev := EnqueueCopy(q, buf, src, NonBlocking, WaitFor(gate))
	st := ev.st
	ev.Release()
	st.mu.Lock()
	pinned := st.pinned
	st.mu.Unlock()
	if !pinned {
		t.Fatal("the Go slice of a queued copy is not pinned after its event was released")
	}
	gate.SetComplete()
	settles(t, "a released command", st)
	st.mu.Lock()
	pinned = st.pinned
	st.mu.Unlock()
	if pinned {
		t.Fatal("the Go slice is still pinned after the copy settled")
	}
}

// Queue.Finish settles the commands it waited for, though nobody waited
// for their events.
func TestFinishSettlesUnwaitedCommands(t *testing.T) {
	ctx, q := testQueue(t)
	buf := NewBufferSize(ctx, ReadWrite, 8*1024)
	defer buf.Release()
	adoptPending()
	var events []*Event
	for i := 0; i < 3; i++ {
		events = append(events, EnqueueCopy(q, buf, make([]float64, 1024), NonBlocking))
	}
	q.Finish()
	for _, e := range events {
		settles(t, "a command Finish waited for", e.st)
	}
}

// PinnedHost.Close waits for copies nobody waited for, and returns.
func TestPinnedCloseAfterUnwaitedCopies(t *testing.T) {
	ctx, q := testQueue(t)
	p := NewPinnedHost(q, 1<<16)
	buf := NewBufferSize(ctx, ReadWrite, 1<<16)
	defer buf.Release()
	adoptPending()
	var events []*Event
	for i := 0; i < 3; i++ {
		events = append(events, EnqueueCopy(q, buf, p, NonBlocking))
	}
	closed := make(chan struct{})
	go func() { p.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(20 * time.Second):
		t.Fatal("PinnedHost.Close never returned after three unwaited copies")
	}
	for _, e := range events {
		if !e.st.settled() {
			t.Fatal("Close returned before a copy from the memory settled")
		}
	}
}

// Status reports a command that has run as complete, and settles it.
func TestStatusSettlesACompletedCommand(t *testing.T) {
	ctx, q := testQueue(t)
	buf := NewBufferSize(ctx, ReadWrite, 8*1024)
	defer buf.Release()
	adoptPending()
	ev := EnqueueCopy(q, buf, make([]float64, 1024), NonBlocking)
	deadline := time.Now().Add(20 * time.Second)
	for ev.Status() != "complete" {
		if time.Now().After(deadline) {
			t.Fatalf("status still %q", ev.Status())
		}
		time.Sleep(time.Millisecond)
	}
	if !ev.st.settled() {
		t.Fatal("Status said complete but the event did not settle")
	}
}
