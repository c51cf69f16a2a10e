//go:build !linux

package transport

import "net"

// roomFor says no where the send queue cannot be asked: the subscriber's
// writer goroutine sends every message.
func roomFor(c net.Conn, n int) bool { return false }
