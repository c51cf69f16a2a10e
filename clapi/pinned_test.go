package clapi

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestPinnedHost(t *testing.T) {
	ctx, q := testQueue(t)
	const n = 1 << 16
	p := NewPinnedHost(q, 8*n)
	if p.Size() != 8*n || len(p.Float64s()) != n || len(p.Float32s()) != 2*n || len(p.Int32s()) != 2*n || len(p.Bytes()) != 8*n {
		t.Fatalf("view sizes: %d %d %d %d", p.Size(), len(p.Float64s()), len(p.Float32s()), len(p.Bytes()))
	}
	v := p.Float64s()
	copy(v, RandomSeed(n, 3))
	buf := NewBufferSize(ctx, ReadWrite, 8*n)
	ev := EnqueueCopy(q, buf, v, NonBlocking)
	ev.Wait()
	card := ev.Card()
	if card.HostMemory != "pinned" || !card.NonBlocking || card.Direction != HostToDevice || card.Bytes != 8*n {
		t.Fatalf("card %+v", card)
	}
	// The *PinnedHost itself is host memory too; read back into it.
	other := NewPinnedHost(q, 8*n)
	EnqueueCopy(q, other, buf)
	if !Equal(other.Float64s(), v) {
		t.Fatal("pinned read-back differs")
	}
	// Sub-slices of a view are pinned memory; a slice that runs past the
	// end of the region is refused.
	ev = EnqueueCopy(q, buf, v[10:20])
	if ev.Card().HostMemory != "pinned" {
		t.Fatal("a sub-slice of a pinned view was not recognised as pinned")
	}
	// A pageable copy says so.
	ev = EnqueueCopy(q, buf, make([]float64, n))
	if ev.Card().HostMemory != "pageable" {
		t.Fatal("a Go slice was not reported as pageable")
	}

	p.Close()
	p.Close() // idempotent
	mustFail(t, func() { EnqueueCopy(q, buf, v) }, "closed or unmapped")
	mustFail(t, func() { EnqueueCopy(q, v, buf) }, "closed or unmapped")
	mustFail(t, func() { EnqueueCopy(q, buf, p) }, "was closed")
	mustFail(t, func() { p.Float64s() }, "closed")
	mustFail(t, func() { NewBuffer(ctx, ReadWrite|CopyHostPtr, v) }, "closed or unmapped")
	mustFail(t, func() { NewBuffer(ctx, ReadWrite|UseHostPtr, other.Bytes()) }, "UseHostPtr over a cl.PinnedHost")
	if !strings.Contains(p.String(), "closed") {
		t.Errorf("String of a closed PinnedHost: %s", p)
	}
	other.Release()
	mustFail(t, func() { NewPinnedHost(q, 0) }, "CL_INVALID_BUFFER_SIZE")
}

// Close waits for non-blocking copies that still use the pinned memory.
func TestPinnedCloseWaitsForCopies(t *testing.T) {
	ctx, q := testQueue(t)
	p := NewPinnedHost(q, 1<<20)
	buf := NewBufferSize(ctx, ReadWrite, 1<<20)
	u := NewUserEvent(ctx)
	ev := EnqueueCopy(q, buf, p, NonBlocking, WaitFor(u))
	q.Flush()
	closed := make(chan struct{})
	go func() { p.Close(); close(closed) }()
	select {
	case <-closed:
		t.Fatal("Close returned while a copy from the memory was still queued")
	case <-ev.Done():
		t.Fatal("copy ran before its user event")
	default:
	}
	u.SetComplete()
	<-closed
	if ev.Status() != "complete" {
		t.Fatalf("copy status %q after Close", ev.Status())
	}
}

// A PinnedHost dropped without taking views is released by the collector.
func TestPinnedHostWithoutViewsIsCollected(t *testing.T) {
	_, q := testQueue(t)
	r := func() *region {
		p := NewPinnedHost(q, 4096)
		return p.m.r
	}()
	// Finalizers run one at a time after a collection; give them time
	// (a hang guard, not a timing condition).
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
		r.mu.Lock()
		closed := r.closed
		r.mu.Unlock()
		if closed {
			return
		}
	}
	t.Fatal("a dropped PinnedHost without views was never closed")
}
