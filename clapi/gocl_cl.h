// C helpers shared by the cgo files of package clapi. Everything here is
// static: each cgo file compiles its own copy.
#ifndef GOCL_CL_H
#define GOCL_CL_H

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <stdint.h>
#include <stdlib.h>

#ifndef CL_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT_NV
#define CL_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT_NV 0x4007
#endif

// Implemented in Go (callback.go).
extern void goclEventDone(uintptr_t handle, cl_int status);

static void CL_CALLBACK gocl_event_cb(cl_event ev, cl_int status, void *data) {
	(void)ev;
	goclEventDone((uintptr_t)data, status);
}

// gocl_on_complete registers the Go callback for when ev completes (or
// fails); handle is a cgo.Handle.
static cl_int gocl_on_complete(cl_event ev, uintptr_t handle) {
	return clSetEventCallback(ev, CL_COMPLETE, gocl_event_cb, (void *)handle);
}

// gocl_create_queue uses clCreateCommandQueueWithProperties on 2.0+
// platforms and the 1.2 entry point otherwise.
static cl_command_queue gocl_create_queue(cl_context ctx, cl_device_id dev,
		cl_command_queue_properties props, int use20, cl_int *err) {
	if (use20) {
		cl_queue_properties p[3] = {CL_QUEUE_PROPERTIES, props, 0};
		return clCreateCommandQueueWithProperties(ctx, dev, props ? p : NULL, err);
	}
	return clCreateCommandQueue(ctx, dev, props, err);
}

static cl_int gocl_set_arg_mem(cl_kernel k, cl_uint i, cl_mem m) {
	return clSetKernelArg(k, i, sizeof(cl_mem), &m);
}

static cl_int gocl_device_host_timer(cl_device_id d, cl_ulong *dev, cl_ulong *host) {
	return clGetDeviceAndHostTimer(d, dev, host);
}

#endif
