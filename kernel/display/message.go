// Package display is what cells use for rich output: HTML, Markdown, SVG,
// images, JSON, in-place updates, clear_output and progress bars.
//
// The package never talks to Jupyter. Every call turns into a Message, plain
// data handed to the publisher that the engine installs for the running cell
// (SetPublisher). Outside a kernel, with no publisher, messages are dropped.
package display

import "sync/atomic"

// Bundle maps a MIME type ("text/html", "image/png", ...) to its data: a
// string for text types, base64 text for binary images, any JSON value for
// application/json. It is the "data" field of a Jupyter display_data message.
type Bundle map[string]any

// Kind says what a Message asks the front end to do.
type Kind int

const (
	// KindShow adds a new output (display_data).
	KindShow Kind = iota
	// KindUpdate replaces the output that carries the same DisplayID
	// (update_display_data).
	KindUpdate
	// KindClear clears the cell's outputs (clear_output); Wait defers the
	// clearing until the next output arrives, to avoid flicker.
	KindClear
)

// Message is one rich-output event of a cell. It holds plain data only, so it
// can cross a process boundary unchanged.
type Message struct {
	Kind      Kind
	Data      Bundle
	Metadata  map[string]any
	DisplayID string // set for displays that can be updated later
	Wait      bool   // for Clear
}

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
