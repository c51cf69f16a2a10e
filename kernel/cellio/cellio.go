// Package cellio holds the plain data that crosses between a cell's engine
// and the kernel: what a running cell emits (Sink, Message), how it ended
// (Result, CellError). It imports neither the interpreter nor the sockets, so
// both sides of a process boundary can share it: the engine child
// (`gocl engine`) fills these values and the kernel process publishes them.
//
// kernel/engine and kernel/display keep type aliases of these names, so code
// that says engine.Sink or display.Message is unchanged.
package cellio

import "errors"

// ErrNoStdin is what a Sink's Input returns when nobody can answer an input
// request: the front end sent allow_stdin=false, or the run is headless
// (nbconvert --execute, gocl run). Every such run fails a cell's read of
// stdin with this same text, so their outputs agree.
var ErrNoStdin = errors.New("reading stdin is not possible here: this run cannot answer input requests " +
	"(allow_stdin is false, as in nbconvert --execute and gocl run); give the cell its input another way, " +
	"e.g. a variable or an environment variable (gocl run --kernel-env K=V)")

// Sink receives everything a running cell emits. Its calls carry plain data
// only, so the engine can run in a child process with the sink on the other
// side of a pipe. The engine never sees a socket.
type Sink interface {
	// Stream delivers text the cell wrote; name is "stdout" or "stderr".
	Stream(name, text string)
	// Display delivers rich output (display_data, update_display_data,
	// clear_output).
	Display(m Message)
	// Input asks the user for a line of text (input_request) and blocks until
	// the reply. It returns an error when stdin is not allowed for this cell
	// or the request was interrupted.
	Input(prompt string, password bool) (string, error)
}

// CellError is a failed cell, shaped like Jupyter's error content.
type CellError struct {
	Name      string   `json:"ename"`     // "SyntaxError", "TypeError", "panic", "Interrupted", ...
	Value     string   `json:"evalue"`    // one line
	Traceback []string `json:"traceback"` // lines shown to the user, pointing into the cell

	// Panicked is the engine's own mark of a panic not yet located at its
	// cell statement. It never crosses a process boundary.
	Panicked bool `json:"-"`
}

func (e *CellError) Error() string { return e.Name + ": " + e.Value }

// BeforeRun reports whether the cell failed before it ran: it could not be
// parsed (SyntaxError), type-checked or compiled (TypeError, CompileError),
// or its imports could not be made (ImportError). Such a cell declared
// nothing: completion does not learn its names, and a crash replay has
// nothing of it to declare again.
func (e *CellError) BeforeRun() bool {
	switch e.Name {
	case "SyntaxError", "CompileError", "TypeError", "ImportError":
		return true
	}
	return false
}

// Result is the outcome of one cell.
type Result struct {
	// Data is the execute_result bundle (text/plain and any rich types), nil
	// when the cell ends in no value worth showing.
	Data     Bundle         `json:"data,omitempty"`
	Metadata map[string]any `json:"metadata,omitempty"`
	// Err is set when the cell failed (compile error, panic, interrupt,
	// a crash of the engine process).
	Err *CellError `json:"error,omitempty"`
}
