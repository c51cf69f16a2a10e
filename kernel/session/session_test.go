package session

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/seed43a1e1ab/gocl/kernel/cellio"
	"github.com/seed43a1e1ab/gocl/kernel/engine"
)

// TestMain reports on the test process's own stdout and stderr: the engine
// captures file descriptors 1 and 2 for its cells.
func TestMain(m *testing.M) {
	os.Stdout = engine.OriginalStdout()
	os.Stderr = engine.OriginalStderr()
	os.Exit(m.Run())
}

type nullSink struct{}

func (nullSink) Stream(name, text string) {}
func (nullSink) Display(m cellio.Message) {}
func (nullSink) Input(prompt string, password bool) (string, error) {
	return "", cellio.ErrNoStdin
}

// TestFailedImportDeclaresNothing checks that a cell whose import fails
// teaches completion none of its names: it declared none, and a crash
// replay does not declare them either (cellio.CellError.BeforeRun).
func TestFailedImportDeclaresNothing(t *testing.T) {
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	res := s.Execute(ctx, "import \"no/such/pkg\"\n\nfunc Zorkless() int { return 1 }\n", nullSink{})
	if res.Err == nil || res.Err.Name != "ImportError" {
		t.Fatalf("the cell gave %+v, want an ImportError", res.Err)
	}
	res = s.Execute(ctx, "func Zorkful() int { return 2 }\n", nullSink{})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	matches, _, _, _ := s.Complete("Zork", 4)
	if slices.Contains(matches, "Zorkless") {
		t.Errorf("completion of Zork offers %v: Zorkless was never declared (its cell's import failed)", matches)
	}
	if !slices.Contains(matches, "Zorkful") {
		t.Errorf("completion of Zork offers %v, want Zorkful", matches)
	}
}
