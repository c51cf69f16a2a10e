package e2e

// `gocl run`: the same outputs as `jupyter nbconvert --execute` for the
// tour notebook, and the command line's behaviours.

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// goclRun runs `gocl run args...` in dir and returns its exit status and
// output.
func goclRun(t *testing.T, dir string, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(goclBin, append([]string{"run"}, args...)...)
	cmd.Dir = dir
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), o.String(), e.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, o.String(), e.String()
}

func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

// elapsed matches the timings a progress bar shows ("0.5 s", "~0.3 s left").
var elapsed = regexp.MustCompile(`[0-9]+\.[0-9]+ s`)

// comparable drops what differs between two runs of the same notebook:
// nbclient's timing metadata, cell ids, and the times a progress bar shows.
func comparable(nb map[string]any) map[string]any {
	for _, c := range nb["cells"].([]any) {
		cell := c.(map[string]any)
		delete(cell, "id")
		if md, ok := cell["metadata"].(map[string]any); ok {
			delete(md, "execution")
		}
	}
	raw, _ := json.Marshal(nb)
	raw = elapsed.ReplaceAll(raw, []byte("T s"))
	var out map[string]any
	json.Unmarshal(raw, &out)
	return out
}

func TestRunMatchesNbconvertOnTour(t *testing.T) {
	if _, err := exec.LookPath("jupyter-nbconvert"); err != nil {
		t.Skip("jupyter nbconvert is not installed (Debian: jupyter-nbconvert)")
	}
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("..", "notebooks", "00-tour.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	tour := filepath.Join(dir, "00-tour.ipynb")
	os.WriteFile(tour, src, 0o644)

	status, _, stderr := goclRun(t, dir, "00-tour.ipynb", "-o", "run.ipynb")
	if status != 0 {
		t.Fatalf("gocl run exited %d:\n%s", status, stderr)
	}
	// nbconvert with a kernelspec for the binary under test.
	prefix := filepath.Join(dir, "prefix")
	if out, err := exec.Command(goclBin, "install", "--prefix", prefix).CombinedOutput(); err != nil {
		t.Fatalf("gocl install: %v\n%s", err, out)
	}
	cmd := exec.Command("jupyter-nbconvert", "--to", "notebook", "--execute", "--ExecutePreprocessor.kernel_name=gocl",
		"--ExecutePreprocessor.timeout=120", "--output", "nbconvert.ipynb", "00-tour.ipynb")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "JUPYTER_PATH="+filepath.Join(prefix, "share", "jupyter"),
		"JUPYTER_DATA_DIR="+filepath.Join(dir, "data"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nbconvert: %v\n%s", err, out)
	}
	run, nbc := readJSON(t, filepath.Join(dir, "run.ipynb")), readJSON(t, filepath.Join(dir, "nbconvert.ipynb"))
	if run["nbformat"] != 4.0 || run["nbformat_minor"] != 5.0 {
		t.Errorf("gocl run wrote nbformat %v.%v, want 4.5", run["nbformat"], run["nbformat_minor"])
	}
	a, b := comparable(run), comparable(nbc)
	if !reflect.DeepEqual(a["metadata"], b["metadata"]) {
		t.Errorf("notebook metadata differs:\ngocl run:   %v\nnbconvert: %v", a["metadata"], b["metadata"])
	}
	ca, cb := a["cells"].([]any), b["cells"].([]any)
	if len(ca) != len(cb) {
		t.Fatalf("%d cells from gocl run, %d from nbconvert", len(ca), len(cb))
	}
	outputs := 0
	for i := range ca {
		if !reflect.DeepEqual(ca[i], cb[i]) {
			ja, _ := json.MarshalIndent(ca[i], "", " ")
			jb, _ := json.MarshalIndent(cb[i], "", " ")
			t.Errorf("cell %d differs:\ngocl run:\n%s\nnbconvert:\n%s", i, ja, jb)
		}
		if o, ok := ca[i].(map[string]any)["outputs"].([]any); ok {
			outputs += len(o)
		}
	}
	if outputs < 8 {
		t.Errorf("only %d outputs in the tour: the comparison proves little", outputs)
	}
	// Written as nbformat writes: one-space indent, sorted keys, raw UTF-8,
	// a final newline.
	raw, _ := os.ReadFile(filepath.Join(dir, "run.ipynb"))
	if !bytes.HasPrefix(raw, []byte("{\n \"cells\": [\n  {\n")) || !bytes.HasSuffix(raw, []byte("}\n")) {
		t.Errorf("gocl run's JSON layout is not nbformat's:\n%.200s", raw)
	}
}

// notebookWith writes a notebook of code cells (a tagged cell is given as
// "tag:TAG\n" + source) into dir.
func notebookWith(t *testing.T, dir, name string, sources ...string) string {
	t.Helper()
	var cells []any
	for _, src := range sources {
		md := map[string]any{}
		if tag, rest, ok := strings.Cut(src, "\n"); ok && strings.HasPrefix(tag, "tag:") {
			md["tags"] = []any{strings.TrimPrefix(tag, "tag:")}
			src = rest
		}
		cells = append(cells, map[string]any{"cell_type": "code", "execution_count": nil, "metadata": md,
			"outputs": []any{}, "source": src})
	}
	nb := map[string]any{"cells": cells, "metadata": map[string]any{}, "nbformat": 4, "nbformat_minor": 4}
	b, _ := json.Marshal(nb)
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func cellOutputs(t *testing.T, nb map[string]any, i int) []map[string]any {
	var out []map[string]any
	for _, o := range nb["cells"].([]any)[i].(map[string]any)["outputs"].([]any) {
		out = append(out, o.(map[string]any))
	}
	return out
}

func textOf(o map[string]any) string {
	switch x := o["text"].(type) {
	case string:
		return x
	case []any:
		var b strings.Builder
		for _, s := range x {
			b.WriteString(s.(string))
		}
		return b.String()
	}
	return ""
}

func TestRunCommandLine(t *testing.T) {
	dir := t.TempDir()
	notebookWith(t, dir, "ok.ipynb", "fmt.Println(\"one\")", "x := 6\nx * 7",
		"fmt.Println(os.Getenv(\"GOCL_E2E\"))\nwd, _ := os.Getwd()\nfmt.Println(wd)")

	// Default output: NOTEBOOK.out.ipynb beside it; the input is untouched.
	before, _ := os.ReadFile(filepath.Join(dir, "ok.ipynb"))
	status, stdout, stderr := goclRun(t, dir, "ok.ipynb", "--kernel-env", "GOCL_E2E=from-env")
	if status != 0 {
		t.Fatalf("exit %d\n%s", status, stderr)
	}
	if !strings.Contains(stdout, "one") {
		t.Errorf("cell output not echoed: %q", stdout)
	}
	nb := readJSON(t, filepath.Join(dir, "ok.out.ipynb"))
	if nb["nbformat_minor"] != 5.0 {
		t.Errorf("nbformat_minor = %v, want 5 (4.5: cell ids)", nb["nbformat_minor"])
	}
	for i, c := range nb["cells"].([]any) {
		if id, _ := c.(map[string]any)["id"].(string); id == "" {
			t.Errorf("cell %d has no id", i)
		}
	}
	if o := cellOutputs(t, nb, 1); len(o) != 1 || o[0]["output_type"] != "execute_result" ||
		textOf(map[string]any{"text": o[0]["data"].(map[string]any)["text/plain"]}) != "42" || o[0]["execution_count"] != 2.0 {
		t.Errorf("cell 2 outputs = %v", o)
	}
	real, _ := filepath.EvalSymlinks(dir)
	if o := cellOutputs(t, nb, 2); len(o) != 1 || textOf(o[0]) != "from-env\n"+real+"\n" {
		t.Errorf("--kernel-env and the working directory: %v", o)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "ok.ipynb")); !bytes.Equal(before, after) {
		t.Error("gocl run changed its input without --inplace")
	}

	// -o and --inplace.
	if status, _, stderr := goclRun(t, dir, "ok.ipynb", "-o", "sub.ipynb"); status != 0 {
		t.Fatalf("-o: exit %d\n%s", status, stderr)
	}
	readJSON(t, filepath.Join(dir, "sub.ipynb"))
	if status, _, stderr := goclRun(t, dir, "ok.ipynb", "--inplace"); status != 0 {
		t.Fatalf("--inplace: exit %d\n%s", status, stderr)
	}
	if o := cellOutputs(t, readJSON(t, filepath.Join(dir, "ok.ipynb")), 0); len(o) != 1 || textOf(o[0]) != "one\n" {
		t.Errorf("--inplace outputs = %v", o)
	}

	// A failing cell stops the run (exit 1), writing nothing, unless
	// --allow-errors; a cell tagged raises-exception may fail.
	notebookWith(t, dir, "bad.ipynb", "tag:raises-exception\npanic(\"expected\")", "y := 1\ny +* 2", "fmt.Println(\"after\")")
	status, _, stderr = goclRun(t, dir, "bad.ipynb", "-o", "bad1.ipynb")
	if status != 1 || !strings.Contains(stderr, "y +* 2") {
		t.Errorf("a failing cell: exit %d, want 1 and the cell's error\n%s", status, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "bad1.ipynb")); err == nil {
		t.Errorf("a failed run wrote its notebook")
	}
	status, _, stderr = goclRun(t, dir, "bad.ipynb", "-o", "bad2.ipynb", "--allow-errors")
	if status != 0 {
		t.Errorf("--allow-errors: exit %d\n%s", status, stderr)
	}
	nb = readJSON(t, filepath.Join(dir, "bad2.ipynb"))
	if o := cellOutputs(t, nb, 0); len(o) != 1 || o[0]["output_type"] != "error" {
		t.Errorf("raises-exception cell outputs = %v", o)
	}
	if o := cellOutputs(t, nb, 1); len(o) != 1 || o[0]["output_type"] != "error" || !strings.Contains(
		strings.Join(toStrings(o[0]["traceback"]), "\n"), "y +* 2") {
		t.Errorf("failing cell outputs = %v", o)
	}
	if o := cellOutputs(t, nb, 2); len(o) != 1 || textOf(o[0]) != "after\n" {
		t.Errorf("--allow-errors did not run the rest: %v", o)
	}

	// --timeout stops a cell that runs too long.
	notebookWith(t, dir, "loop.ipynb", "for {}", "fmt.Println(\"not reached\")")
	status, _, stderr = goclRun(t, dir, "loop.ipynb", "-o", "loop.out.ipynb", "--timeout", "1s")
	if status != 1 || !strings.Contains(strings.ToLower(stderr), "time") {
		t.Errorf("--timeout: exit %d\n%s", status, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "loop.out.ipynb")); err == nil {
		t.Errorf("a timed-out run wrote its notebook")
	}

	// Usage errors: exit 2 with a message, nothing written.
	for _, args := range [][]string{
		{}, {"missing.ipynb"}, {"ok.ipynb", "-o", "x.ipynb", "--inplace"}, {"ok.ipynb", "--timeout", "soon"},
		{"ok.ipynb", "--kernel-env", "NOEQUALS"},
	} {
		status, _, stderr := goclRun(t, dir, args...)
		if status != 2 || strings.TrimSpace(stderr) == "" {
			t.Errorf("gocl run %v: exit %d, stderr %q; want 2 and a message", args, status, stderr)
		}
	}
	os.WriteFile(filepath.Join(dir, "junk.ipynb"), []byte("{not json"), 0o644)
	if status, _, stderr := goclRun(t, dir, "junk.ipynb"); status != 2 || !strings.Contains(stderr, "JSON") {
		t.Errorf("a broken notebook: exit %d, %q", status, stderr)
	}
}

func toStrings(v any) []string {
	var out []string
	for _, s := range v.([]any) {
		out = append(out, s.(string))
	}
	return out
}
