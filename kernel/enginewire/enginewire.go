// Package enginewire is the protocol between the kernel process and its
// engine process (`gocl engine`): JSON lines over a Unix socket, plain data
// only.
//
// The kernel sends Requests; each names an operation (Op) and carries an ID.
// The engine answers a request with any number of Events carrying the same
// ID (a cell's streams, displays and input requests) and exactly one final
// Event of kind EvDone, whose body is the operation's answer. Notifications
// (interrupt, input_reply, ping) get no EvDone. Adding a kind of request is
// one more Op constant, one body type here and one handler in the engine
// process (kernel/enginehost); nothing else changes.
package enginewire

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/seed43a1e1ab/gocl/kernel/cellio"
)

// Operations the kernel asks of the engine.
const (
	OpExecute    = "execute"     // ExecuteBody -> ExecuteReply
	OpEvaluate   = "evaluate"    // EvaluateBody -> EvaluateReply
	OpComplete   = "complete"    // CompleteBody -> CompleteReply
	OpInspect    = "inspect"     // InspectBody -> InspectReply
	OpIsComplete = "is_complete" // IsCompleteBody -> IsCompleteReply
	OpDeclare    = "declare"     // DeclareBody -> DeclareReply: re-declare cells after a crash
	OpComm       = "comm"        // comm.Message from the front end -> ExecuteReply
	OpCommInfo   = "comm_info"   // CommInfoBody -> CommInfoReply
	OpShutdown   = "shutdown"    // no body -> no body; the engine process exits after EvDone
	OpBlocked    = "blocked"     // no body -> BlockedReply: is an interrupted statement still stuck?
	OpDebug      = "debug"       // a DAP request (debug_request's content) -> a DAP response (debug_reply's)

	// Notifications: no EvDone.
	OpInterrupt  = "interrupt"   // TargetBody: cancel the request Target
	OpInputReply = "input_reply" // InputReplyBody: the answer to an EvInput
	OpPing       = "ping"        // answered by EvPong with the same ID
)

// Kinds of Event the engine sends.
const (
	EvReady   = "ready"   // ReadyBody, once, ID 0: the engine is ready for requests
	EvStream  = "stream"  // StreamBody
	EvDisplay = "display" // cellio.Message
	EvInput   = "input"   // InputBody: the cell reads stdin; answer with OpInputReply
	EvDone    = "done"    // the request's answer
	EvPong    = "pong"    // the answer to OpPing
	EvComm    = "comm"    // comm.Message from the kernel side (a widget); may come after its request's EvDone
	EvDebug   = "debug"   // a DAP event (debug_event's content), ID 0: the debugger stopped, continued...
)

// Request is one message from the kernel to the engine.
type Request struct {
	ID   uint64          `json:"id"`
	Op   string          `json:"op"`
	Body json.RawMessage `json:"body,omitempty"`
}

// Event is one message from the engine to the kernel.
type Event struct {
	ID   uint64          `json:"id"`
	Kind string          `json:"ev"`
	Body json.RawMessage `json:"body,omitempty"`
}

// ExecuteBody asks to run one cell.
type ExecuteBody struct {
	Code       string `json:"code"`
	AllowStdin bool   `json:"allow_stdin"`
}

// ExecuteReply is how a cell ended.
type ExecuteReply struct {
	Result cellio.Result `json:"result"`
	// Blocked says a statement of this or an earlier interrupted cell is
	// still inside a compiled call.
	Blocked bool `json:"blocked,omitempty"`
	// Cell is the engine's name of the cell ("cell3"), and Declared what
	// it declared, for a replay after a crash.
	Cell     string            `json:"cell,omitempty"`
	Declared []cellio.Declared `json:"declared,omitempty"`
}

// BlockedReply says whether a statement of an interrupted cell is still
// inside a compiled call (OpBlocked).
type BlockedReply struct {
	Blocked bool `json:"blocked,omitempty"`
}

// EvaluateBody asks for the value of one expression (user_expressions).
type EvaluateBody struct {
	Expr string `json:"expr"`
}

// EvaluateReply is the value of an expression, or why it has none.
type EvaluateReply struct {
	Data cellio.Bundle     `json:"data,omitempty"`
	Err  *cellio.CellError `json:"error,omitempty"`
}

// CompleteBody is a complete_request.
type CompleteBody struct {
	Code   string `json:"code"`
	Cursor int    `json:"cursor"`
}

// CompleteReply is a complete_reply.
type CompleteReply struct {
	Matches  []string       `json:"matches"`
	Start    int            `json:"start"`
	End      int            `json:"end"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

// InspectBody is an inspect_request.
type InspectBody struct {
	Code   string `json:"code"`
	Cursor int    `json:"cursor"`
	Detail int    `json:"detail"`
}

// InspectReply is an inspect_reply.
type InspectReply struct {
	Data  map[string]any `json:"data,omitempty"`
	Found bool           `json:"found"`
}

// IsCompleteBody is an is_complete_request.
type IsCompleteBody struct {
	Code string `json:"code"`
}

// IsCompleteReply is an is_complete_reply.
type IsCompleteReply struct {
	Status string `json:"status"`
	Indent string `json:"indent,omitempty"`
}

// DeclareBody is what a fresh engine declares again after the engine
// process died: declarations (imports, consts, types, funcs, methods and
// compiled cells: never statements, main or init), in the order the cells
// made them; the names that were lost, each with the words a cell that
// uses one gets; and the engine's next cell number, so that cell names
// stay unique across engines.
type DeclareBody struct {
	Decls    []cellio.Declared `json:"decls,omitempty"`
	Lost     map[string]string `json:"lost,omitempty"`
	NextCell int               `json:"next_cell,omitempty"`
}

// DeclareReply lists the declarations that failed to be made again, each
// with its error in Lost.
type DeclareReply struct {
	Failed []cellio.Declared `json:"failed,omitempty"`
}

// CommInfoBody is a comm_info_request.
type CommInfoBody struct {
	Target string `json:"target,omitempty"`
}

// CommInfoReply lists open comms, comm id -> target name.
type CommInfoReply struct {
	Comms map[string]string `json:"comms"`
}

// TargetBody names the request a notification is about.
type TargetBody struct {
	Target uint64 `json:"target"`
}

// InputReplyBody answers an EvInput of request Target.
type InputReplyBody struct {
	Target uint64 `json:"target"`
	Value  string `json:"value"`
	Err    string `json:"error,omitempty"`
}

// ReadyBody describes the engine process.
type ReadyBody struct {
	PID   int    `json:"pid"`
	Error string `json:"error,omitempty"` // the engine could not start
}

// StreamBody is text a cell wrote.
type StreamBody struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// InputBody is a cell's read of stdin.
type InputBody struct {
	Prompt   string `json:"prompt"`
	Password bool   `json:"password"`
}

// Conn sends and receives one side of the protocol. Send may be called from
// any goroutine; Receive from one goroutine at a time.
type Conn struct {
	mu  sync.Mutex
	w   *bufio.Writer
	r   io.Reader
	dec *json.Decoder
}

// NewConn reads messages from r and writes them to w.
func NewConn(r io.Reader, w io.Writer) *Conn {
	br := bufio.NewReaderSize(r, 64<<10)
	return &Conn{w: bufio.NewWriterSize(w, 64<<10), r: br, dec: json.NewDecoder(br)}
}

// bigMessage is the size past which Receive starts a new decoder: a
// json.Decoder keeps a buffer as large as the largest message it read, so
// one 200 MB display would hold 200 MB or more for the rest of the session.
const bigMessage = 1 << 20

// Send writes v (a Request or an Event) as one line and flushes it. v is
// encoded before the connection is taken, so that a small message (a pong)
// never waits while another goroutine encodes a large one (a 200 MB
// display, seconds on a busy machine): the supervisor would take that
// silence for a frozen engine.
func (c *Conn) Send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := c.w.Write(b); err != nil {
		return err
	}
	return c.w.Flush()
}

// Receive reads the next message into v.
func (c *Conn) Receive(v any) error {
	start := c.dec.InputOffset()
	err := c.dec.Decode(v)
	if err == nil && c.dec.InputOffset()-start > bigMessage {
		rest, _ := io.ReadAll(c.dec.Buffered()) // a copy: not the big buffer
		c.dec = json.NewDecoder(io.MultiReader(bytes.NewReader(rest), c.r))
	}
	return err
}

// Body marshals v for a Request's or an Event's Body.
func Body(v any) json.RawMessage {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		// Every body type here marshals; a cell's display data that does
		// not (a NaN in JSON data) is reported instead of lost silently.
		b, _ = json.Marshal(map[string]string{"marshal_error": err.Error()})
	}
	return b
}

// Decode unmarshals a Body into v, saying which message was malformed.
func Decode(kind string, body json.RawMessage, v any) error {
	if len(body) == 0 {
		return nil
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("engine protocol: bad %s body: %w", kind, err)
	}
	return nil
}
