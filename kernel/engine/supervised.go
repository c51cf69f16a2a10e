package engine

import (
	"fmt"
	"os"
	"syscall"
)

// This file holds what the engine process (kernel/enginehost) needs of the
// engine beyond running cells: the captured pipes, for the supervisor to
// read what a crashed process left unread, and the blocked-statement state,
// so that later cells can run while an interrupted one is stuck.

// CapturedReaders returns duplicates of the read ends of the pipes that
// capture file descriptors 1 and 2. The engine process hands them to its
// supervisor, which reads them only once the process died, so that output a
// cell printed just before a crash still reaches the cell. Reading them while
// the engine lives would steal its output. New must have been called.
func CapturedReaders() (stdout, stderr *os.File, err error) {
	if outStream == nil || errOut == nil {
		return nil, nil, fmt.Errorf("CapturedReaders: no engine has captured fds 1 and 2 yet")
	}
	dup := func(s *stream) (*os.File, error) {
		rc, err := s.r.SyscallConn()
		if err != nil {
			return nil, err
		}
		nfd := -1
		var derr error
		if err := rc.Control(func(fd uintptr) { nfd, derr = syscall.Dup(int(fd)) }); err != nil {
			return nil, err
		}
		if derr != nil {
			return nil, fmt.Errorf("dup the captured %s pipe: %w", s.name, derr)
		}
		syscall.CloseOnExec(nfd)
		return os.NewFile(uintptr(nfd), "captured "+s.name), nil
	}
	if stdout, err = dup(outStream); err != nil {
		return nil, nil, err
	}
	if stderr, err = dup(errOut); err != nil {
		stdout.Close()
		return nil, nil, err
	}
	return stdout, stderr, nil
}

// TakeBlocked returns a channel that is closed once an interrupted cell,
// still inside a compiled call when Execute returned, finally stops; nil
// when no cell is blocked. Taking it lets the next Execute run at once
// instead of waiting for the blocked statement (the caller warns the user).
func (e *Engine) TakeBlocked() <-chan struct{} {
	e.mu.Lock()
	defer e.mu.Unlock()
	b := e.busy
	e.busy = nil
	if b == nil {
		return nil
	}
	select {
	case <-b:
		return nil
	default:
		return b
	}
}
