// Package display is what cells use for rich output: HTML, Markdown, SVG,
// images, JSON, in-place updates, clear_output and progress bars.
//
// The package never talks to Jupyter. Every call turns into a Message, plain
// data handed to the running request (kernel/cellctx), which the engine
// begins for each cell. Outside a kernel, with no request, messages are
// dropped.
package display

import (
	"github.com/seed43a1e1ab/gocl/kernel/cellctx"
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

// Publish hands m to the running request (kernel/cellctx), after what it
// printed before; outside any request m is dropped.
func Publish(m Message) { cellctx.Running().Display(m) }
