package engine

// JupyterLab's debugger for Go cells (issue 20): the engine keeps yaegi's
// Debugger and answers the Debug Adapter Protocol requests that Jupyter
// carries in debug_request (debugger_dap.go). This file is the part on the
// run path: a chunk runs under yaegi's debugger only while a front end has
// started the debugger; otherwise it runs as it always did.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/traefik/yaegi/interp"
)

// debuggers holds each engine's debugger state, made on first use: the
// Engine struct stays as it was (other work changes engine.go).
var debuggers sync.Map // *Engine -> *debugState

func (e *Engine) debugger() *debugState {
	if d, ok := debuggers.Load(e); ok {
		return d.(*debugState)
	}
	d, _ := debuggers.LoadOrStore(e, newDebugState(e))
	return d.(*debugState)
}

// SetDebugEvents sets where the engine sends the debugger's events (DAP
// events: stopped, continued, thread, initialized): the engine process
// sends them to the kernel, which publishes them as debug_event.
func (e *Engine) SetDebugEvents(f func(event json.RawMessage)) {
	d := e.debugger()
	d.mu.Lock()
	d.events = f
	d.mu.Unlock()
}

// DebugCellSource tells the debugger the source of the cell that is about
// to run, so that its frames and breakpoints map to the path JupyterLab
// derives from that source (debugInfo's hash).
func (e *Engine) DebugCellSource(code string) {
	d := e.debugger()
	d.mu.Lock()
	d.pending = code
	d.mu.Unlock()
}

// debugState is one engine's debugger: what the front end asked for
// (started, breakpoints by path) and, while a chunk runs under yaegi's
// debugger, the goroutines stopped and the references handed out for them.
type debugState struct {
	e *Engine

	mu          sync.Mutex
	events      func(json.RawMessage)
	seq         int
	started     bool
	prefix      string
	pending     string                       // the source of the cell about to run
	codes       map[string]string            // cell name -> its source
	progs       map[string][]*interp.Program // cell name -> its chunks' programs
	bps         map[string][]int             // source path -> verified breakpoint lines
	stopOnPanic bool                         // the "panics" exception filter is on

	dbg     *interp.Debugger           // the chunk running under the debugger, if any
	stopped map[int]*interp.DebugEvent // goroutine -> where it stopped
	steps   map[int]stepFrom           // goroutine -> where its last step began
	frames  map[int]*interp.DebugFrame // frameId -> frame, while stopped
	refs    map[int]varRef             // variablesReference -> what it expands
	nextRef int
}

// stepFrom is where a step began: a step ends on another line or another
// call depth, as a user steps lines, not yaegi's nodes.
type stepFrom struct {
	reason interp.DebugEventReason
	report string // the stop's reason when not "step" (a pause that steps to a line)
	file   string
	line   int
	depth  int
}

func newDebugState(e *Engine) *debugState {
	return &debugState{e: e, codes: map[string]string{}, progs: map[string][]*interp.Program{},
		bps: map[string][]int{}, stopped: map[int]*interp.DebugEvent{}, steps: map[int]stepFrom{},
		frames: map[int]*interp.DebugFrame{}, refs: map[int]varRef{}, prefix: tmpFilePrefix()}
}

// execProgram runs one compiled chunk of a cell: as it always did while no
// front end has started the debugger, else under yaegi's debugger.
func (e *Engine) execProgram(ctx context.Context, prog *interp.Program) (reflect.Value, error) {
	d := e.debugger()
	name := e.runningCell()
	d.mu.Lock()
	if _, ok := d.codes[name]; !ok && d.pending != "" {
		d.codes[name] = d.pending
	}
	d.progs[name] = append(d.progs[name], prog)
	on := d.started
	d.mu.Unlock()
	if !on {
		return e.in.Execute(prog)
	}
	return d.run(ctx, prog)
}

// run executes prog under yaegi's debugger with the breakpoints the front
// end set, until it ends or ctx is cancelled (an interrupt).
func (d *debugState) run(ctx context.Context, prog *interp.Program) (reflect.Value, error) {
	dbg := d.e.in.Debug(context.Background(), prog, d.onEvent, &interp.DebugOptions{GoRoutineStartAt1: true})
	d.mu.Lock()
	d.dbg = dbg
	d.applyBreakpoints()
	dbg.SetStopOnPanic(d.stopOnPanic)
	d.mu.Unlock()
	defer d.detach()
	var res reflect.Value
	var err error
	done := make(chan struct{})
	go func() { res, err = dbg.Wait(); close(done) }()
	if cerr := dbg.Continue(1); cerr != nil {
		return reflect.Value{}, cerr
	}
	select {
	case <-done:
		return res, err
	case <-ctx.Done():
	}
	// Interrupted, perhaps while stopped at a breakpoint: every goroutine
	// of the chunk stops at its next statement.
	d.mu.Lock()
	d.dbg = nil
	d.mu.Unlock()
	dbg.Terminate()
	select {
	case <-done:
	case <-time.After(stopGrace):
	}
	return reflect.Value{}, errors.New("interrupted")
}

// detach forgets the chunk that ended; a front end that saw it stopped is
// told it goes on.
func (d *debugState) detach() {
	d.mu.Lock()
	d.dbg = nil
	wasStopped := len(d.stopped) > 0
	d.clearStops()
	d.mu.Unlock()
	if wasStopped {
		d.emit("continued", map[string]any{"threadId": 1, "allThreadsContinued": true})
	}
}

// clearStops forgets every stop and what was handed out for it; d.mu is
// held.
func (d *debugState) clearStops() {
	clear(d.stopped)
	clear(d.steps)
	clear(d.frames)
	clear(d.refs)
}

// onEvent is yaegi's callback, on the goroutine that stops.
func (d *debugState) onEvent(ev *interp.DebugEvent) {
	reason := ""
	switch ev.Reason() {
	case interp.DebugBreak:
		reason = "breakpoint"
	case interp.DebugPause:
		reason = "pause"
	case interp.DebugEntry:
		reason = "entry"
	case interp.DebugStepInto, interp.DebugStepOver, interp.DebugStepOut:
		reason = "step"
	case interp.DebugPanic:
		reason = "exception"
	case interp.DebugEnterGoRoutine, interp.DebugExitGoRoutine:
		if g := ev.GoRoutine(); g > 1 {
			what := "started"
			if ev.Reason() == interp.DebugExitGoRoutine {
				what = "exited"
			}
			d.emit("thread", map[string]any{"reason": what, "threadId": g})
		}
		return
	default:
		return
	}
	g := ev.GoRoutine()
	d.mu.Lock()
	dbg := d.dbg
	if dbg == nil {
		d.mu.Unlock()
		return
	}
	file, line, depth := d.where(ev)
	if reason == "pause" && (line == 0 || !d.isCell(file)) {
		// Paused between statements: step to the next line of a cell.
		d.steps[g] = stepFrom{reason: interp.DebugStepInto, report: "pause", line: -1}
		d.mu.Unlock()
		go d.resume(dbg, g, interp.DebugStepInto)
		return
	}
	if from, ok := d.steps[g]; ok && reason == "step" {
		// yaegi stops at every node; a user steps lines. Go on while the
		// step is still on the line (and call depth) where it began, or
		// in code that is no cell's (gocl's own helpers).
		if (file == from.file && line == from.line && depth == from.depth) || line == 0 || !d.isCell(file) {
			d.mu.Unlock()
			go d.resume(dbg, g, from.reason)
			return
		}
		if from.report != "" {
			reason = from.report
		}
	}
	delete(d.steps, g)
	d.stopped[g] = ev
	clear(d.frames)
	clear(d.refs)
	d.mu.Unlock()
	body := map[string]any{"reason": reason, "threadId": g, "allThreadsStopped": false}
	if v, ok := ev.PanicValue(); ok {
		text, _ := panicDescription(v)
		body["description"], body["text"] = "Paused on a panic", text
	}
	d.emit("stopped", body)
}

// where is the cell file, line and call depth of an event's top frame.
func (d *debugState) where(ev *interp.DebugEvent) (file string, line, depth int) {
	depth = ev.FrameDepth()
	if fs := ev.Frames(0, 1); len(fs) > 0 {
		p := fs[0].Position()
		return p.Filename, p.Line, depth
	}
	return "", 0, depth
}

// isCell reports whether a position's file name is a cell's ("cell3/_.go").
func (d *debugState) isCell(file string) bool {
	_, ok := d.codes[cellOfFile(file)]
	return ok || strings.HasPrefix(file, "cell")
}

// cellOfFile is the cell a position's file name names: "cell3/_.go" ->
// "cell3".
func cellOfFile(file string) string {
	name, _, _ := strings.Cut(file, "/")
	return name
}

// resume sends a stopped goroutine on: a step or a continue. yaegi
// refuses a goroutine that is still between its stop event and its wait,
// for a moment; resume waits that out.
func (d *debugState) resume(dbg *interp.Debugger, g int, reason interp.DebugEventReason) error {
	deadline := time.Now().Add(2 * time.Second)
	for {
		var err error
		if reason == 0 {
			err = dbg.Continue(g)
		} else {
			err = dbg.Step(g, reason)
		}
		if !errors.Is(err, interp.ErrRunning) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// emit sends a DAP event.
func (d *debugState) emit(event string, body any) {
	d.mu.Lock()
	f := d.events
	d.seq++
	seq := d.seq
	d.mu.Unlock()
	if f == nil {
		return
	}
	b, err := json.Marshal(map[string]any{"seq": seq, "type": "event", "event": event, "body": body})
	if err == nil {
		f(b)
	}
}

// applyBreakpoints sets the breakpoints of every path on the chunks of the
// cells whose source hashes to it; d.mu is held, d.dbg is not nil.
func (d *debugState) applyBreakpoints() {
	for name, progs := range d.progs {
		code, ok := d.codes[name]
		if !ok {
			continue
		}
		lines, ok := d.bps[d.pathOf(code)]
		if !ok {
			continue
		}
		reqs := []interp.BreakpointRequest{interp.LineBreakpoint(-1)} // clears stale ones
		for _, l := range lines {
			reqs = append(reqs, interp.LineBreakpoint(l))
		}
		for _, p := range progs {
			d.dbg.SetBreakpoints(interp.ProgramBreakpointTarget(p), reqs...)
		}
	}
}

// panicDescription is a panic's text as the cell's error will give it (Go's
// words for runtime errors) and its value's type.
func panicDescription(r any) (text, typ string) {
	v := panicValue(r)
	if v == nil {
		return "panic called with nil argument", "nil"
	}
	text = strings.TrimRight(panicText(v), "\n")
	first, rest, _ := strings.Cut(text, "\n")
	if goText, ok := goRuntimeText(first); ok {
		text = goText
		if rest != "" {
			text += "\n" + rest
		}
	}
	return text, fmt.Sprintf("%T", v)
}
