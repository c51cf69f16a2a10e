package main

/*
#cgo LDFLAGS: -lOpenCL
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// The C reference: its own context, queue, buffer and pinned host memory
// (an ALLOC_HOST_PTR buffer, mapped) on the device gocl chose, and the copy
// clref.c times, timed the same way (clock_gettime around the call).

static cl_context ref_ctx;
static cl_command_queue ref_q;
static cl_mem ref_buf, ref_pin;
static void *ref_host, *ref_pinned_host, *ref_pageable;
static size_t ref_bytes;

static double ref_now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

// ref_setup finds the device named dev on the platform named plat and
// makes the objects; it returns 0, or the negative step that failed.
static int ref_setup(const char *plat, const char *dev, size_t bytes) {
	cl_platform_id ps[16];
	cl_uint np = 0;
	if (clGetPlatformIDs(16, ps, &np) != CL_SUCCESS || np == 0) return -1;
	if (np > 16) np = 16;
	cl_device_id found = NULL;
	for (cl_uint i = 0; i < np && !found; i++) {
		char name[1024] = "";
		clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
		if (strcmp(name, plat) != 0) continue;
		cl_device_id ds[64];
		cl_uint nd = 0;
		if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, 64, ds, &nd) != CL_SUCCESS) continue;
		if (nd > 64) nd = 64;
		for (cl_uint j = 0; j < nd && !found; j++) {
			char dn[1024] = "";
			clGetDeviceInfo(ds[j], CL_DEVICE_NAME, sizeof dn, dn, NULL);
			if (strcmp(dn, dev) == 0) found = ds[j];
		}
	}
	if (!found) return -2;
	cl_int err;
	ref_ctx = clCreateContext(NULL, 1, &found, NULL, NULL, &err);
	if (err != CL_SUCCESS) return -3;
	ref_q = clCreateCommandQueue(ref_ctx, found, CL_QUEUE_PROFILING_ENABLE, &err);
	if (err != CL_SUCCESS) return -4;
	ref_buf = clCreateBuffer(ref_ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
	if (err != CL_SUCCESS) return -5;
	ref_pin = clCreateBuffer(ref_ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &err);
	if (err != CL_SUCCESS) return -6;
	ref_host = clEnqueueMapBuffer(ref_q, ref_pin, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL, NULL, &err);
	if (err != CL_SUCCESS || !ref_host) return -7;
	memset(ref_host, 1, bytes);
	ref_pinned_host = ref_host;
	ref_bytes = bytes;
	return 0;
}

// ref_use_pageable makes the copies come from malloc'ed (pageable) memory
// instead of the mapped pinned buffer; it returns 0, or -1 when out of
// memory.
static int ref_use_pageable(void) {
	ref_pageable = malloc(ref_bytes);
	if (!ref_pageable) return -1;
	memset(ref_pageable, 1, ref_bytes);
	ref_host = ref_pageable;
	return 0;
}

static double ref_clock(clockid_t c) {
	struct timespec t;
	clock_gettime(c, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

// ref_cpu is the CPU time of the whole process (every thread, the
// driver's too), in seconds.
static double ref_cpu(void) { return ref_clock(CLOCK_PROCESS_CPUTIME_ID); }

// ref_write makes one non-blocking write from the pinned memory, as
// clref.c's transfer(): the call timed alone, then the wait, the device
// time and the release. It returns the call's time in seconds (negative
// when a call failed), the device time in *device, and the wait's wall,
// process CPU and calling thread's CPU times in wait[0..2].
static double ref_write(double *device, double *wait) {
	cl_event ev;
	double t0 = ref_now();
	cl_int err = clEnqueueWriteBuffer(ref_q, ref_buf, CL_FALSE, 0, ref_bytes, ref_host, 0, NULL, &ev);
	double ret = ref_now() - t0;
	if (err != CL_SUCCESS) return -1;
	double w0 = ref_now(), p0 = ref_cpu(), c0 = ref_clock(CLOCK_THREAD_CPUTIME_ID);
	if (clWaitForEvents(1, &ev) != CL_SUCCESS) return -2;
	wait[0] = ref_now() - w0;
	wait[1] = ref_cpu() - p0;
	wait[2] = ref_clock(CLOCK_THREAD_CPUTIME_ID) - c0;
	cl_ulong s = 0, e = 0;
	clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof s, &s, NULL);
	clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof e, &e, NULL);
	clReleaseEvent(ev);
	*device = (double)(e - s) * 1e-9;
	return ret;
}
*/
import "C"

import (
	"fmt"
	"time"
	"unsafe"
)

// setupC makes the C reference's objects on the named device.
func setupC(platform, device string, bytes int) error {
	p, d := C.CString(platform), C.CString(device)
	defer C.free(unsafe.Pointer(p))
	defer C.free(unsafe.Pointer(d))
	if rc := C.ref_setup(p, d, C.size_t(bytes)); rc != 0 {
		return fmt.Errorf("the C reference's set-up failed at step %d (1 platforms, 2 device %q on %q, 3 context, 4 queue, 5 buffer, 6 pinned buffer, 7 map)", -rc, device, platform)
	}
	return nil
}

// waitCost is what a wait for the copy took: wall time, and the CPU time
// of the whole process and of the waiting thread meanwhile (seconds; a
// spinning wait uses about one CPU).
type waitCost struct {
	Wall      float64 `json:"wall_s"`
	ProcCPU   float64 `json:"process_cpu_s"`
	ThreadCPU float64 `json:"thread_cpu_s,omitempty"`
}

// writeC makes one copy in C and returns the call's time, the device's and
// the wait's cost.
func writeC() (ret, device time.Duration, w waitCost, err error) {
	var dev C.double
	var wait [3]C.double
	r := float64(C.ref_write(&dev, &wait[0]))
	if r < 0 {
		return 0, 0, w, fmt.Errorf("the C reference's clEnqueueWriteBuffer or clWaitForEvents failed")
	}
	w = waitCost{float64(wait[0]), float64(wait[1]), float64(wait[2])}
	return time.Duration(r * 1e9), time.Duration(float64(dev) * 1e9), w, nil
}

// usePageableC makes the C reference copy from malloc'ed memory.
func usePageableC() error {
	if C.ref_use_pageable() != 0 {
		return fmt.Errorf("the C reference's pageable memory: malloc failed")
	}
	return nil
}

// processCPU is the CPU time of the whole process so far, in seconds.
func processCPU() float64 { return float64(C.ref_cpu()) }
