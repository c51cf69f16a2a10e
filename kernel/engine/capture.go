package engine

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"
)

// The process's standard output and error are captured once, at the file
// descriptor level, so that everything reaches the running cell: fmt and
// os.Stdout in cells, compiled Go code, and C libraries writing to fds 1 and
// 2. The real descriptors are kept as OriginalStdout and OriginalStderr.

var (
	saveOnce          sync.Once
	origOut, origErr  *os.File
	captureOnce       sync.Once
	captureErr        error
	outStream, errOut *stream
)

// OriginalStdout returns the process's standard output as it was before the
// engine captured file descriptor 1: the terminal of `gocl run`, or the
// kernel's log. Writes to it never reach a cell. The first call duplicates
// fd 1; later calls return the same file.
func OriginalStdout() *os.File { saveOriginals(); return origOut }

// OriginalStderr is OriginalStdout for file descriptor 2. The Go runtime's
// crash reports are sent there once capture starts.
func OriginalStderr() *os.File { saveOriginals(); return origErr }

func saveOriginals() {
	saveOnce.Do(func() {
		origOut = dupFile(1, "/dev/stdout (original)")
		origErr = dupFile(2, "/dev/stderr (original)")
	})
}

func dupFile(fd int, name string) *os.File {
	nfd, err := syscall.Dup(fd)
	if err != nil {
		// fd closed: fall back to the descriptor itself so that callers
		// always get a usable (if silent) file.
		return os.NewFile(uintptr(fd), name)
	}
	syscall.CloseOnExec(nfd)
	return os.NewFile(uintptr(nfd), name)
}

// startCapture replaces fds 1 and 2 with pipes read by two goroutines. It runs
// once per process; every Engine shares the streams.
func startCapture() error {
	captureOnce.Do(func() {
		saveOriginals()
		outStream, captureErr = newStream("stdout", 1)
		if captureErr != nil {
			return
		}
		errOut, captureErr = newStream("stderr", 2)
		if captureErr != nil {
			return
		}
		// Keep fatal runtime errors (a crash of the whole kernel) visible
		// in the kernel's log rather than lost in a pipe nobody reads.
		if err := debug.SetCrashOutput(origErr, debug.CrashOptions{}); err != nil {
			fmt.Fprintf(origErr, "gocl: crash output stays on fd 2: %v\n", err)
		}
	})
	if captureErr != nil {
		return fmt.Errorf("capture fd 1/2 for cell output: %w", captureErr)
	}
	return nil
}

// maxPending bounds what goroutines may write between cells; the excess is
// dropped with a note.
const maxPending = 1 << 20

// markerPrefix starts the sentinel written to a stream to drain it. It holds
// bytes no text output contains.
var markerPrefix = []byte("\x00\x1bgocl-drain:")

// stream is one captured descriptor: a pipe whose write end is fd, read by a
// goroutine that forwards text to the running cell's writer or, between
// cells, to a bounded pending buffer.
type stream struct {
	name string
	fd   int
	r    *os.File

	mu       sync.Mutex
	out      func(name, text string) // running cell, or nil
	pending  []byte
	dropped  int
	lastLine []byte // text after the last newline delivered to out
	nextID   uint64
	waiters  map[uint64]chan struct{}

	// held is the end of a line written without its newline, not yet
	// delivered (stdout only): if the cell now reads stdin, it becomes the
	// input prompt instead of being shown twice, once as output and once
	// beside the input box. It is delivered when the line goes on, when
	// the stream is drained, or after holdDelay.
	held      []byte
	holdTimer *time.Timer
}

// holdDelay is how long the end of an unfinished stdout line may wait to
// become an input prompt before it is shown as output.
const holdDelay = 50 * time.Millisecond

func newStream(name string, fd int) (*stream, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	if err := syscall.Dup2(int(w.Fd()), fd); err != nil {
		r.Close()
		w.Close()
		return nil, fmt.Errorf("dup2 onto fd %d: %w", fd, err)
	}
	w.Close() // fd now holds the write end
	s := &stream{name: name, fd: fd, r: r, waiters: map[uint64]chan struct{}{}}
	go s.read()
	return s, nil
}

// attach makes out the receiver of the stream; text written while no cell
// ran is delivered first.
func (s *stream) attach(out func(name, text string)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.out = out
	s.lastLine = s.lastLine[:0]
	if len(s.pending) > 0 || s.dropped > 0 {
		text := string(s.pending)
		if s.dropped > 0 {
			text += fmt.Sprintf("\n[gocl: %d bytes written between cells were dropped]\n", s.dropped)
		}
		s.pending, s.dropped = nil, 0
		s.deliverLocked([]byte(text))
	}
}

// detach stops delivery to the cell; later output is kept for the next one.
func (s *stream) detach() {
	s.mu.Lock()
	s.releaseHeldLocked()
	s.out = nil
	s.mu.Unlock()
}

// takePrompt returns the text written after the last newline during this
// cell, for an input request. What of it was still held back is taken out
// of the output (the front end shows it as the prompt); give it back with
// restorePrompt when no input request could be made.
func (s *stream) takePrompt() (prompt string, taken []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	prompt = string(s.lastLine) + string(s.held)
	taken, s.held = s.held, nil
	if s.holdTimer != nil {
		s.holdTimer.Stop()
	}
	s.lastLine = s.lastLine[:0]
	return prompt, taken
}

// restorePrompt delivers text that takePrompt took, as ordinary output.
func (s *stream) restorePrompt(taken []byte) {
	if len(taken) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.out != nil {
		s.sendLocked(taken)
	}
}

// releaseHeldLocked delivers the held end of line; s.mu is held.
func (s *stream) releaseHeldLocked() {
	if s.holdTimer != nil {
		s.holdTimer.Stop()
	}
	if len(s.held) == 0 || s.out == nil {
		return
	}
	b := s.held
	s.held = nil
	s.sendLocked(b)
}

// drain writes a sentinel to the descriptor and waits until the reader has
// seen it, so that every byte written before the call has been delivered
// (the end of an unfinished line included).
func (s *stream) drain(timeout time.Duration) error {
	if err := s.drainKeepingPrompt(timeout); err != nil {
		return err
	}
	s.mu.Lock()
	s.releaseHeldLocked()
	s.mu.Unlock()
	return nil
}

// drainKeepingPrompt is drain, except that the end of an unfinished stdout
// line stays held, to become an input prompt.
func (s *stream) drainKeepingPrompt(timeout time.Duration) error {
	s.mu.Lock()
	s.nextID++
	id := s.nextID
	ch := make(chan struct{})
	s.waiters[id] = ch
	s.mu.Unlock()

	marker := append(append([]byte{}, markerPrefix...), strconv.FormatUint(id, 10)+"\x00"...)
	if _, err := writeAll(s.fd, marker); err != nil {
		s.forget(id)
		return fmt.Errorf("drain %s: %w", s.name, err)
	}
	select {
	case <-ch:
		return nil
	case <-time.After(timeout):
		s.forget(id)
		return fmt.Errorf("drain %s: no sentinel after %v (was fd %d replaced?)", s.name, timeout, s.fd)
	}
}

func (s *stream) forget(id uint64) {
	s.mu.Lock()
	delete(s.waiters, id)
	s.mu.Unlock()
}

func writeAll(fd int, b []byte) (int, error) {
	n := 0
	for n < len(b) {
		m, err := syscall.Write(fd, b[n:])
		if err == syscall.EINTR || err == syscall.EAGAIN {
			continue
		}
		if err != nil {
			return n, err
		}
		n += m
	}
	return n, nil
}

// read runs for the life of the process.
func (s *stream) read() {
	buf := make([]byte, 64<<10)
	var acc []byte
	for {
		n, err := s.r.Read(buf)
		if n > 0 {
			acc = append(acc, buf[:n]...)
			acc = s.consume(acc)
		}
		if err != nil {
			if !errors.Is(err, os.ErrClosed) {
				fmt.Fprintf(OriginalStderr(), "gocl: reading captured %s stopped: %v\n", s.name, err)
			}
			return
		}
	}
}

// consume delivers acc up to any sentinel, signals sentinels, and returns what
// must wait for more bytes (a possible partial sentinel or rune).
func (s *stream) consume(acc []byte) []byte {
	for {
		i := bytes.Index(acc, markerPrefix)
		if i < 0 {
			break
		}
		end := bytes.IndexByte(acc[i+len(markerPrefix):], 0)
		if end < 0 {
			s.emit(acc[:i])
			return append(acc[:0], acc[i:]...)
		}
		s.emit(acc[:i])
		idText := acc[i+len(markerPrefix) : i+len(markerPrefix)+end]
		id, _ := strconv.ParseUint(string(idText), 10, 64)
		acc = acc[i+len(markerPrefix)+end+1:]
		s.mu.Lock()
		if ch, ok := s.waiters[id]; ok {
			delete(s.waiters, id)
			close(ch)
		}
		s.mu.Unlock()
	}
	// Hold back a tail that could start a sentinel.
	keep := 0
	for k := min(len(markerPrefix)-1, len(acc)); k > 0; k-- {
		if bytes.HasPrefix(markerPrefix, acc[len(acc)-k:]) {
			keep = k
			break
		}
	}
	// Hold back an incomplete UTF-8 sequence (at most 3 bytes).
	cut := len(acc) - keep
	for back := 1; back <= 3 && back <= cut; back++ {
		c := acc[cut-back]
		if c < 0x80 {
			break
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(acc[cut-back : cut]) {
				cut -= back
			}
			break
		}
	}
	s.emit(acc[:cut])
	return append(acc[:0], acc[cut:]...)
}

func (s *stream) emit(b []byte) {
	if len(b) == 0 || exiting.Load() { // (after an os.Exit: yaegi_process.go)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.out == nil {
		room := maxPending - len(s.pending)
		if room < len(b) {
			s.dropped += len(b) - max(room, 0)
			b = b[:max(room, 0)]
		}
		s.pending = append(s.pending, b...)
		return
	}
	s.deliverLocked(b)
}

func (s *stream) deliverLocked(b []byte) {
	if len(b) == 0 {
		return
	}
	if s.name != "stdout" {
		s.sendLocked(b)
		return
	}
	if len(s.held) > 0 {
		b = append(s.held, b...)
		s.held = nil
	}
	if i := bytes.LastIndexByte(b, '\n'); i < len(b)-1 {
		s.held = append([]byte(nil), b[i+1:]...)
		b = b[:i+1]
		if s.holdTimer == nil {
			s.holdTimer = time.AfterFunc(holdDelay, func() {
				s.mu.Lock()
				s.releaseHeldLocked()
				s.mu.Unlock()
			})
		} else {
			s.holdTimer.Reset(holdDelay)
		}
	}
	s.sendLocked(b)
}

// sendLocked hands b to the running cell; s.mu is held.
func (s *stream) sendLocked(b []byte) {
	if len(b) == 0 {
		return
	}
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		s.lastLine = append(s.lastLine[:0], b[i+1:]...)
	} else {
		s.lastLine = append(s.lastLine, b...)
	}
	s.out(s.name, string(b))
}

// flushAll pushes C stdio buffers to the descriptors and waits until both
// streams delivered everything written so far.
func flushAll(timeout time.Duration) error {
	flushCStdio()
	e1 := outStream.drain(timeout)
	e2 := errOut.drain(timeout)
	return errors.Join(e1, e2)
}
