// Package earlybind opens the listening sockets of `gocl kernel` while the
// program is still initializing, before the symbol tables and the rest of
// gocl's packages: jupyter_client connects to the kernel's ports as soon as
// it has started the process, and a connection refused then waits out
// libzmq's reconnect interval, 100 to 200 ms, which is most of a kernel's
// start. A port bound here is handed to kernel/transport by Take, and
// connections that arrive meanwhile wait in the listen backlog.
//
// It is only a head start: it reads the connection file itself, binds what
// it can and gives up silently on anything unexpected (an argument it does
// not know, an ipc transport, a port already in use); transport.Listen binds
// whatever was not bound here and reports the errors.
package earlybind

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

var (
	mu    sync.Mutex
	bound = map[string]int{} // "host:port" -> listening socket
)

// The package's dependencies are a few standard packages that are
// initialized early; its import path sorts before gocl's heavy packages
// (kernel/..., the symbol tables), so the Go runtime runs this before them.
func init() {
	if path := connectionFile(os.Args[1:]); path != "" {
		bindFrom(path)
	}
}

// connectionFile returns the connection file of a `gocl kernel` command
// line, or "" for any other command line or one it does not understand.
func connectionFile(args []string) string {
	if len(args) == 0 || args[0] != "kernel" {
		return ""
	}
	var file string
	for i := 1; i < len(args); i++ {
		name, value, hasValue := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		switch {
		case !strings.HasPrefix(args[i], "-"):
			if file != "" {
				return ""
			}
			file = args[i]
		case name == "connection-file" || name == "log-level":
			if !hasValue {
				if i++; i == len(args) {
					return ""
				}
				value = args[i]
			}
			if name == "connection-file" {
				file = value
			}
		default:
			return ""
		}
	}
	return file
}

// bindFrom binds the TCP ports named in the connection file at path.
func bindFrom(path string) {
	b, err := os.ReadFile(path)
	if err != nil {
		return
	}
	var info struct {
		Transport string `json:"transport"`
		IP        string `json:"ip"`
		Shell     int    `json:"shell_port"`
		IOPub     int    `json:"iopub_port"`
		Stdin     int    `json:"stdin_port"`
		Control   int    `json:"control_port"`
		HB        int    `json:"hb_port"`
	}
	if json.Unmarshal(b, &info) != nil || (info.Transport != "" && info.Transport != "tcp") {
		return
	}
	host := info.IP
	if host == "*" {
		host = "0.0.0.0"
	}
	ip, ok := parseIPv4(host)
	if !ok {
		return // a host name or IPv6: transport.Listen binds it
	}
	mu.Lock()
	defer mu.Unlock()
	// Shell first: it carries the kernel_info_request a front end waits on.
	for _, port := range []int{info.Shell, info.Control, info.HB, info.IOPub, info.Stdin} {
		if port <= 0 || port > 65535 {
			continue
		}
		addr := host + ":" + strconv.Itoa(port)
		if _, dup := bound[addr]; dup {
			continue
		}
		if fd, err := listenTCP4(ip, port); err == nil {
			bound[addr] = fd
		}
	}
}

// listenTCP4 is net.Listen("tcp4", ...) in system calls: package net is
// initialized late in gocl's start (it sorts after most of its packages), and
// this package must not wait for it.
func listenTCP4(ip [4]byte, port int) (int, error) {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC|syscall.SOCK_NONBLOCK, 0)
	if err != nil {
		return -1, err
	}
	if err := syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_REUSEADDR, 1); err != nil {
		syscall.Close(fd)
		return -1, err
	}
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Port: port, Addr: ip}); err != nil {
		syscall.Close(fd)
		return -1, err
	}
	if err := syscall.Listen(fd, syscall.SOMAXCONN); err != nil {
		syscall.Close(fd)
		return -1, err
	}
	return fd, nil
}

// parseIPv4 parses a dotted-quad IPv4 address.
func parseIPv4(s string) (ip [4]byte, ok bool) {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return ip, false
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 255 || p == "" || (len(p) > 1 && p[0] == '0') {
			return ip, false
		}
		ip[i] = byte(n)
	}
	return ip, true
}

// Take returns the socket bound early for addr ("host:port", as net.Listen
// takes it for "tcp"), or nil when there is none; it is handed over once,
// for net.FileListener. A socket bound early on the same port under another
// address is closed, so that the caller's own bind of that port succeeds.
func Take(addr string) *os.File {
	mu.Lock()
	defer mu.Unlock()
	if len(bound) == 0 {
		return nil
	}
	if fd, ok := bound[addr]; ok {
		delete(bound, addr)
		return os.NewFile(uintptr(fd), "listener "+addr)
	}
	if i := strings.LastIndexByte(addr, ':'); i >= 0 {
		for k, fd := range bound {
			if strings.HasSuffix(k, addr[i:]) {
				syscall.Close(fd)
				delete(bound, k)
			}
		}
	}
	return nil
}

// Release closes the sockets nobody took.
func Release() {
	mu.Lock()
	defer mu.Unlock()
	for k, fd := range bound {
		syscall.Close(fd)
		delete(bound, k)
	}
}
