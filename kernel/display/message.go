// Package display is what cells use for rich output: HTML, Markdown, SVG,
// images, JSON, in-place updates, clear_output and progress bars.
//
// The package never talks to Jupyter. Every call turns into a Message, plain
// data handed to the publisher that the engine installs for the running cell
// (SetPublisher). Outside a kernel, with no publisher, messages are dropped.
package display

import (
	"sync/atomic"

	"github.com/seed43a1e1ab/gocl/kernel/cellio"
)

// Bundle maps a MIME type to its data: the "data" field of a Jupyter
// display_data message. It is cellio.Bundle, the plain data the engine hands
// to the kernel.
type Bundle = cellio.Bundle

// Kind says what a Message asks the front end to do.
type Kind = cellio.Kind

// The kinds of Message.
const (
	// KindShow adds a new output (display_data).
	KindShow = cellio.KindShow
	// KindUpdate replaces the output that carries the same DisplayID
	// (update_display_data).
	KindUpdate = cellio.KindUpdate
	// KindClear clears the cell's outputs (clear_output); Wait defers the
	// clearing until the next output arrives, to avoid flicker.
	KindClear = cellio.KindClear
)

// Message is one rich-output event of a cell, plain data that can cross a
// process boundary unchanged (cellio.Message).
type Message = cellio.Message

var publisher atomic.Pointer[func(Message)]

// SetPublisher installs f as the receiver of every Message; nil removes it.
// The engine calls it once; cells never need to.
func SetPublisher(f func(Message)) {
	if f == nil {
		publisher.Store(nil)
		return
	}
	publisher.Store(&f)
}

// Publish hands m to the installed publisher, if any.
func Publish(m Message) {
	if f := publisher.Load(); f != nil {
		(*f)(m)
	}
}
