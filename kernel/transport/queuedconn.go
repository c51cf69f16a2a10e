package transport

import (
	"fmt"
	"net"
	"sync"
	"time"
)

// A zmq4 workaround (zmq4 v0.17.0, router.go, routerMWriter.write): zmq4's
// ROUTER holds one lock across the write of a message to its peer, so a
// client that stops reading held every other client's replies on that
// socket until its write timed out (the stall timeout, 10 s). queuedConn
// stands between zmq4 and each ROUTER connection: Write queues the bytes
// and returns at once, and the connection's own goroutine writes them. A
// peer that accepts no bytes for the stall timeout, or lets more than
// routerQueueMax bytes pile up, is disconnected, as before; nobody else
// waits for it. When zmq4 writes to each peer without a shared lock, this
// file can go.

// routerQueueMax caps the bytes queued for one ROUTER peer; one message
// larger than that still goes, alone. A variable so that tests can shrink it.
var routerQueueMax = 64 << 20

// queueDrain bounds how long Close waits for queued bytes (a shutdown_reply)
// to be written.
const queueDrain = time.Second

type queuedConn struct {
	net.Conn

	mu      sync.Mutex
	cond    *sync.Cond
	queue   [][]byte
	queued  int
	writing bool  // run is writing the queue out
	err     error // the write that failed, or the peer was dropped
	closed  bool
}

func newQueuedConn(c net.Conn) *queuedConn {
	q := &queuedConn{Conn: c}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// Write queues a copy of p for the peer.
func (c *queuedConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return 0, c.err
	}
	if c.closed {
		return 0, net.ErrClosed
	}
	if c.queued > 0 && c.queued+len(p) > routerQueueMax {
		c.err = fmt.Errorf("transport: peer dropped: it does not read its replies (%d bytes queued for it)", c.queued)
		c.Conn.Close()
		c.cond.Broadcast()
		return 0, c.err
	}
	c.queue = append(c.queue, append([]byte(nil), p...))
	c.queued += len(p)
	if !c.writing {
		c.writing = true
		go c.run()
	}
	return len(p), nil
}

// run writes the queue to the peer until it is empty (a goroutine only
// while there is something to write: a connection closed under it, as a
// failed handshake's is, leaves nothing behind).
func (c *queuedConn) run() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.queue) > 0 && c.err == nil {
		b := c.queue[0]
		c.queue[0] = nil
		c.queue = c.queue[1:]
		c.mu.Unlock()
		_, err := c.Conn.Write(b)
		c.mu.Lock()
		c.queued -= len(b)
		if err != nil && c.err == nil {
			c.err = err
			c.Conn.Close()
		}
	}
	c.queue, c.queued = nil, 0
	c.writing = false
	c.cond.Broadcast()
}

// Close writes what is queued, for at most queueDrain, then closes the
// connection.
func (c *queuedConn) Close() error {
	c.mu.Lock()
	c.closed = true
	if c.writing {
		t := time.AfterFunc(queueDrain, func() {
			c.mu.Lock()
			if c.err == nil {
				c.err = net.ErrClosed
			}
			c.cond.Broadcast()
			c.mu.Unlock()
			c.Conn.Close() // ends a write in progress
		})
		for c.writing && c.err == nil {
			c.cond.Wait()
		}
		t.Stop()
	}
	c.mu.Unlock()
	return c.Conn.Close()
}
