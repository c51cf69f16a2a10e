package clapi

import (
	"context"
	"os"
	"runtime"
	"strings"
	"time"
)

// How Event.Wait waits, as CUDA's cudaDeviceScheduleSpin and
// cudaDeviceScheduleBlockingSync choose for CUDA programs.
//
// A parked goroutine wakes on a CPU that went idle while it waited: in a
// virtual machine its caches are cold and the next call runs several times
// slower (bench/RESULTS.md, "How Wait waits, and the first call after a wait"). A C or PyOpenCL
// program waits in clWaitForEvents on its own thread, which NVIDIA's driver
// spins; a spinning Wait keeps the cell's goroutine on its CPU the same
// way, so the call after a wait starts warm.
const (
	waitBlock    = iota // park the goroutine; a goroutine waits in C
	waitSpin            // poll the command's status from the waiting goroutine
	waitSpinLock        // waitSpin with the goroutine locked to its thread
	waitSpinC           // poll in C, a slice of spinSlice per cgo call
	// waitSpinLock and waitSpinC were issue 21's candidates for a warmer
	// call after a 72 ms wait; on the H200 they measured no better than
	// waitSpin (bench/RESULTS.md), and stay for measuring (GOCL_WAIT).
)

// waitModeNames are GOCL_WAIT's values.
var waitModeNames = map[string]int{"block": waitBlock, "spin": waitSpin, "spinlock": waitSpinLock, "spinc": waitSpinC}

// waitModeOverride is GOCL_WAIT's choice, or -1 to choose by device type.
var waitModeOverride = func() int {
	if m, ok := waitModeNames[strings.ToLower(strings.TrimSpace(os.Getenv("GOCL_WAIT")))]; ok {
		return m
	}
	return -1
}()

// spinPoll is how often a spinning Wait asks the driver for the status;
// spinFor is how long it spins before it parks as blocking does: after a
// second, a cold start of tens of microseconds no longer matters.
var (
	spinPoll = 2 * time.Microsecond
	spinFor  = time.Second
)

// waitMode is how a wait for a command of q waits: GOCL_WAIT when set,
// else spinning on a GPU (whose driver spins in clWaitForEvents too) and
// blocking on a CPU device, whose own threads need the host's cores.
func waitMode(q *Queue) int {
	if waitModeOverride >= 0 {
		return waitModeOverride
	}
	if q != nil && q.dev != nil && q.dev.Type == "GPU" && runtime.NumCPU() > 1 {
		return waitSpin
	}
	return waitBlock
}

// spinWait polls the event until it settles, ctx ends or spinFor has
// passed; it reports whether it settled. The goroutine keeps its thread
// and its CPU.
func (e *Event) spinWait(ctx context.Context) bool {
	done := ctx.Done()
	next := time.Now()
	give := next.Add(spinFor)
	for !e.st.settled() {
		select {
		case <-done:
			return false
		default:
		}
		now := time.Now()
		if now.Before(next) {
			continue
		}
		next = now.Add(spinPoll)
		if now.After(give) {
			return false
		}
		if !e.pollStatus() {
			// The driver cannot say (a released event): wait as blocking does.
			return e.st.settled()
		}
	}
	return true
}
