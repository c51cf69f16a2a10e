package e2e

import (
	"strings"
	"testing"
	"time"
)

// TestGoroutinePanicKeepsKernel makes a goroutine started by a cell panic,
// once while its cell runs and once while no cell runs: the kernel process
// survives, keeps its state, and each panic is reported on a stderr stream.
func TestGoroutinePanicKeepsKernel(t *testing.T) {
	k := startKernel(t)
	k.execute("kept := 42\nrelease := make(chan bool)", nil)

	rep, outs := k.execute("done := make(chan bool)\ngo func() { defer close(done); panic(\"boom\") }()\n<-done\ntime.Sleep(50 * time.Millisecond)", nil)
	if rep["status"] != "ok" {
		t.Fatalf("reply = %v", rep)
	}
	stderr := stream(t, outs, "stderr")

	// A panic between cells (most likely: the goroutine sleeps first)
	// waits for the next cell.
	_, outs = k.execute("go func() { <-release; time.Sleep(100 * time.Millisecond); panic(\"while idle\") }()\nrelease <- true", nil)
	stderr += stream(t, outs, "stderr")
	time.Sleep(300 * time.Millisecond)

	// Reports reach whichever cell runs when they are written: wait for
	// both, with a hang guard.
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(stderr, "boom") || !strings.Contains(stderr, "while idle") {
		select {
		case <-k.exited:
			t.Fatalf("the kernel exited: %v\n%s", k.exitErr, k.stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no report of both panics on stderr (hang guard); got %q", stderr)
		}
		_, outs = k.execute("time.Sleep(10 * time.Millisecond)", nil)
		stderr += stream(t, outs, "stderr")
	}
	for _, want := range []string{"panic in a goroutine started by cell", "boom (goroutine stopped; the kernel keeps running)"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q lacks %q", stderr, want)
		}
	}

	rep, outs = k.execute("kept + 1", nil)
	res := ofType(outs, "execute_result")
	if rep["status"] != "ok" || len(res) != 1 || decode(t, res[0])["data"].(map[string]any)["text/plain"] != "43" {
		t.Errorf("state lost after goroutine panics: %v %v", rep, outs)
	}
	select {
	case <-k.exited:
		t.Fatalf("the kernel exited: %v\n%s", k.exitErr, k.stderr.String())
	default:
	}
}
