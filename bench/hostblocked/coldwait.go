package main

/*
#define _GNU_SOURCE
#include <sched.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static long long cw_now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

// cw_wait spins (spin != 0) or sleeps in one call for ns nanoseconds,
// as a C program's long wait; info gets the CPU and thread at the start
// and at the end, and the clock just before it returns.
static void cw_wait(int spin, long long ns, long long *info) {
	info[0] = sched_getcpu();
	info[1] = syscall(SYS_gettid);
	long long end = cw_now() + ns;
	if (spin) {
		while (cw_now() < end) {
		}
	} else {
		struct timespec d = {(time_t)(ns / 1000000000LL), (long)(ns % 1000000000LL)};
		nanosleep(&d, NULL);
	}
	info[2] = sched_getcpu();
	info[3] = syscall(SYS_gettid);
	info[4] = cw_now();
}
*/
import "C"

import (
	"fmt"
	"runtime"
	"syscall"
	"time"
	_ "unsafe" // go:linkname
)

// nanotime is the runtime's monotonic clock, the one C's CLOCK_MONOTONIC
// reads: so a time taken in C and one taken in Go compare.
//
//go:linkname nanotime runtime.nanotime
func nanotime() int64

//go:linkname procPin runtime.procPin
func procPin() int

//go:linkname procUnpin runtime.procUnpin
func procUnpin()

// pid is the number of the P (the runtime's processor) the goroutine runs on.
func pid() int {
	p := procPin()
	procUnpin()
	return p
}

// betweenInfo is where a long wait before a timed call left the goroutine
// (issue 21: is the call after a 72 ms wait slow because the runtime moved
// it, or because the CPU went cold?).
type betweenInfo struct {
	// CgoReturn is from the C clock just before the C wait returned to
	// the Go clock just after (cgo's return and exitsyscall), seconds.
	CgoReturn float64 `json:"cgo_return_s,omitempty"`
	// CPU and thread at the C wait's start and end (-1 when not in C).
	CPUStart, CPUEnd       int `json:"-"`
	CPUMoved, ThreadMoved  bool
	PBefore, PAfter        int
	ThreadBefore, ThreadAt int // Go's view: gettid before the wait and after it
}

// cWait waits in one cgo call, spinning or sleeping.
func (b *bench) cWait(spin bool, d time.Duration) {
	in := &betweenInfo{PBefore: pid(), ThreadBefore: syscall.Gettid()}
	var info [5]C.longlong
	s := C.int(0)
	if spin {
		s = 1
	}
	C.cw_wait(s, C.longlong(d), &info[0])
	back := nanotime()
	in.CgoReturn = float64(back-int64(info[4])) / 1e9
	in.CPUStart, in.CPUEnd = int(info[0]), int(info[2])
	in.CPUMoved = info[0] != info[2]
	in.ThreadMoved = info[1] != info[3]
	in.PAfter, in.ThreadAt = pid(), syscall.Gettid()
	b.last = in
}

// goWait spins in Go for d, optionally locked to the thread.
func (b *bench) goWait(lock bool, d time.Duration) {
	in := &betweenInfo{PBefore: pid(), ThreadBefore: syscall.Gettid(), CPUStart: -1, CPUEnd: -1}
	if lock {
		runtime.LockOSThread()
	}
	for t := time.Now(); time.Since(t) < d; {
	}
	if lock {
		runtime.UnlockOSThread()
	}
	in.PAfter, in.ThreadAt = pid(), syscall.Gettid()
	b.last = in
}

// goSleep sleeps in Go for d.
func (b *bench) goSleep(d time.Duration) {
	in := &betweenInfo{PBefore: pid(), ThreadBefore: syscall.Gettid(), CPUStart: -1, CPUEnd: -1}
	time.Sleep(d)
	in.PAfter, in.ThreadAt = pid(), syscall.Gettid()
	b.last = in
}

// afterWait summarizes where the condition's waits left the timed calls
// of the main ways: cgo's return after a C wait, and how often the P, the
// thread or (during a C wait) the CPU changed.
func afterWait(b *bench, key func(string) string) string {
	var ret []float64
	var n, pMoved, tMoved, cpuMoved, inC int
	for _, way := range append([]string{"C", "compiled"}, cellWays...) {
		for _, s := range b.samples[key(way)] {
			a := s.After
			if a == nil {
				continue
			}
			n++
			if a.PBefore != a.PAfter {
				pMoved++
			}
			if a.ThreadBefore != a.ThreadAt {
				tMoved++
			}
			if a.CPUStart >= 0 {
				inC++
				ret = append(ret, a.CgoReturn)
				if a.CPUMoved {
					cpuMoved++
				}
			}
		}
	}
	if n == 0 {
		return ""
	}
	out := fmt.Sprintf("After the condition's wait (%d timed calls): the P changed in %d, the goroutine's thread in %d", n, pMoved, tMoved)
	if inC > 0 {
		out += fmt.Sprintf("; during the C wait the CPU changed in %d of %d; cgo's return from the C wait to Go: median %s (p10 %s, p90 %s)", cpuMoved, inC, us(median(ret)), us(quantile(ret, 0.1)), us(quantile(ret, 0.9)))
	}
	return out + ".\n\n"
}
