package e2e

// `gocl run` never loses a notebook: a failed or interrupted run writes
// nothing, a link stays a link, and input it cannot take or a target it
// cannot write is refused before any cell runs.

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// withOutputs writes a notebook whose cells carry committed outputs, as one
// under version control does.
func withOutputs(t *testing.T, dir, name string, sources ...string) string {
	t.Helper()
	path := notebookWith(t, dir, name, sources...)
	nb := readJSON(t, path)
	for i, c := range nb["cells"].([]any) {
		c.(map[string]any)["execution_count"] = i + 1
		c.(map[string]any)["outputs"] = []any{map[string]any{"output_type": "stream", "name": "stdout", "text": "committed\n"}}
	}
	b := mustJSON(t, nb)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRunKeepsNotebook(t *testing.T) {
	dir := t.TempDir()
	unchanged := func(path string, before []byte, what string) {
		t.Helper()
		if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
			t.Errorf("%s changed the notebook:\n%.300s", what, after)
		}
	}

	// A failing cell: --inplace leaves the notebook as committed.
	nbPath := withOutputs(t, dir, "fail.ipynb", `fmt.Println("new")`, `panic("no")`, `fmt.Println("later")`)
	before, _ := os.ReadFile(nbPath)
	if status, _, stderr := goclRun(t, dir, "fail.ipynb", "--inplace"); status != 1 || !strings.Contains(stderr, "not written") {
		t.Errorf("failing cell: exit %d, want 1 and \"not written\"\n%s", status, stderr)
	}
	unchanged(nbPath, before, "a failed --inplace run")

	// Ctrl-C (SIGINT to the foreground process group) during a cell writes
	// nothing, with or without --allow-errors.
	nbPath = withOutputs(t, dir, "intr.ipynb", `fmt.Println("first")`, `time.Sleep(time.Minute)`, `fmt.Println("later")`)
	before, _ = os.ReadFile(nbPath)
	for _, extra := range [][]string{nil, {"--allow-errors"}} {
		cmd := exec.Command(goclBin, append([]string{"run", "intr.ipynb", "--inplace"}, extra...)...)
		cmd.Dir = dir
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		var out syncBuffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(60 * time.Second)
		for !strings.Contains(out.String(), "[1/3]") && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		time.Sleep(300 * time.Millisecond) // into the sleeping cell
		syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
			t.Fatalf("gocl run %v did not stop on SIGINT:\n%s", extra, out.String())
		}
		if code := cmd.ProcessState.ExitCode(); code != 130 {
			t.Errorf("gocl run %v after SIGINT: exit %d, want 130\n%s", extra, code, out.String())
		}
		unchanged(nbPath, before, "an interrupted --inplace run")
	}

	// A symbolic link: the file it names gets the outputs, keeping its
	// mode; the link stays a link.
	notebookWith(t, dir, "real.ipynb", `fmt.Println("through the link")`)
	os.Chmod(filepath.Join(dir, "real.ipynb"), 0o640)
	if err := os.Symlink("real.ipynb", filepath.Join(dir, "link.ipynb")); err != nil {
		t.Fatal(err)
	}
	if status, _, stderr := goclRun(t, dir, "link.ipynb", "--inplace"); status != 0 {
		t.Fatalf("through a link: exit %d\n%s", status, stderr)
	}
	if fi, err := os.Lstat(filepath.Join(dir, "link.ipynb")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("--inplace replaced the symbolic link with a file")
	}
	if fi, _ := os.Stat(filepath.Join(dir, "real.ipynb")); fi.Mode().Perm() != 0o640 {
		t.Errorf("the notebook's mode became %v, want -rw-r-----", fi.Mode().Perm())
	}
	if o := cellOutputs(t, readJSON(t, filepath.Join(dir, "real.ipynb")), 0); len(o) != 1 || textOf(o[0]) != "through the link\n" {
		t.Errorf("the link's target has outputs %v", o)
	}

	// Refused before any cell runs: the cell would leave a file behind.
	marker := `os.WriteFile("ran", nil, 0o644)`
	ro := notebookWith(t, dir, "ro.ipynb", marker)
	os.Chmod(ro, 0o444)
	roBefore, _ := os.ReadFile(ro)
	latin := notebookWith(t, dir, "latin1.ipynb", marker+"\n// caf\u00e9")
	raw, _ := os.ReadFile(latin)
	os.WriteFile(latin, bytes.Replace(raw, []byte("caf\u00e9"), []byte("caf\xe9"), 1), 0o644)
	notebookWith(t, dir, "ok.ipynb", marker)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"ro.ipynb", "--inplace"}, "read-only"},
		{[]string{"ok.ipynb", "-o", "ro.ipynb"}, "read-only"},
		{[]string{"latin1.ipynb"}, "not UTF-8"},
		{[]string{"ok.ipynb", "-o", "missing/out.ipynb"}, "does not exist"},
	} {
		status, _, stderr := goclRun(t, dir, c.args...)
		if status != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("gocl run %v: exit %d, stderr %q; want 2 and %q", c.args, status, stderr, c.want)
		}
		if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
			t.Errorf("gocl run %v ran a cell before refusing", c.args)
			os.Remove(filepath.Join(dir, "ran"))
		}
	}
	unchanged(ro, roBefore, "a run onto a read-only notebook")
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// syncBuffer is a bytes.Buffer that a running command may write while the
// test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
