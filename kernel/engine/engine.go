package engine

import (
	"context"
	"fmt"
	"go/ast"
	"os"
	"path"
	"reflect"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/traefik/yaegi/interp"

	"github.com/seed43a1e1ab/gocl/kernel/cellctx"
	"github.com/seed43a1e1ab/gocl/kernel/cellmodel"
	"github.com/seed43a1e1ab/gocl/kernel/compiled"
	"github.com/seed43a1e1ab/gocl/kernel/display"
	"github.com/seed43a1e1ab/gocl/kernel/symbols/stdlib"
)

// Options configures a new Engine.
type Options struct {
	// Exports are symbol tables beyond yaegi's standard library, such as
	// symbols.Symbols.
	Exports []interp.Exports
	// Preimports maps an alias to an import path usable in every cell
	// without an import line, e.g. {"cl": "github.com/seed43a1e1ab/gocl/clapi"}.
	Preimports map[string]string
}

// DefaultImports are the standard packages every cell may use without an
// import line, besides Options.Preimports.
var DefaultImports = []string{"fmt", "os", "time", "math", "strings", "sort", "errors", "sync"}

// Time limits of the engine. They guard against hangs; none is a pass/fail
// condition of a cell.
const (
	// stopGrace is how long an interrupted cell may take to unwind before
	// Execute returns and reports that it is still running.
	stopGrace = 80 * time.Millisecond
	// busyWait is how long a new cell waits for an interrupted one that is
	// stuck in a compiled call.
	busyWait = 2 * time.Second
	// drainTimeout bounds the wait for captured output at the end of a cell.
	drainTimeout = 2 * time.Second
)

// Engine runs cells in one yaegi interpreter. Its methods may be called from
// any goroutine; cells run one at a time.
//
// An Engine is not alone in its process, but what its requests use is the
// process's: fds 1 and 2 are captured once per process, and display, comm,
// the Output widgets and compiled code reach a request through the one
// running request of kernel/cellctx, which holds its context, its sink and
// its captures. So the requests (cells, comm messages, evaluations) of all
// the Engines in a process take turns: a request of one waits for the
// running request of another to end. The comm registry is the process's
// too: New forgets the comms of earlier Engines. Several Engines may be
// open at once (a kernel restart makes the new one before it closes the
// old; tests), and only one of them is running at any moment.
type Engine struct {
	mu      sync.Mutex // held for a whole cell
	in      *interp.Interpreter
	stopper *stopper
	closed  bool
	cellSeq int
	busy    chan struct{} // closed when an interrupted cell finally stopped

	stdin *stdinReader

	state       sync.Mutex                            // guards what Scope reads
	files       map[string]string                     // cell name -> source, for tracebacks
	imports     map[string]string                     // name in cells -> import path
	types       map[string]string                     // type name -> normalized declaration
	decls       map[string]Symbol                     // user declarations by name
	dropped     map[string]string                     // names a failed cell declared but never set, by cell
	methods     map[string]*ast.FuncDecl              // methods of the cells' types, by "T.M", for yaegi_modern.go
	methodTexts map[string]string                     // normalized source of each method, by "T.M"
	pkgVars     []pkgVar                              // compiled packages' variables cells assign (yaegi_pkgvars.go)
	avail       map[string]bool                       // importable package paths
	symbols     map[string]map[string]reflect.Value   // compiled symbols by import path, for exprType
	tables      []map[string]map[string]reflect.Value // the symbol tables, keyed as interp.Exports, for the type checker
	cross       *crossing                             // values of cell types handed to compiled code (crossing.go)
	// showType numbers the static type of the value the running cell
	// shows, when compiled fmt would print it wrong; else -1.
	showType int

	replay replayLog // declarations for a replay after a crash, and names one lost (replay.go)

	trace   traceLog
	result  atomic.Pointer[display.Bundle] // set by the show helper
	current atomic.Pointer[string]         // name of the running (or last) cell
	model   atomic.Pointer[cellmodel.Cell] // the running (or last) cell's model, for positions (split.go)
}

// Fixed files for fds 1 and 2, used by interpreted code whatever the host
// program does with os.Stdout and os.Stderr. Kept referenced forever: an
// *os.File closes its descriptor when collected.
var (
	cellStdout = os.NewFile(1, "/dev/stdout")
	cellStderr = os.NewFile(2, "/dev/stderr")
	// keepStdio holds the process's own os.Stdout and os.Stderr: a host
	// that reassigns them (to OriginalStdout, say) must not let their
	// finalizers close fds 1 and 2.
	keepStdio = []*os.File{os.Stdout, os.Stderr}
)

// New makes an engine. The first call in a process starts capturing fds 1
// and 2 (see OriginalStdout). New forgets the comms that earlier Engines
// opened, and its setup waits, as a request does, for the running request
// of another Engine to end (see Engine).
func New(opts Options) (*Engine, error) {
	if err := startCapture(); err != nil {
		return nil, err
	}
	useOwnStdio()
	resetComms() // comms of an earlier interpreter are gone (comm.go)
	e := &Engine{
		files:       map[string]string{},
		imports:     map[string]string{},
		types:       map[string]string{},
		decls:       map[string]Symbol{},
		dropped:     map[string]string{},
		methods:     map[string]*ast.FuncDecl{},
		methodTexts: map[string]string{},
		avail:       map[string]bool{},
	}
	e.stdin = &stdinReader{}
	e.in = interp.New(interp.Options{
		Stdin:        e.stdin,
		Stdout:       cellWriter{},
		Stderr:       &stderrFilter{e: e},
		Env:          os.Environ(),
		Unrestricted: true,
	})
	e.stopper = newStopper(e.in)
	e.stdin.stopped = e.stopper.stopped

	// The standard library of the Go that built gocl, then the generic
	// packages' interpreted sources (they replace the older ones yaegi
	// compiles when it sees fmt), then the extra tables.
	tables := append([]interp.Exports{stdlib.Symbols}, opts.Exports...)
	e.cross = newCrossing()
	for i, t := range tables {
		e.tables = append(e.tables, t)
		if err := e.in.Use(t); err != nil {
			return nil, fmt.Errorf("load symbols: %w", err)
		}
		for k, syms := range t {
			if p := path.Dir(k); p != "." && !strings.HasPrefix(p, "github.com/traefik/yaegi") {
				e.avail[p] = true // not yaegi's own hooks
			}
			if e.symbols == nil {
				e.symbols = map[string]map[string]reflect.Value{}
			}
			e.symbols[path.Dir(k)] = syms
		}
		if i > 0 {
			continue
		}
		for _, src := range stdlib.Sources() {
			if _, err := e.in.Compile(src.Code); err != nil {
				return nil, fmt.Errorf("load the generic package %s: %w", src.Path, err)
			}
			e.avail[src.Path] = true
		}
	}
	if err := e.in.Use(e.overrides()); err != nil {
		return nil, fmt.Errorf("load engine symbols: %w", err)
	}
	e.avail[hookPath] = true

	pre := map[string]string{}
	for _, p := range DefaultImports {
		pre[p] = p
	}
	for alias, p := range opts.Preimports {
		if !e.avail[p] {
			return nil, fmt.Errorf("preimport %s %q: no symbols for that package; add its table to Options.Exports", alias, p)
		}
		pre[alias] = p
	}
	aliases := make([]string, 0, len(pre))
	for a := range pre {
		aliases = append(aliases, a)
	}
	sort.Strings(aliases)
	var b strings.Builder
	b.WriteString("import (\n")
	for _, a := range aliases {
		fmt.Fprintf(&b, "\t%s %q\n", a, pre[a])
	}
	b.WriteString(")\n")
	b.WriteString(helperSource)
	b.WriteString(builtinSource)
	if _, ok := pre["display"]; ok && pre["display"] == displayPath {
		b.WriteString(richSource)
	}
	if r := e.execute(context.Background(), b.String(), discardSink{}, "gocl"); r.Err != nil {
		return nil, fmt.Errorf("engine setup failed: %s", strings.Join(r.Err.Traceback, "\n"))
	}
	e.state.Lock()
	for name := range e.decls {
		if strings.HasPrefix(name, helperPrefix) {
			delete(e.decls, name)
		}
	}
	for _, name := range builtinNames {
		delete(e.decls, name)
	}
	e.state.Unlock()

	return e, nil
}

// Close drops the interpreter. Goroutines a cell started keep running until
// the process ends (yaegi cannot kill them); a restart makes a new Engine.
func (e *Engine) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil
	}
	e.closed = true
	e.stopper.closing.Store(true) // every goroutine stops now, a cell's own ones too
	e.closeCompiled()             // compiled.go
	e.stopper.arm()
	e.stopper.stop() // ends interpreted goroutines at their next step
	e.in = nil
	return nil
}

// Execute runs one cell. Output reaches sink while the cell runs; everything
// the cell wrote has been delivered when Execute returns. Cancelling ctx
// interrupts the cell.
func (e *Engine) Execute(ctx context.Context, code string, sink Sink) Result {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return Result{Err: simpleError("EngineClosed", "this engine was closed; restart the kernel")}
	}
	if err := e.waitBusy(ctx); err != nil {
		return Result{Err: err}
	}
	e.cellSeq++
	name := fmt.Sprintf("cell%d", e.cellSeq)
	e.replay.begin(name)
	if compiled.IsCompiled(code) { // a //gocl:compile cell: see compiled.go
		return e.executeCompiled(ctx, code, sink, name)
	}
	return e.compiledHints(e.execute(ctx, code, sink, name))
}

// waitBusy waits for an interrupted cell that was still inside a compiled
// call, so two cells never run at once.
func (e *Engine) waitBusy(ctx context.Context) *CellError {
	if e.busy == nil {
		return nil
	}
	select {
	case <-e.busy:
		e.busy = nil
		return nil
	case <-ctx.Done():
		return simpleError("Interrupted", "interrupted while waiting for the previous cell to stop")
	case <-time.After(busyWait):
		return simpleError("Busy", "the previous, interrupted cell is still inside a compiled call (time.Sleep of a "+
			"binary package, a C call, a blocking read...) that cannot be stopped; wait for it to return and run this cell again, or restart the kernel")
	}
}

// requests makes the requests of every Engine in the process take turns:
// what a request captures and routes (fds 1 and 2, cells' stdin, the running
// request of kernel/cellctx) is the process's. One Engine's requests already
// take turns under its mu, which is taken first.
var requests sync.Mutex

// beginRequest waits for the running request of any Engine to end, then
// begins one whose output goes to sink: the running request of
// kernel/cellctx, which display, comm, the Output widgets and compiled code
// reach. end ends it.
func beginRequest(ctx context.Context, sink Sink) (req *cellctx.Request, end func()) {
	requests.Lock()
	req, endReq := cellctx.Begin(ctx, cellctx.IO{Sink: sink, Flush: flushOutput, Log: OriginalStderr()})
	return req, func() {
		endReq()
		requests.Unlock()
	}
}

// beginCellIO begins one request (a cell, a compiled cell, a comm message)
// that also receives the captured fds 1 and 2 and answers the cells' stdin.
// The function it returns ends it, once every byte written has been
// delivered.
func (e *Engine) beginCellIO(ctx context.Context, sink Sink) (req *cellctx.Request, end func()) {
	req, endReq := beginRequest(ctx, sink)
	exiting.Store(false) // a new cell shows its output (yaegi_process.go)
	outStream.attach(req.Stream)
	errOut.attach(req.Stream)
	e.stdin.begin(req)
	return req, func() {
		if err := flushAll(drainTimeout); err != nil {
			fmt.Fprintf(OriginalStderr(), "gocl: %v\n", err)
		}
		outStream.detach()
		errOut.detach()
		e.stdin.end()
		endReq()
	}
}

// flushOutput delivers what the running request wrote to fds 1 and 2 so
// far: before a display, and at both ends of an Output widget's capture.
func flushOutput() { _ = flushAll(drainTimeout) }
