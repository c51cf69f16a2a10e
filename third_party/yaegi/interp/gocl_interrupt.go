// gocl patch: this whole file is gocl's (see ../PATCHES.md).

package interp

import "reflect"

// An interrupt (stop: the run id bumped, the done channel closed) is meant
// for the code that the embedder's current request runs. Unpatched, every
// frame made before it stops too: closures and function wrappers keep the
// run id and done channel of the frame they were made in, so after one
// interrupt every func value made earlier returned zero values at once, and
// every goroutine of an earlier run stopped. Patched:
//
//   - a closure or function wrapper, when called, runs under the
//     interpreter's current run id and done channel (callFrame);
//   - a frame that finds its run id stale, or its done channel closed,
//     asks the embedder's stop filter whether its goroutine is one the
//     interrupt is for (resume). If not, it takes the current run id and a
//     done channel that is open, and goes on.
//
// The hot loop of runCfg still compares two atomic loads; resume runs only
// after an interrupt.

// SetStopFilter sets the function that a stopped frame calls to learn
// whether its goroutine must stop (true) or was stopped only because the
// interrupt came while it ran (false: it goes on). Without a filter every
// frame stops, as unpatched. Set it before the first Execute.
func (interp *Interpreter) SetStopFilter(stop func() bool) {
	interp.stopFilter = stop
}

// resume is called by a frame whose run id is not the interpreter's, or
// whose channel operation was woken by its done channel. It returns false
// when the frame must stop; true after it made the frame current.
func (interp *Interpreter) resume(f *frame) bool {
	if interp.stopFilter == nil || interp.stopFilter() {
		return false
	}
	f.setrunid(interp.runid())
	d := interp.currentDone()
	f.mutex.Lock()
	f.done = d
	f.mutex.Unlock()
	return true
}

// currentDone returns the select case of the interpreter's done channel, or
// one that never fires when it is closed already.
func (interp *Interpreter) currentDone() reflect.SelectCase {
	interp.mutex.RLock()
	c := interp.done
	interp.mutex.RUnlock()
	select {
	case <-c:
		return reflect.SelectCase{Dir: reflect.SelectRecv} // a zero Chan: ignored by reflect.Select
	default:
		return reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(c)}
	}
}

// callFrame makes the frame of a call through a closure or a function
// wrapper: anc's data, the current run id and done channel.
func (interp *Interpreter) callFrame(anc *frame, length int) *frame {
	f := newFrame(anc, length, interp.runid())
	f.done = interp.currentDone()
	return f
}
