package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"

	"github.com/seed43a1e1ab/gocl/kernel/display"
	"github.com/seed43a1e1ab/gocl/kernel/engine/internal/ctest"
	"github.com/seed43a1e1ab/gocl/kernel/symbols"
)

// TestMain keeps the test binary's own output on the real descriptors: the
// engine captures fds 1 and 2 for cells.
func TestMain(m *testing.M) {
	os.Stdout = OriginalStdout()
	os.Stderr = OriginalStderr()
	os.Exit(m.Run())
}

type event struct {
	kind string // "stdout", "stderr", "display"
	text string
	msg  display.Message
}

// recorder is a Sink that records everything, in order.
type recorder struct {
	mu      sync.Mutex
	events  []event
	prompts []string
	replies []string // answers to Input, in order
	refuse  error    // when set, Input fails with it
}

func (r *recorder) Stream(name, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if n := len(r.events); n > 0 && r.events[n-1].kind == name {
		r.events[n-1].text += text
		return
	}
	r.events = append(r.events, event{kind: name, text: text})
}

func (r *recorder) Display(m display.Message) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, event{kind: "display", msg: m})
}

func (r *recorder) Input(prompt string, password bool) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.prompts = append(r.prompts, prompt)
	if r.refuse != nil {
		return "", r.refuse
	}
	if len(r.replies) == 0 {
		return "", errors.New("test recorder: no more replies")
	}
	s := r.replies[0]
	r.replies = r.replies[1:]
	return s, nil
}

// text joins everything written on stream name.
func (r *recorder) text(name string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	for _, e := range r.events {
		if e.kind == name {
			b.WriteString(e.text)
		}
	}
	return b.String()
}

var cTest = interp.Exports{"gocl.test/ctest/ctest": {
	"Print":   reflect.ValueOf(ctest.Print),
	"Eprint":  reflect.ValueOf(ctest.Eprint),
	"WriteFD": reflect.ValueOf(ctest.WriteFD),
}}

func newEngine(t *testing.T, extra ...interp.Exports) *Engine {
	t.Helper()
	e, err := New(Options{
		Exports:    append([]interp.Exports{symbols.Symbols, cTest}, extra...),
		Preimports: map[string]string{"display": "github.com/seed43a1e1ab/gocl/kernel/display"},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// run executes code with a hang guard and returns the result and recorder.
func run(t *testing.T, e *Engine, code string) (Result, *recorder) {
	t.Helper()
	r := &recorder{}
	return runWith(t, e, code, r), r
}

func runWith(t *testing.T, e *Engine, code string, r *recorder) Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res := e.Execute(ctx, code, r)
	if ctx.Err() != nil {
		t.Fatalf("cell hung (hang guard): %q", code)
	}
	return res
}

// ok runs code, fails on a cell error and returns the text/plain result.
func ok(t *testing.T, e *Engine, code string) (string, *recorder) {
	t.Helper()
	res, r := run(t, e, code)
	if res.Err != nil {
		t.Fatalf("cell %q failed:\n%s", code, strings.Join(res.Err.Traceback, "\n"))
	}
	if res.Data == nil {
		return "", r
	}
	s, _ := res.Data[display.MIMEText].(string)
	return s, r
}

// fails runs code and returns its error, failing when it has none.
func fails(t *testing.T, e *Engine, code string) *CellError {
	t.Helper()
	res, _ := run(t, e, code)
	if res.Err == nil {
		t.Fatalf("cell %q succeeded, want an error", code)
	}
	if len(res.Err.Traceback) == 0 || !strings.HasPrefix(res.Err.Traceback[0], res.Err.Name+": ") {
		t.Errorf("traceback should start with %q: %q", res.Err.Name+": ", res.Err.Traceback)
	}
	return res.Err
}

func tb(err *CellError) string { return strings.Join(err.Traceback, "\n") }

func expect(t *testing.T, what, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %q, want %q", what, got, want)
	}
}

var _ = fmt.Sprint
