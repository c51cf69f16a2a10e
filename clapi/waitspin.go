package clapi

/*
#include "gocl_cl.h"
#include <time.h>

// gocl_spin_status polls the event's status in C, with a pause between
// polls, until the command settled or max_ns passed. It returns 1 with the
// status in *status when the command settled, 0 when the time ran out and
// -1 when the driver cannot say.
static int gocl_spin_status(cl_event e, long long max_ns, cl_int *status) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	long long end = (long long)t.tv_sec * 1000000000LL + t.tv_nsec + max_ns;
	for (;;) {
		cl_int s;
		if (clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL) != CL_SUCCESS) return -1;
		if (s <= CL_COMPLETE) {
			*status = s;
			return 1;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((long long)t.tv_sec * 1000000000LL + t.tv_nsec >= end) return 0;
		for (int i = 0; i < 32; i++) {
#if defined(__x86_64__) || defined(__i386__)
			__builtin_ia32_pause();
#endif
		}
	}
}
*/
import "C"

import (
	"context"
	"runtime"
	"time"
)

// spinSlice is how long one C call of a spinning-in-C wait polls before it
// comes back to Go to see whether the cell was interrupted.
var spinSlice = time.Millisecond

// spun waits for the event the way waitMode chose for its queue when that
// way spins, and reports whether the event settled; false means wait as
// blocking does (not a spinning mode, interrupted, or spun for spinFor).
func (e *Event) spun(ctx context.Context) bool {
	switch waitMode(e.queue) {
	case waitSpin:
		return e.spinWait(ctx)
	case waitSpinLock:
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		return e.spinWait(ctx)
	case waitSpinC:
		return e.spinWaitC(ctx)
	}
	return false
}

// spinWaitC is spinWait with the polling loop in C: one cgo call per
// spinSlice instead of one per poll, so that the goroutine runs no Go code
// while it waits (as a C program waiting in clWaitForEvents).
func (e *Event) spinWaitC(ctx context.Context) bool {
	done := ctx.Done()
	give := time.Now().Add(spinFor)
	for !e.st.settled() {
		select {
		case <-done:
			return false
		default:
		}
		if time.Now().After(give) {
			return false
		}
		e.mu.Lock()
		if e.id == nil {
			e.mu.Unlock()
			return e.st.settled()
		}
		var s C.cl_int
		r := C.gocl_spin_status(e.id, C.longlong(spinSlice), &s)
		e.mu.Unlock()
		if r < 0 {
			return e.st.settled()
		}
		if r == 1 {
			e.st.settle(int(s))
		}
	}
	return true
}
