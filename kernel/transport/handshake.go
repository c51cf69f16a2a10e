package transport

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"time"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"
)

// A zmq4 workaround (zmq4 v0.17.0, socket.go, accept): zmq4 performs the
// ZMTP handshake of each new connection inside its one accept loop, with no
// deadline, so one peer that sends a few bytes and goes silent keeps every
// other client out for as long as it likes. screenHandshake performs the
// peer's half of the handshake on the connection's own goroutine, under one
// deadline for the whole of it, before zmq4 sees the connection: it sends our
// greeting (the same 64 bytes zmq4 would send, which msgConn then drops from
// zmq4's writes) and waits for the peer's whole greeting and READY command in
// the read buffer, so that zmq4's own handshake then completes at once.

// handshakeTimeout bounds the whole ZMTP handshake of a new peer: its
// greeting and its READY command.
var handshakeTimeout = 10 * time.Second

// zmtpGreeting is the greeting zmq4 sends: ZMTP 3.0, mechanism NULL, as-server
// 0, zero padding.
var zmtpGreeting = func() []byte {
	g := make([]byte, zmtpGreetingLen)
	g[0], g[9], g[10], g[11] = 0xff, 0x7f, 3, 0
	copy(g[12:32], "NULL")
	return g
}()

// peerInfo is what a peer's READY command says.
type peerInfo struct {
	socketType string
	identity   string
}

// Peer socket types a ROUTER and the PUB socket talk to. zmq4 v0.17.0
// panics on a Socket-Type it does not know (SocketType.IsCompatible), so one
// keyless READY with "Socket-Type: X" ended the kernel (found by
// FuzzHandshake): screenHandshake refuses any other.
var (
	routerPeers = []string{"DEALER", "REQ", "ROUTER"}
	pubPeers    = []string{"SUB", "XSUB"}
)

// screenHandshake reads the peer's greeting and READY command into c's read
// buffer (without consuming them), having sent our greeting, all within
// handshakeTimeout. The peer's socket type must be one of peers.
func screenHandshake(c *msgConn, peers []string) (peerInfo, error) {
	c.Conn.SetDeadline(time.Now().Add(handshakeTimeout))
	defer c.Conn.SetDeadline(time.Time{})
	sig, err := c.r.Peek(10)
	if err != nil {
		return peerInfo{}, fmt.Errorf("no ZMTP signature: %w", err)
	}
	if sig[0] != 0xff || sig[9] != 0x7f {
		return peerInfo{}, fmt.Errorf("not a ZMTP peer: it began with %q", sig)
	}
	if err := c.sendGreeting(); err != nil {
		return peerInfo{}, fmt.Errorf("send greeting: %w", err)
	}
	g, err := c.r.Peek(zmtpGreetingLen)
	if err != nil {
		return peerInfo{}, fmt.Errorf("incomplete ZMTP greeting: %w", err)
	}
	if g[10] < 3 {
		return peerInfo{}, fmt.Errorf("ZMTP %d.%d peer: version 3 or later is needed", g[10], g[11])
	}
	if g[32] > 1 {
		return peerInfo{}, fmt.Errorf("ZMTP greeting with as-server byte %#02x, want 0 or 1", g[32])
	}
	if mech := strings.TrimRight(string(g[12:32]), "\x00"); mech != "NULL" {
		return peerInfo{}, fmt.Errorf("ZMTP security mechanism %q: only NULL is spoken", mech)
	}
	h, err := c.r.Peek(zmtpGreetingLen + 2)
	if err != nil {
		return peerInfo{}, fmt.Errorf("no READY command: %w", err)
	}
	flags := h[zmtpGreetingLen]
	hl, size := 2, uint64(h[zmtpGreetingLen+1])
	switch flags {
	case flagCommand:
	case flagCommand | flagLong:
		hl = 9
		if h, err = c.r.Peek(zmtpGreetingLen + hl); err != nil {
			return peerInfo{}, fmt.Errorf("no READY command: %w", err)
		}
		size = binary.BigEndian.Uint64(h[zmtpGreetingLen+1:])
	default:
		return peerInfo{}, fmt.Errorf("the first frame after the greeting has flags %#02x, want a READY command", flags)
	}
	if size > maxCommand {
		return peerInfo{}, fmt.Errorf("a READY command of %d bytes, above the limit of %d", size, maxCommand)
	}
	all, err := c.r.Peek(zmtpGreetingLen + hl + int(size))
	if err != nil {
		return peerInfo{}, fmt.Errorf("incomplete READY command: %w", err)
	}
	p, err := parseReady(all[zmtpGreetingLen+hl:])
	if err != nil {
		return p, err
	}
	if !slices.Contains(peers, p.socketType) {
		return p, fmt.Errorf("a %.20q peer: this socket talks to %s", p.socketType, strings.Join(peers, ", "))
	}
	return p, nil
}

// parseReady parses the body of a READY command: its name, then properties
// (name length, name, 4-byte value length, value).
func parseReady(b []byte) (peerInfo, error) {
	var p peerInfo
	if len(b) < 6 || b[0] != 5 || string(b[1:6]) != "READY" {
		return p, fmt.Errorf("the first command is not READY")
	}
	b = b[6:]
	for len(b) > 0 {
		nl := int(b[0])
		if len(b) < 1+nl+4 {
			return p, fmt.Errorf("READY property truncated")
		}
		name := string(b[1 : 1+nl])
		vl := binary.BigEndian.Uint32(b[1+nl:])
		b = b[1+nl+4:]
		if uint64(vl) > uint64(len(b)) {
			return p, fmt.Errorf("READY property %q truncated", name)
		}
		v := string(b[:vl])
		b = b[vl:]
		switch titleWords(name) { // as zmq4 files them
		case "Socket-Type":
			p.socketType = v
		case "Identity":
			p.identity = v
		}
	}
	return p, nil
}

// sendGreeting writes our greeting and arranges for zmq4's to be dropped.
func (c *msgConn) sendGreeting() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	w := c.Conn
	if q, ok := w.(*queuedConn); ok {
		// Written now, not queued: a peer refused next (an identity
		// already connected) still gets it before the connection closes.
		w = q.Conn
	}
	if _, err := w.Write(zmtpGreeting); err != nil {
		return err
	}
	c.swallow = zmtpGreetingLen
	return nil
}

// titleWords is the key zmq4 files a READY property under (its toTitle), so
// that we read the very property zmq4 then uses.
func titleWords(s string) string {
	return cases.Title(language.Und, cases.NoLower).String(s)
}
