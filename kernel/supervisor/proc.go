package supervisor

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/enginewire"
)

// errEngineGone is what a request to an engine process that died returns.
var errEngineGone = errors.New("the engine process is gone")

// proc is one engine process and the connection to it.
type proc struct {
	cmd  *exec.Cmd
	pid  int
	conn *enginewire.Conn
	sock *net.UnixConn
	in   *heardReader // the connection's read side (liveness.go)
	log  *slog.Logger

	orphan func(enginewire.Event)

	// captured are the read ends of the engine's fd 1 and 2 capture pipes,
	// read only once the engine died (see engine.CapturedReaders).
	captured [2]*os.File

	mu     sync.Mutex
	nextID uint64
	calls  map[uint64]chan enginewire.Event
	gone   bool
	killed int

	exited chan struct{} // closed once the process was reaped
	state  *os.ProcessState
	lost   chan struct{} // closed when the connection ended

	report    crashLog // the engine's own stderr: the Go runtime's crash reports
	stderrEOF chan struct{}
	maps      mapsSnapshot
}

// startProc starts `exe engine` and waits until it is ready.
// orphan receives the events that belong to no pending request (comm
// messages a goroutine sent after its request ended).
func startProc(exe string, args []string, env []string, log *slog.Logger, orphan func(enginewire.Event)) (*proc, error) {
	p, err := launchProc(exe, args, env, log, orphan)
	if err != nil {
		return nil, err
	}
	if err := p.ready(); err != nil {
		return nil, err
	}
	return p, nil
}

// launchProc starts `exe engine` and returns at once; ready waits for it.
func launchProc(exe string, args []string, env []string, log *slog.Logger, orphan func(enginewire.Event)) (*proc, error) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("socketpair for the engine: %w", err)
	}
	ours := os.NewFile(uintptr(fds[0]), "engine socket")
	theirs := os.NewFile(uintptr(fds[1]), "engine socket (child)")
	defer theirs.Close()
	fc, err := net.FileConn(ours)
	ours.Close()
	if err != nil {
		theirs.Close()
		return nil, fmt.Errorf("engine socket: %w", err)
	}
	sock := fc.(*net.UnixConn)

	errR, errW, err := os.Pipe()
	if err != nil {
		sock.Close()
		return nil, fmt.Errorf("pipe for the engine's stderr: %w", err)
	}
	cmd := exec.Command(exe, append([]string{"engine"}, args...)...)
	cmd.Env = env
	cmd.Stdin = nil
	cmd.Stdout = errW
	cmd.Stderr = errW
	cmd.ExtraFiles = []*os.File{theirs} // fd 3
	cmd.SysProcAttr = &syscall.SysProcAttr{
		// The engine dies with its kernel, even after kill -9 of the
		// kernel; it also exits when its socket ends (enginehost).
		Pdeathsig: syscall.SIGKILL,
	}
	if err := cmd.Start(); err != nil {
		sock.Close()
		errR.Close()
		errW.Close()
		return nil, fmt.Errorf("starting the engine process %s: %w", exe, err)
	}
	errW.Close()
	p := &proc{cmd: cmd, pid: cmd.Process.Pid, sock: sock, log: log, orphan: orphan,
		calls: map[uint64]chan enginewire.Event{}, exited: make(chan struct{}), lost: make(chan struct{}),
		stderrEOF: make(chan struct{})}
	go p.readStderr(errR)
	go func() {
		st, _ := cmd.Process.Wait()
		p.mu.Lock()
		p.state = st
		p.mu.Unlock()
		close(p.exited)
	}()
	return p, nil
}

// ready waits until the process launched says it is ready; a process that
// does not is killed.
func (p *proc) ready() error {
	if err := p.handshake(); err != nil {
		p.kill()
		<-p.exited
		p.sock.Close()
		return err
	}
	p.in = &heardReader{r: p.sock}
	p.conn = enginewire.NewConn(p.in, p.sock)
	go p.readEvents()
	return nil
}

// handshake reads the ready event and the captured pipes that come with it.
func (p *proc) handshake() error {
	_ = p.sock.SetReadDeadline(time.Now().Add(startTimeout))
	defer p.sock.SetReadDeadline(time.Time{})
	buf := make([]byte, 4096)
	oob := make([]byte, syscall.CmsgSpace(2*4))
	n, oobn, _, _, err := p.sock.ReadMsgUnix(buf, oob)
	if err != nil {
		<-p.stderrDone(200 * time.Millisecond)
		return fmt.Errorf("the engine process did not start: %v\n%s", err, p.report.text())
	}
	var ev enginewire.Event
	if err := json.Unmarshal(buf[:n], &ev); err != nil || ev.Kind != enginewire.EvReady {
		return fmt.Errorf("the engine process sent %q instead of its ready message", buf[:n])
	}
	var ready enginewire.ReadyBody
	_ = json.Unmarshal(ev.Body, &ready)
	if ready.Error != "" {
		return fmt.Errorf("the engine could not start: %s", ready.Error)
	}
	if msgs, err := syscall.ParseSocketControlMessage(oob[:oobn]); err == nil && len(msgs) == 1 {
		if fds, err := syscall.ParseUnixRights(&msgs[0]); err == nil && len(fds) == 2 {
			for i, fd := range fds {
				syscall.CloseOnExec(fd)
				p.captured[i] = os.NewFile(uintptr(fd), []string{"engine stdout", "engine stderr"}[i])
			}
		}
	}
	return nil
}

// startTimeout bounds the engine's start (loading the interpreter's tables).
const startTimeout = 30 * time.Second

func (p *proc) stderrDone(d time.Duration) <-chan struct{} {
	ch := make(chan struct{})
	go func() {
		select {
		case <-p.stderrEOF:
		case <-time.After(d):
		}
		close(ch)
	}()
	return ch
}

// readStderr forwards the engine's own stderr (never a cell's: the engine
// captures fd 2 for cells) to the kernel's log and keeps it for crash
// reports. It is the Go runtime's crash output, so it is always read: a
// crashing engine never blocks on it.
func (p *proc) readStderr(r *os.File) {
	defer close(p.stderrEOF)
	defer r.Close()
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadString('\n')
		if line != "" {
			p.report.add(line)
			if strings.HasPrefix(line, "[signal ") || strings.HasPrefix(line, "SIGSEGV") ||
				strings.HasPrefix(line, "SIGBUS") || strings.HasPrefix(line, "fatal error: unexpected signal") {
				// Read the process's maps while it prints its trace, to
				// name the library the faulting address is in.
				p.maps.take(p.pid)
			}
			if p.log != nil {
				p.log.Warn("engine: " + strings.TrimRight(line, "\n"))
			}
		}
		if err != nil {
			return
		}
	}
}

func (p *proc) readEvents() {
	defer func() {
		p.mu.Lock()
		p.gone = true
		calls := p.calls
		p.calls = map[uint64]chan enginewire.Event{}
		p.mu.Unlock()
		for _, ch := range calls {
			close(ch)
		}
		close(p.lost)
	}()
	for {
		var ev enginewire.Event
		if err := p.conn.Receive(&ev); err != nil {
			return
		}
		p.mu.Lock()
		ch := p.calls[ev.ID]
		if ev.Kind == enginewire.EvDone {
			delete(p.calls, ev.ID)
		}
		p.mu.Unlock()
		if ch == nil {
			if p.orphan != nil && ev.Kind != enginewire.EvDone && ev.Kind != enginewire.EvPong {
				p.orphan(ev)
			}
			continue
		}
		ch <- ev
		if ev.Kind == enginewire.EvDone {
			close(ch)
		}
	}
}

// request sends a request and returns the channel of its events, closed
// after EvDone or when the engine is gone.
func (p *proc) request(op string, body any) (uint64, <-chan enginewire.Event, error) {
	p.mu.Lock()
	if p.gone {
		p.mu.Unlock()
		return 0, nil, errEngineGone
	}
	p.nextID++
	id := p.nextID
	ch := make(chan enginewire.Event, 64)
	p.calls[id] = ch
	p.mu.Unlock()
	if err := p.conn.Send(enginewire.Request{ID: id, Op: op, Body: enginewire.Body(body)}); err != nil {
		p.mu.Lock()
		delete(p.calls, id)
		p.mu.Unlock()
		return 0, nil, errEngineGone
	}
	return id, ch, nil
}

// notify sends a notification (no answer expected).
func (p *proc) notify(op string, body any) {
	_ = p.conn.Send(enginewire.Request{Op: op, Body: enginewire.Body(body)})
}

// call sends a request and waits for its EvDone, dropping other events.
func (p *proc) call(op string, body, reply any) error {
	_, ch, err := p.request(op, body)
	if err != nil {
		return err
	}
	for ev := range ch {
		if ev.Kind == enginewire.EvDone {
			return decodeDone(op, ev, reply)
		}
	}
	return errEngineGone
}

// decodeDone decodes an EvDone body into reply, or the engine's own error.
func decodeDone(op string, ev enginewire.Event, reply any) error {
	var failed struct {
		Error string `json:"engine_error"`
	}
	if json.Unmarshal(ev.Body, &failed) == nil && failed.Error != "" {
		return errors.New(failed.Error)
	}
	if reply == nil {
		return nil
	}
	return enginewire.Decode(op, ev.Body, reply)
}

// alive says whether the process answers a ping within d.
func (p *proc) alive(d time.Duration) bool {
	_, ch, err := p.request(enginewire.OpPing, nil)
	if err != nil {
		return false
	}
	select {
	case ev, ok := <-ch:
		p.forget(ev.ID)
		return ok
	case <-time.After(d):
		return false
	}
}

// frozen says whether the engine has sent nothing for frozenAfter of the
// time the supervisor waited for it since a ping sent at pingSent.
func (p *proc) frozen(pingSent time.Time) bool {
	return p.in.silence(pingSent, time.Now()) > frozenAfter
}

func (p *proc) forget(id uint64) {
	p.mu.Lock()
	delete(p.calls, id)
	p.mu.Unlock()
}

// kill ends the process at once.
func (p *proc) kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
}

// stop asks the engine to exit and kills it if it does not within grace;
// it returns once the process was reaped.
func (p *proc) stop(grace time.Duration) {
	select {
	case <-p.exited:
	default:
		if p.conn != nil {
			_, _, _ = p.request(enginewire.OpShutdown, nil)
		}
		select {
		case <-p.exited:
		case <-time.After(grace):
			p.kill()
			<-p.exited
		}
	}
	p.close()
}

func (p *proc) close() {
	p.sock.Close()
	for _, f := range p.captured {
		if f != nil {
			f.Close()
		}
	}
}

// leftover reads what the engine wrote to its captured fds 1 and 2 but did
// not deliver before it died, for at most d.
func (p *proc) leftover(d time.Duration) (stdout, stderr string) {
	read := func(f *os.File) string {
		if f == nil {
			return ""
		}
		_ = f.SetReadDeadline(time.Now().Add(d))
		var b strings.Builder
		buf := make([]byte, 64<<10)
		for b.Len() < 4<<20 {
			n, err := f.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				break
			}
		}
		return stripMarkers(b.String())
	}
	return read(p.captured[0]), read(p.captured[1])
}

// drainMarker starts the sentinels the engine writes to drain its streams
// (kernel/engine capture.go); they are not cell output.
const drainMarker = "\x00\x1bgocl-drain:"

func stripMarkers(s string) string {
	for {
		i := strings.Index(s, drainMarker)
		if i < 0 {
			return s
		}
		j := strings.IndexByte(s[i+len(drainMarker):], 0)
		if j < 0 {
			return s[:i]
		}
		s = s[:i] + s[i+len(drainMarker)+j+1:]
	}
}

// Why the supervisor itself ended an engine process.
const (
	killedNot = iota
	killedByRestart
	killedByInterrupt
	killedFrozen
)

func (p *proc) setKilled(why int) {
	p.mu.Lock()
	if p.killed == killedNot {
		p.killed = why
	}
	p.mu.Unlock()
}

func (p *proc) killedWhy() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.killed
}

func (p *proc) exitState() *os.ProcessState {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.state
}
