// Command pinprobe asks why a non-blocking pinned write holds the host
// longer when called from Go than from C (bench/RESULTS.md: about 60 us in
// the binding's C call against 16 us in clref). It makes the same copy in
// one process several ways and prints, for each, the median time the
// clEnqueueWriteBuffer call took:
//
//	c-loop          every call and wait made inside one cgo call (as clref)
//	go-loop         one cgo call per copy, the wait in the same call
//	go-locked       the same on a goroutine locked to its OS thread
//	go-wait-apart   the wait made by another goroutine, as clapi's Event.Wait
//	c-callback      clSetEventCallback right after the call, as the binding does: its own time
//	clapi           cl.EnqueueCopy from a *cl.PinnedHost: the C call, timed by the binding
//	clapi-return    the same copies: from the call of EnqueueCopy to its return
//	clapi-locked    the same, locked to an OS thread (and locked-return)
//
//	bench/transfer/bin/pinprobe [BYTES]    default 4e9
//
// It uses the first GPU it finds (else the first device), as a diagnosis
// tool: the figures it prints are not the targets.
package main

/*
#cgo LDFLAGS: -lOpenCL
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static cl_context ctx;
static cl_command_queue q;
static cl_mem buf, pin;
static void *host;
static size_t nbytes;

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int probe_setup(size_t bytes) {
	cl_platform_id plats[8];
	cl_uint np = 0;
	cl_int err = clGetPlatformIDs(8, plats, &np);
	if (err != CL_SUCCESS || np == 0) return -1;
	cl_device_id dev = NULL;
	for (cl_uint i = 0; i < np && !dev; i++)
		if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS) dev = NULL;
	if (!dev && clGetDeviceIDs(plats[0], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS) return -2;
	ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	if (err != CL_SUCCESS) return -3;
	q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
	if (err != CL_SUCCESS) return -4;
	buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
	if (err != CL_SUCCESS) return -5;
	pin = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err);
	if (err != CL_SUCCESS) return -6;
	host = clEnqueueMapBuffer(q, pin, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL, NULL, &err);
	if (err != CL_SUCCESS || !host) return -7;
	memset(host, 1, bytes);
	nbytes = bytes;
	return 0;
}

// probe_enqueue makes one non-blocking pinned write and returns how long
// the call took; *ev receives its event.
static double probe_enqueue(cl_event *ev) {
	double t0 = now();
	cl_int err = clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, nbytes, host, 0, NULL, ev);
	double t1 = now();
	return err == CL_SUCCESS ? t1 - t0 : -1;
}

static void probe_wait(cl_event ev) {
	clWaitForEvents(1, &ev);
	clReleaseEvent(ev);
}

static double probe_one(void) {
	cl_event ev;
	double d = probe_enqueue(&ev);
	if (d >= 0) probe_wait(ev);
	return d;
}

static void CL_CALLBACK probe_noop(cl_event ev, cl_int status, void *data) {}

// probe_callback makes one copy, registers a completion callback on it as
// the binding does, and returns how long the registration took.
static double probe_callback(void) {
	cl_event ev;
	if (probe_enqueue(&ev) < 0) return -1;
	double t0 = now();
	cl_int err = clSetEventCallback(ev, CL_COMPLETE, probe_noop, NULL);
	double t1 = now();
	probe_wait(ev);
	return err == CL_SUCCESS ? t1 - t0 : -1;
}

static void probe_loop(int n, double *out) {
	for (int i = 0; i < n; i++) out[i] = probe_one();
}
*/
import "C"

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/seed43a1e1ab/gocl/clapi"
)

const reps = 20

func main() {
	bytes := 4e9
	if len(os.Args) == 2 {
		f, err := strconv.ParseFloat(os.Args[1], 64)
		if err != nil || f < 8 {
			fmt.Fprintln(os.Stderr, "usage: pinprobe [BYTES]")
			os.Exit(2)
		}
		bytes = f
	}
	if rc := C.probe_setup(C.size_t(bytes)); rc != 0 {
		fmt.Fprintf(os.Stderr, "pinprobe: OpenCL set-up failed at step %d\n", -rc)
		os.Exit(1)
	}
	report := func(mode string, ds []float64) {
		var seq strings.Builder
		for _, d := range ds {
			fmt.Fprintf(&seq, " %.0f", d*1e6)
		}
		sort.Float64s(ds)
		fmt.Printf("%-14s median %7.1f us  min %7.1f us  max %7.1f us  (%d copies of %.0f bytes); in order, us:%s\n",
			mode, ds[len(ds)/2]*1e6, ds[0]*1e6, ds[len(ds)-1]*1e6, len(ds), bytes, seq.String())
	}
	check := func(ds []float64) []float64 {
		for _, d := range ds {
			if d < 0 {
				fmt.Fprintln(os.Stderr, "pinprobe: clEnqueueWriteBuffer failed")
				os.Exit(1)
			}
		}
		return ds
	}

	out := make([]float64, reps)
	C.probe_loop(reps, (*C.double)(unsafe.Pointer(&out[0])))
	report("c-loop", check(out))

	goLoop := func() []float64 {
		ds := make([]float64, reps)
		for i := range ds {
			ds[i] = float64(C.probe_one())
		}
		return check(ds)
	}
	report("go-loop", goLoop())
	runtime.LockOSThread()
	report("go-locked", goLoop())
	runtime.UnlockOSThread()

	ds := make([]float64, reps)
	for i := range ds {
		var ev C.cl_event
		ds[i] = float64(C.probe_enqueue(&ev))
		done := make(chan struct{})
		go func() { C.probe_wait(ev); close(done) }()
		<-done
	}
	report("go-wait-apart", check(ds))

	cb := make([]float64, reps)
	for i := range cb {
		cb[i] = float64(C.probe_callback())
	}
	report("c-callback", check(cb))

	clapiRun := func() (call, ret []float64) {
		err := clapi.Try(func() {
			ctx := clapi.CreateSomeContext()
			q := clapi.NewQueue(ctx, clapi.Profiling)
			b := clapi.NewBufferSize(ctx, clapi.ReadWrite, int(bytes))
			p := clapi.NewPinnedHost(q, int(bytes))
			defer b.Release()
			defer p.Close()
			for i := 0; i < reps; i++ {
				start := time.Now()
				ev := clapi.EnqueueCopy(q, b, p, clapi.NonBlocking)
				ret = append(ret, time.Since(start).Seconds())
				ev.Wait()
				call = append(call, ev.HostBlocked().Seconds())
			}
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, "pinprobe: clapi:", err)
			os.Exit(1)
		}
		return call, ret
	}
	call, ret := clapiRun()
	report("clapi", call)
	report("clapi-return", ret)
	runtime.LockOSThread()
	call, ret = clapiRun()
	report("clapi-locked", call)
	report("locked-return", ret)
	runtime.UnlockOSThread()
}
