package e2e

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"

	"github.com/seed43a1e1ab/gocl/kernel/wire"
)

// goclBin is the binary under test: $GOCL_BIN.
var goclBin string

func TestMain(m *testing.M) {
	goclBin = os.Getenv("GOCL_BIN")
	if goclBin == "" {
		// End-to-end tests drive a built binary: install.sh --test sets
		// GOCL_BIN; the inner loop, go test ./..., leaves them out.
		fmt.Println("skipped: end-to-end tests need GOCL_BIN (go build -o bin/gocl . && GOCL_BIN=$PWD/bin/gocl go test ./e2e/...)")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// kernel is a running gocl process and a front end's five sockets to it.
type kernel struct {
	t       *testing.T
	cmd     *exec.Cmd
	exited  chan struct{} // closed when the process has exited
	exitErr error
	signer  *wire.Signer
	session string
	conn    map[string]any

	shell, control, stdin zmq4.Socket
	iopub, hb             zmq4.Socket
	stderr                *lockedBuffer

	mu   sync.Mutex
	pub  []*wire.Message // IOPub messages received so far
	pubC chan struct{}

	inbox map[zmq4.Socket]chan zmq4.Msg // what each DEALER received, read by one goroutine each
}

type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func freePorts(t *testing.T, n int) []int {
	var ports []int
	var ls []net.Listener
	for i := 0; i < n; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

// startKernel starts gocl with a fresh connection file and connects to it.
func startKernel(t *testing.T, env ...string) *kernel {
	t.Helper()
	// Free ports are picked, released and handed to the kernel, as
	// jupyter_client does; another process can take one in between. Then
	// the kernel exits at once, and a new set of ports is tried.
	for attempt := 1; ; attempt++ {
		if k := tryStartKernel(t, attempt == 3, env...); k != nil {
			return k
		}
		t.Logf("attempt %d: a port was taken before the kernel bound it; trying new ports", attempt)
	}
}

// tryStartKernel is startKernel's one attempt; it returns nil when the kernel
// exited because a port was already in use, unless last.
func tryStartKernel(t *testing.T, last bool, env ...string) *kernel {
	t.Helper()
	key := make([]byte, 16)
	rand.Read(key)
	ports := freePorts(t, 5)
	conn := map[string]any{
		"transport": "tcp", "ip": "127.0.0.1", "shell_port": ports[0], "iopub_port": ports[1],
		"stdin_port": ports[2], "control_port": ports[3], "hb_port": ports[4],
		"signature_scheme": "hmac-sha256", "key": hex.EncodeToString(key), "kernel_name": "gocl",
	}
	dir := t.TempDir()
	cf := filepath.Join(dir, "kernel.json")
	raw, _ := json.Marshal(conn)
	if err := os.WriteFile(cf, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	k := &kernel{t: t, conn: conn, session: wire.NewID(), stderr: &lockedBuffer{}, pubC: make(chan struct{}, 1),
		exited: make(chan struct{})}
	k.signer, _ = wire.NewSigner("hmac-sha256", hex.EncodeToString(key))
	k.cmd = exec.Command(goclBin, "kernel", "--connection-file", cf, "--log-level", "debug")
	k.cmd.Env = append(append(os.Environ(), "JUPYTER_DATA_DIR="+dir), env...)
	k.cmd.Stderr = k.stderr
	k.cmd.Stdout = k.stderr
	if err := k.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { k.exitErr = k.cmd.Wait(); close(k.exited) }()
	t.Cleanup(func() {
		k.closeSockets()
		k.cmd.Process.Kill()
		<-k.exited
		if t.Failed() {
			t.Logf("kernel stderr:\n%s", k.stderr.String())
		}
	})
	ctx := context.Background()
	addr := func(port int) string { return fmt.Sprintf("tcp://127.0.0.1:%d", port) }
	id := zmq4.SocketIdentity(k.session)
	k.shell = zmq4.NewDealer(ctx, zmq4.WithID(id))
	k.control = zmq4.NewDealer(ctx, zmq4.WithID(id))
	k.stdin = zmq4.NewDealer(ctx, zmq4.WithID(id))
	k.iopub = zmq4.NewSub(ctx)
	k.hb = zmq4.NewReq(ctx)
	deadline := time.Now().Add(20 * time.Second)
	for _, c := range []struct {
		s    zmq4.Socket
		port int
	}{{k.shell, ports[0]}, {k.iopub, ports[1]}, {k.stdin, ports[2]}, {k.control, ports[3]}, {k.hb, ports[4]}} {
		for {
			err := c.s.Dial(addr(c.port))
			if err == nil {
				break
			}
			select {
			case <-k.exited:
				if !last && strings.Contains(k.stderr.String(), "address already in use") {
					return nil
				}
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("cannot connect to the kernel on port %d: %v\n%s", c.port, err, k.stderr.String())
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	k.iopub.SetOption(zmq4.OptionSubscribe, "")
	go k.readIOPub()
	k.inbox = map[zmq4.Socket]chan zmq4.Msg{}
	for _, s := range []zmq4.Socket{k.shell, k.control, k.stdin} {
		ch := make(chan zmq4.Msg, 64)
		k.inbox[s] = ch
		go func(s zmq4.Socket) {
			for {
				m, err := s.Recv()
				if err != nil {
					close(ch)
					return
				}
				ch <- m
			}
		}(s)
	}
	// Wait until the kernel answers and IOPub is connected (slow joiner).
	for i := 0; ; i++ {
		m := k.request(k.shell, "kernel_info_request", map[string]any{}, 2*time.Second, true)
		if m != nil {
			if k.waitIdle(m.ParentHeader.MsgID, 2*time.Second) {
				break
			}
		}
		if i > 10 {
			t.Fatalf("kernel did not answer kernel_info with IOPub traffic\n%s", k.stderr.String())
		}
	}
	// kernel_info is answered while the engine process starts (issue 19);
	// is_complete waits for it, and leaves no trace in the session. The
	// tests that time an interrupt against a running cell need it up.
	if k.request(k.shell, "is_complete_request", map[string]any{"code": "x"}, 30*time.Second, true) == nil {
		t.Fatalf("kernel did not answer is_complete: its engine did not start\n%s", k.stderr.String())
	}
	return k
}

func (k *kernel) closeSockets() {
	for _, s := range []zmq4.Socket{k.shell, k.control, k.stdin, k.iopub, k.hb} {
		if s != nil {
			s.Close()
		}
	}
}

func (k *kernel) readIOPub() {
	for {
		msg, err := k.iopub.Recv()
		if err != nil {
			return
		}
		m, err := k.signer.Decode(msg.Frames)
		if err != nil {
			k.t.Errorf("kernel sent an IOPub message that does not verify: %v", err)
			continue
		}
		k.mu.Lock()
		k.pub = append(k.pub, m)
		k.mu.Unlock()
		select {
		case k.pubC <- struct{}{}:
		default:
		}
	}
}

// send sends a request on sock and returns its msg_id.
func (k *kernel) send(sock zmq4.Socket, msgType string, content any) string {
	k.t.Helper()
	m, err := wire.NewMessage(msgType, k.session, nil, content)
	if err != nil {
		k.t.Fatal(err)
	}
	frames, err := k.signer.Encode(m)
	if err != nil {
		k.t.Fatal(err)
	}
	if err := sock.Send(zmq4.NewMsgFrom(frames...)); err != nil {
		k.t.Fatal(err)
	}
	return m.Header.MsgID
}

// recv reads one message from sock within timeout; nil on timeout.
func (k *kernel) recv(sock zmq4.Socket, timeout time.Duration) *wire.Message {
	k.t.Helper()
	select {
	case msg, ok := <-k.inbox[sock]:
		if !ok {
			k.t.Fatalf("the socket closed")
		}
		m, err := k.signer.Decode(msg.Frames)
		if err != nil {
			k.t.Fatalf("kernel reply does not verify: %v", err)
		}
		return m
	case <-time.After(timeout):
		return nil
	}
}

// request sends and waits for the reply on the same socket.
func (k *kernel) request(sock zmq4.Socket, msgType string, content any, timeout time.Duration, mayTimeOut bool) *wire.Message {
	k.t.Helper()
	id := k.send(sock, msgType, content)
	for {
		m := k.recv(sock, timeout)
		if m == nil {
			if !mayTimeOut {
				k.t.Fatalf("no reply to %s within %v\n%s", msgType, timeout, k.stderr.String())
			}
			return nil
		}
		if m.ParentHeader != nil && m.ParentHeader.MsgID == id {
			return m
		}
	}
}

func (k *kernel) execute(code string, extra map[string]any) (reply map[string]any, outputs []*wire.Message) {
	k.t.Helper()
	content := map[string]any{"code": code, "silent": false, "store_history": true, "user_expressions": map[string]any{},
		"allow_stdin": false, "stop_on_error": true}
	for key, v := range extra {
		content[key] = v
	}
	r := k.request(k.shell, "execute_request", content, 60*time.Second, false)
	if r.Header.MsgType != "execute_reply" {
		k.t.Fatalf("got %s, want execute_reply", r.Header.MsgType)
	}
	if !k.waitIdle(r.ParentHeader.MsgID, 30*time.Second) {
		k.t.Fatalf("no idle status for the execute request")
	}
	return decode(k.t, r), k.outputs(r.ParentHeader.MsgID)
}

func decode(t *testing.T, m *wire.Message) map[string]any {
	var c map[string]any
	if err := json.Unmarshal(m.Content, &c); err != nil {
		t.Fatalf("bad content %s: %v", m.Content, err)
	}
	return c
}

// outputs returns the IOPub messages of request id, status messages excluded.
func (k *kernel) outputs(id string) []*wire.Message {
	k.mu.Lock()
	defer k.mu.Unlock()
	var out []*wire.Message
	for _, m := range k.pub {
		if m.ParentHeader != nil && m.ParentHeader.MsgID == id && m.Header.MsgType != "status" {
			out = append(out, m)
		}
	}
	return out
}

// statuses returns the execution states published for request id, in order.
func (k *kernel) statuses(id string) []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	var out []string
	for _, m := range k.pub {
		if m.ParentHeader != nil && m.ParentHeader.MsgID == id && m.Header.MsgType == "status" {
			var c struct {
				State string `json:"execution_state"`
			}
			json.Unmarshal(m.Content, &c)
			out = append(out, c.State)
		}
	}
	return out
}

func (k *kernel) waitIdle(id string, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		st := k.statuses(id)
		if len(st) > 0 && st[len(st)-1] == "idle" {
			return true
		}
		select {
		case <-k.pubC:
		case <-time.After(20 * time.Millisecond):
		}
	}
	return false
}

// stream joins the text of the stream outputs called name.
func stream(t *testing.T, outs []*wire.Message, name string) string {
	var b strings.Builder
	for _, m := range outs {
		if m.Header.MsgType == "stream" {
			c := decode(t, m)
			if c["name"] == name {
				b.WriteString(c["text"].(string))
			}
		}
	}
	return b.String()
}

func ofType(outs []*wire.Message, typ string) []*wire.Message {
	var r []*wire.Message
	for _, m := range outs {
		if m.Header.MsgType == typ {
			r = append(r, m)
		}
	}
	return r
}
