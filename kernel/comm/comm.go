// Package comm is gocl's side of Jupyter comms: the plain data of a comm
// message, the comms the kernel holds open, the targets front ends may open,
// and the route that carries kernel-side messages out.
//
// It never sees a socket. The dispatcher decodes comm_open, comm_msg and
// comm_close into a Message and hands it to the engine, which calls Deliver
// while it runs the handlers as it runs cells; what the kernel side sends
// (Open, Send, Close) goes out through the running request's sink
// (kernel/cellctx), or the last one that carried a comm message when no
// request runs. A Message holds plain data only, so it crosses a process
// boundary unchanged.
package comm

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/seed43a1e1ab/gocl/kernel/cellctx"
	"github.com/seed43a1e1ab/gocl/kernel/cellio"
)

// Message types of the comm protocol.
const (
	TypeOpen  = cellio.CommOpen
	TypeMsg   = cellio.CommMsg
	TypeClose = cellio.CommClose
)

// Message is one comm message, in either direction: plain data
// (cellio.CommMessage), so it crosses a process boundary unchanged.
type Message = cellio.CommMessage

// Handler receives the messages of one open comm.
type Handler interface {
	// Msg handles a comm_msg from the front end.
	Msg(m Message) error
	// Closed is called once when the comm closes, from either side; m is
	// the front end's comm_close, or the zero Message when the kernel
	// closed it or the registry was reset.
	Closed(m Message)
}

// Opener answers a comm_open from the front end for one target: it returns
// the new comm's handler, or an error to refuse it (the comm is then closed).
type Opener func(m Message) (Handler, error)

type openComm struct {
	target string
	h      Handler
}

var (
	mu      sync.Mutex
	targets = map[string]Opener{}
	comms   = map[string]*openComm{}
	resets  []func()
	// lastRoute is the last request that carried a comm message: what
	// the kernel side sends while no request runs (from a goroutine) goes
	// through it, as ipykernel sends it with the last request as parent.
	lastRoute atomic.Pointer[cellctx.Request]
)

// publish sends m through the running request (kernel/cellctx), else
// through the last request that carried a comm message. Without either, or
// when the running request's sink carries no comms, m is dropped.
func publish(m Message) {
	r := cellctx.Running()
	if r == nil {
		r = lastRoute.Load()
	}
	if r.Comm(m) {
		lastRoute.Store(r)
	}
}

// RegisterTarget makes target_name openable from the front end; a later
// registration replaces an earlier one.
func RegisterTarget(name string, open Opener) {
	mu.Lock()
	defer mu.Unlock()
	targets[name] = open
}

// OnReset registers f to run on Reset, after every comm was closed: packages
// that keep per-interpreter state forget it there.
func OnReset(f func()) {
	mu.Lock()
	defer mu.Unlock()
	resets = append(resets, f)
}

// NewID returns a fresh comm id (32 hex digits, as Jupyter's uuid4 hex).
func NewID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("comm: no randomness for a comm id: " + err.Error())
	}
	return hex.EncodeToString(b[:])
}

// Open opens a comm from the kernel side with the id given (NewID when
// empty): it registers h and publishes comm_open.
func Open(id, target string, data, metadata map[string]any, buffers [][]byte, h Handler) string {
	if id == "" {
		id = NewID()
	}
	mu.Lock()
	comms[id] = &openComm{target: target, h: h}
	mu.Unlock()
	publish(Message{Type: TypeOpen, CommID: id, TargetName: target, Data: data, Metadata: metadata, Buffers: buffers})
	return id
}

// Send publishes a comm_msg on the open comm id; it returns an error when id
// is not open.
func Send(id string, data, metadata map[string]any, buffers [][]byte) error {
	mu.Lock()
	_, ok := comms[id]
	mu.Unlock()
	if !ok {
		return fmt.Errorf("comm %s is not open (closed by the front end, or the kernel restarted)", id)
	}
	publish(Message{Type: TypeMsg, CommID: id, Data: data, Metadata: metadata, Buffers: buffers})
	return nil
}

// Close closes the comm id from the kernel side: it publishes comm_close and
// calls the handler's Closed. Closing a comm that is not open does nothing.
func Close(id string, data map[string]any) {
	mu.Lock()
	c, ok := comms[id]
	delete(comms, id)
	mu.Unlock()
	if !ok {
		return
	}
	publish(Message{Type: TypeClose, CommID: id, Data: data})
	c.h.Closed(Message{})
}

// IsOpen reports whether the comm id is open.
func IsOpen(id string) bool {
	mu.Lock()
	defer mu.Unlock()
	_, ok := comms[id]
	return ok
}

// Info lists the open comms as comm_info_reply does: comm id -> target name,
// only those of target when it is not empty.
func Info(target string) map[string]string {
	mu.Lock()
	defer mu.Unlock()
	out := map[string]string{}
	for id, c := range comms {
		if target == "" || c.target == target {
			out[id] = c.target
		}
	}
	return out
}

// RefusedError is Deliver's error for a comm_open it answered with
// comm_close: no such target, or its opener refused. It is the protocol
// working as the spec says, not a failure of the user's code, so the kernel
// logs it and shows nothing.
type RefusedError struct{ Reason string }

func (e *RefusedError) Error() string { return e.Reason }

// Deliver handles one message from the front end. A comm_open to an unknown
// target, or one its opener refuses, is answered with comm_close, as the
// messaging spec asks, and reported as a *RefusedError; a comm_msg for a comm
// that is not open (after a restart, say) is an error.
func Deliver(m Message) error {
	switch m.Type {
	case TypeOpen:
		mu.Lock()
		open := targets[m.TargetName]
		mu.Unlock()
		if open == nil {
			publish(Message{Type: TypeClose, CommID: m.CommID})
			return &RefusedError{fmt.Sprintf("comm_open to target %q refused: gocl has no such comm target (it has %s)",
				m.TargetName, targetList())}
		}
		h, err := open(m)
		if err != nil {
			publish(Message{Type: TypeClose, CommID: m.CommID})
			return &RefusedError{fmt.Sprintf("comm_open to target %q refused: %v", m.TargetName, err)}
		}
		mu.Lock()
		comms[m.CommID] = &openComm{target: m.TargetName, h: h}
		mu.Unlock()
		return nil
	case TypeMsg:
		mu.Lock()
		c := comms[m.CommID]
		mu.Unlock()
		if c == nil {
			return fmt.Errorf("comm_msg for comm %s, which is not open: the kernel may have restarted since the widget "+
				"was made; run its cell again", m.CommID)
		}
		return c.h.Msg(m)
	case TypeClose:
		mu.Lock()
		c := comms[m.CommID]
		delete(comms, m.CommID)
		mu.Unlock()
		if c != nil {
			c.h.Closed(m)
		}
		return nil
	}
	return fmt.Errorf("comm: unknown message type %q", m.Type)
}

func targetList() string {
	mu.Lock()
	defer mu.Unlock()
	names := make([]string, 0, len(targets))
	for n := range targets {
		names = append(names, fmt.Sprintf("%q", n))
	}
	sort.Strings(names)
	if len(names) == 0 {
		return "none"
	}
	return fmt.Sprint(names)
}

// Reset forgets every open comm (without messages: the front end learns of a
// restart by itself) and the last request that carried one, and runs the
// OnReset functions. The engine calls it when a fresh interpreter starts, so
// comms of the old one are gone.
func Reset() {
	lastRoute.Store(nil)
	mu.Lock()
	old := comms
	comms = map[string]*openComm{}
	fs := append([]func(){}, resets...)
	mu.Unlock()
	for _, c := range old {
		c.h.Closed(Message{})
	}
	for _, f := range fs {
		f()
	}
}
