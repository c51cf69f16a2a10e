package attack

import (
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"time"
)

// The attacker's side of ZMTP 3.0, written out by hand
// (https://rfc.zeromq.org/spec/23/): what anyone on the machine can send.

// greeting is a ZMTP 3.0 greeting with the NULL mechanism.
func greeting() []byte {
	g := make([]byte, 64)
	g[0], g[9], g[10], g[11] = 0xff, 0x7f, 3, 0
	copy(g[12:], "NULL")
	return g
}

// ready is a READY command frame for socketType, with identity if not "".
func ready(socketType, identity string) []byte {
	body := append([]byte{5}, "READY"...)
	prop := func(name, value string) {
		body = append(body, byte(len(name)))
		body = append(body, name...)
		body = binary.BigEndian.AppendUint32(body, uint32(len(value)))
		body = append(body, value...)
	}
	prop("Socket-Type", socketType)
	if identity != "" {
		prop("Identity", identity)
	}
	return append([]byte{0x04, byte(len(body))}, body...)
}

// frameHeader is the header of a frame of size bytes.
func frameHeader(size uint64, more bool) []byte {
	var flags byte
	if more {
		flags = 0x01
	}
	if size <= 255 {
		return []byte{flags, byte(size)}
	}
	return binary.BigEndian.AppendUint64([]byte{flags | 0x02}, size)
}

// message encodes frames as one ZMTP message.
func message(frames ...[]byte) []byte {
	var b []byte
	for i, f := range frames {
		b = append(b, frameHeader(uint64(len(f)), i < len(frames)-1)...)
		b = append(b, f...)
	}
	return b
}

// rawPeer is a TCP connection that has done the ZMTP handshake by hand.
type rawPeer struct {
	net.Conn
}

// dialRaw connects to addr and completes a handshake as socketType.
func dialRaw(addr, socketType, identity string) (*rawPeer, error) {
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return nil, err
	}
	c.SetDeadline(time.Now().Add(10 * time.Second))
	defer c.SetDeadline(time.Time{})
	if _, err := c.Write(append(greeting(), ready(socketType, identity)...)); err != nil {
		c.Close()
		return nil, err
	}
	var g [64 + 2]byte
	if _, err := io.ReadFull(c, g[:]); err != nil {
		c.Close()
		return nil, fmt.Errorf("no greeting and READY from the kernel: %w", err)
	}
	if g[64]&0x04 == 0 {
		c.Close()
		return nil, fmt.Errorf("the kernel's first frame is not a command")
	}
	size := int(g[65])
	if g[64]&0x02 != 0 {
		c.Close()
		return nil, fmt.Errorf("a long READY from the kernel")
	}
	if _, err := io.ReadFull(c, make([]byte, size)); err != nil {
		c.Close()
		return nil, err
	}
	return &rawPeer{c}, nil
}

// closedWithin reports whether the kernel closes the connection within d
// (reading and discarding anything it sends).
func (p *rawPeer) closedWithin(d time.Duration) bool {
	p.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, p)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		return false
	}
	return true
}
