package transport

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-zeromq/zmq4"
	ztransport "github.com/go-zeromq/zmq4/transport"
)

// Workarounds for zmq4 v0.17.0's listening side, fenced here: zmq4 sockets
// listen through the "gocl+tcp" and "gocl+ipc" transports registered below,
// whose listener stands between the network and zmq4's accept loop.
//
//   - zmq4's accept loop performs each handshake itself, serially and without
//     a deadline (see handshake.go): here each connection is screened on its
//     own goroutine, and handed to zmq4 only with its handshake in the buffer.
//   - zmq4's loop retries a failing Accept at once, forever: when accept fails
//     with EMFILE or ENFILE this listener retries with back-off and logs it,
//     instead of ending (after which zmq4 spun on ErrClosed at 100% CPU and
//     no client could connect again).
//   - zmq4's ROUTER accepts a second connection that claims a routing
//     identity already connected, and then sends that identity's replies to
//     both: here such a connection is refused, as libzmq does by default.
//   - zmq4 allocates frames at their declared size: each connection is a
//     msgConn whose reader checks frame headers first (zmtpread.go).
//   - zmq4's ROUTER holds one lock across each write to a peer: each
//     connection's writes are queued and written by its own goroutine
//     (queuedConn.go), so a peer that stops reading holds up nobody else.
//
// When zmq4 is upgraded, re-check each point against its accept loop, its
// Conn.read and its routerMWriter, and drop what it has fixed.

// guardConfig is what one guarded listener needs to know.
type guardConfig struct {
	name  string // channel name, for the log
	lim   frameLimits
	key   string // connection key: messages are checked as they stream (verify.go); "" for none
	log   *rateLog
	stall time.Duration // a peer that accepts no written bytes for this long is dropped

	budget *unverifiedBudget // shared by the server's signed sockets; nil: none
}

var (
	registerGuards = sync.OnceValue(func() error {
		if err := zmq4.RegisterTransport("gocl+tcp", guardTransport{"tcp"}); err != nil {
			return err
		}
		return zmq4.RegisterTransport("gocl+ipc", guardTransport{"unix"})
	})
	guardConfigs   sync.Map // token string -> *guardConfig, until its Listen
	guardConfigSeq atomic.Uint64
)

// guardedEndpoint rewrites "tcp://..." or "ipc://..." to the guarded
// transport of the same network, with cfg for its listener.
func guardedEndpoint(ep string, cfg *guardConfig) (string, error) {
	if err := registerGuards(); err != nil {
		return "", fmt.Errorf("register guarded zmq4 transports: %w", err)
	}
	scheme, addr, ok := strings.Cut(ep, "://")
	if !ok {
		return "", fmt.Errorf("endpoint %q has no scheme", ep)
	}
	token := strconv.FormatUint(guardConfigSeq.Add(1), 10)
	guardConfigs.Store(token, cfg)
	return "gocl+" + scheme + "://" + token + "@" + addr, nil
}

type guardTransport struct{ network string }

func (g guardTransport) Dial(ctx context.Context, d ztransport.Dialer, addr string) (net.Conn, error) {
	if _, a, ok := strings.Cut(addr, "@"); ok {
		addr = a
	}
	return d.DialContext(ctx, g.network, addr)
}

func (g guardTransport) Listen(ctx context.Context, addr string) (net.Listener, error) {
	token, addr, _ := strings.Cut(addr, "@")
	v, ok := guardConfigs.LoadAndDelete(token)
	if !ok {
		return nil, fmt.Errorf("transport: no guard configuration for %q", token)
	}
	ln, err := listen(g.network, addr)
	if err != nil {
		return nil, err
	}
	gl := &guardListener{Listener: ln, cfg: v.(*guardConfig), ctx: ctx,
		ready: make(chan net.Conn), done: make(chan struct{}), ids: map[string]bool{}}
	go gl.run()
	return gl, nil
}

// Addr keeps the token in front of the address that zmq4 hands to Listen.
func (g guardTransport) Addr(ep string) (string, error) {
	token, ep, _ := strings.Cut(ep, "@")
	if g.network == "unix" {
		return token + "@" + ep, nil
	}
	host, port, err := net.SplitHostPort(ep)
	if err != nil {
		return "", err
	}
	if host == "*" {
		host = "0.0.0.0"
	}
	return token + "@" + net.JoinHostPort(host, port), nil
}

type guardListener struct {
	net.Listener
	cfg   *guardConfig
	ctx   context.Context
	ready chan net.Conn
	done  chan struct{}

	mu  sync.Mutex
	ids map[string]bool // routing identities connected
}

// run accepts connections until the listener is closed; failures (EMFILE,
// ENFILE, ...) are retried with back-off.
func (l *guardListener) run() {
	defer close(l.done)
	delay := time.Duration(0)
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			delay = min(max(2*delay, 5*time.Millisecond), time.Second)
			l.cfg.log.warn("accept", "transport: accept failed; retrying (out of file descriptors? the peers are kept, new ones wait)",
				"channel", l.cfg.name, "err", err, "retry_in", delay)
			select {
			case <-time.After(delay):
			case <-l.ctx.Done():
				return
			}
			continue
		}
		delay = 0
		go l.screen(c)
	}
}

// screen hands c to zmq4 once its handshake is in the buffer and its
// identity, if any, is not connected already.
func (l *guardListener) screen(c net.Conn) {
	mc := newMsgConn(newQueuedConn(&stallConn{Conn: c, stall: l.cfg.stall}), l.cfg.lim, newSigCheck(l.cfg.key, l.cfg.budget))
	peer, err := screenHandshake(mc, routerPeers)
	if err != nil {
		l.cfg.log.warn("handshake", "transport: ZMTP handshake failed; peer dropped",
			"channel", l.cfg.name, "peer", c.RemoteAddr().String(), "err", err)
		c.Close()
		return
	}
	if id := peer.identity; id != "" {
		l.mu.Lock()
		taken := l.ids[id]
		if !taken {
			l.ids[id] = true
		}
		l.mu.Unlock()
		if taken {
			l.cfg.log.warn("identity", "transport: connection refused: its routing identity is already connected (as libzmq does, replies go to one peer only)",
				"channel", l.cfg.name, "peer", c.RemoteAddr().String(), "identity", fmt.Sprintf("%.40q", id))
			c.Close()
			return
		}
		mc.onClose = func() {
			l.mu.Lock()
			delete(l.ids, id)
			l.mu.Unlock()
		}
	}
	mc.onViolation = func(err error) {
		l.cfg.log.warn("violation", "transport: connection closed", "channel", l.cfg.name, "peer", c.RemoteAddr().String(), "err", err)
	}
	select {
	case l.ready <- mc:
	case <-l.done:
		mc.Close()
	}
}

func (l *guardListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ready:
		return c, nil
	case <-l.done:
		// zmq4's loop calls again at once until its context ends: keep
		// that from spinning in the moment between.
		select {
		case <-l.ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
		return nil, net.ErrClosed
	}
}
