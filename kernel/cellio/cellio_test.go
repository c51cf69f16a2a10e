package cellio

import "testing"

func TestBeforeRun(t *testing.T) {
	for name, want := range map[string]bool{
		"SyntaxError": true, "CompileError": true, "TypeError": true,
		"ImportError": true, // the two copies this replaced disagreed on it
		"panic":       false, "Interrupted": false, "EngineCrash": false, "TimeoutError": false,
	} {
		if got := (&CellError{Name: name}).BeforeRun(); got != want {
			t.Errorf("%s: BeforeRun() = %v, want %v", name, got, want)
		}
	}
}
