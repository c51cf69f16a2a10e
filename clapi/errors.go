package clapi

import (
	"errors"
	"fmt"
	"strings"
)

// Error is an OpenCL failure, or a mistake gocl caught in Go before calling
// OpenCL. Every function of this package that can fail panics with an *Error;
// use [Try] to get it back as an error value instead.
type Error struct {
	Call   string // the OpenCL entry point (or gocl function) that failed
	Code   int    // the OpenCL status code; 0 when gocl refused the call itself
	Name   string // the code's name, e.g. "CL_INVALID_BUFFER_SIZE"
	Detail string // what exactly was wrong
	Hint   string // what to do about it
	cause  error
}

// Error names the call, the code by name and number, the detail and the hint.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Call)
	b.WriteString(": ")
	b.WriteString(e.Name)
	if e.Code != 0 {
		fmt.Fprintf(&b, " (%d)", e.Code)
	}
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	if e.Hint != "" {
		b.WriteString(". Hint: ")
		b.WriteString(e.Hint)
	}
	return b.String()
}

// ErrorName returns "OpenCLError"; the engine shows it as the error's name.
func (e *Error) ErrorName() string { return "OpenCLError" }

// Unwrap returns the underlying cause, if any (for example
// context.Canceled when a wait was interrupted).
func (e *Error) Unwrap() error { return e.cause }

// Try runs f and returns the *Error it panicked with, or nil if f returned
// normally. Any other panic propagates unchanged.
func Try(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(*Error); ok {
				err = e
				return
			}
			panic(r)
		}
	}()
	f()
	return nil
}

// AsError reports whether err is (or wraps) an *Error and returns it.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// fail panics with the *Error for an OpenCL status code returned by call.
func fail(call string, code int, detail string) {
	panic(newError(call, code, detail))
}

func newError(call string, code int, detail string) *Error {
	return &Error{Call: call, Code: code, Name: codeName(code), Detail: detail, Hint: codeHint(call, code)}
}

// refuse panics with an *Error for a mistake caught in Go before OpenCL was
// called. name is the OpenCL code the mistake corresponds to, when one does.
func refuse(call, name, detail, hint string) {
	panic(&Error{Call: call, Name: name, Detail: detail, Hint: hint})
}

var codeNames = map[int]string{
	0: "CL_SUCCESS", -1: "CL_DEVICE_NOT_FOUND", -2: "CL_DEVICE_NOT_AVAILABLE", -3: "CL_COMPILER_NOT_AVAILABLE",
	-4: "CL_MEM_OBJECT_ALLOCATION_FAILURE", -5: "CL_OUT_OF_RESOURCES", -6: "CL_OUT_OF_HOST_MEMORY",
	-7: "CL_PROFILING_INFO_NOT_AVAILABLE", -8: "CL_MEM_COPY_OVERLAP", -9: "CL_IMAGE_FORMAT_MISMATCH",
	-10: "CL_IMAGE_FORMAT_NOT_SUPPORTED", -11: "CL_BUILD_PROGRAM_FAILURE", -12: "CL_MAP_FAILURE",
	-13: "CL_MISALIGNED_SUB_BUFFER_OFFSET", -14: "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST",
	-15: "CL_COMPILE_PROGRAM_FAILURE", -16: "CL_LINKER_NOT_AVAILABLE", -17: "CL_LINK_PROGRAM_FAILURE",
	-18: "CL_DEVICE_PARTITION_FAILED", -19: "CL_KERNEL_ARG_INFO_NOT_AVAILABLE",
	-30: "CL_INVALID_VALUE", -31: "CL_INVALID_DEVICE_TYPE", -32: "CL_INVALID_PLATFORM", -33: "CL_INVALID_DEVICE",
	-34: "CL_INVALID_CONTEXT", -35: "CL_INVALID_QUEUE_PROPERTIES", -36: "CL_INVALID_COMMAND_QUEUE",
	-37: "CL_INVALID_HOST_PTR", -38: "CL_INVALID_MEM_OBJECT", -39: "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR",
	-40: "CL_INVALID_IMAGE_SIZE", -41: "CL_INVALID_SAMPLER", -42: "CL_INVALID_BINARY", -43: "CL_INVALID_BUILD_OPTIONS",
	-44: "CL_INVALID_PROGRAM", -45: "CL_INVALID_PROGRAM_EXECUTABLE", -46: "CL_INVALID_KERNEL_NAME",
	-47: "CL_INVALID_KERNEL_DEFINITION", -48: "CL_INVALID_KERNEL", -49: "CL_INVALID_ARG_INDEX",
	-50: "CL_INVALID_ARG_VALUE", -51: "CL_INVALID_ARG_SIZE", -52: "CL_INVALID_KERNEL_ARGS",
	-53: "CL_INVALID_WORK_DIMENSION", -54: "CL_INVALID_WORK_GROUP_SIZE", -55: "CL_INVALID_WORK_ITEM_SIZE",
	-56: "CL_INVALID_GLOBAL_OFFSET", -57: "CL_INVALID_EVENT_WAIT_LIST", -58: "CL_INVALID_EVENT",
	-59: "CL_INVALID_OPERATION", -60: "CL_INVALID_GL_OBJECT", -61: "CL_INVALID_BUFFER_SIZE", -62: "CL_INVALID_MIP_LEVEL",
	-63: "CL_INVALID_GLOBAL_WORK_SIZE", -64: "CL_INVALID_PROPERTY", -65: "CL_INVALID_IMAGE_DESCRIPTOR",
	-66: "CL_INVALID_COMPILER_OPTIONS", -67: "CL_INVALID_LINKER_OPTIONS", -68: "CL_INVALID_DEVICE_PARTITION_COUNT",
	-69: "CL_INVALID_PIPE_SIZE", -70: "CL_INVALID_DEVICE_QUEUE", -71: "CL_INVALID_SPEC_ID",
	-72: "CL_MAX_SIZE_RESTRICTION_EXCEEDED", -1001: "CL_PLATFORM_NOT_FOUND_KHR",
}

// codeName returns the name of an OpenCL status code.
func codeName(code int) string {
	if n, ok := codeNames[code]; ok {
		return n
	}
	return fmt.Sprintf("CL_UNKNOWN_ERROR_%d", code)
}

var codeHints = map[int]string{
	-1:    "no device of the requested type: list them with cl.Platforms()",
	-4:    "the device could not allocate the memory: use a smaller buffer or release others",
	-5:    "the device ran out of resources: smaller buffers or work-groups may help",
	-6:    "the host ran out of memory: release objects you no longer need",
	-7:    "create the queue with cl.Profiling to get device times",
	-11:   "the build log above says what the compiler did not like",
	-14:   "an event this command waited for failed; look at that event's status",
	-30:   "an argument is out of range: check sizes, offsets and flags",
	-34:   "all objects of one command must belong to the same context",
	-35:   "the device does not support these queue properties (out-of-order queues are optional)",
	-36:   "the queue was released or is invalid",
	-37:   "host-pointer flags and the host slice disagree: pass a slice with CopyHostPtr/UseHostPtr, nil otherwise",
	-38:   "the buffer was released or is invalid",
	-43:   "the build options were not accepted by the compiler",
	-45:   "build the program before asking for kernels",
	-46:   "no __kernel function of that name: check the spelling in the source (prog.KernelNames() lists them)",
	-49:   "the kernel has fewer arguments than you passed",
	-51:   "the Go value's size does not match the kernel argument's type (float=float32, double=float64, int=int32, long=int64)",
	-52:   "set every kernel argument with k.SetArgs before enqueueing",
	-54:   "the local size must divide the global size and fit the device's max work-group size; nil lets OpenCL choose",
	-57:   "every event in WaitFor must be valid and from the same context",
	-58:   "the event was released or is invalid",
	-59:   "the device or platform does not support this operation",
	-61:   "the size must be larger than zero and at most the device's max allocation (see the device's properties)",
	-1001: "no OpenCL platform found: install an ICD (e.g. pocl-opencl-icd) or set OCL_ICD_FILENAMES; `gocl doctor` explains",
}

func codeHint(call string, code int) string {
	return codeHints[code]
}
