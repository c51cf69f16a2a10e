package engine

import (
	"errors"
	"os"
	"sync"
)

// Cells get their own duplicates of file descriptors 1 and 2 as os.Stdout
// and os.Stderr, so that os.Stdout.Close() in a cell closes the duplicate,
// never the process's descriptor: a file the cell opens next cannot become
// fd 1 and receive the output, and C libraries still write to the capture.
// A closed duplicate is replaced before the next cell (RenewStdio) and, for
// fmt's printing, at once (cellWriter).

var (
	stdioMu sync.Mutex
	// keepFD12 holds the first *os.File of fds 1 and 2: dropped, their
	// finalizers would close the process's descriptors.
	keepFD12 []*os.File
)

// useOwnStdio makes cellStdout and cellStderr duplicates of fds 1 and 2. It
// runs once capture started, so the duplicates are the capture pipes.
func useOwnStdio() {
	stdioMu.Lock()
	defer stdioMu.Unlock()
	if keepFD12 != nil {
		return
	}
	keepFD12 = []*os.File{cellStdout, cellStderr}
	cellStdout = dupFile(1, "/dev/stdout")
	cellStderr = dupFile(2, "/dev/stderr")
}

// RenewStdio gives the next cell a fresh os.Stdout or os.Stderr if a cell
// closed its own; it returns the names of those it replaced.
func RenewStdio() (renewed []string) {
	stdioMu.Lock()
	defer stdioMu.Unlock()
	if keepFD12 == nil {
		return nil
	}
	if isClosedFile(cellStdout) {
		cellStdout = dupFile(1, "/dev/stdout")
		renewed = append(renewed, "os.Stdout")
	}
	if isClosedFile(cellStderr) {
		cellStderr = dupFile(2, "/dev/stderr")
		renewed = append(renewed, "os.Stderr")
	}
	return renewed
}

func isClosedFile(f *os.File) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return true
	}
	return rc.Control(func(uintptr) {}) != nil
}

// cellWriter is the interpreter's stdout (fmt.Print* in cells): the
// current cellStdout, replaced at once if a cell closed it.
type cellWriter struct{}

func (cellWriter) Write(p []byte) (int, error) {
	stdioMu.Lock()
	f := cellStdout
	stdioMu.Unlock()
	n, err := f.Write(p)
	if errors.Is(err, os.ErrClosed) {
		RenewStdio()
		stdioMu.Lock()
		f = cellStdout
		stdioMu.Unlock()
		return f.Write(p[n:])
	}
	return n, err
}
