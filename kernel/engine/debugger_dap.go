package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/traefik/yaegi/interp"

	"github.com/seed43a1e1ab/gocl/kernel/compiled"
)

// dapRequest is a DAP request as Jupyter's debug_request carries it.
type dapRequest struct {
	Seq       int             `json:"seq"`
	Type      string          `json:"type"`
	Command   string          `json:"command"`
	Arguments json.RawMessage `json:"arguments"`
}

// dapError is a request that failed; its text is the response's message.
type dapError string

func (e dapError) Error() string { return string(e) }

// Debug answers one debug_request's content (a DAP request) with the
// debug_reply's content (a DAP response). It never waits for a running
// cell: a cell stopped at a breakpoint is what it is asked about.
func (e *Engine) Debug(_ context.Context, request json.RawMessage) (json.RawMessage, error) {
	var req dapRequest
	if err := json.Unmarshal(request, &req); err != nil || req.Command == "" {
		return dapResponse(req, nil, dapError("a debug_request's content is a DAP request: {\"type\": \"request\", \"command\": ..., \"arguments\": {...}}")), nil
	}
	d := e.debugger()
	handler, ok := dapHandlers[req.Command]
	if !ok {
		return dapResponse(req, nil, dapError(fmt.Sprintf("gocl's debugger does not support the request %q", req.Command))), nil
	}
	if len(req.Arguments) == 0 || string(req.Arguments) == "null" {
		req.Arguments = json.RawMessage("{}")
	}
	body, err := handler(d, req.Arguments)
	return dapResponse(req, body, err), nil
}

func dapResponse(req dapRequest, body any, err error) json.RawMessage {
	r := map[string]any{"seq": req.Seq, "type": "response", "request_seq": req.Seq,
		"command": req.Command, "success": err == nil}
	if err != nil {
		r["message"] = err.Error()
	}
	if body != nil {
		r["body"] = body
	} else {
		r["body"] = map[string]any{}
	}
	b, merr := json.Marshal(r)
	if merr != nil {
		b, _ = json.Marshal(map[string]any{"seq": req.Seq, "type": "response", "request_seq": req.Seq,
			"command": req.Command, "success": false, "message": merr.Error()})
	}
	return b
}

type dapHandler func(d *debugState, args json.RawMessage) (any, error)

var dapHandlers map[string]dapHandler

func init() {
	dapHandlers = map[string]dapHandler{
		"initialize":              (*debugState).initialize,
		"attach":                  (*debugState).attach,
		"configurationDone":       func(*debugState, json.RawMessage) (any, error) { return nil, nil },
		"debugInfo":               (*debugState).debugInfo,
		"dumpCell":                (*debugState).dumpCell,
		"setBreakpoints":          (*debugState).setBreakpoints,
		"setExceptionBreakpoints": (*debugState).setExceptionBreakpoints,
		"threads":                 (*debugState).threads,
		"stackTrace":              (*debugState).stackTrace,
		"scopes":                  (*debugState).scopes,
		"variables":               (*debugState).variables,
		"continue":                (*debugState).cont,
		"next":                    stepper(interp.DebugStepOver),
		"stepIn":                  stepper(interp.DebugStepInto),
		"stepOut":                 stepper(interp.DebugStepOut),
		"pause":                   (*debugState).pause,
		"disconnect":              (*debugState).disconnect,
		"inspectVariables":        (*debugState).inspectVariables,
		"richInspectVariables":    (*debugState).richInspectVariables,
		"evaluate":                (*debugState).evaluate,
		"exceptionInfo":           (*debugState).exceptionInfo,
		"source":                  (*debugState).source,
		"modules": func(*debugState, json.RawMessage) (any, error) {
			return map[string]any{"modules": []any{}, "totalModules": 0}, nil
		},
	}
}

func decodeArgs(args json.RawMessage, v any) error {
	if err := json.Unmarshal(args, v); err != nil {
		return dapError("bad arguments: " + err.Error())
	}
	return nil
}

func (d *debugState) initialize(json.RawMessage) (any, error) {
	d.mu.Lock()
	d.started = true
	d.mu.Unlock()
	return map[string]any{
		"supportsConfigurationDoneRequest": true,
		"supportsEvaluateForHovers":        true,
		"supportsConditionalBreakpoints":   false,
		"supportsFunctionBreakpoints":      false,
		"supportsSetVariable":              false,
		"supportsStepBack":                 false,
		"supportsDelayedStackTraceLoading": false,
		"supportsExceptionInfoRequest":     true,
		"exceptionBreakpointFilters": []any{map[string]any{
			"filter": panicFilter, "label": "Go panics", "default": false,
			"description": "Stop where a panic that nothing recovers is raised, before it ends the cell",
		}},
	}, nil
}

// attach sends the "initialized" event, as debugpy does: JupyterLab
// builds its pause-on-exceptions menu from initialize's response when the
// event comes, so it must come after that response (JupyterLab attaches
// once it has it), not while initialize is answered.
func (d *debugState) attach(json.RawMessage) (any, error) {
	d.mu.Lock()
	d.started = true
	d.mu.Unlock()
	d.emit("initialized", map[string]any{})
	return nil, nil
}

func (d *debugState) debugInfo(json.RawMessage) (any, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	bps := []map[string]any{}
	paths := make([]string, 0, len(d.bps))
	for p := range d.bps {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		lines := []map[string]any{}
		for _, l := range d.bps[p] {
			lines = append(lines, map[string]any{"line": l})
		}
		bps = append(bps, map[string]any{"source": p, "breakpoints": lines})
	}
	stopped := []int{}
	for g := range d.stopped {
		stopped = append(stopped, g)
	}
	sort.Ints(stopped)
	return map[string]any{
		"isStarted":      d.started,
		"hashMethod":     "Murmur2",
		"hashSeed":       hashSeed,
		"tmpFilePrefix":  d.prefix,
		"tmpFileSuffix":  tmpFileSuffix,
		"breakpoints":    bps,
		"stoppedThreads": stopped,
		"richRendering":  true,
		"exceptionPaths": []string{},
		"copyToGlobals":  false,
	}, nil
}

func (d *debugState) dumpCell(args json.RawMessage) (any, error) {
	var a struct {
		Code *string `json:"code"`
	}
	if err := decodeArgs(args, &a); err != nil {
		return nil, err
	}
	if a.Code == nil {
		return nil, dapError("dumpCell needs arguments.code, the cell's source")
	}
	path := d.pathOf(*a.Code)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, dapError("dumpCell: " + err.Error())
	}
	if err := os.WriteFile(path, []byte(*a.Code), 0o600); err != nil {
		return nil, dapError("dumpCell: " + err.Error())
	}
	return map[string]any{"sourcePath": path}, nil
}

// codeAt is the source JupyterLab dumped at path or that a cell that ran
// had, and whether there is one.
func (d *debugState) codeAt(path string) (string, bool) {
	for _, code := range d.codes {
		if d.pathOf(code) == path {
			return code, true
		}
	}
	b, err := os.ReadFile(path)
	if err != nil || filepath.Dir(path)+string(filepath.Separator) != d.prefix {
		return "", false
	}
	return string(b), true
}

func (d *debugState) setBreakpoints(args json.RawMessage) (any, error) {
	var a struct {
		Source struct {
			Path string `json:"path"`
		} `json:"source"`
		Breakpoints []struct {
			Line int `json:"line"`
		} `json:"breakpoints"`
		Lines []int `json:"lines"`
	}
	if err := decodeArgs(args, &a); err != nil {
		return nil, err
	}
	if a.Source.Path == "" {
		return nil, dapError("setBreakpoints needs arguments.source.path (dumpCell's sourcePath)")
	}
	requested := a.Lines
	if len(a.Breakpoints) > 0 {
		requested = requested[:0:0]
		for _, b := range a.Breakpoints {
			requested = append(requested, b.Line)
		}
	}
	d.mu.Lock()
	code, known := d.codeAt(a.Source.Path)
	d.mu.Unlock()
	var breakable []int
	isCompiled := known && compiled.IsCompiled(code)
	if known && !isCompiled {
		breakable = breakableLines(code)
	}
	out := []map[string]any{}
	var set []int
	for _, l := range requested {
		bp := map[string]any{"verified": false, "source": map[string]any{"path": a.Source.Path}, "line": l}
		switch at, ok := nextBreakable(breakable, l); {
		case !known:
			bp["message"] = "gocl does not know this source: dump the cell (dumpCell) first"
		case isCompiled:
			bp["message"] = "a //gocl:compile cell runs as compiled Go: the debugger steps over its calls and cannot stop inside it"
		case !ok:
			bp["message"] = "no Go statement at or after this line of the cell"
		default:
			bp["verified"] = true
			bp["line"] = at
			set = append(set, at)
		}
		bp["id"] = len(out) + 1
		out = append(out, bp)
	}
	d.mu.Lock()
	d.bps[a.Source.Path] = set
	if d.dbg != nil {
		d.applyBreakpoints()
	}
	d.mu.Unlock()
	return map[string]any{"breakpoints": out}, nil
}

// panicFilter is the exception breakpoint filter that stops on a panic.
const panicFilter = "panics"

// setExceptionBreakpoints turns the stop on panics on or off: with the
// "panics" filter, a panic that nothing recovers stops the cell where it
// was raised (reason "exception"), and continue ends the cell with the
// panic's error as without the debugger.
func (d *debugState) setExceptionBreakpoints(args json.RawMessage) (any, error) {
	var a struct {
		Filters []string `json:"filters"`
	}
	if err := decodeArgs(args, &a); err != nil {
		return nil, err
	}
	on := false
	out := []map[string]any{}
	for _, f := range a.Filters {
		if f == panicFilter {
			on = true
			out = append(out, map[string]any{"verified": true})
			continue
		}
		out = append(out, map[string]any{"verified": false,
			"message": fmt.Sprintf("gocl's debugger has one exception filter, %q (a panic that nothing recovers), not %q", panicFilter, f)})
	}
	d.mu.Lock()
	d.stopOnPanic = on
	if d.dbg != nil {
		d.dbg.SetStopOnPanic(on)
	}
	d.mu.Unlock()
	return map[string]any{"breakpoints": out}, nil
}

// exceptionInfo describes the panic a thread is stopped for.
func (d *debugState) exceptionInfo(args json.RawMessage) (any, error) {
	var a struct {
		ThreadID int `json:"threadId"`
	}
	if err := decodeArgs(args, &a); err != nil {
		return nil, err
	}
	if a.ThreadID == 0 {
		a.ThreadID = 1
	}
	d.mu.Lock()
	ev, ok := d.stopped[a.ThreadID]
	d.mu.Unlock()
	if !ok {
		return nil, dapError(fmt.Sprintf("thread %d is not stopped", a.ThreadID))
	}
	v, ok := ev.PanicValue()
	if !ok {
		return nil, dapError(fmt.Sprintf("thread %d is not stopped on a panic", a.ThreadID))
	}
	text, typ := panicDescription(v)
	return map[string]any{"exceptionId": "panic", "description": text, "breakMode": "unhandled",
		"details": map[string]any{"message": text, "typeName": typ}}, nil
}

func (d *debugState) threads(json.RawMessage) (any, error) {
	d.mu.Lock()
	dbg := d.dbg
	d.mu.Unlock()
	threads := []map[string]any{{"id": 1, "name": "cell"}}
	if dbg != nil {
		threads = threads[:0]
		for _, g := range dbg.GoRoutines() {
			name := "goroutine " + strconv.Itoa(g.ID())
			if g.ID() == 1 {
				name = "cell"
			}
			threads = append(threads, map[string]any{"id": g.ID(), "name": name})
		}
		if len(threads) == 0 {
			threads = append(threads, map[string]any{"id": 1, "name": "cell"})
		}
	}
	return map[string]any{"threads": threads}, nil
}

func (d *debugState) stackTrace(args json.RawMessage) (any, error) {
	var a struct {
		ThreadID   int `json:"threadId"`
		StartFrame int `json:"startFrame"`
		Levels     int `json:"levels"`
	}
	if err := decodeArgs(args, &a); err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if a.ThreadID == 0 {
		a.ThreadID = 1
	}
	ev, ok := d.stopped[a.ThreadID]
	if !ok {
		return nil, dapError(fmt.Sprintf("thread %d is not stopped", a.ThreadID))
	}
	n := ev.FrameDepth()
	frames := []map[string]any{}
	for i, f := range ev.Frames(0, n) {
		if i < a.StartFrame || (a.Levels > 0 && len(frames) >= a.Levels) {
			continue
		}
		id := a.ThreadID*1000 + i + 1
		d.frames[id] = f
		pos := f.Position()
		cell := cellOfFile(pos.Filename)
		name := f.Name()
		if name == "main" || name == "<init>" || name == bodyName {
			name = cell // a cell's top level, not gocl's wrapper
		}
		fr := map[string]any{"id": id, "name": name, "line": pos.Line, "column": pos.Column}
		if code, ok := d.codes[cell]; ok {
			fr["source"] = map[string]any{"name": cell, "path": d.pathOf(code)}
		} else {
			fr["presentationHint"] = "subtle"
		}
		frames = append(frames, fr)
	}
	return map[string]any{"stackFrames": frames, "totalFrames": n}, nil
}

func (d *debugState) scopes(args json.RawMessage) (any, error) {
	var a struct {
		FrameID int `json:"frameId"`
	}
	if err := decodeArgs(args, &a); err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	f, ok := d.frames[a.FrameID]
	if !ok {
		return nil, dapError(fmt.Sprintf("no frame %d: ask stackTrace while stopped", a.FrameID))
	}
	locals := d.newRef(varRef{frame: f})
	globals := d.newRef(varRef{globals: true})
	return map[string]any{"scopes": []map[string]any{
		{"name": "Locals", "variablesReference": locals, "expensive": false},
		{"name": "Globals", "variablesReference": globals, "expensive": false},
	}}, nil
}

func (d *debugState) cont(args json.RawMessage) (any, error) {
	var a struct {
		ThreadID int `json:"threadId"`
	}
	if err := decodeArgs(args, &a); err != nil {
		return nil, err
	}
	d.mu.Lock()
	dbg := d.dbg
	var gs []int
	for g := range d.stopped {
		gs = append(gs, g)
	}
	d.clearStops()
	d.mu.Unlock()
	if dbg == nil || len(gs) == 0 {
		return nil, dapError("nothing is stopped")
	}
	// continued goes out before the cell runs on: after, it could follow
	// the cell's next stop, and JupyterLab would drop that stop's state.
	d.emit("continued", map[string]any{"threadId": a.ThreadID, "allThreadsContinued": true})
	for _, g := range gs {
		if err := d.resume(dbg, g, 0); err != nil {
			return nil, dapError(fmt.Sprintf("continue goroutine %d: %v", g, err))
		}
	}
	return map[string]any{"allThreadsContinued": true}, nil
}

// stepper answers next, stepIn and stepOut.
func stepper(reason interp.DebugEventReason) dapHandler {
	return func(d *debugState, args json.RawMessage) (any, error) {
		var a struct {
			ThreadID int `json:"threadId"`
		}
		if err := decodeArgs(args, &a); err != nil {
			return nil, err
		}
		if a.ThreadID == 0 {
			a.ThreadID = 1
		}
		d.mu.Lock()
		dbg := d.dbg
		ev, ok := d.stopped[a.ThreadID]
		if ok {
			file, line, depth := d.where(ev)
			d.steps[a.ThreadID] = stepFrom{reason: reason, file: file, line: line, depth: depth}
			delete(d.stopped, a.ThreadID)
			clear(d.frames)
			clear(d.refs)
		}
		d.mu.Unlock()
		if dbg == nil || !ok {
			return nil, dapError(fmt.Sprintf("thread %d is not stopped", a.ThreadID))
		}
		d.emit("continued", map[string]any{"threadId": a.ThreadID, "allThreadsContinued": false}) // before the step's stop
		if err := d.resume(dbg, a.ThreadID, reason); err != nil {
			return nil, dapError(fmt.Sprintf("step: %v", err))
		}
		return nil, nil
	}
}

func (d *debugState) pause(args json.RawMessage) (any, error) {
	var a struct {
		ThreadID int `json:"threadId"`
	}
	if err := decodeArgs(args, &a); err != nil {
		return nil, err
	}
	if a.ThreadID == 0 {
		a.ThreadID = 1
	}
	d.mu.Lock()
	dbg := d.dbg
	d.mu.Unlock()
	if dbg == nil {
		return nil, dapError("no cell is running")
	}
	if !dbg.Interrupt(a.ThreadID, interp.DebugPause) {
		return nil, dapError(fmt.Sprintf("thread %d is not running", a.ThreadID))
	}
	return nil, nil
}

// disconnect stops debugging: breakpoints go, a stopped cell runs on.
func (d *debugState) disconnect(json.RawMessage) (any, error) {
	d.mu.Lock()
	d.started = false
	d.stopOnPanic = false
	clear(d.bps)
	dbg := d.dbg
	var gs []int
	for g := range d.stopped {
		gs = append(gs, g)
	}
	d.clearStops()
	if dbg != nil {
		dbg.SetStopOnPanic(false)
		for name, progs := range d.progs {
			_ = name
			for _, p := range progs {
				dbg.SetBreakpoints(interp.ProgramBreakpointTarget(p), interp.LineBreakpoint(-1))
			}
		}
	}
	d.mu.Unlock()
	if len(gs) > 0 {
		d.emit("continued", map[string]any{"threadId": 1, "allThreadsContinued": true})
	}
	for _, g := range gs {
		_ = d.resume(dbg, g, 0)
	}
	return nil, nil
}

func (d *debugState) source(args json.RawMessage) (any, error) {
	var a struct {
		Source struct {
			Path string `json:"path"`
		} `json:"source"`
	}
	if err := decodeArgs(args, &a); err != nil {
		return nil, err
	}
	d.mu.Lock()
	code, ok := d.codeAt(a.Source.Path)
	d.mu.Unlock()
	if !ok {
		return nil, dapError("source unavailable")
	}
	return map[string]any{"content": code}, nil
}
