package clapi

/*
#include "gocl_cl.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// QueueFlag is a command-queue property; combine them with |.
type QueueFlag uint64

// Queue properties.
const (
	// Profiling records device timestamps for every command, so events know
	// their device time.
	Profiling QueueFlag = C.CL_QUEUE_PROFILING_ENABLE
	// OutOfOrder lets the device run commands in any order their wait lists
	// allow.
	OutOfOrder QueueFlag = C.CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE
)

var queueSerial atomic.Int64

// Queue is an OpenCL command queue on one device of a context.
type Queue struct {
	mu      sync.Mutex
	id      C.cl_command_queue
	ctx     *Context
	dev     *Device
	flags   QueueFlag
	serial  int64
	calMu   sync.Mutex
	calib   *clockMap // device-to-host clock map, set by timelines
	calibAt time.Time
}

// NewQueue creates a queue on the context's first device. Flags may be
// combined: cl.NewQueue(ctx, cl.Profiling|cl.OutOfOrder).
func NewQueue(ctx *Context, flags ...QueueFlag) *Queue {
	ctx.handle("clCreateCommandQueue")
	return NewQueueOn(ctx, ctx.devices[0], flags...)
}

// NewQueueOn creates a queue on a given device of the context. It uses
// clCreateCommandQueueWithProperties on OpenCL 2.0+ platforms and
// clCreateCommandQueue otherwise.
func NewQueueOn(ctx *Context, dev *Device, flags ...QueueFlag) *Queue {
	call := "clCreateCommandQueue"
	cid := ctx.handle(call)
	if dev == nil || !ctx.hasDevice(dev) {
		refuse(call, "CL_INVALID_DEVICE", "the device is not one of the context's devices", "use ctx.Devices()")
	}
	var f QueueFlag
	for _, x := range flags {
		f |= x
	}
	if f&^(Profiling|OutOfOrder) != 0 {
		refuse(call, "CL_INVALID_VALUE", fmt.Sprintf("unknown queue flags %#x", uint64(f&^(Profiling|OutOfOrder))), "use cl.Profiling and cl.OutOfOrder")
	}
	use20 := C.int(0)
	if dev.Platform.AtLeast(2, 0) && dev.AtLeast(2, 0) {
		use20 = 1
		call = "clCreateCommandQueueWithProperties"
	}
	var rc C.cl_int
	defer traceCall(call, time.Now())
	id := C.gocl_create_queue(cid, dev.id, C.cl_command_queue_properties(f), use20, &rc)
	runtime.KeepAlive(ctx)
	if rc != C.CL_SUCCESS {
		fail(call, int(rc), "creating a queue on "+dev.Name)
	}
	q := &Queue{id: id, ctx: ctx, dev: dev, flags: f, serial: queueSerial.Add(1)}
	runtime.SetFinalizer(q, func(q *Queue) { releaseLater(q.Release) })
	return q
}

// Context returns the queue's context.
func (q *Queue) Context() *Context { return q.ctx }

// Device returns the queue's device.
func (q *Queue) Device() *Device { return q.dev }

// Profiling reports whether the queue records device times.
func (q *Queue) Profiling() bool { return q.flags&Profiling != 0 }

// OutOfOrder reports whether the queue may reorder commands.
func (q *Queue) OutOfOrder() bool { return q.flags&OutOfOrder != 0 }

// String names the queue and its device.
func (q *Queue) String() string {
	s := fmt.Sprintf("cl.Queue #%d on %s", q.serial, q.dev.Name)
	if q.Profiling() {
		s += ", profiling"
	}
	if q.OutOfOrder() {
		s += ", out-of-order"
	}
	return s
}

// lane is the queue's row name in a timeline.
func (q *Queue) lane() string { return fmt.Sprintf("queue %d (%s)", q.serial, q.dev.Name) }

// Flush submits every queued command to the device (clFlush) without
// waiting for them.
func (q *Queue) Flush() {
	id := q.handle("clFlush")
	defer traceCall("clFlush", time.Now())
	rc := C.clFlush(id)
	runtime.KeepAlive(q)
	if rc != C.CL_SUCCESS {
		fail("clFlush", int(rc), "")
	}
}

// Finish waits until every command enqueued so far has completed. It waits
// on a marker from Go rather than blocking in clFinish, so a cell interrupt
// stops the wait (the commands themselves keep running).
func (q *Queue) Finish() {
	defer traceCall("clFinish", time.Now())
	err := EnqueueMarker(q).wait()
	adoptPending() // the commands it waited for settle from their callbacks
	if err != nil {
		panic(err)
	}
}

// Release releases the queue after flushing it; commands already enqueued
// still run. Release is idempotent.
func (q *Queue) Release() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.id != nil {
		C.clReleaseCommandQueue(q.id)
		q.id = nil
	}
}

func (q *Queue) handle(call string) C.cl_command_queue {
	if q == nil {
		refuse(call, "CL_INVALID_COMMAND_QUEUE", "the queue is nil", "create one with cl.NewQueue(ctx)")
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.id == nil {
		refuse(call, "CL_INVALID_COMMAND_QUEUE", "the queue was released", "create a new one with cl.NewQueue(ctx)")
	}
	return q.id
}

// EnqueueMarker enqueues a marker: its event completes when the events in
// WaitFor have (or, with no WaitFor, every command enqueued before it).
func EnqueueMarker(q *Queue, opts ...Option) *Event {
	const call = "clEnqueueMarkerWithWaitList"
	o := parseOptions(call, opts, optWaitFor)
	return q.enqueueSync(call, o, false, func(qid C.cl_command_queue, n C.cl_uint, wl *C.cl_event, ev *C.cl_event) C.cl_int {
		return C.clEnqueueMarkerWithWaitList(qid, n, wl, ev)
	})
}

// internalMarker is a marker gocl enqueues for itself (clock calibration):
// recordings do not show it.
func internalMarker(q *Queue) *Event {
	return q.enqueueSync("clEnqueueMarkerWithWaitList", options{count: -1}, true, func(qid C.cl_command_queue, n C.cl_uint, wl *C.cl_event, ev *C.cl_event) C.cl_int {
		return C.clEnqueueMarkerWithWaitList(qid, n, wl, ev)
	})
}

// EnqueueBarrier enqueues a barrier: commands enqueued after it wait until
// the events in WaitFor (or every earlier command) have completed.
func EnqueueBarrier(q *Queue, opts ...Option) *Event {
	const call = "clEnqueueBarrierWithWaitList"
	o := parseOptions(call, opts, optWaitFor)
	return q.enqueueSync(call, o, false, func(qid C.cl_command_queue, n C.cl_uint, wl *C.cl_event, ev *C.cl_event) C.cl_int {
		return C.clEnqueueBarrierWithWaitList(qid, n, wl, ev)
	})
}

// enqueueSync runs an enqueue call that touches no host memory and wraps
// its event.
func (q *Queue) enqueueSync(call string, o options, internal bool, do func(C.cl_command_queue, C.cl_uint, *C.cl_event, *C.cl_event) C.cl_int) *Event {
	qid := q.handle(call)
	wl := waitList(call, q.ctx, o.waitFor)
	var ev C.cl_event
	start := time.Now()
	rc := do(qid, C.cl_uint(len(wl)), firstEvent(wl), &ev)
	ret := time.Now()
	runtime.KeepAlive(q)
	runtime.KeepAlive(o.waitFor)
	if rc != C.CL_SUCCESS {
		fail(call, int(rc), "")
	}
	return newEvent(q, ev, newEventState(), eventInfo{command: call, start: start, ret: ret, internal: internal})
}
