// Package capture redirects what running code prints and displays away from
// the cell's own output area, into a Capturer: an ipywidgets Output widget
// is one (kernel/widgets). The engine consults Current for every stream and
// display message it delivers. It lives apart from kernel/display, under
// kernel/internal, so that cells, which have display, cannot reach it: only
// the kernel's own packages (the engine, the widgets) import it.
package capture

import (
	"sync"

	"github.com/seed43a1e1ab/gocl/kernel/cellio"
)

// Capturer receives the output of the running cell (or widget callback)
// instead of the cell's own output area while a Push is in effect: an
// ipywidgets Output widget is one. Display returns false for a message it
// does not take (an update of a display it never showed), which then goes
// on to the cell.
type Capturer interface {
	Stream(name, text string)
	Display(m cellio.Message) bool
}

var (
	captureMu sync.Mutex
	captures  []Capturer
	flusher   func()
)

// SetFlusher installs f, which delivers everything the running code has
// written so far; Push calls it at both ends, so that prints keep their
// place. The engine installs it.
func SetFlusher(f func()) {
	captureMu.Lock()
	defer captureMu.Unlock()
	flusher = f
}

func flush() {
	captureMu.Lock()
	f := flusher
	captureMu.Unlock()
	if f != nil {
		f()
	}
}

// Push sends what the running code prints and displays to c until end is
// called. Captures nest: the innermost one receives the output.
func Push(c Capturer) (end func()) {
	flush()
	captureMu.Lock()
	captures = append(captures, c)
	captureMu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			flush()
			captureMu.Lock()
			defer captureMu.Unlock()
			for i := len(captures) - 1; i >= 0; i-- {
				if captures[i] == c {
					captures = append(captures[:i], captures[i+1:]...)
					break
				}
			}
		})
	}
}

// Current returns the innermost capturer in effect, or nil.
func Current() Capturer {
	captureMu.Lock()
	defer captureMu.Unlock()
	if len(captures) == 0 {
		return nil
	}
	return captures[len(captures)-1]
}

// Reset ends every capture; the engine calls it when a comm handler ends,
// so that a capture a panic left open does not outlive it.
func Reset() {
	captureMu.Lock()
	defer captureMu.Unlock()
	captures = nil
}
