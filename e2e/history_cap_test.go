package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestHistoryCapAndRSS: a cell with a 16 MB result leaves a small history
// file (kernel/history's caps), so the next kernel, which reads the file at start, starts at the
// usual size (before, every later kernel read the whole result back:
// 891 MB resident after a 200 MB cell).
func TestHistoryCapAndRSS(t *testing.T) {
	data := t.TempDir()
	env := "JUPYTER_DATA_DIR=" + data
	k := startKernel(t, env)
	base := rssMB(t, k.cmd.Process.Pid)
	rep, _ := k.execute(`s := strings.Repeat("x", 16<<20)
s`, nil)
	if rep["status"] != "ok" {
		t.Fatalf("cell failed: %v", rep)
	}
	k.execute("1", nil) // the history of the big cell is saved after its reply
	path := filepath.Join(data, "gocl", "history.jsonl")
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() > 1<<20 {
		t.Errorf("history file is %d bytes after a 16 MB result; want it capped under 1 MB", fi.Size())
	}
	time.Sleep(3 * time.Second) // the kernel gives the memory back 2 s after
	t.Logf("kernel RSS %d MB at start, %d MB after the 16 MB result", base, rssMB(t, k.cmd.Process.Pid))

	k2 := startKernel(t, env)
	if rss := rssMB(t, k2.cmd.Process.Pid); rss > base+40 {
		t.Errorf("a new kernel starts at %d MB resident after the big cell, the first one at %d MB", rss, base)
	}
}
