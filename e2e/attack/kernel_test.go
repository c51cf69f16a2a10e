package attack

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
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
	code := m.Run()
	if path := os.Getenv("GOCL_ATTACK_REPORT"); path != "" {
		if err := os.WriteFile(path, []byte(report()), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "writing the attack report:", err)
		}
	}
	os.Exit(code)
}

// Bounds that every attack is held to.
const (
	answerWithin = time.Second      // kernel_info, reply and idle status, during and after
	idleCPU      = 0.25             // cores the kernel may use once the attack is over
	hang         = 30 * time.Second // guard against a test waiting forever; never a measure
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
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

// kernel is a running gocl process.
type kernel struct {
	t      *testing.T
	cmd    *exec.Cmd
	exited chan struct{}
	stderr *lockedBuffer
	key    string
	signer *wire.Signer
	ports  map[string]int // shell, iopub, stdin, control, hb
}

type kernelOptions struct {
	nofile int     // RLIMIT_NOFILE of the kernel, 0 for the default
	key    *string // nil: a random key
	env    []string
}

func freePorts(t *testing.T, n int) []int {
	var ports []int
	var ls []net.Listener
	for range n {
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

// startKernel starts gocl on a fresh connection file; it is killed when the
// test ends.
func startKernel(t *testing.T, o kernelOptions) *kernel {
	t.Helper()
	key := make([]byte, 16)
	rand.Read(key)
	k := &kernel{t: t, exited: make(chan struct{}), stderr: &lockedBuffer{}, key: hex.EncodeToString(key)}
	if o.key != nil {
		k.key = *o.key
	}
	ps := freePorts(t, 5)
	k.ports = map[string]int{"shell": ps[0], "iopub": ps[1], "stdin": ps[2], "control": ps[3], "hb": ps[4]}
	conn := map[string]any{
		"transport": "tcp", "ip": "127.0.0.1", "shell_port": ps[0], "iopub_port": ps[1],
		"stdin_port": ps[2], "control_port": ps[3], "hb_port": ps[4],
		"signature_scheme": "hmac-sha256", "key": k.key, "kernel_name": "gocl",
	}
	k.signer, _ = wire.NewSigner("hmac-sha256", k.key)
	dir := t.TempDir()
	cf := filepath.Join(dir, "kernel.json")
	raw, _ := json.Marshal(conn)
	if err := os.WriteFile(cf, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{goclBin, "kernel", "--connection-file", cf}
	if o.nofile > 0 {
		// Go raises the soft limit to the hard one at start: set both.
		args = append([]string{"/bin/sh", "-c", fmt.Sprintf(`ulimit -n %d && exec "$@"`, o.nofile), "sh"}, args...)
	}
	k.cmd = exec.Command(args[0], args[1:]...)
	k.cmd.Env = append(append(os.Environ(), "JUPYTER_DATA_DIR="+dir), o.env...)
	k.cmd.Stdout, k.cmd.Stderr = k.stderr, k.stderr
	if err := k.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { k.cmd.Wait(); close(k.exited) }()
	t.Cleanup(func() {
		k.cmd.Process.Kill()
		<-k.exited
		if t.Failed() {
			t.Logf("kernel log:\n%s", tail(k.stderr.String(), 6000))
		}
	})
	return k
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

func (k *kernel) addr(port string) string { return fmt.Sprintf("127.0.0.1:%d", k.ports[port]) }

func (k *kernel) alive() bool {
	select {
	case <-k.exited:
		return false
	default:
		return true
	}
}

// procStatus returns a field of /proc/PID/status in kB (VmRSS, VmHWM).
func (k *kernel) procStatus(field string) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", k.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			return n
		}
	}
	return 0
}

// peakRSS is the kernel's peak resident set so far, in MB.
func (k *kernel) peakRSS() float64 { return float64(k.procStatus("VmHWM")) / 1024 }

// cpuSeconds is the CPU time the kernel has used so far.
func (k *kernel) cpuSeconds() float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", k.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
	ut, _ := strconv.ParseFloat(f[11], 64)
	st, _ := strconv.ParseFloat(f[12], 64)
	return (ut + st) / 100 // USER_HZ
}

// idleCPU measures the cores the kernel uses over a second, once the attack
// is over, and fails the test when it is not back to idle.
func (k *kernel) checkIdle(t *testing.T, f *figures) {
	t.Helper()
	time.Sleep(300 * time.Millisecond)
	c0, t0 := k.cpuSeconds(), time.Now()
	time.Sleep(time.Second)
	f.idleCPU = (k.cpuSeconds() - c0) / time.Since(t0).Seconds()
	if f.idleCPU > idleCPU {
		t.Errorf("after the attack the kernel uses %.2f cores, want idle (at most %.2f)", f.idleCPU, idleCPU)
	}
}

// client is a legitimate front end: shell and control DEALERs and an IOPub
// SUB, signing with the key.
type client struct {
	k       *kernel
	session string
	shell   zmq4.Socket
	control zmq4.Socket
	iopub   zmq4.Socket
	replies map[zmq4.Socket]chan *wire.Message
	slow    func(*wire.Message) // called for each IOPub message before the next is read; nil: none
	// replyOnly: kernelInfo waits for the reply, not for the idle status
	replyOnly bool

	mu     sync.Mutex
	idle   map[string]bool // parent msg_ids whose idle status arrived
	byType map[string]int  // IOPub messages received, by type
}

// count returns how many IOPub messages of msgType the client received.
func (c *client) count(msgType string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.byType[msgType]
}

// connect connects a client and waits until the kernel answers it.
func (k *kernel) connect(t *testing.T) *client {
	t.Helper()
	return k.connectSlow(t, nil)
}

func (k *kernel) connectSlow(t *testing.T, slow func(*wire.Message)) *client {
	t.Helper()
	c := &client{k: k, session: wire.NewID(), idle: map[string]bool{}, byType: map[string]int{}, replies: map[zmq4.Socket]chan *wire.Message{}, slow: slow}
	ctx := context.Background()
	id := zmq4.SocketIdentity(c.session)
	c.shell = zmq4.NewDealer(ctx, zmq4.WithID(id), zmq4.WithDialerTimeout(time.Second))
	c.control = zmq4.NewDealer(ctx, zmq4.WithID(id), zmq4.WithDialerTimeout(time.Second))
	c.iopub = zmq4.NewSub(ctx, zmq4.WithDialerTimeout(time.Second))
	t.Cleanup(func() {
		for _, s := range []zmq4.Socket{c.shell, c.control, c.iopub} {
			s.Close()
		}
	})
	deadline := time.Now().Add(hang)
	for _, s := range []struct {
		sock zmq4.Socket
		port string
	}{{c.shell, "shell"}, {c.control, "control"}, {c.iopub, "iopub"}} {
		for {
			err := dialWithin(s.sock, "tcp://"+k.addr(s.port), 5*time.Second)
			if err == nil {
				break
			}
			if !k.alive() || time.Now().After(deadline) {
				t.Fatalf("cannot connect to the kernel's %s: %v", s.port, err)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	c.iopub.SetOption(zmq4.OptionSubscribe, "")
	go c.readIOPub()
	for _, s := range []zmq4.Socket{c.shell, c.control} {
		ch := make(chan *wire.Message, 64)
		c.replies[s] = ch
		go func(s zmq4.Socket) {
			for {
				zm, err := s.Recv()
				if err != nil {
					close(ch)
					return
				}
				if m, err := k.signer.Decode(zm.Frames); err == nil {
					ch <- m
				}
			}
		}(s)
	}
	for { // until IOPub is connected too (slow joiner)
		if _, err := c.kernelInfo(c.shell, 2*time.Second); err == nil {
			return c
		}
		if !k.alive() || time.Now().After(deadline) {
			t.Fatalf("the kernel does not answer a new client")
		}
	}
}

// dialWithin dials, giving up after d: zmq4's Dial waits for the handshake
// without a deadline.
func dialWithin(s zmq4.Socket, ep string, d time.Duration) error {
	errc := make(chan error, 1)
	go func() { errc <- s.Dial(ep) }()
	select {
	case err := <-errc:
		return err
	case <-time.After(d):
		return fmt.Errorf("no ZMTP handshake with %s within %v", ep, d)
	}
}

func (c *client) readIOPub() {
	for {
		zm, err := c.iopub.Recv()
		if err != nil {
			return
		}
		m, err := c.k.signer.Decode(zm.Frames)
		if err != nil {
			continue
		}
		c.mu.Lock()
		c.byType[m.Header.MsgType]++
		if m.Header.MsgType == "status" && m.ParentHeader != nil && bytes.Contains(m.Content, []byte(`"idle"`)) {
			c.idle[m.ParentHeader.MsgID] = true
		}
		c.mu.Unlock()
		if c.slow != nil {
			c.slow(m)
		}
	}
}

// send sends a signed request and returns its msg_id.
func (c *client) send(sock zmq4.Socket, msgType string, content any) (string, error) {
	m, err := wire.NewMessage(msgType, c.session, nil, content)
	if err != nil {
		return "", err
	}
	frames, err := c.k.signer.Encode(m)
	if err != nil {
		return "", err
	}
	return m.Header.MsgID, sock.Send(zmq4.NewMsgFrom(frames...))
}

// await waits until the reply to id has arrived on sock and its idle status
// on IOPub, until deadline.
func (c *client) await(sock zmq4.Socket, id string, deadline time.Time) (*wire.Message, error) {
	return c.awaitReply(sock, id, deadline, true)
}

// awaitReply is await, waiting for the idle status only when needIdle.
func (c *client) awaitReply(sock zmq4.Socket, id string, deadline time.Time, needIdle bool) (*wire.Message, error) {
	var reply *wire.Message
	for reply == nil {
		select {
		case m, ok := <-c.replies[sock]:
			if !ok {
				return nil, fmt.Errorf("the connection closed")
			}
			if m.ParentHeader != nil && m.ParentHeader.MsgID == id {
				reply = m
			}
			if reply != nil && !needIdle {
				return reply, nil
			}
		case <-time.After(time.Until(deadline)):
			return nil, fmt.Errorf("no reply")
		}
	}
	for {
		c.mu.Lock()
		ok := c.idle[id]
		c.mu.Unlock()
		if ok {
			return reply, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("reply, but no idle status on IOPub")
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// kernelInfo asks for kernel_info on sock and returns how long the reply and
// the idle status took, or an error past within.
func (c *client) kernelInfo(sock zmq4.Socket, within time.Duration) (time.Duration, error) {
	t0 := time.Now()
	id, err := c.send(sock, "kernel_info_request", map[string]any{})
	if err != nil {
		return 0, err
	}
	if _, err := c.awaitReply(sock, id, t0.Add(within), !c.replyOnly); err != nil {
		return time.Since(t0), fmt.Errorf("kernel_info: %w after %v", err, time.Since(t0).Round(time.Millisecond))
	}
	return time.Since(t0), nil
}

// execute runs code and returns the reply's content.
func (c *client) execute(t *testing.T, code string) map[string]any {
	t.Helper()
	id, err := c.send(c.shell, "execute_request", map[string]any{"code": code, "silent": false,
		"store_history": true, "user_expressions": map[string]any{}, "allow_stdin": false})
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.await(c.shell, id, time.Now().Add(hang))
	if err != nil {
		t.Fatalf("execute %.40q: %v", code, err)
	}
	var content map[string]any
	json.Unmarshal(m.Content, &content)
	return content
}

// figures are what one attack measured.
type figures struct {
	attack     string
	crashed    bool
	lost       time.Duration // service lost: time past answerWithin, summed over probes
	slowest    time.Duration // slowest kernel_info during and after
	probes     int
	peakRSS    float64 // MB
	rssBound   float64 // MB
	idleCPU    float64 // cores
	extra      string
	recordedAt time.Time
}

var (
	reportMu sync.Mutex
	reported []*figures
)

// monitor probes kernel_info on sock every 100 ms until stop is called, which
// returns what it saw.
func (c *client) monitor(sock zmq4.Socket, f *figures) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for {
			c.probe(sock, f)
			select {
			case <-done:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	return func() { close(done); <-finished }
}

// probe asks once and records the answer in f.
func (c *client) probe(sock zmq4.Socket, f *figures) {
	d, err := c.kernelInfo(sock, 5*time.Second)
	if err != nil {
		d = 5 * time.Second
	}
	f.probes++
	f.slowest = max(f.slowest, d)
	if d > answerWithin {
		f.lost += d - answerWithin
	}
}

// finish checks and records f: the kernel is alive, no probe took longer
// than answerWithin, RSS stayed under the bound, a new client is answered
// and CPU is back to idle.
func (k *kernel) finish(t *testing.T, f *figures) {
	t.Helper()
	f.crashed = !k.alive()
	defer func() {
		reportMu.Lock()
		reported = append(reported, f)
		reportMu.Unlock()
		t.Logf("%s: crashed %v, service lost %.1f s, slowest kernel_info %v over %d probes, peak RSS %.0f MB (bound %.0f), idle CPU %.2f cores %s",
			f.attack, f.crashed, f.lost.Seconds(), f.slowest.Round(time.Millisecond), f.probes, f.peakRSS, f.rssBound, f.idleCPU, f.extra)
	}()
	if f.crashed {
		t.Fatalf("the kernel died under the attack")
	}
	f.peakRSS = k.peakRSS()
	if f.peakRSS > f.rssBound {
		t.Errorf("peak RSS %.0f MB, above the bound of %.0f MB", f.peakRSS, f.rssBound)
	}
	// After: a client that connects now is answered.
	fresh := k.connect(t)
	for range 3 {
		fresh.probe(fresh.shell, f)
	}
	if f.slowest > answerWithin {
		t.Errorf("a kernel_info took %v (service lost: %.1f s), want every one within %v", f.slowest.Round(time.Millisecond), f.lost.Seconds(), answerWithin)
	}
	k.checkIdle(t, f)
	f.crashed = !k.alive()
}

func report() string {
	reportMu.Lock()
	defer reportMu.Unlock()
	sort.Slice(reported, func(i, j int) bool { return reported[i].attack < reported[j].attack })
	var b strings.Builder
	b.WriteString("| attack | kernel crashed | service lost | slowest kernel_info | peak RSS (bound) | CPU after |\n|---|---|---|---|---|---|\n")
	for _, f := range reported {
		fmt.Fprintf(&b, "| %s | %v | %.1f s | %v (%d probes) | %.0f MB (%.0f) | %.2f cores |\n",
			f.attack, f.crashed, f.lost.Seconds(), f.slowest.Round(time.Millisecond), f.probes, f.peakRSS, f.rssBound, f.idleCPU)
	}
	return b.String()
}
