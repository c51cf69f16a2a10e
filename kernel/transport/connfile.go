// Package transport holds the kernel's sockets: it reads the connection file,
// binds the five ZeroMQ sockets (shell, control, stdin, iopub, heartbeat),
// verifies what arrives, echoes heartbeats and publishes IOPub messages through
// a bounded, coalescing queue.
//
// It knows the wire protocol but nothing of what the messages mean: requests
// come out of Shell, Control and Stdin as verified *wire.Message values, and
// whoever serves them answers through Send and Publish.
package transport

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"strconv"

	"github.com/seed43a1e1ab/gocl/kernel/wire"
)

// ConnectionInfo is the content of a Jupyter connection file, written by the
// front end that starts the kernel.
type ConnectionInfo struct {
	Transport       string `json:"transport"` // "tcp" or "ipc"
	IP              string `json:"ip"`        // tcp: address to bind; ipc: path prefix of the socket files
	ShellPort       int    `json:"shell_port"`
	IOPubPort       int    `json:"iopub_port"`
	StdinPort       int    `json:"stdin_port"`
	ControlPort     int    `json:"control_port"`
	HBPort          int    `json:"hb_port"`
	SignatureScheme string `json:"signature_scheme"`
	Key             string `json:"key"`
	KernelName      string `json:"kernel_name,omitempty"`
}

// LoadConnectionFile reads and checks the connection file at path.
func LoadConnectionFile(path string) (ConnectionInfo, error) {
	var info ConnectionInfo
	b, err := os.ReadFile(path)
	if err != nil {
		return info, fmt.Errorf("transport: read connection file: %w", err)
	}
	if err := json.Unmarshal(b, &info); err != nil {
		return info, fmt.Errorf("transport: connection file %s is not valid JSON: %w", path, err)
	}
	if err := info.Validate(); err != nil {
		return info, fmt.Errorf("transport: connection file %s: %w", path, err)
	}
	return info, nil
}

// Validate checks that the transport, address, ports and signature scheme
// can be used. An empty Transport means "tcp". A port of 0 asks Listen to pick
// a free one (Server.Info reports it).
func (c *ConnectionInfo) Validate() error {
	switch c.Transport {
	case "":
		c.Transport = "tcp"
	case "tcp", "ipc":
	default:
		return fmt.Errorf("transport %q is not supported: use \"tcp\" or \"ipc\"", c.Transport)
	}
	if c.IP == "" {
		return fmt.Errorf("no \"ip\" given")
	}
	for _, p := range c.ports() {
		if p.port < 0 || p.port > 65535 {
			return fmt.Errorf("%s %d is out of range 0..65535", p.name, p.port)
		}
		if p.port == 0 && c.Transport == "ipc" {
			return fmt.Errorf("%s is 0: ipc sockets need a number to name their file", p.name)
		}
	}
	if _, err := wire.NewSigner(c.SignatureScheme, c.Key); err != nil {
		return err
	}
	return nil
}

type namedPort struct {
	name string
	port int
}

func (c *ConnectionInfo) ports() []namedPort {
	return []namedPort{
		{"shell_port", c.ShellPort}, {"iopub_port", c.IOPubPort}, {"stdin_port", c.StdinPort},
		{"control_port", c.ControlPort}, {"hb_port", c.HBPort},
	}
}

// endpoint returns the ZeroMQ endpoint for port: "tcp://ip:port", or
// "ipc://ip-port" as jupyter_client names ipc sockets.
func (c *ConnectionInfo) endpoint(port int) string {
	if c.Transport == "ipc" {
		return "ipc://" + c.IP + "-" + strconv.Itoa(port)
	}
	return "tcp://" + net.JoinHostPort(c.bindIP(), strconv.Itoa(port))
}

// netAddr returns the network and address that net.Listen takes for port.
func (c *ConnectionInfo) netAddr(port int) (network, addr string) {
	if c.Transport == "ipc" {
		return "unix", c.IP + "-" + strconv.Itoa(port)
	}
	return "tcp", net.JoinHostPort(c.bindIP(), strconv.Itoa(port))
}

// bindIP maps ZeroMQ's "*" (all interfaces) to what net.Listen understands.
func (c *ConnectionInfo) bindIP() string {
	if c.IP == "*" {
		return "0.0.0.0"
	}
	return c.IP
}

// portOf returns the port of a listener's address, or 0.
func portOf(a net.Addr) int {
	if t, ok := a.(*net.TCPAddr); ok {
		return t.Port
	}
	return 0
}
