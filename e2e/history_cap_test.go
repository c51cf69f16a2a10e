package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHistoryCapAndRSS: a cell with a big result leaves a small history file
// (kernel/history's caps), and a history file grown big by an older gocl is
// cut down by the next kernel, so that the kernels after it start at the
// usual size (before, every later kernel read the whole result back: 891 MB
// resident after a 200 MB cell).
func TestHistoryCapAndRSS(t *testing.T) {
	data := t.TempDir()
	env := "JUPYTER_DATA_DIR=" + data
	path := filepath.Join(data, "gocl", "history.jsonl")
	k := startKernel(t, env)
	base := rssMB(t, k.cmd.Process.Pid)
	rep, _ := k.execute(`s := strings.Repeat("x", 4<<20)
s`, nil)
	if rep["status"] != "ok" {
		t.Fatalf("cell failed: %v", rep)
	}
	k.execute("1", nil) // the history of the big cell is saved after its reply
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() > 1<<20 {
		t.Errorf("history file is %d bytes after a 4 MB result; want it capped under 1 MB", fi.Size())
	}

	// A 64 MB result recorded by an older gocl (written here rather than
	// sent through IOPub, which a loaded machine makes slow).
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	line, _ := json.Marshal(map[string]any{"session": 1, "line": 3, "input": "big()", "output": strings.Repeat("y", 64<<20)})
	f.Write(append(line, '\n'))
	f.Close()
	k2 := startKernel(t, env)
	// The kernel opens (and cuts) its history beside serving, so wait for
	// the cut before reading its size and the kernel's memory.
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if fi, err := os.Stat(path); err == nil && fi.Size() <= 1<<20 {
			break
		}
	}
	rss := rssMB(t, k2.cmd.Process.Pid)
	for end := time.Now().Add(5 * time.Second); rss > base+60 && time.Now().Before(end); rss = rssMB(t, k2.cmd.Process.Pid) {
		time.Sleep(100 * time.Millisecond)
	}
	if rss > base+60 {
		t.Errorf("the kernel that cut the old history down sits at %d MB resident, the first one started at %d MB", rss, base)
	}
	if fi, _ := os.Stat(path); fi.Size() > 1<<20 {
		t.Errorf("history file is still %d bytes after a kernel opened it", fi.Size())
	}
	k3 := startKernel(t, env)
	if rss := rssMB(t, k3.cmd.Process.Pid); rss > base+40 {
		t.Errorf("a new kernel starts at %d MB resident after the big cell, the first one at %d MB", rss, base)
	}
	rep, outs := k3.execute("1 + 1", nil)
	if rep["status"] != "ok" || len(ofType(outs, "execute_result")) != 1 {
		t.Errorf("the kernel after the cut: %v", rep)
	}
}
