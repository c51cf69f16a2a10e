// Package dispatch is the kernel's middle room: it takes verified requests from
// the transport, runs them against the engine and answers them.
//
// It owns the request life cycle — busy/idle around every request, the
// execution count, history, aborting queued cells after an error, interrupt,
// shutdown and restart — and it sends each reply on the socket its request came
// in on. It knows nothing of zmq or HMAC (that is the transport's job) and
// nothing of yaegi (that is the engine's).
package dispatch

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/cellio"
	"github.com/seed43a1e1ab/gocl/kernel/transport"
	"github.com/seed43a1e1ab/gocl/kernel/wire"
)

// Transport is what the dispatcher needs of the sockets; *transport.Server
// provides it.
type Transport interface {
	Shell() <-chan *wire.Message
	Control() <-chan *wire.Message
	Stdin() <-chan *wire.Message
	Send(ch transport.Channel, parent *wire.Message, msgType string, content any, metadata map[string]any) error
	Publish(parent *wire.Message, msgType string, content any)
	// PublishStream publishes text a cell wrote to the stream name
	// ("stdout" or "stderr"), which the transport may merge and pace.
	PublishStream(parent *wire.Message, name, text string)
	Flush(timeout time.Duration) bool
}

// Engine is what the dispatcher needs of the interpreter; *supervisor.Supervisor
// provides it, speaking to the engine process in cellio's plain data.
type Engine interface {
	Execute(ctx context.Context, code string, sink cellio.Sink) cellio.Result
	Evaluate(ctx context.Context, expr string) (cellio.Bundle, *cellio.CellError)
	Close() error
}

// Assistant is the optional part of an Engine that answers completion,
// inspection and is_complete requests.
type Assistant interface {
	Complete(code string, cursor int) (matches []string, start, end int, metadata map[string]any)
	Inspect(code string, cursor, detail int) (data map[string]any, found bool)
	IsComplete(code string) (status, indent string)
}

// Info describes the kernel in kernel_info_reply.
type Info struct {
	Version   string // gocl's version
	GoVersion string // the Go version cells are interpreted as
	Banner    string
}

// Config is everything a Kernel is made of.
type Config struct {
	Transport Transport
	// NewEngine makes a fresh interpreter: once at start and again on a
	// restart.
	NewEngine func() (Engine, error)
	History   History
	Info      Info
	Log       *slog.Logger
	// ExitOnRestart makes shutdown_request{restart: true} end the process as
	// well: set when a Jupyter kernel manager, which starts a new process for
	// a restart, launched the kernel.
	ExitOnRestart bool
}

// Kernel serves one Jupyter session.
type Kernel struct {
	cfg Config
	t   Transport
	log *slog.Logger

	mu        sync.Mutex // guards the fields below
	eng       Engine
	execCount int
	cancel    context.CancelFunc // interrupts the running cell; nil when idle
	run       running            // the request cancel is for (interrupt.go)
	replies   chan *wire.Message // input_reply messages, while a cell waits for one

	done     chan struct{}
	doneOnce sync.Once
}

// New makes a kernel and its first interpreter.
func New(cfg Config) (*Kernel, error) {
	eng, err := cfg.NewEngine()
	if err != nil {
		return nil, err
	}
	log := cfg.Log
	if log == nil {
		log = slog.Default()
	}
	k := &Kernel{cfg: cfg, t: cfg.Transport, log: log, eng: eng, done: make(chan struct{}),
		replies: make(chan *wire.Message, 1)}
	k.wireDebugEvents(eng) // debug.go
	return k, nil
}

// Run publishes the starting status and serves requests until a shutdown
// request or ctx ends. Shell requests are handled one at a time, in order;
// control requests are served concurrently, so an interrupt or a shutdown
// reaches a busy kernel.
func (k *Kernel) Run(ctx context.Context) error {
	k.t.Publish(nil, "status", map[string]any{"execution_state": "starting"})
	go k.serveControl(ctx)
	go k.routeStdin(ctx)
	for {
		select {
		case <-ctx.Done():
			k.Interrupt()
			return ctx.Err()
		case <-k.done:
			k.t.Flush(2 * time.Second)
			return nil
		case m, ok := <-k.t.Shell():
			if !ok {
				return nil
			}
			k.handle(ctx, transport.Shell, m)
		}
	}
}

// Interrupt stops the running cell, if any. It is what interrupt_request and
// SIGINT do.
func (k *Kernel) Interrupt() {
	k.mu.Lock()
	cancel := k.cancel
	k.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	// A supervised engine also counts interrupts: a second one replaces an
	// engine whose statement is stuck in a compiled call.
	if i, ok := k.engine().(interface{ Interrupt() }); ok {
		i.Interrupt()
	}
}

// Close closes the interpreter, waiting at most wait: a supervised engine
// exits on its own, removing its compiled cells' build directory, rather
// than being killed when the kernel process ends.
func (k *Kernel) Close(wait time.Duration) {
	done := make(chan struct{})
	go func() {
		if err := k.engine().Close(); err != nil {
			k.log.Warn("closing the interpreter", "err", err)
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(wait):
	}
}

// Done is closed once the kernel has answered a final shutdown request.
func (k *Kernel) Done() <-chan struct{} { return k.done }

// consume calls f for each message from in until ctx ends, the kernel is
// done or in closes.
func (k *Kernel) consume(ctx context.Context, in <-chan *wire.Message, f func(*wire.Message)) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-k.done:
			return
		case m, ok := <-in:
			if !ok {
				return
			}
			f(m)
		}
	}
}

func (k *Kernel) serveControl(ctx context.Context) {
	k.consume(ctx, k.t.Control(), func(m *wire.Message) { k.handle(ctx, transport.Control, m) })
}

// routeStdin hands input_reply messages to the cell waiting for one and drops
// the rest with a log line.
func (k *Kernel) routeStdin(ctx context.Context) {
	k.consume(ctx, k.t.Stdin(), func(m *wire.Message) {
		if m.Header.MsgType != "input_reply" {
			k.log.Warn("ignoring unexpected message on stdin", "msg_type", m.Header.MsgType)
			return
		}
		select {
		case k.replies <- m:
		default:
			k.log.Warn("dropping input_reply: no cell is waiting for input")
		}
	})
}

// handle answers one request between busy and idle.
func (k *Kernel) handle(ctx context.Context, ch transport.Channel, m *wire.Message) {
	typ := m.Header.MsgType
	k.log.Debug("request", "channel", ch, "msg_type", typ, "msg_id", m.Header.MsgID)
	k.t.Publish(m, "status", map[string]any{"execution_state": "busy"})
	var after func() // bookkeeping done once the client has its answer
	start := allocated()
	defer func() {
		k.t.Publish(m, "status", map[string]any{"execution_state": "idle"})
		if after != nil {
			// Still before the next request: a history_request that follows
			// finds the cell, and a shutdown waits for it (Run is this loop).
			after()
			after = nil
		}
		releaseAfter(start)
	}()
	defer k.recoverRequest(ch, m)
	switch typ {
	case "kernel_info_request":
		k.reply(ch, m, "kernel_info_reply", k.kernelInfo())
	case "execute_request":
		after = k.execute(ctx, ch, m)
	case "complete_request":
		k.complete(ch, m)
	case "inspect_request":
		k.inspect(ch, m)
	case "is_complete_request":
		k.isComplete(ch, m)
	case "history_request":
		k.history(ch, m)
	case "comm_info_request":
		k.commInfo(ch, m)
	case "comm_open", "comm_msg", "comm_close":
		k.comm(ctx, m)
	case "debug_request":
		k.debug(ctx, ch, m) // debug.go
	case "interrupt_request":
		k.interruptRequest(m) // interrupt.go
		k.reply(ch, m, "interrupt_reply", map[string]any{"status": "ok"})
	case "shutdown_request":
		k.shutdown(ch, m)
	default:
		k.log.Warn("unsupported request: ignored", "msg_type", typ)
	}
}

// recoverRequest keeps the kernel serving when answering a request
// panicked (a bug in gocl or in the interpreter): the panic is logged, and
// the request gets an error reply instead of none.
func (k *Kernel) recoverRequest(ch transport.Channel, m *wire.Message) {
	r := recover()
	if r == nil {
		return
	}
	typ := m.Header.MsgType
	k.log.Error("answering a request panicked; the kernel keeps serving", "msg_type", typ, "panic", r,
		"stack", string(debug.Stack()))
	if !strings.HasSuffix(typ, "_request") {
		return
	}
	k.reply(ch, m, strings.TrimSuffix(typ, "_request")+"_reply", map[string]any{
		"status": "error", "ename": "InternalError",
		"evalue":    fmt.Sprintf("gocl failed to answer %s: %v (the kernel keeps running; please report this)", typ, r),
		"traceback": []string{},
	})
}

func (k *Kernel) reply(ch transport.Channel, parent *wire.Message, msgType string, content any) {
	if err := k.t.Send(ch, parent, msgType, content, nil); err != nil {
		k.log.Error("sending reply failed", "msg_type", msgType, "err", err)
	}
}

func (k *Kernel) kernelInfo() map[string]any {
	info := k.cfg.Info
	return map[string]any{
		"status":                 "ok",
		"protocol_version":       wire.ProtocolVersion,
		"implementation":         "gocl",
		"implementation_version": info.Version,
		"language_info": map[string]any{
			"name":               "go",
			"version":            info.GoVersion,
			"mimetype":           "text/x-go",
			"file_extension":     ".go",
			"pygments_lexer":     "go",
			"codemirror_mode":    "go",
			"nbconvert_exporter": "script",
		},
		"banner":             info.Banner,
		"debugger":           k.canDebug(), // debug.go
		"supported_features": k.supportedFeatures(),
		"help_links": []map[string]string{
			{"text": "Go documentation", "url": "https://go.dev/doc/"},
			{"text": "Go standard library", "url": "https://pkg.go.dev/std"},
			{"text": "yaegi (the interpreter)", "url": "https://github.com/traefik/yaegi"},
			{"text": "OpenCL reference", "url": "https://registry.khronos.org/OpenCL/"},
		},
	}
}

// shutdown answers shutdown_request. Without restart the kernel ends after
// the reply. With restart it throws the interpreter away and starts a fresh
// one before replying, so that every request sent after the reply meets the
// fresh one — unless ExitOnRestart says a kernel manager will start a new
// process instead.
func (k *Kernel) shutdown(ch transport.Channel, m *wire.Message) {
	var c struct {
		Restart bool `json:"restart"`
	}
	_ = json.Unmarshal(m.Content, &c)
	k.Interrupt()
	if c.Restart && !k.cfg.ExitOnRestart {
		err := k.restart()
		if err == nil {
			k.reply(ch, m, "shutdown_reply", map[string]any{"status": "ok", "restart": true})
			return
		}
		k.log.Error("restart failed; shutting down", "err", err)
	}
	k.reply(ch, m, "shutdown_reply", map[string]any{"status": "ok", "restart": c.Restart})
	k.doneOnce.Do(func() { close(k.done) })
}

// restart replaces the interpreter with a fresh one and starts counting
// executions from one again.
func (k *Kernel) restart() error {
	eng, err := k.cfg.NewEngine()
	if err != nil {
		return err
	}
	k.wireDebugEvents(eng) // debug.go
	k.mu.Lock()
	old := k.eng
	k.eng = eng
	k.execCount = 0
	k.mu.Unlock()
	if err := old.Close(); err != nil {
		k.log.Warn("closing the old interpreter", "err", err)
	}
	// Counting starts from one again: history must not mix the two runs.
	if h, ok := k.cfg.History.(interface{ NewSession() error }); ok {
		if err := h.NewSession(); err != nil {
			k.log.Warn("history: starting a new session", "err", err)
		}
	}
	k.log.Info("kernel restarted with a fresh interpreter")
	return nil
}

func (k *Kernel) engine() Engine {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.eng
}
