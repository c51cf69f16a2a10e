package earlybind

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"testing"
)

func TestConnectionFileOfTheKernelCommandOnly(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"kernel", "--connection-file", "/c.json"}, "/c.json"},
		{[]string{"kernel", "--connection-file=/c.json"}, "/c.json"},
		{[]string{"kernel", "-connection-file", "/c.json", "--log-level", "debug"}, "/c.json"},
		{[]string{"kernel", "--log-level=warn", "/c.json"}, "/c.json"},
		{[]string{"kernel", "/c.json"}, "/c.json"},
		{[]string{"kernel"}, ""},
		{[]string{"kernel", "--connection-file"}, ""},
		{[]string{"kernel", "--unknown", "/c.json"}, ""},
		{[]string{"kernel", "/a.json", "/b.json"}, ""},
		{[]string{"run", "/c.json"}, ""},
		{[]string{"engine", "--memory-limit", "1"}, ""},
		{nil, ""},
	} {
		if got := connectionFile(c.args); got != c.want {
			t.Errorf("connectionFile(%q) = %q, want %q", c.args, got, c.want)
		}
	}
}

// freePorts returns n TCP ports that were free a moment ago.
func freePorts(t *testing.T, n int) []int {
	var ports []int
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	return ports
}

func writeConnectionFile(t *testing.T, ip string, p []int) string {
	f := filepath.Join(t.TempDir(), "kernel.json")
	body := fmt.Sprintf(`{"transport": "tcp", "ip": %q, "shell_port": %d, "iopub_port": %d, "stdin_port": %d,
		"control_port": %d, "hb_port": %d, "key": "k", "signature_scheme": "hmac-sha256", "kernel_name": "gocl"}`,
		ip, p[0], p[1], p[2], p[3], p[4])
	if err := os.WriteFile(f, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestPortsAreOpenBeforeTheyAreTaken(t *testing.T) {
	t.Cleanup(Release)
	p := freePorts(t, 5)
	bindFrom(writeConnectionFile(t, "127.0.0.1", p))
	shell := fmt.Sprintf("127.0.0.1:%d", p[0])
	// A client connecting now is not refused: it waits in the backlog.
	c, err := net.Dial("tcp", shell)
	if err != nil {
		t.Fatalf("the shell port bound early refuses a connection: %v", err)
	}
	defer c.Close()
	f := Take(shell)
	if f == nil {
		t.Fatal("Take found no socket for the shell port")
	}
	ln, err := net.FileListener(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if Take(shell) != nil {
		t.Error("the shell socket was handed over twice")
	}
	s, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := c.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 1)
	if _, err := s.Read(b); err != nil || b[0] != 'x' {
		t.Fatalf("the connection made before the hand-over: read %q, %v", b, err)
	}
	// What was not taken is closed by Release: its port is free again.
	Release()
	for _, port := range p[1:] {
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			t.Fatalf("port %d still held after Release: %v", port, err)
		}
		ln.Close()
	}
}

func TestTakeOfAnotherAddressFreesThePort(t *testing.T) {
	t.Cleanup(Release)
	p := freePorts(t, 5)
	bindFrom(writeConnectionFile(t, "127.0.0.1", p))
	other := fmt.Sprintf("0.0.0.0:%d", p[0])
	if Take(other) != nil {
		t.Fatal("Take handed over a socket bound to another address")
	}
	ln, err := net.Listen("tcp", other)
	if err != nil {
		t.Fatalf("the port bound early under another address is still held: %v", err)
	}
	ln.Close()
}

func TestNothingIsBoundForAddressesItDoesNotParse(t *testing.T) {
	t.Cleanup(Release)
	p := freePorts(t, 5)
	for _, ip := range []string{"localhost", "::1", "127.0.0.01", "1.2.3"} {
		bindFrom(writeConnectionFile(t, ip, p))
		mu.Lock()
		n := len(bound)
		mu.Unlock()
		if n != 0 {
			t.Errorf("ip %q: %d sockets bound early", ip, n)
		}
	}
}
