package clapi

/*
#include "gocl_cl.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"runtime/cgo"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/seed43a1e1ab/gocl/kernel/cellctx"
)

// eventState is the part of an event the completion callback reaches. It
// holds what must outlive the Go *Event: the pins on Go memory the device
// still uses and references that keep that memory alive.
type eventState struct {
	over   atomic.Bool  // settled
	status atomic.Int64 // final execution status, valid once over

	mu      sync.Mutex
	done    chan struct{} // made on first ask (doneChan), closed when settled
	pinner  runtime.Pinner
	pinned  bool
	keep    []any
	keepBuf [3]any // keep's first backing array: a command holds one to three objects
}

func newEventState() *eventState {
	s := &eventState{}
	s.keep = s.keepBuf[:0]
	return s
}

// closedChan is the done channel of every state that settled before
// anyone asked for its channel.
var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// pin pins Go memory at p (a no-op for C memory) and keeps v alive until the
// command settles.
func (s *eventState) pin(p unsafe.Pointer, v any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pinner.Pin(p)
	s.pinned = true
	s.keep = append(s.keep, v)
}

// hold keeps v alive until the command settles.
func (s *eventState) hold(v ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keep = append(s.keep, v...)
}

// settle records the final status, releases pins and wakes waiters. Only the
// first call counts; a second returns once the first is done.
func (s *eventState) settle(status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.over.Load() {
		return
	}
	s.status.Store(int64(status))
	if s.pinned {
		s.pinner.Unpin()
		s.pinned = false
	}
	s.keep = nil
	clear(s.keepBuf[:])
	s.over.Store(true)
	if s.done != nil {
		close(s.done)
	}
}

// doneChan returns a channel closed when the state settles (or already is).
// It is made on first ask: most commands are waited for in Wait, which
// needs none, so the enqueue call does not pay for one.
func (s *eventState) doneChan() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.over.Load() {
		return closedChan
	}
	if s.done == nil {
		s.done = make(chan struct{})
	}
	return s.done
}

func (s *eventState) settled() bool { return s.over.Load() }

// eventInfo describes the command behind an event, for cards and timelines.
type eventInfo struct {
	command     string // what the command is: the enqueue call, or "kernel NAME"
	api         string // the OpenCL call when it differs from command (kernels)
	kernel      *launch
	tid         int  // the host thread that made the call
	internal    bool // enqueued by gocl itself (clock calibration): not recorded
	direction   string
	hostMemory  string
	bytes       int64
	nonBlocking bool
	start, ret  time.Time
}

// Event is an enqueued command (or a user event). Wait for it, ask its
// status and, on a profiling queue, its device times. In a cell an event
// shows as a card that says whether the call blocked the host.
type Event struct {
	mu      sync.Mutex
	id      C.cl_event
	st      *eventState
	queue   *Queue
	ctx     *Context
	info    eventInfo
	user    bool
	userSet bool     // SetComplete or SetFailed was called
	prof    [4]int64 // queued, submit, start, end; valid when profOK
	profOK  bool
	cWaited chan struct{} // closed when the clWaitForEvents goroutine has settled the event
	adopted bool          // has its finalizer and, unless settled first, its completion callback (adopt.go)
}

// newEvent wraps a fresh cl_event and arranges for st to settle when the
// command completes. A command that has already completed (a blocking read
// or write usually has when its call returns) is settled at once, without
// a completion callback: on NVIDIA registering one costs about 7 us a
// command, half the time of a small blocking copy. A non-blocking
// command's event is adopted later, off the call's path (see adoptLater).
func newEvent(q *Queue, id C.cl_event, st *eventState, info eventInfo) *Event {
	return initEvent(new(Event), q, id, st, info)
}

// initEvent is newEvent on an Event allocated by the caller, which can then
// allocate it before the driver call rather than after (transfer does).
func initEvent(e *Event, q *Queue, id C.cl_event, st *eventState, info eventInfo) *Event {
	if info.tid == 0 {
		info.tid = recordingTid()
	}
	e.id, e.st, e.queue, e.ctx, e.info = id, st, q, q.ctx, info
	if !info.internal {
		recordEvent(e)
	}
	if info.nonBlocking {
		adoptLater(e)
		return e
	}
	var s C.cl_int
	if C.clGetEventInfo(id, C.CL_EVENT_COMMAND_EXECUTION_STATUS, C.size_t(unsafe.Sizeof(s)), unsafe.Pointer(&s), nil) == C.CL_SUCCESS &&
		s <= C.CL_COMPLETE {
		st.settle(int(s))
	} else {
		watch(id, st)
	}
	e.adopted = true
	runtime.SetFinalizer(e, finalizeEvent)
	return e
}

func finalizeEvent(e *Event) { releaseLater(e.Release) }

// watch registers the completion callback; if the platform refuses, a
// goroutine waits in C instead.
func watch(id C.cl_event, st *eventState) {
	h := cgo.NewHandle(st)
	if C.gocl_on_complete(id, C.uintptr_t(h)) == C.CL_SUCCESS {
		return
	}
	h.Delete()
	C.clRetainEvent(id)
	go func() {
		ev := id
		rc := C.clWaitForEvents(1, &ev)
		status := C.cl_int(C.CL_COMPLETE)
		if rc != C.CL_SUCCESS {
			C.clGetEventInfo(ev, C.CL_EVENT_COMMAND_EXECUTION_STATUS, C.size_t(unsafe.Sizeof(status)), unsafe.Pointer(&status), nil)
			if status >= 0 {
				status = rc
			}
		}
		C.clReleaseEvent(ev)
		st.settle(int(status))
	}()
}

// NewUserEvent creates an event that completes when the host says so with
// SetComplete (or fails with SetFailed). Commands can wait for it.
func NewUserEvent(ctx *Context) *Event {
	const call = "clCreateUserEvent"
	cid := ctx.handle(call)
	var rc C.cl_int
	defer traceCall(call, time.Now())
	id := C.clCreateUserEvent(cid, &rc)
	runtime.KeepAlive(ctx)
	if rc != C.CL_SUCCESS {
		fail(call, int(rc), "")
	}
	st := newEventState()
	e := &Event{id: id, st: st, ctx: ctx, user: true, info: eventInfo{command: "user event", start: time.Now(), ret: time.Now(), tid: recordingTid()}}
	watch(id, st)
	runtime.SetFinalizer(e, func(e *Event) { releaseLater(e.Release) })
	return e
}

// SetComplete completes a user event; commands waiting for it may start.
func (e *Event) SetComplete() { e.setUserStatus(C.CL_COMPLETE) }

// SetFailed ends a user event with a negative error status; commands
// waiting for it fail too.
func (e *Event) SetFailed(code int) {
	if code >= 0 {
		refuse("clSetUserEventStatus", "CL_INVALID_VALUE", fmt.Sprintf("status %d is not negative", code), "a failed user event needs a negative code, e.g. -1")
	}
	e.setUserStatus(C.cl_int(code))
}

func (e *Event) setUserStatus(s C.cl_int) {
	const call = "clSetUserEventStatus"
	id := e.handle(call)
	if !e.user {
		refuse(call, "CL_INVALID_EVENT", "this is not a user event", "create one with cl.NewUserEvent(ctx)")
	}
	// Not every platform refuses a second status (NVIDIA accepts it), so
	// gocl does.
	e.mu.Lock()
	again := e.userSet
	e.userSet = true
	e.mu.Unlock()
	if again {
		refuse(call, "CL_INVALID_OPERATION", "the user event's status was already set", "a user event completes (or fails) once; make a new one")
	}
	defer traceCall(call, time.Now())
	rc := C.clSetUserEventStatus(id, s)
	runtime.KeepAlive(e)
	if rc != C.CL_SUCCESS {
		fail(call, int(rc), "a user event's status can be set only once")
	}
	// The status is known: settle now rather than trust every platform's
	// callback to report it (NVIDIA reports a failed user event as
	// complete).
	e.st.settle(int(s))
}

// Done returns a channel closed when the command has completed or failed.
func (e *Event) Done() <-chan struct{} {
	adoptPending() // the completion callback closes it
	return e.st.doneChan()
}

// Wait waits until the command completes. It returns early, panicking with
// an *Error that wraps the context's error, when the running cell is
// interrupted; the command itself goes on, and Go memory it uses stays
// pinned until it ends. A command that failed panics with its status.
func (e *Event) Wait() {
	defer traceCall("clWaitForEvents", time.Now())
	err := e.wait()
	adoptPending() // this event's, and those of commands nobody waited for
	if err != nil {
		panic(err)
	}
}

func (e *Event) wait() *Error {
	if !e.st.settled() {
		ctx := cellctx.Current()
		if !e.user && e.spun(ctx) {
			return e.waited()
		}
		if ctx.Err() != nil {
			return e.interrupted(ctx.Err())
		}
		done := e.st.doneChan()
		// The completion callback settles the event, but NVIDIA calls it
		// milliseconds after the command ends, and PoCL not at all for a
		// failed user event. So a goroutine also waits in C
		// (clWaitForEvents returns as soon as the command ends), while
		// this one stays free to notice an interrupt.
		select {
		case <-done:
		case <-e.waitInC():
			e.pollStatus()
			select {
			case <-done:
			case <-ctx.Done():
				return e.interrupted(ctx.Err())
			}
		case <-ctx.Done():
			return e.interrupted(ctx.Err())
		}
	}
	return e.waited()
}

// waited is Wait's answer for a settled event: nil, or the failure.
func (e *Event) waited() *Error {
	if s := int(e.st.status.Load()); s < 0 {
		return newError(e.info.command, s, "the command failed (its event's status is "+codeName(s)+")")
	}
	return nil
}

func (e *Event) interrupted(cause error) *Error {
	return &Error{Call: "Event.Wait", Name: "INTERRUPTED", Detail: "stopped waiting for " + e.info.command,
		Hint: "the command still runs; wait for it again later", cause: cause}
}

// waitInC starts, once per event, a goroutine that blocks in
// clWaitForEvents and then settles the event from its status. The returned
// channel closes when it has. The goroutine holds its own reference to the
// event, so a Release meanwhile is safe.
func (e *Event) waitInC() <-chan struct{} {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.cWaited != nil {
		return e.cWaited
	}
	done := make(chan struct{})
	e.cWaited = done
	if e.id == nil {
		close(done)
		return done
	}
	id := e.id
	C.clRetainEvent(id)
	st := e.st
	go func() {
		defer close(done)
		ev := id
		C.clWaitForEvents(1, &ev)
		var s C.cl_int
		rc := C.clGetEventInfo(ev, C.CL_EVENT_COMMAND_EXECUTION_STATUS, C.size_t(unsafe.Sizeof(s)), unsafe.Pointer(&s), nil)
		C.clReleaseEvent(ev)
		if rc == C.CL_SUCCESS && s <= C.CL_COMPLETE {
			st.settle(int(s))
		}
	}()
	return done
}

// pollStatus settles the event if OpenCL says it has finished; it reports
// false when OpenCL cannot be asked (a released event, a failed query).
func (e *Event) pollStatus() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.id == nil {
		return false
	}
	var s C.cl_int
	if C.clGetEventInfo(e.id, C.CL_EVENT_COMMAND_EXECUTION_STATUS, C.size_t(unsafe.Sizeof(s)), unsafe.Pointer(&s), nil) != C.CL_SUCCESS {
		return false
	}
	if s <= C.CL_COMPLETE {
		e.st.settle(int(s))
	}
	return true
}

// finishBlocking waits for a command that the Go call promised to block on
// and counts the wait as time the call held the host.
func (e *Event) finishBlocking() {
	e.Wait()
	e.info.ret = time.Now()
}

// WaitAll waits for every event in turn.
func WaitAll(events ...*Event) {
	for _, e := range events {
		e.Wait()
	}
}

// Status returns "queued", "submitted", "running", "complete", or the name
// of the error the command failed with.
func (e *Event) Status() string {
	if e.st.settled() {
		if s := int(e.st.status.Load()); s < 0 {
			return codeName(s)
		}
		return "complete"
	}
	e.mu.Lock()
	id := e.id
	var s C.cl_int = C.CL_QUEUED
	if id != nil && C.clGetEventInfo(id, C.CL_EVENT_COMMAND_EXECUTION_STATUS, C.size_t(unsafe.Sizeof(s)), unsafe.Pointer(&s), nil) == C.CL_SUCCESS &&
		s <= C.CL_COMPLETE && !e.user {
		e.st.settle(int(s)) // it has ended: nothing needs to wait for its callback
	}
	e.mu.Unlock()
	switch s {
	case C.CL_QUEUED:
		return "queued"
	case C.CL_SUBMITTED:
		return "submitted"
	case C.CL_RUNNING:
		return "running"
	case C.CL_COMPLETE:
		return "complete"
	}
	return codeName(int(s))
}

// Command names the OpenCL call that enqueued the command.
func (e *Event) Command() string { return e.info.command }

// Direction is "host→device", "device→host", "device→device" or ""
// for commands that are not copies.
func (e *Event) Direction() string { return e.info.direction }

// Bytes is the number of bytes the command copies, fills or maps.
func (e *Event) Bytes() int64 { return e.info.bytes }

// Queue returns the event's queue (nil for a user event).
func (e *Event) Queue() *Queue { return e.queue }

// HostStart is the host time just before the enqueue call.
func (e *Event) HostStart() time.Time { return e.info.start }

// HostReturn is the host time the enqueue call returned to its caller (for
// a blocking call, after the command completed).
func (e *Event) HostReturn() time.Time { return e.info.ret }

// HostBlocked is how long the enqueue call held the host. For a truly
// non-blocking copy it is microseconds; when a driver stages pageable memory
// inside the call it is as long as the copy.
func (e *Event) HostBlocked() time.Duration { return e.info.ret.Sub(e.info.start) }

// Queued, Submit, Start and End are the command's device timestamps in
// nanoseconds (CL_PROFILING_COMMAND_*). They wait for the command first and
// need a queue created with cl.Profiling.
func (e *Event) Queued() int64 { return e.profile()[0] }

// Submit is the device time the command was submitted; see [Event.Queued].
func (e *Event) Submit() int64 { return e.profile()[1] }

// Start is the device time the command started; see [Event.Queued].
func (e *Event) Start() int64 { return e.profile()[2] }

// End is the device time the command ended; see [Event.Queued].
func (e *Event) End() int64 { return e.profile()[3] }

// DeviceTime is End - Start: how long the device worked on the command.
func (e *Event) DeviceTime() time.Duration {
	p := e.profile()
	return time.Duration(p[3] - p[2])
}

func (e *Event) profile() [4]int64 {
	const call = "clGetEventProfilingInfo"
	if p, ok := e.tryProfile(); ok {
		return p
	}
	if e.user || e.queue == nil {
		refuse(call, "CL_PROFILING_INFO_NOT_AVAILABLE", "user events have no device times", "")
	}
	if !e.queue.Profiling() {
		refuse(call, "CL_PROFILING_INFO_NOT_AVAILABLE", "the queue was created without profiling", "create it with cl.NewQueue(ctx, cl.Profiling)")
	}
	e.Wait()
	if _, ok := e.tryProfile(); !ok {
		e.handle(call)
		fail(call, int(C.CL_PROFILING_INFO_NOT_AVAILABLE), "the platform gave no device times for "+e.info.command)
	}
	return e.prof
}

// tryProfile reads and caches the profiling times of a completed command.
func (e *Event) tryProfile() ([4]int64, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.profOK {
		return e.prof, true
	}
	if e.id == nil || e.user || e.queue == nil || !e.queue.Profiling() || !e.st.settled() || e.st.status.Load() < 0 {
		return e.prof, false
	}
	params := [4]C.cl_profiling_info{C.CL_PROFILING_COMMAND_QUEUED, C.CL_PROFILING_COMMAND_SUBMIT, C.CL_PROFILING_COMMAND_START, C.CL_PROFILING_COMMAND_END}
	var p [4]int64
	for i, param := range params {
		var v C.cl_ulong
		if C.clGetEventProfilingInfo(e.id, param, C.size_t(unsafe.Sizeof(v)), unsafe.Pointer(&v), nil) != C.CL_SUCCESS {
			return e.prof, false
		}
		p[i] = int64(v)
	}
	e.prof, e.profOK = p, true
	return p, true
}

// Release releases the event. A command in flight still completes, and Go
// memory it uses stays pinned until then. Release is idempotent; profiling
// times already read stay available.
func (e *Event) Release() {
	e.tryProfile()
	adoptPending() // a command still running gets its callback before the handle goes
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.id != nil {
		C.clReleaseEvent(e.id)
		e.id = nil
	}
}

func (e *Event) handle(call string) C.cl_event {
	if e == nil {
		refuse(call, "CL_INVALID_EVENT", "the event is nil", "")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.id == nil {
		refuse(call, "CL_INVALID_EVENT", "the event was released", "")
	}
	return e.id
}

// waitList checks events for a wait list and returns their handles.
func waitList(call string, ctx *Context, events []*Event) []C.cl_event {
	if len(events) == 0 {
		return nil
	}
	wl := make([]C.cl_event, len(events))
	for i, e := range events {
		if e == nil {
			refuse(call, "CL_INVALID_EVENT_WAIT_LIST", fmt.Sprintf("WaitFor event %d is nil", i), "")
		}
		if e.ctx != ctx {
			refuse(call, "CL_INVALID_CONTEXT", fmt.Sprintf("WaitFor event %d belongs to another context", i), "")
		}
		wl[i] = e.handle(call)
	}
	return wl
}

func firstEvent(wl []C.cl_event) *C.cl_event {
	if len(wl) == 0 {
		return nil
	}
	return &wl[0]
}

func timeDiff(start, end int64) time.Duration { return time.Duration(end - start) }
