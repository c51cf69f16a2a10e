package transport

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/go-zeromq/zmq4/security/null"
)

// pubSocket is a ZeroMQ PUB socket built on zmq4's ZMTP connections.
//
// zmq4's own PUB socket queues every message without bound in front of a
// single writer with no write deadline, so one stalled subscriber makes the
// kernel's memory grow forever. Here send writes to each subscriber directly,
// from the caller's goroutine; the caller (the IOPub queue) is the only
// buffer, and it is bounded. A subscriber that accepts no bytes for stall is
// disconnected (libzmq would drop its messages at the high-water mark; its
// front end reconnects).
type pubSocket struct {
	ln    net.Listener
	log   *slog.Logger
	stall time.Duration
	path  string // ipc socket file to remove on close

	mu     sync.Mutex
	subs   map[*subscriber]struct{}
	closed bool
	wg     sync.WaitGroup
}

type subscriber struct {
	raw  net.Conn
	conn *zmq4.Conn

	mu     sync.Mutex
	topics map[string]struct{}
}

// handshakeTimeout bounds the ZMTP greeting of a new peer, so that a client
// that connects and says nothing holds nothing.
const handshakeTimeout = 10 * time.Second

func listenPub(network, addr string, stall time.Duration, log *slog.Logger) (*pubSocket, error) {
	ln, err := net.Listen(network, addr)
	if err != nil {
		return nil, err
	}
	p := &pubSocket{ln: ln, log: log, stall: stall, subs: make(map[*subscriber]struct{})}
	if network == "unix" {
		p.path = addr
	}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

func (p *pubSocket) addr() net.Addr { return p.ln.Addr() }

func (p *pubSocket) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			p.log.Warn("iopub: accept failed", "err", err)
			time.Sleep(50 * time.Millisecond)
			continue
		}
		p.wg.Add(1)
		go p.open(c)
	}
}

// open performs the ZMTP handshake with a new peer and serves its
// subscriptions until it goes away.
func (p *pubSocket) open(c net.Conn) {
	defer p.wg.Done()
	sc := newMsgConn(&stallConn{Conn: c, stall: p.stall})
	c.SetDeadline(time.Now().Add(handshakeTimeout))
	zc, err := zmq4.Open(sc, null.Security(), zmq4.Pub, zmq4.SocketIdentity("gocl-iopub"), true, nil)
	if err != nil {
		p.log.Warn("iopub: ZMTP handshake failed; peer dropped", "peer", c.RemoteAddr().String(), "err", err)
		c.Close()
		return
	}
	c.SetDeadline(time.Time{})
	s := &subscriber{raw: c, conn: zc, topics: make(map[string]struct{})}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		c.Close()
		return
	}
	p.subs[s] = struct{}{}
	p.mu.Unlock()

	// Read subscriptions: a one-frame message \x01topic subscribes, \x00topic
	// unsubscribes (ZMTP 3.0, which zmq4 announces and libzmq then speaks).
	for {
		msg, err := zc.RecvMsg()
		if err != nil {
			break
		}
		if msg.Type == zmq4.CmdMsg || len(msg.Frames) != 1 || len(msg.Frames[0]) == 0 {
			continue
		}
		f := msg.Frames[0]
		s.mu.Lock()
		switch f[0] {
		case 1:
			s.topics[string(f[1:])] = struct{}{}
		case 0:
			delete(s.topics, string(f[1:]))
		}
		s.mu.Unlock()
	}
	p.drop(s)
}

func (s *subscriber) wants(topic []byte) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for t := range s.topics {
		if strings.HasPrefix(string(topic), t) {
			return true
		}
	}
	return false
}

// drop disconnects s.
func (p *pubSocket) drop(s *subscriber) {
	s.raw.Close()
	p.mu.Lock()
	delete(p.subs, s)
	p.mu.Unlock()
}

// subscribers returns the number of connected peers that subscribed to
// something.
func (p *pubSocket) subscribers() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for s := range p.subs {
		s.mu.Lock()
		n += len(s.topics)
		s.mu.Unlock()
	}
	return n
}

// send writes frames to every subscriber whose subscription is a prefix of
// the first frame. It must not be called concurrently with itself. It returns
// once every subscriber has the message in its socket buffer or has been
// disconnected for stalling.
func (p *pubSocket) send(frames [][]byte) {
	p.mu.Lock()
	subs := make([]*subscriber, 0, len(p.subs))
	for s := range p.subs {
		subs = append(subs, s)
	}
	p.mu.Unlock()
	if len(frames) == 0 {
		return
	}
	for _, s := range subs {
		if !s.wants(frames[0]) {
			continue
		}
		if err := s.conn.SendMsg(zmq4.NewMsgFrom(frames...)); err != nil {
			p.log.Warn("iopub: subscriber disconnected: it stopped reading or went away", "peer", s.raw.RemoteAddr().String(), "err", err)
			p.drop(s)
		}
	}
}

func (p *pubSocket) close() error {
	p.mu.Lock()
	p.closed = true
	for s := range p.subs {
		s.raw.Close()
	}
	p.mu.Unlock()
	err := p.ln.Close()
	p.wg.Wait()
	if p.path != "" {
		os.Remove(p.path)
	}
	return err
}

// stallConn is a net.Conn whose writes fail when no progress is made for
// stall: each piece of at most 256 KiB gets a fresh write deadline.
type stallConn struct {
	net.Conn
	stall time.Duration
}

const stallPiece = 256 << 10

func (c *stallConn) Write(b []byte) (int, error) {
	n := 0
	for n < len(b) {
		end := min(n+stallPiece, len(b))
		c.Conn.SetWriteDeadline(time.Now().Add(c.stall))
		m, err := c.Conn.Write(b[n:end])
		n += m
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				err = fmt.Errorf("no bytes accepted for %v: %w", c.stall, err)
			}
			return n, err
		}
	}
	return n, nil
}
