package transport

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-zeromq/zmq4"

	"github.com/seed43a1e1ab/gocl/kernel/wire"
)

func TestLoadConnectionFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.json", `{"shell_port": 5001, "iopub_port": 5002, "stdin_port": 5003, "control_port": 5004,
		"hb_port": 5005, "ip": "127.0.0.1", "key": "abc", "transport": "tcp", "signature_scheme": "hmac-sha256",
		"kernel_name": "gocl"}`)
	info, err := LoadConnectionFile(good)
	if err != nil {
		t.Fatal(err)
	}
	want := ConnectionInfo{"tcp", "127.0.0.1", 5001, 5002, 5003, 5004, 5005, "hmac-sha256", "abc", "gocl"}
	if info != want {
		t.Errorf("got %+v, want %+v", info, want)
	}
	if ep := info.endpoint(info.ShellPort); ep != "tcp://127.0.0.1:5001" {
		t.Errorf("endpoint = %s", ep)
	}
	for name, body := range map[string]string{
		"notjson":   `{"ip":`,
		"transport": `{"ip":"127.0.0.1","transport":"udp"}`,
		"noip":      `{"transport":"tcp"}`,
		"port":      `{"ip":"127.0.0.1","shell_port":70000}`,
		"scheme":    `{"ip":"127.0.0.1","key":"k","signature_scheme":"hmac-md5"}`,
		"ipc0":      `{"ip":"/tmp/k","transport":"ipc"}`,
	} {
		if _, err := LoadConnectionFile(write(name, body)); err == nil {
			t.Errorf("%s: accepted %s", name, body)
		}
	}
	if _, err := LoadConnectionFile(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("missing file accepted")
	}
}

func TestRequestReplySigned(t *testing.T) {
	s, _ := startServer(t)
	c := dealer(t, "client-A", s.Info().ShellPort)
	req := request(t, c, "kernel_info_request", nil)

	got := next(t, s.Shell())
	if got.Header != req.Header {
		t.Fatalf("server got header %+v, want %+v", got.Header, req.Header)
	}
	if len(got.Identities) != 1 || string(got.Identities[0]) != "client-A" {
		t.Fatalf("identities = %q, want [client-A]", got.Identities)
	}
	if err := s.Send(Shell, got, "kernel_info_reply", map[string]any{"status": "ok"}, nil); err != nil {
		t.Fatal(err)
	}
	frames := recvMsg(t, c).Frames
	// A DEALER sees the message without the routing prefix.
	if string(frames[0]) != wire.Delimiter {
		t.Fatalf("first frame %q, want the delimiter", frames[0])
	}
	if string(frames[4]) != "{}" {
		t.Errorf("metadata frame = %s, want {}", frames[4])
	}
	reply, err := testSigner(t).Decode(frames)
	if err != nil {
		t.Fatalf("client could not verify the reply: %v", err)
	}
	if reply.ParentHeader == nil || *reply.ParentHeader != req.Header {
		t.Errorf("parent_header = %+v, want the request's header", reply.ParentHeader)
	}
	if reply.Header.Session != s.Session() || reply.Header.MsgType != "kernel_info_reply" || reply.Header.Version != wire.ProtocolVersion {
		t.Errorf("reply header = %+v", reply.Header)
	}
	if content(t, reply)["status"] != "ok" {
		t.Errorf("content = %s", reply.Content)
	}
	if err := s.Send(Shell, &wire.Message{}, "x", nil, nil); err == nil {
		t.Error("Send without identities succeeded")
	}
}

func TestGarbageIsDroppedAndServingGoesOn(t *testing.T) {
	s, logs := startServer(t)
	c := dealer(t, "client", s.Info().ShellPort)
	good, _ := wire.NewMessage("execute_request", "x", nil, map[string]any{"code": "1"})
	frames, _ := testSigner(t).Encode(good)
	badSig := append([][]byte(nil), frames...)
	badSig[1] = []byte(strings.Repeat("a", 64))
	wrongKey, _ := wire.NewSigner("hmac-sha256", "another key")
	otherFrames, _ := wrongKey.Encode(good)
	badJSON := append([][]byte(nil), frames...)
	badJSON[2] = []byte(`{"msg_type":`)
	garbage := [][][]byte{
		{[]byte("hello")},
		frames[:4],
		badSig,
		otherFrames,
		badJSON,
		{[]byte(wire.Delimiter)},
	}
	for _, g := range garbage {
		if err := c.Send(zmq4.NewMsgFrom(g...)); err != nil {
			t.Fatal(err)
		}
	}
	// ZMTP-level garbage on a raw TCP connection to each router, too.
	for _, port := range []int{s.Info().ShellPort, s.Info().ControlPort, s.Info().HBPort, s.Info().IOPubPort} {
		raw, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			t.Fatal(err)
		}
		raw.Write([]byte("GET / HTTP/1.1\r\n\r\n" + strings.Repeat("\xff", 100)))
		raw.Close()
	}
	request(t, c, "execute_request", map[string]any{"code": "after"})
	got := next(t, s.Shell())
	if content(t, got)["code"] != "after" {
		t.Fatalf("first message through is %s, want the good one after the garbage", got.Content)
	}
	if n := logs.count("message dropped"); n != len(garbage) {
		t.Errorf("%d drops logged, want %d:\n%s", n, len(garbage), logs)
	}
	if !strings.Contains(logs.String(), "level=WARN") || !strings.Contains(logs.String(), "bad signature") {
		t.Errorf("drops not logged at warn with their reason:\n%s", logs)
	}
	// The kernel still answers, and heartbeats still echo.
	if err := s.Send(Shell, got, "execute_reply", map[string]any{"status": "ok"}, nil); err != nil {
		t.Fatal(err)
	}
	recvReply(t, c)
	testEcho(t, s)
}

func TestRepliesGoToTheirRequester(t *testing.T) {
	s, _ := startServer(t)
	a := dealer(t, "alice", s.Info().ShellPort)
	b := dealer(t, "bob", s.Info().ShellPort)
	ctl := dealer(t, "alice", s.Info().ControlPort)
	ra := request(t, a, "complete_request", nil)
	rb := request(t, b, "inspect_request", nil)
	rc := request(t, ctl, "interrupt_request", nil)

	byID := map[string]*wire.Message{}
	for range 2 {
		m := next(t, s.Shell())
		byID[m.Header.MsgID] = m
	}
	// Answer in the opposite order of arrival, on the right sockets.
	for _, r := range []*wire.Message{rb, ra} {
		if err := s.Send(Shell, byID[r.Header.MsgID], "reply", nil, map[string]any{"k": "v"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Send(Control, next(t, s.Control()), "interrupt_reply", nil, nil); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sock zmq4.Socket
		req  *wire.Message
	}{{a, ra}, {b, rb}, {ctl, rc}} {
		got := recvReply(t, c.sock)
		if got.ParentHeader == nil || got.ParentHeader.MsgID != c.req.Header.MsgID {
			t.Errorf("%s's reply answers %+v, want %s", c.req.Header.MsgType, got.ParentHeader, c.req.Header.MsgID)
		}
	}
}

// testEcho checks that a REQ client gets its ping back.
func testEcho(t *testing.T, s *Server) {
	t.Helper()
	req := dial(t, zmq4.NewReq(context.Background()), s.Info().HBPort)
	for i := range 3 {
		ping := fmt.Sprintf("ping %d", i)
		if err := req.Send(zmq4.NewMsgString(ping)); err != nil {
			t.Fatal(err)
		}
		got := recvMsg(t, req)
		if len(got.Frames) != 1 || string(got.Frames[0]) != ping {
			t.Fatalf("heartbeat echoed %q, want %q", got.Frames, ping)
		}
	}
}

func TestHeartbeatWhileShellIsBusy(t *testing.T) {
	s, _ := startServer(t)
	c := dealer(t, "client", s.Info().ShellPort)
	// Nobody reads Shell(): the requests pile up as if a cell ran forever.
	for range 40 {
		request(t, c, "execute_request", nil)
	}
	testEcho(t, s)
	// A DEALER pinger gets its frames back too.
	d := dealer(t, "pinger", s.Info().HBPort)
	d.Send(zmq4.NewMsgString("beat"))
	if got := recvMsg(t, d); string(got.Frames[0]) != "beat" {
		t.Errorf("dealer heartbeat echoed %q", got.Frames)
	}
}

func TestControlIsServedWhileShellIsBlocked(t *testing.T) {
	s, _ := startServer(t)
	sh := dealer(t, "client", s.Info().ShellPort)
	ctl := dealer(t, "client", s.Info().ControlPort)
	for range 40 { // more than the shell inbox holds
		request(t, sh, "execute_request", nil)
	}
	req := request(t, ctl, "shutdown_request", map[string]any{"restart": false})
	got := next(t, s.Control())
	if got.Header.MsgID != req.Header.MsgID {
		t.Fatalf("control got %s, want the shutdown request", got.Header.MsgType)
	}
	if err := s.Send(Control, got, "shutdown_reply", map[string]any{"restart": false}, nil); err != nil {
		t.Fatal(err)
	}
	if r := recvReply(t, ctl); r.Header.MsgType != "shutdown_reply" {
		t.Errorf("got %s", r.Header.MsgType)
	}
	// Shell requests were all kept, in order.
	for range 40 {
		next(t, s.Shell())
	}
}

func TestStdinRoundTrip(t *testing.T) {
	s, _ := startServer(t)
	sh := dealer(t, "fe", s.Info().ShellPort)
	in := dealer(t, "fe", s.Info().StdinPort)
	request(t, sh, "execute_request", map[string]any{"allow_stdin": true})
	exec := next(t, s.Shell())
	if err := s.Send(Stdin, exec, "input_request", map[string]any{"prompt": "name? ", "password": false}, nil); err != nil {
		t.Fatal(err)
	}
	ir := recvReply(t, in)
	if ir.Header.MsgType != "input_request" || ir.ParentHeader.MsgID != exec.Header.MsgID {
		t.Fatalf("got %+v", ir.Header)
	}
	request(t, in, "input_reply", map[string]any{"value": "gopher"})
	if got := next(t, s.Stdin()); content(t, got)["value"] != "gopher" {
		t.Errorf("input_reply content %s", got.Content)
	}
}

func TestCloseEndsChannels(t *testing.T) {
	s, _ := startServer(t)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []<-chan *wire.Message{s.Shell(), s.Control(), s.Stdin()} {
		if _, ok := <-c; ok {
			t.Error("channel still open after Close")
		}
	}
	s.Publish(nil, "status", map[string]any{"execution_state": "idle"}) // must not panic
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestListenIPC(t *testing.T) {
	dir := t.TempDir()
	info := ConnectionInfo{Transport: "ipc", IP: filepath.Join(dir, "k"), ShellPort: 1, IOPubPort: 2, StdinPort: 3, ControlPort: 4, HBPort: 5,
		SignatureScheme: "hmac-sha256", Key: testKey}
	s, err := Listen(info, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := zmq4.NewDealer(context.Background(), zmq4.WithID(zmq4.SocketIdentity("ipc-client")))
	defer c.Close()
	if err := c.Dial("ipc://" + info.IP + "-1"); err != nil {
		t.Fatal(err)
	}
	req := request(t, c, "kernel_info_request", nil)
	got := next(t, s.Shell())
	if err := s.Send(Shell, got, "kernel_info_reply", nil, nil); err != nil {
		t.Fatal(err)
	}
	if r := recvReply(t, c); r.ParentHeader.MsgID != req.Header.MsgID {
		t.Errorf("reply to %s", r.ParentHeader.MsgID)
	}
	if _, err := os.Stat(info.IP + "-2"); err != nil {
		t.Errorf("iopub socket file: %v", err)
	}
}

func TestListenBusyPort(t *testing.T) {
	s, _ := startServer(t)
	info := s.Info()
	_, err := Listen(info, nil)
	if err == nil || !strings.Contains(err.Error(), "bind") {
		t.Fatalf("second Listen on the same ports: %v", err)
	}
}

// TestSilentPeerDoesNotBlockOthers: a TCP peer that connects and says
// nothing must not stop the sockets from accepting real clients.
func TestSilentPeerDoesNotBlockOthers(t *testing.T) {
	s, _ := startServer(t)
	for _, port := range []int{s.Info().ShellPort, s.Info().HBPort, s.Info().IOPubPort} {
		raw, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			t.Fatal(err)
		}
		defer raw.Close()
	}
	c := dealer(t, "client", s.Info().ShellPort)
	req := request(t, c, "kernel_info_request", nil)
	if got := next(t, s.Shell()); got.Header.MsgID != req.Header.MsgID {
		t.Errorf("got %s", got.Header.MsgType)
	}
	testEcho(t, s)
	subscribe(t, s)
}
