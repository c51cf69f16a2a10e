// gocl patch: this file is gocl's own (see PATCHES.md).

package interp

import (
	"sync"
	"sync/atomic"
)

// DebugPanic is the reason of the event a Debugger sends, when told to
// (SetStopOnPanic), before a panic that nothing recovered ends the program
// it runs: the event's frames are where the panic was raised, with their
// variables, and the Go routine waits there for Continue (or Step) like at
// a breakpoint; then Execute returns the panic as it would have.
//
// Unpatched, yaegi's debugger sees a panic only as Wait's error, once the
// frames are gone, so a front end could not show where it happened.
const DebugPanic DebugEventReason = 100

// goclDebugState is a Debugger's state for DebugPanic.
type goclDebugState struct {
	stopOnPanic atomic.Bool
	mu          sync.Mutex
	sites       map[*debugRoutine]*goclPanicSite // a Go routine's panic in flight, by where it was raised
}

// goclPanicSite is where a panic in flight was raised: the innermost
// interpreted frame it unwound, which still holds the node that ran.
type goclPanicSite struct {
	frame *frame
	value interface{}
}

// SetStopOnPanic says whether the debugger stops, with a DebugPanic event,
// before a panic that nothing recovered ends the program (or the Go
// routine that Debug started it in).
func (dbg *Debugger) SetStopOnPanic(on bool) { dbg.gocl.stopOnPanic.Store(on) }

// PanicValue is the value of the panic that the event's Go routine is
// stopped for (an event with reason DebugPanic), and whether there is one.
func (evt *DebugEvent) PanicValue() (interface{}, bool) {
	if evt.reason != DebugPanic || evt.frame == nil || evt.frame.debug == nil {
		return nil, false
	}
	st := &evt.debugger.gocl
	st.mu.Lock()
	defer st.mu.Unlock()
	s, ok := st.sites[evt.frame.debug.g]
	if !ok {
		return nil, false
	}
	return s.value, true
}

// goclPanicSeen is called by runCfg when a panic with value r unwinds
// frame f: the first frame it unwinds is where it was raised. A record
// that is still there from a panic that compiled code recovered (runCfg
// never saw that one end) is replaced unless it is this very panic, seen
// first by a frame f called.
func goclPanicSeen(n *node, f *frame, r interface{}) {
	dbg := n.interp.debugger
	if dbg == nil || f.debug == nil || !dbg.gocl.stopOnPanic.Load() {
		return
	}
	st := &dbg.gocl
	st.mu.Lock()
	defer st.mu.Unlock()
	if s, ok := st.sites[f.debug.g]; ok && goclSameValue(s.value, r) && goclCalledFrom(s.frame, f) {
		return
	}
	if st.sites == nil {
		st.sites = map[*debugRoutine]*goclPanicSite{}
	}
	st.sites[f.debug.g] = &goclPanicSite{frame: f, value: r}
}

// goclPanicRecovered is called by runCfg when a deferred call of frame f
// recovered the panic that was unwinding it.
func goclPanicRecovered(n *node, f *frame) {
	dbg := n.interp.debugger
	if dbg == nil || f.debug == nil {
		return
	}
	dbg.gocl.mu.Lock()
	delete(dbg.gocl.sites, f.debug.g)
	dbg.gocl.mu.Unlock()
}

// goclPanicStop is called by Execute when it recovers r, the panic that is
// ending the program: under a debugger told to stop on panics, the Go
// routine stops where the panic was raised and waits to be resumed.
func goclPanicStop(interp *Interpreter, r interface{}) {
	dbg := interp.debugger
	if dbg == nil || interp.frame.debug == nil {
		return
	}
	g := interp.frame.debug.g
	st := &dbg.gocl
	st.mu.Lock()
	site, ok := st.sites[g]
	st.mu.Unlock()
	defer func() {
		st.mu.Lock()
		delete(st.sites, g)
		st.mu.Unlock()
	}()
	if r == nil || !st.stopOnPanic.Load() || g.mode == DebugTerminate {
		return
	}
	at := interp.frame
	if ok && goclSameValue(site.value, r) {
		at = site.frame
	} else {
		st.mu.Lock()
		if st.sites == nil {
			st.sites = map[*debugRoutine]*goclPanicSite{}
		}
		st.sites[g] = &goclPanicSite{frame: at, value: r}
		st.mu.Unlock()
	}
	g.running.Store(false)
	dbg.events(&DebugEvent{dbg, DebugPanic, at})
	select {
	case <-g.resume:
	case <-dbg.context.Done():
	}
	g.running.Store(true)
}

// goclSameValue reports whether two panic values are the same (false
// for values Go cannot compare).
func goclSameValue(a, b interface{}) (same bool) {
	defer func() {
		if recover() != nil {
			same = false
		}
	}()
	return a == b
}

// goclCalledFrom reports whether frame inner runs in a call made, directly
// or not, from frame outer (or is outer).
func goclCalledFrom(inner, outer *frame) bool {
	for x := inner; x != nil; x = x.anc {
		if x == outer {
			return true
		}
	}
	return false
}
