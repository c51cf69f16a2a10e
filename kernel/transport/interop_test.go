package transport

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/wire"
)

// TestLibzmqInterop runs jupyter_client (Python, on libzmq) against the
// server, as a notebook would: kernel_info, execute with stdin, IOPub
// streams, heartbeat and shutdown on control, with garbage thrown in. It
// catches zmq4-vs-libzmq quirks (ZMTP versions, ROUTER identities).
func TestLibzmqInterop(t *testing.T) {
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import zmq, jupyter_client").Run(); err != nil {
		t.Skip("python3-zmq and jupyter-client (Debian) are not installed")
	}
	s, logs := startServer(t)
	cf := filepath.Join(t.TempDir(), "kernel.json")
	b, _ := json.Marshal(s.Info())
	if err := os.WriteFile(cf, b, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, "testdata/libzmq_peer.py", cf)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	// Play the kernel until the client asks to shut down or goes away.
	kernel := func() {
		for {
			select {
			case err := <-exited:
				exited <- err
				return
			case m := <-s.Shell():
				serveInterop(t, s, m)
			case m := <-s.Control():
				if m.Header.MsgType == "shutdown_request" {
					s.Send(Control, m, "shutdown_reply", map[string]any{"status": "ok", "restart": false}, nil)
					return
				}
			}
		}
	}
	kernel()
	err := <-exited
	if err != nil || !strings.Contains(out.String(), "OK") {
		t.Fatalf("jupyter_client peer failed: %v\n%s\nkernel log:\n%s", err, out.String(), logs)
	}
	if n := logs.count("message dropped"); n != 2 {
		t.Errorf("%d messages dropped, want the peer's 2 pieces of garbage:\n%s", n, logs)
	}
}

func serveInterop(t *testing.T, s *Server, m *wire.Message) {
	// IOPub has slow joiners: wait until the client's SUB is there.
	waitFor(t, "the IOPub subscription", func() bool { return s.pub.subscribers() > 0 })
	s.Publish(m, "status", map[string]any{"execution_state": "busy"})
	switch m.Header.MsgType {
	case "kernel_info_request":
		s.PublishStream(m, "stdout", "hello from gocl\n")
		s.Publish(m, "status", map[string]any{"execution_state": "idle"})
		s.Flush(hang)
		s.Send(Shell, m, "kernel_info_reply", map[string]any{
			"status": "ok", "protocol_version": wire.ProtocolVersion, "implementation": "gocl",
			"language_info": map[string]any{"name": "go"},
		}, nil)
	case "execute_request":
		if err := s.Send(Stdin, m, "input_request", map[string]any{"prompt": "", "password": false}, nil); err != nil {
			t.Error(err)
		}
		var value string
		select {
		case r := <-s.Stdin():
			var c struct{ Value string }
			json.Unmarshal(r.Content, &c)
			value = c.Value
		case <-time.After(hang):
			t.Error("no input_reply")
		}
		s.PublishStream(m, "stdout", "hello, ")
		s.PublishStream(m, "stdout", value+"\n")
		s.Publish(m, "status", map[string]any{"execution_state": "idle"})
		s.Flush(hang)
		s.Send(Shell, m, "execute_reply", map[string]any{"status": "ok", "execution_count": 1}, nil)
	default:
		t.Errorf("unexpected %s", m.Header.MsgType)
	}
}
