package dispatch

import (
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// bigRequest is how many bytes a request may allocate before the kernel
// gives its free memory back to the system when it is done.
const bigRequest = 64 << 20

// allocated returns the bytes the process has allocated so far.
func allocated() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// releaseAfter returns the memory a request freed to the system when the
// request allocated more than bigRequest since start (a cell with a 200 MB
// result or output: its copies are garbage once it is answered). The
// runtime's scavenger would return it only over minutes, with the kernel
// sitting at 1.6 GB meanwhile.
func releaseAfter(start uint64) {
	if allocated()-start > bigRequest {
		debug.FreeOSMemory()
		// Again once IOPub has had time to send the output it still holds.
		time.AfterFunc(2*time.Second, debug.FreeOSMemory)
	}
}
