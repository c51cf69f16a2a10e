package clapi

import (
	"testing"
	"time"
)

// BenchmarkOwnWork measures clapi's own work in a non-blocking pinned
// write, compiled: the call's time on the caller's clock minus the driver
// call's (Event.HostBlocked), reported as own-ns/op. Issue 21 sets a target
// for a cell's own work in this call; this is compiled clapi's share of it.
// Run with -cpuprofile to see where it goes (PoCL here).
func BenchmarkOwnWork(b *testing.B) {
	_, q := testQueue(b)
	const n = 4096
	buf := NewBufferSize(q.Context(), ReadWrite, n)
	defer buf.Release()
	pinned := NewPinnedHost(q, n)
	defer pinned.Close()
	EnqueueCopy(q, buf, pinned).Wait()
	var own time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		ev := EnqueueCopy(q, buf, pinned, NonBlocking)
		own += time.Since(start) - ev.HostBlocked()
		ev.Wait()
	}
	b.ReportMetric(float64(own.Nanoseconds())/float64(b.N), "own-ns/op")
}
