package transport

import (
	"net"
	"syscall"
	"unsafe"
)

// roomFor reports whether the kernel's send buffer of c has room for n more
// bytes now, so that writing them will not block. It lets the IOPub
// publisher write a message to an idle subscriber itself, without waking
// the subscriber's writer goroutine (which costs the round trip of a short
// cell tens of microseconds per message), and never wait on a subscriber
// that stopped reading. When in doubt it says no: the writer then sends.
func roomFor(c net.Conn, n int) bool {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	room := false
	rc.Control(func(fd uintptr) {
		var queued int32 // bytes in the send queue, not yet acknowledged or sent
		if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCOUTQ, uintptr(unsafe.Pointer(&queued))); errno != 0 {
			return
		}
		sndbuf, err := syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_SNDBUF)
		if err != nil {
			return
		}
		// Linux doubles SO_SNDBUF to cover its bookkeeping; count half of
		// it as room for data, and keep a margin for frame headers.
		room = int(queued)+n+4096 < sndbuf/2
	})
	return room
}
