package clapi

import (
	"bytes"
	"runtime"
	"testing"
)

// sink keeps garbage allocations from being optimised away.
var sink []byte

// TestNonBlockingCopiesSurviveGC drops the events and the Go slices of many
// in-flight non-blocking copies while forcing collections, then checks every
// byte. Run it with GOEXPERIMENT=cgocheck2 too.
func TestNonBlockingCopiesSurviveGC(t *testing.T) {
	ctx, q := testQueue(t)
	const copies, size = 64, 256 << 10
	bufs := make([]*Buffer, copies)
	for i := range bufs {
		bufs[i] = NewBufferSize(ctx, ReadWrite, size)
	}
	stop := make(chan struct{})
	gcDone := make(chan struct{})
	go func() {
		defer close(gcDone)
		for {
			select {
			case <-stop:
				return
			default:
				runtime.GC()
			}
		}
	}()
	// Writes from slices nobody else references; the events are dropped.
	for i := range bufs {
		src := make([]byte, size)
		for j := range src {
			src[j] = byte(i*7 + j)
		}
		EnqueueCopy(q, bufs[i], src, NonBlocking)
		// Garbage that would reuse the slice's memory if it were freed.
		sink = make([]byte, size)
	}
	// Reads into slices only the returned events keep; keep only the slices.
	dsts := make([][]byte, copies)
	var last *Event
	for i := range bufs {
		dsts[i] = make([]byte, size)
		last = EnqueueCopy(q, dsts[i], bufs[i], NonBlocking)
		sink = make([]byte, size)
	}
	last.Wait()
	q.Finish()
	close(stop)
	<-gcDone
	want := make([]byte, size)
	for i, d := range dsts {
		for j := range want {
			want[j] = byte(i*7 + j)
		}
		if !bytes.Equal(d, want) {
			t.Fatalf("copy %d came back different", i)
		}
	}
}

// A UseHostPtr buffer keeps its Go slice pinned and in use.
func TestUseHostPtr(t *testing.T) {
	ctx, q := testQueue(t)
	host := []float32{1, 2, 3, 4}
	buf := NewBuffer(ctx, ReadWrite|UseHostPtr, host)
	runtime.GC()
	EnqueueFill(q, buf, float32(7), ByteCount(8))
	got := make([]float32, 4)
	EnqueueCopy(q, got, buf)
	if !EqualFloat32(got, []float32{7, 7, 3, 4}) {
		t.Fatalf("got %v", got)
	}
	buf.Release()
	buf.Release()
}
