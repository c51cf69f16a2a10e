package clapi

/*
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdint.h>
*/
import "C"

import "runtime/cgo"

// goclEventDone is called by the OpenCL runtime, on a thread of its own, when
// an event reaches CL_COMPLETE or fails. It must not block and must not call
// OpenCL: it only settles the event's Go-side state.
//
//export goclEventDone
func goclEventDone(handle C.uintptr_t, status C.cl_int) {
	h := cgo.Handle(handle)
	st := h.Value().(*eventState)
	h.Delete()
	st.settle(int(status))
}
