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
// kernel's memory grow forever. Here each subscriber has its own writer and
// its own queue, bounded in bytes (messages are shared between the queues, not
// copied). send waits for a subscriber whose queue is full only as long as a
// front end reading minSubRate would need to make room (a fast front end
// that falls a little behind slows the cell down, as back-pressure); one
// slower than that, or not reading at all, loses its own messages, counted
// in the log, until it catches up, as libzmq drops at its high-water mark,
// and nobody waits for it. A subscriber that accepts no bytes for stall is
// disconnected (its front end reconnects).
type pubSocket struct {
	ln    net.Listener
	log   *rateLog
	stall time.Duration
	path  string // ipc socket file to remove on close

	mu     sync.Mutex
	subs   map[*subscriber]struct{}
	closed bool
	wg     sync.WaitGroup
}

// Bounds of each subscriber's queue. Variables so that tests can shrink them.
var (
	// subQueueMax caps the bytes queued for one subscriber behind the
	// message being written to it (a 200 MB display being read does not
	// make the messages after it wait or drop).
	subQueueMax = 8 << 20
	// pubPatience and minSubRate bound how long send waits for room in a
	// full subscriber's queue: pubPatience plus the time a subscriber
	// reading minSubRate bytes a second takes to read the message. One
	// slower than that has its messages dropped.
	pubPatience = 50 * time.Millisecond
	minSubRate  = 20e6
	// smallPubMsg and smallReserve: messages up to smallPubMsg bytes (status,
	// execute_input, short results) are queued for a full subscriber within
	// smallReserve more bytes, not dropped.
	smallPubMsg  = 16 << 10
	smallReserve = 1 << 20
	// maxTopics caps the subscriptions of one subscriber.
	maxTopics = 1024
)

type subscriber struct {
	raw  net.Conn
	conn *zmq4.Conn
	peer string

	mu     sync.Mutex
	topics map[string]struct{}

	qmu          sync.Mutex
	qcond        *sync.Cond
	queue        []pubMsg
	queued       int  // bytes in queue
	inflight     int  // bytes of queue[0] while the writer writes it
	smallQueued  int  // bytes of the small messages in queue
	writing      bool // a message is being written (by the writer or a publisher)
	dropping     bool // its messages are dropped until its queue drains to half
	dropped      int  // messages dropped in this episode
	droppedBytes int64
	gone         bool
}

type pubMsg struct {
	frames [][]byte
	size   int
}

func listenPub(network, addr string, stall time.Duration, log *slog.Logger) (*pubSocket, error) {
	ln, err := listen(network, addr)
	if err != nil {
		return nil, err
	}
	p := &pubSocket{ln: ln, log: newRateLog(log), stall: stall, subs: make(map[*subscriber]struct{})}
	if network == "unix" {
		p.path = addr
	}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

func (p *pubSocket) addr() net.Addr { return p.ln.Addr() }

// accept accepts subscribers until the listener is closed; failures (EMFILE,
// ENFILE, ...) are retried with back-off.
func (p *pubSocket) accept() {
	defer p.wg.Done()
	delay := time.Duration(0)
	for {
		c, err := p.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			delay = min(max(2*delay, 5*time.Millisecond), time.Second)
			p.log.warn("accept", "iopub: accept failed; retrying (out of file descriptors? the peers are kept, new ones wait)", "err", err, "retry_in", delay)
			time.Sleep(delay)
			continue
		}
		delay = 0
		p.wg.Add(1)
		go p.open(c)
	}
}

// open performs the ZMTP handshake with a new peer and serves its
// subscriptions until it goes away.
func (p *pubSocket) open(c net.Conn) {
	defer p.wg.Done()
	s := &subscriber{raw: c, peer: c.RemoteAddr().String(), topics: make(map[string]struct{})}
	s.qcond = sync.NewCond(&s.qmu)
	sc := newMsgConn(&stallConn{Conn: c, stall: p.stall}, frameLimits{smallFrame, smallMessage}, nil)
	sc.onViolation = func(err error) {
		p.log.warn("violation", "iopub: connection closed", "peer", s.peer, "err", err)
	}
	if _, err := screenHandshake(sc, pubPeers); err != nil {
		p.log.warn("handshake", "iopub: ZMTP handshake failed; peer dropped", "peer", s.peer, "err", err)
		c.Close()
		return
	}
	zc, err := zmq4.Open(sc, null.Security(), zmq4.Pub, zmq4.SocketIdentity("gocl-iopub"), true, nil)
	if err != nil {
		p.log.warn("handshake", "iopub: ZMTP handshake failed; peer dropped", "peer", s.peer, "err", err)
		c.Close()
		return
	}
	s.conn = zc
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		c.Close()
		return
	}
	p.subs[s] = struct{}{}
	p.mu.Unlock()
	p.wg.Add(1)
	go p.write(s)

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
			if len(s.topics) < maxTopics {
				s.topics[string(f[1:])] = struct{}{}
			}
		case 0:
			delete(s.topics, string(f[1:]))
		}
		s.mu.Unlock()
	}
	p.drop(s, nil)
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

// write writes s's queue to it until it goes away.
func (p *pubSocket) write(s *subscriber) {
	defer p.wg.Done()
	for {
		s.qmu.Lock()
		for (len(s.queue) == 0 || s.writing) && !s.gone {
			s.qcond.Wait()
		}
		if s.gone {
			s.qmu.Unlock()
			return
		}
		m := s.queue[0]
		s.writing = true
		s.inflight = m.size
		s.qmu.Unlock()
		err := s.conn.SendMsg(zmq4.NewMsgFrom(m.frames...))
		s.qmu.Lock()
		s.writing = false
		if s.gone { // drop emptied the queue meanwhile
			s.qmu.Unlock()
			if err != nil {
				p.drop(s, err)
			}
			return
		}
		s.queue[0] = pubMsg{}
		s.queue = s.queue[1:]
		s.queued -= m.size
		s.inflight = 0
		if m.size <= smallPubMsg {
			s.smallQueued -= m.size
		}
		s.qcond.Broadcast()
		s.qmu.Unlock()
		if err != nil {
			p.drop(s, err)
			return
		}
	}
}

// enqueue queues m for s. When s's queue is full it returns false at once
// if deadline is zero; else it waits for room until deadline (send gives
// every full subscriber the same one: pubPatience plus the time a subscriber
// reading minSubRate takes to read m), then drops m and puts s in dropping
// mode: a subscriber slower than that loses its own messages, as libzmq's
// PUB drops at its high-water mark, and costs the others at most that wait,
// however many such subscribers there are, once per episode. A small
// message (a status) is queued even when the queue is full, within a small
// reserve, so that a front end that hiccups does not lose the idle status.
func (p *pubSocket) enqueue(s *subscriber, m pubMsg, deadline time.Time) bool {
	s.qmu.Lock()
	defer s.qmu.Unlock()
	if s.gone {
		return true
	}
	small := m.size <= smallPubMsg && s.smallQueued+m.size <= smallReserve
	if s.dropping {
		if s.queued-s.inflight > subQueueMax/2 {
			if small {
				s.append(m)
				return true
			}
			s.dropped++
			s.droppedBytes += int64(m.size)
			return true
		}
		s.dropping = false
		p.log.warn("resume", "iopub: a subscriber reads again; messages were dropped for it while it did not keep up",
			"peer", s.peer, "dropped_messages", s.dropped, "dropped_bytes", s.droppedBytes)
		s.dropped, s.droppedBytes = 0, 0
	}
	if len(s.queue) == 0 && !s.writing && roomFor(s.raw, m.size) {
		// Idle, with room in the socket: write it here, at once.
		s.writing = true
		s.qmu.Unlock()
		err := s.conn.SendMsg(zmq4.NewMsgFrom(m.frames...))
		s.qmu.Lock()
		s.writing = false
		s.qcond.Broadcast()
		if err != nil {
			s.qmu.Unlock()
			p.drop(s, err)
			s.qmu.Lock()
		}
		return true
	}
	full := func() bool {
		waiting := s.queued - s.inflight
		return waiting > 0 && waiting+m.size > subQueueMax && !s.gone
	}
	if full() && small {
		s.append(m)
		return true
	}
	if full() && deadline.IsZero() {
		return false
	}
	for full() {
		if !time.Now().Before(deadline) {
			s.dropping = true
			s.dropped, s.droppedBytes = 1, int64(m.size)
			p.log.warn("dropping", "iopub: a subscriber is not reading, or reads too slowly: its messages are dropped until it catches up; others are served",
				"peer", s.peer, "queued_bytes", s.queued)
			return true
		}
		t := time.AfterFunc(min(20*time.Millisecond, time.Until(deadline)), func() {
			s.qmu.Lock()
			s.qcond.Broadcast()
			s.qmu.Unlock()
		})
		s.qcond.Wait()
		t.Stop()
	}
	if s.gone {
		return true
	}
	s.append(m)
	return true
}

// append queues m for s's writer. s.qmu must be held.
func (s *subscriber) append(m pubMsg) {
	s.queue = append(s.queue, m)
	s.queued += m.size
	if m.size <= smallPubMsg {
		s.smallQueued += m.size
	}
	s.qcond.Broadcast()
}

// drop disconnects s; err says why, when its writer failed.
func (p *pubSocket) drop(s *subscriber, err error) {
	s.raw.Close()
	s.qmu.Lock()
	s.gone = true
	s.queue, s.queued, s.inflight, s.smallQueued = nil, 0, 0, 0
	dropped, bytes := s.dropped, s.droppedBytes
	s.qcond.Broadcast()
	s.qmu.Unlock()
	p.mu.Lock()
	delete(p.subs, s)
	p.mu.Unlock()
	if err != nil {
		p.log.warn("disconnect", "iopub: subscriber disconnected: it stopped reading or went away",
			"peer", s.peer, "err", err, "dropped_messages", dropped, "dropped_bytes", bytes)
	}
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

// send queues frames for every subscriber whose subscription is a prefix of
// the first frame. It must not be called concurrently with itself. It waits
// only for full subscribers, and only as long as one reading minSubRate would
// take to make room (see pubSocket).
func (p *pubSocket) send(frames [][]byte) {
	if len(frames) == 0 {
		return
	}
	p.mu.Lock()
	subs := make([]*subscriber, 0, len(p.subs))
	for s := range p.subs {
		subs = append(subs, s)
	}
	p.mu.Unlock()
	m := pubMsg{frames: frames}
	for _, f := range frames {
		m.size += len(f)
	}
	// Those with room first, so that nobody waits for a full one.
	var full []*subscriber
	for _, s := range subs {
		if s.wants(frames[0]) && !p.enqueue(s, m, time.Time{}) {
			full = append(full, s)
		}
	}
	deadline := time.Now().Add(pubPatience + time.Duration(float64(m.size)/minSubRate*float64(time.Second)))
	for _, s := range full {
		p.enqueue(s, m, deadline)
	}
}

func (p *pubSocket) close() error {
	p.mu.Lock()
	p.closed = true
	subs := make([]*subscriber, 0, len(p.subs))
	for s := range p.subs {
		subs = append(subs, s)
	}
	p.mu.Unlock()
	for _, s := range subs {
		p.drop(s, nil)
	}
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
	if c.stall <= 0 {
		return c.Conn.Write(b)
	}
	n := 0
	for n < len(b) {
		end := min(n+stallPiece, len(b))
		c.Conn.SetWriteDeadline(time.Now().Add(c.stall))
		m, err := c.Conn.Write(b[n:end])
		n += m
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				c.Conn.Close() // a peer that stopped reading is let go
				err = fmt.Errorf("no bytes accepted for %v: %w", c.stall, err)
			}
			return n, err
		}
	}
	return n, nil
}
