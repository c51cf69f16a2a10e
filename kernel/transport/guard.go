package transport

import (
	"context"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/go-zeromq/zmq4"
	ztransport "github.com/go-zeromq/zmq4/transport"
)

// zmq4 performs the ZMTP handshake of each new connection inside its accept
// loop, without a deadline: one peer that connects and stays silent (a port
// scanner, a stray nc) stops the socket from accepting anyone else, forever.
// The guarded transports below hand zmq4 a connection only once the peer has
// sent a valid 10-byte ZMTP signature, which every ZeroMQ peer sends first,
// unprompted; silent or non-ZMTP peers are closed after guardTimeout.

// guardTimeout bounds how long a new peer may take to send its signature.
const guardTimeout = 10 * time.Second

var registerGuards = sync.OnceValue(func() error {
	if err := zmq4.RegisterTransport("gocl+tcp", guardTransport{"tcp"}); err != nil {
		return err
	}
	return zmq4.RegisterTransport("gocl+ipc", guardTransport{"unix"})
})

// guardedEndpoint rewrites "tcp://..." or "ipc://..." to the guarded
// transport of the same network.
func guardedEndpoint(ep string) (string, error) {
	if err := registerGuards(); err != nil {
		return "", fmt.Errorf("register guarded zmq4 transports: %w", err)
	}
	return "gocl+" + ep, nil
}

type guardTransport struct{ network string }

func (g guardTransport) Dial(ctx context.Context, d ztransport.Dialer, addr string) (net.Conn, error) {
	return d.DialContext(ctx, g.network, addr)
}

func (g guardTransport) Listen(ctx context.Context, addr string) (net.Listener, error) {
	ln, err := net.Listen(g.network, addr)
	if err != nil {
		return nil, err
	}
	gl := &guardListener{Listener: ln, ready: make(chan net.Conn), done: make(chan struct{})}
	go gl.run()
	return gl, nil
}

func (g guardTransport) Addr(ep string) (string, error) {
	if g.network == "unix" {
		return ep, nil
	}
	host, port, err := net.SplitHostPort(ep)
	if err != nil {
		return "", err
	}
	if host == "*" {
		host = "0.0.0.0"
	}
	return net.JoinHostPort(host, port), nil
}

type guardListener struct {
	net.Listener
	ready chan net.Conn
	done  chan struct{}
}

func (l *guardListener) run() {
	defer close(l.done)
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				continue
			}
			return
		}
		go l.screen(c)
	}
}

// screen passes c on once its first 10 bytes are a ZMTP signature.
func (l *guardListener) screen(c net.Conn) {
	var sig [10]byte
	c.SetReadDeadline(time.Now().Add(guardTimeout))
	if _, err := io.ReadFull(c, sig[:]); err != nil || sig[0] != 0xff || sig[9] != 0x7f {
		c.Close()
		return
	}
	c.SetReadDeadline(time.Time{})
	select {
	case l.ready <- &prefixConn{Conn: newMsgConn(c), prefix: sig[:]}:
	case <-l.done:
		c.Close()
	}
}

func (l *guardListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ready:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

// prefixConn replays the bytes read by screen before reading on.
type prefixConn struct {
	net.Conn
	prefix []byte
}

func (c *prefixConn) Read(b []byte) (int, error) {
	if len(c.prefix) > 0 {
		n := copy(b, c.prefix)
		c.prefix = c.prefix[n:]
		return n, nil
	}
	return c.Conn.Read(b)
}
