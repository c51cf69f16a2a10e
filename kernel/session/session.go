// Package session joins the interpreter (kernel/engine) to the assistant
// (kernel/assist): an engine that also answers completion, inspection and
// is_complete from its live scope. It is what runs inside the engine process
// (`gocl engine`), and what `gocl run --in-process` and tests use directly.
package session

import (
	"context"
	"reflect"
	"sync"

	"github.com/traefik/yaegi/interp"

	"github.com/seed43a1e1ab/gocl/kernel/assist"
	"github.com/seed43a1e1ab/gocl/kernel/cellio"
	"github.com/seed43a1e1ab/gocl/kernel/engine"
	"github.com/seed43a1e1ab/gocl/kernel/symbols"
)

// Preimports are the packages every cell can use without an import line,
// beyond the standard ones the engine adds itself.
var Preimports = map[string]string{
	"cl":      "github.com/seed43a1e1ab/gocl/clapi",
	"display": "github.com/seed43a1e1ab/gocl/kernel/display",
	"widgets": "github.com/seed43a1e1ab/gocl/kernel/widgets",
}

// NewEngine makes the interpreter that the kernel and `gocl run` share.
func NewEngine() (*engine.Engine, error) {
	return engine.New(engine.Options{
		Exports:    []interp.Exports{symbols.Symbols}, // the engine adds yaegi's stdlib itself
		Preimports: Preimports,
	})
}

// The assistant's symbol and doc tables are the same for every interpreter,
// so one is built per process, on first use.
var (
	assistOnce sync.Once
	assistant  *assist.Assistant
)

func sharedAssistant() *assist.Assistant {
	assistOnce.Do(func() { assistant = assist.New(symbols.Symbols) })
	return assistant
}

// Session is an engine with completion, inspection and is_complete: it
// joins the engine's live scope to kernel/assist.
type Session struct {
	*engine.Engine
	mu      sync.Mutex
	sources []string // cells that compiled, for assist's Sources
}

// New makes an engine that can also answer completion requests.
func New() (*Session, error) {
	e, err := NewEngine()
	if err != nil {
		return nil, err
	}
	return &Session{Engine: e}, nil
}

// Execute runs a cell and remembers its source when it compiled, so that
// the functions and types it declared can be completed and inspected.
func (k *Session) Execute(ctx context.Context, code string, sink engine.Sink) engine.Result {
	res := k.Engine.Execute(ctx, code, sink)
	if res.Err == nil || !res.Err.BeforeRun() {
		k.mu.Lock()
		k.sources = append(k.sources, code)
		k.mu.Unlock()
	}
	return res
}

// Declare makes earlier cells' declarations again in this fresh engine
// after the engine process died (engine.Declare), and remembers their
// sources, as Execute does, so that completion and inspection know them.
func (k *Session) Declare(ctx context.Context, decls []cellio.Declared, lost map[string]string, next int) []cellio.Declared {
	failed := k.Engine.Declare(ctx, decls, lost, next)
	k.mu.Lock()
	for _, d := range decls {
		if d.Kind != "compiled" {
			k.sources = append(k.sources, d.Text)
		}
	}
	k.mu.Unlock()
	return failed
}

// Complete answers complete_request.
func (k *Session) Complete(code string, cursor int) ([]string, int, int, map[string]any) {
	c := sharedAssistant().Complete(code, cursor, scope{k})
	return c.Matches, c.CursorStart, c.CursorEnd, c.Metadata
}

// Inspect answers inspect_request.
func (k *Session) Inspect(code string, cursor, detail int) (map[string]any, bool) {
	return sharedAssistant().Inspect(code, cursor, detail, scope{k})
}

// IsComplete answers is_complete_request.
func (k *Session) IsComplete(code string) (string, string) { return assist.IsComplete(code) }

// scope presents the engine's live state as assist.Scope.
type scope struct{ k *Session }

func (s scope) Globals() map[string]reflect.Value {
	out := map[string]reflect.Value{}
	for name, sym := range s.k.Scope().Globals {
		if sym.Value.IsValid() {
			out[name] = sym.Value
		}
	}
	return out
}

func (s scope) Imports() map[string]string { return s.k.Scope().Imports }

func (s scope) Sources() []string {
	s.k.mu.Lock()
	defer s.k.mu.Unlock()
	return append([]string(nil), s.k.sources...)
}
