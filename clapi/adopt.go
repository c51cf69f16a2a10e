package clapi

import (
	"runtime"
	"sync"
)

// A non-blocking enqueue call is timed for how soon it gives the host back
// (issue 12: at most 1.5x C's clEnqueueWriteBuffer), so the binding does
// nothing on that path that can wait: no cgo call after the driver's, no
// goroutine to start, no finalizer to set. Its event is only put on the
// pending list below; it is adopted later, off the call's path:
//
//   - by the next Wait on any event (after the wait), Done, Release,
//     Queue.Finish, or anything that waits for a buffer's or a pinned
//     region's commands (Buffer.Release, PinnedHost.Close, SVM.Free, ...);
//   - else, once adoptBatch events are pending, by a goroutine that the
//     call crossing the mark starts.
//
// Adopting an event sets its finalizer (which releases its handle once the
// program drops it) and, unless it has settled already (Wait settles it
// from clWaitForEvents, Status from clGetEventInfo), registers the
// completion callback that settles it: unpins the Go memory the command
// used and drops the references that kept it alive. A command nobody
// waits for therefore keeps its memory pinned a little longer than it
// runs, bounded by adoptBatch commands; it is never unpinned early.
const adoptBatch = 32

var pending = struct {
	mu     sync.Mutex
	events []*Event
}{events: make([]*Event, 0, adoptBatch)}

// adoptLater puts a fresh non-blocking command's event on the pending
// list: a lock and an append, nothing that can block.
func adoptLater(e *Event) {
	pending.mu.Lock()
	pending.events = append(pending.events, e)
	var batch []*Event
	if len(pending.events) >= adoptBatch {
		batch, pending.events = pending.events, make([]*Event, 0, adoptBatch)
	}
	pending.mu.Unlock()
	if batch != nil {
		go adoptAll(batch)
	}
}

// adoptPending adopts every pending event. It must not be called with an
// Event's lock held.
func adoptPending() {
	pending.mu.Lock()
	batch := pending.events
	if len(batch) > 0 {
		// A fresh list with room for a batch: the enqueue calls that
		// append to it then allocate nothing.
		pending.events = make([]*Event, 0, adoptBatch)
	}
	pending.mu.Unlock()
	adoptAll(batch)
}

func adoptAll(batch []*Event) {
	for _, e := range batch {
		e.adopt()
	}
}

// adopt registers the completion callback of a command that has not
// settled and sets the event's finalizer, once.
func (e *Event) adopt() {
	e.mu.Lock()
	if e.adopted {
		e.mu.Unlock()
		return
	}
	e.adopted = true
	if e.id != nil && !e.st.settled() {
		watch(e.id, e.st)
	}
	e.mu.Unlock()
	runtime.SetFinalizer(e, finalizeEvent)
}
