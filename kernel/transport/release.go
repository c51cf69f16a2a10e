package transport

import (
	"runtime/debug"
	"sync/atomic"
	"time"
)

// A refused message may leave zmq4 holding a large buffer for it (up to the
// frame limit: the content frame of a badly signed message is read before its
// signature is known to be bad). The garbage collector would reuse that
// memory only after the heap has doubled, so an attacker sending one such
// message after another ran the kernel's RSS up to several of them. After
// each refusal of at least releaseAfter bytes, the memory is collected and
// returned to the system, at most once per releaseEvery.

const (
	releaseAfter = 16 << 20
	releaseEvery = 100 * time.Millisecond
)

var lastRelease atomic.Int64 // unix nanoseconds

// releaseMemory collects garbage and returns it to the system, soon, on its
// own goroutine, unless it did so less than releaseEvery ago.
func releaseMemory() {
	now := time.Now().UnixNano()
	last := lastRelease.Load()
	if now-last < int64(releaseEvery) || !lastRelease.CompareAndSwap(last, now) {
		return
	}
	// Later, so that zmq4 has dropped the refused message's buffer.
	time.AfterFunc(10*time.Millisecond, debug.FreeOSMemory)
}
