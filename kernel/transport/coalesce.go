package transport

import (
	"bufio"
	"encoding/binary"
	"net"
	"sync"
	"time"
)

// msgConn writes each ZMTP message with one system call, and reads through a
// buffer.
//
// zmq4 reads a frame's header and body with separate reads, a dozen system
// calls for one Jupyter message; the buffer takes what has arrived in one.
//
// zmq4 writes every frame's header and body separately, so a Jupyter message
// of seven frames left in fourteen TCP segments, each waking the peer. msgConn
// follows the ZMTP framing of what is written (after the 64-byte greeting)
// and holds the bytes until the last frame of a message, or a command, is
// complete, then writes them at once. Large messages go out as they come
// (there is nothing to gain), and a timer writes out anything held longer
// than coalesceFlush, so that a framing it cannot follow only costs latency.
type msgConn struct {
	net.Conn
	r  *bufio.Reader // only zmq4's reading goroutine reads
	fr frameReader   // reads r for zmq4, checking frames (zmtpread.go)

	closeOnce   sync.Once
	onClose     func()      // run once, when the connection is closed
	onViolation func(error) // told once when the peer breaks a limit
	violated    bool

	mu       sync.Mutex
	greeting int    // greeting bytes still to pass through unframed
	swallow  int    // bytes of zmq4's greeting to drop: ours was sent already
	buf      []byte // held bytes
	err      error  // a failed flush, reported by the next Write
	timer    *time.Timer

	hdr    [9]byte // the frame header being read
	hdrLen int
	body   uint64 // body bytes of the current frame still to come
	more   bool   // the current frame has the MORE flag
}

const (
	zmtpGreetingLen = 64
	coalesceLimit   = 64 << 10
	coalesceFlush   = 2 * time.Millisecond
	readBuffer      = 64 << 10
)

// newMsgConn wraps c, holding the peer's frames to lim and, with check, its
// messages to their signatures.
func newMsgConn(c net.Conn, lim frameLimits, check *sigCheck) *msgConn {
	m := &msgConn{Conn: c, r: bufio.NewReaderSize(c, readBuffer), greeting: zmtpGreetingLen}
	m.fr = frameReader{r: m.r, lim: lim, check: check, raw: zmtpGreetingLen}
	return m
}

// Read hands zmq4 the peer's bytes through the frame checks. A peer that
// breaks a limit is reported and disconnected at once.
func (c *msgConn) Read(p []byte) (int, error) {
	n, err := c.fr.Read(p)
	if v, ok := err.(*violation); ok && !c.violated {
		c.violated = true
		if c.onViolation != nil {
			c.onViolation(v)
		}
		c.Conn.Close()
		if v.held >= releaseAfter {
			releaseMemory()
		}
	}
	return n, err
}

func (c *msgConn) Write(p []byte) (n int, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer func() {
		if err != nil {
			c.broken()
		}
	}()
	if c.err != nil {
		return 0, c.err
	}
	n = len(p)
	if c.swallow > 0 {
		k := min(len(p), c.swallow)
		c.swallow -= k
		c.greeting -= k
		p = p[k:]
	}
	if c.greeting > 0 {
		k := min(len(p), c.greeting)
		c.greeting -= k
		if _, err := c.Conn.Write(p[:k]); err != nil {
			return 0, err
		}
		p = p[k:]
	}
	if len(p) == 0 {
		return n, nil
	}
	boundary := c.scan(p)
	if len(c.buf)+len(p) > coalesceLimit {
		// Large: write what is held, then p itself, without copying it.
		if err := c.flushLocked(); err != nil {
			return 0, err
		}
		if _, err := c.Conn.Write(p); err != nil {
			return 0, err
		}
		return n, nil
	}
	c.buf = append(c.buf, p...)
	if boundary || len(c.buf) >= coalesceLimit {
		if err := c.flushLocked(); err != nil {
			return 0, err
		}
		return n, nil
	}
	if c.timer == nil {
		c.timer = time.AfterFunc(coalesceFlush, func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			if err := c.flushLocked(); err != nil && c.err == nil {
				c.err = err
				c.broken()
			}
		})
	} else {
		c.timer.Reset(coalesceFlush)
	}
	return n, nil
}

// flushLocked writes the held bytes; c.mu is held.
func (c *msgConn) flushLocked() error {
	if c.timer != nil {
		c.timer.Stop()
	}
	if len(c.buf) == 0 {
		return nil
	}
	_, err := c.Conn.Write(c.buf)
	c.buf = c.buf[:0]
	if cap(c.buf) > coalesceLimit*2 {
		c.buf = nil
	}
	return err
}

// scan follows the framing through p and reports whether p ends exactly
// where a message (its last frame, or a command) ends.
func (c *msgConn) scan(p []byte) (boundary bool) {
	for len(p) > 0 {
		if c.body > 0 {
			k := min(uint64(len(p)), c.body)
			c.body -= k
			p = p[k:]
			boundary = c.body == 0 && !c.more
			continue
		}
		c.hdr[c.hdrLen] = p[0]
		c.hdrLen++
		p = p[1:]
		boundary = false
		need := 2
		if c.hdr[0]&0x02 != 0 { // long frame: 8-byte size
			need = 9
		}
		if c.hdrLen < need {
			continue
		}
		if need == 2 {
			c.body = uint64(c.hdr[1])
		} else {
			c.body = binary.BigEndian.Uint64(c.hdr[1:9])
		}
		c.more = c.hdr[0]&0x01 != 0 && c.hdr[0]&0x04 == 0 // commands are single frames
		c.hdrLen = 0
		boundary = c.body == 0 && !c.more
	}
	return boundary
}

// broken closes a connection whose write failed, at once: zmq4 v0.17.0
// leaves a connection whose handshake failed (the peer left during it) open
// and unreferenced, which leaked its descriptor and its routing identity.
func (c *msgConn) broken() {
	c.fr.check.close()
	c.Conn.Close()
	c.closeOnce.Do(func() {
		if c.onClose != nil {
			c.onClose()
		}
	})
}

func (c *msgConn) Close() error {
	c.mu.Lock()
	c.flushLocked()
	c.mu.Unlock()
	c.fr.check.close()
	err := c.Conn.Close()
	c.closeOnce.Do(func() {
		if c.onClose != nil {
			c.onClose()
		}
	})
	return err
}
