// Package enginehost is the engine process, `gocl engine`: it runs one
// session (kernel/session: yaegi, cl, the captured file descriptors, the
// cells' goroutines) and answers its supervisor (kernel/supervisor) over the
// protocol of kernel/enginewire. It never sees a Jupyter socket.
//
// Each request kind is one Handler in Host.handlers; adding one (comm
// messages, say) is one more entry.
package enginehost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/seed43a1e1ab/gocl/kernel/cellio"
	"github.com/seed43a1e1ab/gocl/kernel/comm"
	"github.com/seed43a1e1ab/gocl/kernel/engine"
	"github.com/seed43a1e1ab/gocl/kernel/enginewire"
)

// Engine is what the host needs of a session; *session.Session provides it.
type Engine interface {
	Execute(ctx context.Context, code string, sink cellio.Sink) cellio.Result
	Evaluate(ctx context.Context, expr string) (cellio.Bundle, *cellio.CellError)
	Complete(code string, cursor int) ([]string, int, int, map[string]any)
	Inspect(code string, cursor, detail int) (map[string]any, bool)
	IsComplete(code string) (string, string)
}

// Blocker is the optional part of an Engine that reports an interrupted
// statement still inside a compiled call (*engine.Engine provides it).
type Blocker interface {
	TakeBlocked() <-chan struct{}
}

// Commer is the optional part of an Engine that serves Jupyter comms
// (*engine.Engine provides it).
type Commer interface {
	Comm(ctx context.Context, m comm.Message, sink cellio.Sink) cellio.Result
	CommInfo(target string) map[string]string
}

// Handler answers one request; what it returns is the body of EvDone.
type Handler func(ctx context.Context, c *Call) (any, error)

// Host serves one engine over one connection.
type Host struct {
	conn     *enginewire.Conn
	eng      Engine
	handlers map[string]Handler
	exit     func(code int)

	mu      sync.Mutex
	calls   map[uint64]*Call
	blocked <-chan struct{} // closed when an interrupted, stuck statement returns
}

// Call is one request being answered.
type Call struct {
	ID     uint64
	Body   json.RawMessage
	host   *Host
	cancel context.CancelFunc
	inputs chan enginewire.InputReplyBody
}

// Emit sends an event belonging to this request.
func (c *Call) Emit(kind string, body any) {
	_ = c.host.conn.Send(enginewire.Event{ID: c.ID, Kind: kind, Body: enginewire.Body(body)})
}

// New makes a host for eng on conn; exit ends the process (os.Exit).
func New(conn *enginewire.Conn, eng Engine, exit func(int)) *Host {
	h := &Host{conn: conn, eng: eng, exit: exit, calls: map[uint64]*Call{}}
	h.handlers = map[string]Handler{
		enginewire.OpExecute:    h.execute,
		enginewire.OpEvaluate:   h.evaluate,
		enginewire.OpComplete:   h.complete,
		enginewire.OpInspect:    h.inspect,
		enginewire.OpIsComplete: h.isComplete,
		enginewire.OpDeclare:    h.declare,
		enginewire.OpBlocked: func(context.Context, *Call) (any, error) {
			return enginewire.BlockedReply{Blocked: h.stuck()}, nil
		},
	}
	if c, ok := eng.(Commer); ok {
		h.handlers[enginewire.OpComm] = func(ctx context.Context, call *Call) (any, error) {
			var m comm.Message
			if err := enginewire.Decode(enginewire.OpComm, call.Body, &m); err != nil {
				return nil, err
			}
			engine.RenewStdio()
			return enginewire.ExecuteReply{Result: c.Comm(ctx, m, &sink{c: call, ctx: ctx, allowStdin: true})}, nil
		}
		h.handlers[enginewire.OpCommInfo] = func(_ context.Context, call *Call) (any, error) {
			var b enginewire.CommInfoBody
			if err := enginewire.Decode(enginewire.OpCommInfo, call.Body, &b); err != nil {
				return nil, err
			}
			return enginewire.CommInfoReply{Comms: c.CommInfo(b.Target)}, nil
		}
	}
	h.addDebugger() // debug.go
	return h
}

// Serve answers requests until the connection ends (the supervisor is
// gone) or a shutdown request.
func (h *Host) Serve() error {
	for {
		var req enginewire.Request
		if err := h.conn.Receive(&req); err != nil {
			return err
		}
		switch req.Op {
		case enginewire.OpPing:
			_ = h.conn.Send(enginewire.Event{ID: req.ID, Kind: enginewire.EvPong})
		case enginewire.OpInterrupt:
			var t enginewire.TargetBody
			_ = enginewire.Decode(req.Op, req.Body, &t)
			if c := h.call(t.Target); c != nil {
				c.cancel()
			}
		case enginewire.OpInputReply:
			var r enginewire.InputReplyBody
			_ = enginewire.Decode(req.Op, req.Body, &r)
			if c := h.call(r.Target); c != nil {
				select {
				case c.inputs <- r:
				default:
				}
			}
		case enginewire.OpShutdown:
			_ = h.conn.Send(enginewire.Event{ID: req.ID, Kind: enginewire.EvDone})
			h.exit(0)
			return nil
		default:
			handler, ok := h.handlers[req.Op]
			if !ok {
				h.done(req.ID, nil, fmt.Errorf("the engine does not know the request %q (gocl's kernel and engine are different versions?)", req.Op))
				continue
			}
			ctx, cancel := context.WithCancel(context.Background())
			c := &Call{ID: req.ID, Body: req.Body, host: h, cancel: cancel, inputs: make(chan enginewire.InputReplyBody, 1)}
			h.mu.Lock()
			h.calls[req.ID] = c
			h.mu.Unlock()
			go h.run(ctx, handler, c)
		}
	}
}

func (h *Host) call(id uint64) *Call {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.calls[id]
}

func (h *Host) run(ctx context.Context, handler Handler, c *Call) {
	defer func() {
		h.mu.Lock()
		delete(h.calls, c.ID)
		h.mu.Unlock()
		c.cancel()
	}()
	var body any
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("the engine failed to answer (please report this): %v\n%s", r, debug.Stack())
			}
		}()
		body, err = handler(ctx, c)
	}()
	h.done(c.ID, body, err)
}

// doneBody is EvDone's body when a handler failed.
type doneBody struct {
	Error string `json:"engine_error"`
}

func (h *Host) done(id uint64, body any, err error) {
	if err != nil {
		body = doneBody{Error: err.Error()}
	}
	_ = h.conn.Send(enginewire.Event{ID: id, Kind: enginewire.EvDone, Body: enginewire.Body(body)})
}

// blockedWarning is printed on a cell's stderr when it runs while a statement
// of an earlier, interrupted cell is still stuck.
const blockedWarning = "gocl: warning: a statement of an earlier interrupted cell is still blocked inside a compiled call " +
	"(wg.Wait, mu.Lock, a channel of a binary package, a C call); this cell runs anyway. " +
	"Interrupt twice within a few seconds while no cell runs, or restart, to replace the engine (its values are lost).\n"

func (h *Host) execute(ctx context.Context, c *Call) (any, error) {
	var b enginewire.ExecuteBody
	if err := enginewire.Decode(enginewire.OpExecute, c.Body, &b); err != nil {
		return nil, err
	}
	sink := &sink{c: c, ctx: ctx, allowStdin: b.AllowStdin}
	blk, canBlock := h.eng.(Blocker)
	if canBlock {
		h.mu.Lock()
		if ch := blk.TakeBlocked(); ch != nil {
			h.blocked = ch
		}
		stuck := h.blocked != nil && !isClosed(h.blocked)
		if !stuck {
			h.blocked = nil
		}
		h.mu.Unlock()
		if stuck {
			sink.Stream("stderr", blockedWarning)
		}
	}
	engine.RenewStdio() // a cell that closed os.Stdout gets a fresh one next
	if d, ok := h.eng.(Debugger); ok {
		d.DebugCellSource(b.Code) // debug.go: the debugger maps the cell to JupyterLab's path
	}
	res := h.eng.Execute(ctx, b.Code, sink)
	reply := enginewire.ExecuteReply{Result: res}
	if d, ok := h.eng.(Declarer); ok {
		reply.Cell, reply.Declared = d.TakeDeclared()
	}
	if canBlock {
		reply.Blocked = h.stuck()
	}
	return reply, nil
}

// stuck reports whether a statement of an interrupted cell is still inside
// a compiled call.
func (h *Host) stuck() bool {
	blk, ok := h.eng.(Blocker)
	if !ok {
		return false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if ch := blk.TakeBlocked(); ch != nil {
		h.blocked = ch
	}
	return h.blocked != nil && !isClosed(h.blocked)
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

func (h *Host) evaluate(ctx context.Context, c *Call) (any, error) {
	var b enginewire.EvaluateBody
	if err := enginewire.Decode(enginewire.OpEvaluate, c.Body, &b); err != nil {
		return nil, err
	}
	data, cerr := h.eng.Evaluate(ctx, b.Expr)
	return enginewire.EvaluateReply{Data: data, Err: cerr}, nil
}

func (h *Host) complete(_ context.Context, c *Call) (any, error) {
	var b enginewire.CompleteBody
	if err := enginewire.Decode(enginewire.OpComplete, c.Body, &b); err != nil {
		return nil, err
	}
	m, start, end, md := h.eng.Complete(b.Code, b.Cursor)
	return enginewire.CompleteReply{Matches: m, Start: start, End: end, Metadata: md}, nil
}

func (h *Host) inspect(_ context.Context, c *Call) (any, error) {
	var b enginewire.InspectBody
	if err := enginewire.Decode(enginewire.OpInspect, c.Body, &b); err != nil {
		return nil, err
	}
	data, found := h.eng.Inspect(b.Code, b.Cursor, b.Detail)
	return enginewire.InspectReply{Data: data, Found: found}, nil
}

func (h *Host) isComplete(_ context.Context, c *Call) (any, error) {
	var b enginewire.IsCompleteBody
	if err := enginewire.Decode(enginewire.OpIsComplete, c.Body, &b); err != nil {
		return nil, err
	}
	status, indent := h.eng.IsComplete(b.Code)
	return enginewire.IsCompleteReply{Status: status, Indent: indent}, nil
}

// Declarer is the optional part of an Engine that reports what each cell
// declared and declares it again in a fresh engine after a crash
// (*engine.Engine provides it).
type Declarer interface {
	TakeDeclared() (cell string, declared []cellio.Declared)
	Declare(ctx context.Context, decls []cellio.Declared, lost map[string]string, next int) []cellio.Declared
}

// declare makes declarations again in a fresh engine, after a crash: never
// statements, main or init (the supervisor sends none, and the engine
// runs none).
func (h *Host) declare(ctx context.Context, c *Call) (any, error) {
	var b enginewire.DeclareBody
	if err := enginewire.Decode(enginewire.OpDeclare, c.Body, &b); err != nil {
		return nil, err
	}
	d, ok := h.eng.(Declarer)
	if !ok {
		return nil, errors.New("this engine cannot declare earlier cells again")
	}
	return enginewire.DeclareReply{Failed: d.Declare(ctx, b.Decls, b.Lost, b.NextCell)}, nil
}

// sink sends a cell's emissions to the supervisor as events.
type sink struct {
	c          *Call
	ctx        context.Context
	allowStdin bool
}

func (s *sink) Stream(name, text string) {
	s.c.Emit(enginewire.EvStream, enginewire.StreamBody{Name: name, Text: text})
}

func (s *sink) Display(m cellio.Message) { s.c.Emit(enginewire.EvDisplay, m) }

// Comm carries a kernel-side comm message (engine.CommSink), also after the
// request was answered: the supervisor routes it to the last sink that
// carried comm messages.
func (s *sink) Comm(m comm.Message) { s.c.Emit(enginewire.EvComm, m) }

func (s *sink) Input(prompt string, password bool) (string, error) {
	if !s.allowStdin {
		return "", cellio.ErrNoStdin
	}
	select { // a stale reply of an interrupted read
	case <-s.c.inputs:
	default:
	}
	s.c.Emit(enginewire.EvInput, enginewire.InputBody{Prompt: prompt, Password: password})
	select {
	case <-s.ctx.Done():
		return "", fmt.Errorf("input interrupted: %w", s.ctx.Err())
	case r := <-s.c.inputs:
		switch r.Err {
		case "":
		case cellio.ErrNoStdin.Error():
			return "", cellio.ErrNoStdin
		default:
			return "", errors.New(r.Err)
		}
		return r.Value, nil
	}
}
