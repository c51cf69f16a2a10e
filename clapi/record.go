package clapi

import (
	"fmt"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// hostCall is one cl call seen by a recording: which thread made it, and
// when it started and returned.
type hostCall struct {
	name       string
	tid        int
	start, end time.Time
}

// maxRecorded bounds what one recording keeps, so a cell that records
// and forgets cannot exhaust memory.
const maxRecorded = 200000

// Recording catches every cl call and every enqueued command from
// [Record] until [Recording.Stop]: a whole-session trace. Show it as a
// timeline (its HTML), save it as Chrome trace event JSON for Perfetto or
// chrome://tracing ([Recording.SaveTrace]), or take its events.
type Recording struct {
	mu      sync.Mutex
	started time.Time
	stopped time.Time
	calls   []hostCall
	events  []*Event
	dropped int
}

// active is the recording running now, or nil. Every enqueue reads it, so
// it is an atomic pointer rather than a mutex.
var active atomic.Pointer[Recording]

// Record starts a recording of every cl call and command from now on,
// replacing one already running (which stops). The recording keeps the
// events it catches alive until it is dropped.
func Record() *Recording {
	r := &Recording{started: time.Now()}
	if old := active.Swap(r); old != nil {
		old.markStopped()
	}
	return r
}

// CurrentRecording returns the recording running now, or nil.
func CurrentRecording() *Recording { return active.Load() }

// Stop ends the recording (later calls are not caught) and returns it.
// Stop is idempotent.
func (r *Recording) Stop() *Recording {
	active.CompareAndSwap(r, nil)
	r.markStopped()
	return r
}

func (r *Recording) markStopped() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped.IsZero() {
		r.stopped = time.Now()
	}
}

// Events returns the commands recorded so far, in enqueue order.
func (r *Recording) Events() []*Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*Event(nil), r.events...)
}

// Calls is the number of host calls recorded (enqueues included).
func (r *Recording) Calls() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.calls) + len(r.events)
}

func (r *Recording) snapshot() ([]hostCall, []*Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]hostCall(nil), r.calls...), append([]*Event(nil), r.events...)
}

// Timeline lays out everything recorded as a [TimelineView]: host threads
// and queues on one time axis (it waits for the recorded commands).
func (r *Recording) Timeline() *TimelineView {
	calls, events := r.snapshot()
	if len(calls) == 0 && len(events) == 0 {
		refuse("Recording.Timeline", "CL_INVALID_VALUE", "nothing was recorded", "make cl calls after cl.Record()")
	}
	t := buildTimeline(calls, events)
	t.Title = "OpenCL recording"
	if r.dropped > 0 {
		t.Skipped = append(t.Skipped, fmt.Sprintf("%d calls after the first %d were not kept", r.dropped, maxRecorded))
	}
	return t
}

// TraceJSON is the recording as Chrome trace event JSON; see
// [TimelineView.TraceJSON].
func (r *Recording) TraceJSON() string { return r.Timeline().TraceJSON() }

// SaveTrace writes the recording as Chrome trace event JSON to path, for
// ui.perfetto.dev or chrome://tracing, and returns the path.
func (r *Recording) SaveTrace(path string) string { return r.Timeline().SaveTrace(path) }

// SVG draws the recording as a timeline.
func (r *Recording) SVG() string { return r.Timeline().SVG() }

// HTML shows the recording as a timeline.
func (r *Recording) HTML() string { return r.Timeline().HTML() }

// String summarises the recording.
func (r *Recording) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	state := "recording"
	if !r.stopped.IsZero() {
		state = "stopped"
	}
	return fmt.Sprintf("cl.Recording (%s): %d host calls, %d commands", state, len(r.calls)+len(r.events), len(r.events))
}

func (r *Recording) add(c *hostCall, e *Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.calls)+len(r.events) >= maxRecorded {
		r.dropped++
		return
	}
	if c != nil {
		r.calls = append(r.calls, *c)
	}
	if e != nil {
		r.events = append(r.events, e)
	}
}

// traceCall records a host call that started at start and ends now, when
// a recording runs. Use it as defer traceCall(name, time.Now()) or after
// the call.
func traceCall(name string, start time.Time) {
	r := active.Load()
	if r == nil {
		return
	}
	r.add(&hostCall{name: name, tid: syscall.Gettid(), start: start, end: time.Now()}, nil)
}

// recordingTid is the calling thread's id while a recording runs, else 0
// (one "host" lane): reading it costs a system call, which plain
// timelines need not pay.
func recordingTid() int {
	if active.Load() == nil {
		return 0
	}
	return syscall.Gettid()
}

// recordEvent adds an enqueued command to the running recording.
func recordEvent(e *Event) {
	if r := active.Load(); r != nil {
		r.add(nil, e)
	}
}
