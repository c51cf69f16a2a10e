package engine

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/seed43a1e1ab/gocl/kernel/cellctx"
)

// stdinReader is os.Stdin and fmt.Scan's input inside cells. Each time it
// runs dry it asks the running cell's sink for one line (input_request),
// with the text the cell printed last on the current line as the prompt.
// An empty reply is the end of input (io.EOF, once); an Input error fails the
// read at once.
type stdinReader struct {
	// stopped, when set, gives the channel the engine closes once it has
	// stopped the interpreted code of an interrupted cell.
	stopped func() <-chan struct{}

	mu   sync.Mutex
	req  *cellctx.Request // the running request, nil between them
	data []byte
	pos  int
	last int // size of the last rune read, for UnreadRune; -1 if none
}

func (r *stdinReader) begin(c *cellctx.Request) {
	r.mu.Lock()
	r.req, r.data, r.pos, r.last = c, nil, 0, -1
	r.mu.Unlock()
}

func (r *stdinReader) end() {
	r.mu.Lock()
	r.req, r.data, r.pos, r.last = nil, nil, 0, -1
	r.mu.Unlock()
}

// fill asks for a line; r.mu is held.
func (r *stdinReader) fill() error {
	c := r.req
	if c == nil {
		return errors.New("stdin: no cell is running (input is only available while a cell runs)")
	}
	flushCStdio()
	if err := outStream.drainKeepingPrompt(drainTimeout); err != nil {
		return fmt.Errorf("stdin: %w", err)
	}
	prompt, taken := outStream.takePrompt()
	type reply struct {
		s   string
		err error
	}
	ch := make(chan reply, 1)
	go func() {
		s, err := c.Input(prompt, false)
		ch <- reply{s, err}
	}()
	var rep reply
	select {
	case rep = <-ch:
	case <-c.Context().Done():
		outStream.restorePrompt(taken)
		// The read fails, and the interpreted code that called it would
		// go on to its next statement if the engine had not stopped it
		// yet: wait (briefly) until it has.
		if r.stopped != nil {
			select {
			case <-r.stopped():
			case <-time.After(stopGrace):
			}
		}
		// Then stop the cell here, whatever the interpreter has reached
		// (on a loaded machine it may not have stopped yet): fmt's scanners
		// pass the panic on, and the engine reports Interrupted.
		panic(stopBody{})
	}
	if rep.err != nil {
		// No input request was answered: the prompt is ordinary output.
		outStream.restorePrompt(taken)
		return fmt.Errorf("stdin: %w", rep.err)
	}
	if rep.s == "" {
		return io.EOF
	}
	r.data, r.pos, r.last = []byte(rep.s+"\n"), 0, -1
	return nil
}

// Read implements io.Reader.
func (r *stdinReader) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(p) == 0 {
		return 0, nil
	}
	if r.pos >= len(r.data) {
		if err := r.fill(); err != nil {
			return 0, err
		}
	}
	n := copy(p, r.data[r.pos:])
	r.pos += n
	r.last = -1
	return n, nil
}

// ReadRune implements io.RuneReader, so that fmt.Scan loses no lookahead.
func (r *stdinReader) ReadRune() (rune, int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pos >= len(r.data) {
		if err := r.fill(); err != nil {
			return 0, 0, err
		}
	}
	c, size := utf8.DecodeRune(r.data[r.pos:])
	r.pos += size
	r.last = size
	return c, size, nil
}

// UnreadRune implements io.RuneScanner.
func (r *stdinReader) UnreadRune() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.last < 0 {
		return errors.New("stdin: UnreadRune without a preceding ReadRune")
	}
	r.pos -= r.last
	r.last = -1
	return nil
}

// Close does nothing: the cell's stdin cannot be closed.
func (r *stdinReader) Close() error { return nil }

// Name returns "/dev/stdin", as os.Stdin.Name does.
func (r *stdinReader) Name() string { return "/dev/stdin" }
