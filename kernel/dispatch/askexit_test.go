package dispatch

import (
	"context"
	"testing"

	"github.com/seed43a1e1ab/gocl/kernel/cellio"
)

// namesEngine knows the names in declared and runs every cell as an error,
// so that a cell that reached Execute shows in the reply's status.
type namesEngine struct {
	panickyEngine
	declared map[string]bool
}

func (e namesEngine) Execute(ctx context.Context, code string, sink cellio.Sink) cellio.Result {
	return cellio.Result{Err: &cellio.CellError{Name: "Ran", Value: code}}
}

func (e namesEngine) Evaluate(ctx context.Context, expr string) (cellio.Bundle, *cellio.CellError) {
	if e.declared[expr] {
		return cellio.Bundle{"text/plain": "func()"}, nil
	}
	return nil, &cellio.CellError{Name: "CompileError", Value: "undefined: " + expr}
}

// TestExitAndQuitAskTheFrontEndToExit checks that exit and quit answer as
// ipykernel's do, with the ask_exit payload that makes jupyter console
// close, unless a cell declared the name, which then runs as written.
func TestExitAndQuitAskTheFrontEndToExit(t *testing.T) {
	for _, tc := range []struct {
		code     string
		declared bool
		askExit  bool
	}{
		{"exit", false, true},
		{"quit", false, true},
		{"  exit()\n", false, true},
		{"quit()", false, true},
		{"exit", true, false},
		{"exit(1)", false, false},
		{"os.Exit(0)", false, false},
	} {
		ft := runKernel(t, namesEngine{declared: map[string]bool{"exit": tc.declared}})
		ft.shell <- request(t, "execute_request", map[string]any{"code": tc.code})
		rep := ft.waitSent(t, 1)[0].content
		payload, _ := rep["payload"].([]any)
		asked := false
		for _, p := range payload {
			if m, ok := p.(map[string]any); ok && m["source"] == "ask_exit" && m["keepkernel"] == false {
				asked = true
			}
		}
		if asked != tc.askExit {
			t.Errorf("%q (declared %v): ask_exit payload %v, want %v; reply %v", tc.code, tc.declared, asked, tc.askExit, rep)
		}
		if tc.askExit && rep["status"] != "ok" {
			t.Errorf("%q: status %v, want ok (the cell must not run)", tc.code, rep["status"])
		}
	}
}
