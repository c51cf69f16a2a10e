package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"

	"github.com/seed43a1e1ab/gocl/kernel/wire"
)

// hang is the guard against tests that would otherwise wait forever. It is
// never a measure of speed.
const hang = 20 * time.Second

const testKey = "test-key-0123"

// logBuffer collects log records so that tests can check what was logged.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func (l *logBuffer) count(s string) int { return strings.Count(l.String(), s) }

// startServer listens on 127.0.0.1 with ports picked by the system.
func startServer(t *testing.T) (*Server, *logBuffer) {
	t.Helper()
	logs := &logBuffer{}
	info := ConnectionInfo{Transport: "tcp", IP: "127.0.0.1", SignatureScheme: "hmac-sha256", Key: testKey}
	s, err := Listen(info, slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, logs
}

func testSigner(t testing.TB) *wire.Signer {
	s, err := wire.NewSigner("hmac-sha256", testKey)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// dial connects a zmq4 client socket to port on 127.0.0.1.
func dial(t *testing.T, sock zmq4.Socket, port int) zmq4.Socket {
	t.Helper()
	errc := make(chan error, 1)
	go func() { errc <- sock.Dial(fmt.Sprintf("tcp://127.0.0.1:%d", port)) }()
	select {
	case err := <-errc:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(hang):
		t.Fatalf("dial port %d: no ZMTP handshake", port)
	}
	t.Cleanup(func() { sock.Close() })
	return sock
}

func dealer(t *testing.T, id string, port int) zmq4.Socket {
	return dial(t, zmq4.NewDealer(context.Background(), zmq4.WithID(zmq4.SocketIdentity(id))), port)
}

// request sends a signed request from a client socket and returns it.
func request(t *testing.T, sock zmq4.Socket, msgType string, content any) *wire.Message {
	t.Helper()
	m, err := wire.NewMessage(msgType, "client-session", nil, content)
	if err != nil {
		t.Fatal(err)
	}
	frames, err := testSigner(t).Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := sock.Send(zmq4.NewMsgFrom(frames...)); err != nil {
		t.Fatal(err)
	}
	return m
}

// recvMsg receives one message on a client socket, with a hang guard.
func recvMsg(t *testing.T, sock zmq4.Socket) zmq4.Msg {
	t.Helper()
	type result struct {
		m   zmq4.Msg
		err error
	}
	c := make(chan result, 1)
	go func() {
		m, err := sock.Recv()
		c <- result{m, err}
	}()
	select {
	case r := <-c:
		if r.err != nil {
			t.Fatal(r.err)
		}
		return r.m
	case <-time.After(hang):
		t.Fatal("no message received")
	}
	panic("unreachable")
}

// recvReply receives and verifies a message on a client socket.
func recvReply(t *testing.T, sock zmq4.Socket) *wire.Message {
	t.Helper()
	m, err := testSigner(t).Decode(recvMsg(t, sock).Frames)
	if err != nil {
		t.Fatalf("client could not verify the kernel's message: %v", err)
	}
	return m
}

// next returns the next message from a server channel, with a hang guard.
func next(t *testing.T, c <-chan *wire.Message) *wire.Message {
	t.Helper()
	select {
	case m := <-c:
		return m
	case <-time.After(hang):
		t.Fatal("no message arrived at the server")
	}
	return nil
}

// subscribe connects a SUB socket to the server's iopub and waits until the
// server knows the subscription.
func subscribe(t *testing.T, s *Server) zmq4.Socket {
	t.Helper()
	sub := dial(t, zmq4.NewSub(context.Background()), s.Info().IOPubPort)
	before := s.pub.subscribers()
	if err := sub.SetOption(zmq4.OptionSubscribe, ""); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the subscription to reach the server", func() bool { return s.pub.subscribers() > before })
	return sub
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(hang)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func content(t *testing.T, m *wire.Message) map[string]any {
	t.Helper()
	var c map[string]any
	if err := json.Unmarshal(m.Content, &c); err != nil {
		t.Fatalf("content of %s: %v", m.Header.MsgType, err)
	}
	return c
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

// testGuard is the guard configuration of a bare zmq4 socket under test.
func testGuard() *guardConfig {
	return &guardConfig{name: "test", lim: frameLimits{DefaultMaxFrame, DefaultMaxMessage}, log: newRateLog(slog.Default()), stall: 10 * time.Second}
}

// json_ is content as Publish hands it to the queue: marshaled.
func json_(s string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"data": map[string]any{"text/plain": s}})
	return b
}
