package nbrun

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// cellJSON builds one cell of a test notebook.
func code(src string, id string) map[string]any {
	c := map[string]any{"cell_type": "code", "execution_count": nil, "metadata": map[string]any{}, "outputs": []any{}, "source": src}
	if id != "" {
		c["id"] = id
	}
	return c
}

func markdown(src, id string) map[string]any {
	return map[string]any{"cell_type": "markdown", "id": id, "metadata": map[string]any{"tags": []any{"keep"}}, "source": src}
}

// writeNB writes a notebook with the given cells into a temp dir.
func writeNB(t *testing.T, minor int, cells ...map[string]any) string {
	t.Helper()
	nb := map[string]any{
		"cells": cells,
		"metadata": map[string]any{
			"kernelspec":    map[string]any{"name": "gocl", "display_name": "Go (gocl)", "language": "go"},
			"language_info": map[string]any{"name": "go", "version": 1.5},
		},
		"nbformat": 4, "nbformat_minor": minor,
	}
	data, err := json.MarshalIndent(nb, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "nb.ipynb")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

type runResult struct {
	status         int
	stdout, stderr string
	nb             map[string]any
	raw            []byte
}

func runNB(t *testing.T, c Config, args ...string) runResult {
	t.Helper()
	if c.NewEngine == nil {
		c.NewEngine = newFake
	}
	var out, errb bytes.Buffer
	st := c.Main(args, &out, &errb)
	r := runResult{status: st, stdout: out.String(), stderr: errb.String()}
	dest := ""
	for i, a := range args {
		if (a == "-o" || a == "--o") && i+1 < len(args) {
			dest = args[i+1]
		}
		if a == "--inplace" {
			dest = args[0]
		}
	}
	if dest == "" && len(args) > 0 {
		dest = strings.TrimSuffix(args[0], ".ipynb") + ".out.ipynb"
	}
	if data, err := os.ReadFile(dest); err == nil {
		r.raw = data
		if err := json.Unmarshal(data, &r.nb); err != nil {
			t.Fatalf("output is not JSON: %v\n%s", err, data)
		}
	}
	return r
}

func cellsOf(t *testing.T, r runResult) []map[string]any {
	t.Helper()
	if r.nb == nil {
		t.Fatalf("no notebook written; status %d, stderr:\n%s", r.status, r.stderr)
	}
	var out []map[string]any
	for _, c := range r.nb["cells"].([]any) {
		out = append(out, c.(map[string]any))
	}
	return out
}

func outputsOf(c map[string]any) []map[string]any {
	var out []map[string]any
	for _, o := range c["outputs"].([]any) {
		out = append(out, o.(map[string]any))
	}
	return out
}

func lines(v any) []string {
	var out []string
	for _, l := range v.([]any) {
		out = append(out, l.(string))
	}
	return out
}

func TestRoundTrip(t *testing.T) {
	in := writeNB(t, 4,
		markdown("# Title\n\nsome *text*", "md1"),
		code("out \"hello\\n\"\nout \"world\\n\"\nerr \"warn\\n\"\nout \"again\"\nresult \"42\"", "c1"),
		code("   \n", ""),
		map[string]any{"cell_type": "raw", "metadata": map[string]any{}, "source": []any{"raw\n", "text"}},
		code("show - \"<b>x</b>\\n<i>y</i>\"", ""),
		code("out \"é <&> \\f\\x01\\b \\u2028 \\\\ \\\"q\\\"\\t\\n\"", ""),
	)
	r := runNB(t, Config{}, in)
	if r.status != 0 {
		t.Fatalf("status %d, stderr:\n%s", r.status, r.stderr)
	}
	cells := cellsOf(t, r)
	if got := r.nb["nbformat_minor"]; got != float64(5) {
		t.Errorf("nbformat_minor = %v, want 5", got)
	}
	if md := r.nb["metadata"].(map[string]any); md["language_info"].(map[string]any)["version"] != 1.5 {
		t.Errorf("notebook metadata changed: %v", md)
	}
	if !bytes.Contains(r.raw, []byte(`"version": 1.5`)) {
		t.Errorf("number 1.5 not written as is")
	}
	ids := map[string]bool{}
	for i, c := range cells {
		id, _ := c["id"].(string)
		if id == "" || ids[id] {
			t.Errorf("cell %d id %q missing or duplicated", i, id)
		}
		ids[id] = true
	}
	if cells[0]["id"] != "md1" || cells[1]["id"] != "c1" {
		t.Errorf("existing ids not kept: %v %v", cells[0]["id"], cells[1]["id"])
	}
	if got := lines(cells[0]["source"]); !reflect.DeepEqual(got, []string{"# Title\n", "\n", "some *text*"}) {
		t.Errorf("markdown source = %q", got)
	}
	if !reflect.DeepEqual(cells[0]["metadata"], map[string]any{"tags": []any{"keep"}}) {
		t.Errorf("markdown metadata = %v", cells[0]["metadata"])
	}
	if cells[1]["execution_count"] != float64(1) || cells[2]["execution_count"] != nil || cells[4]["execution_count"] != float64(2) {
		t.Errorf("execution counts %v %v %v, want 1, null (blank cell), 2",
			cells[1]["execution_count"], cells[2]["execution_count"], cells[4]["execution_count"])
	}
	outs := outputsOf(cells[1])
	if len(outs) != 4 {
		t.Fatalf("cell 1 has %d outputs, want 4 (stdout, stderr, stdout, result): %v", len(outs), outs)
	}
	if outs[0]["name"] != "stdout" || !reflect.DeepEqual(lines(outs[0]["text"]), []string{"hello\n", "world\n"}) {
		t.Errorf("merged stdout = %v", outs[0])
	}
	if outs[1]["name"] != "stderr" || outs[2]["name"] != "stdout" || !reflect.DeepEqual(lines(outs[2]["text"]), []string{"again"}) {
		t.Errorf("stream order wrong: %v", outs)
	}
	want := map[string]any{"output_type": "execute_result", "execution_count": float64(1),
		"data": map[string]any{"text/plain": []any{"42"}}, "metadata": map[string]any{}}
	if !reflect.DeepEqual(outs[3], want) {
		t.Errorf("execute_result = %v, want %v", outs[3], want)
	}
	disp := outputsOf(cells[4])
	want = map[string]any{"output_type": "display_data",
		"data":     map[string]any{"text/html": []any{"<b>x</b>\n", "<i>y</i>"}, "text/plain": []any{"<b>x</b>\n", "<i>y</i>"}},
		"metadata": map[string]any{}}
	if len(disp) != 1 || !reflect.DeepEqual(disp[0], want) {
		t.Errorf("display_data = %v", disp)
	}
	if !strings.Contains(r.stdout, "hello\nworld\n") || !strings.Contains(r.stdout, "Out[1]: 42") {
		t.Errorf("terminal stdout = %q", r.stdout)
	}
	if !strings.Contains(r.stderr, "[1/3] cell 2 ok") || !strings.Contains(r.stderr, "[2/3] cell 5 ok") {
		t.Errorf("terminal status lines missing: %q", r.stderr)
	}
	checkLikeNbformat(t, r.raw)
}

// checkLikeNbformat compares the bytes with what Python's json module would
// write for the same data (nbformat's writer), and validates the notebook
// with nbformat when it is installed.
func checkLikeNbformat(t *testing.T, raw []byte) {
	t.Helper()
	if !bytes.HasSuffix(raw, []byte("}\n")) {
		t.Errorf("output does not end in a newline")
	}
	py, err := exec.LookPath("/usr/bin/python3")
	if err != nil {
		t.Log("no /usr/bin/python3: byte comparison skipped")
		return
	}
	f := filepath.Join(t.TempDir(), "check.ipynb")
	os.WriteFile(f, raw, 0o644)
	cmd := exec.Command(py, "-c", `import json,sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
sys.stdout.write(json.dumps(d, indent=1, sort_keys=True, ensure_ascii=False, separators=(",", ": ")) + "\n")`, f)
	want, err := cmd.Output()
	if err != nil {
		t.Fatalf("python json: %v", err)
	}
	if !bytes.Equal(raw, want) {
		t.Errorf("JSON differs from Python's json.dumps:\n got: %s\nwant: %s", raw, want)
	}
	if exec.Command(py, "-c", "import nbformat").Run() != nil {
		t.Log("nbformat not installed: validation skipped")
		return
	}
	out, err := exec.Command(py, "-c", `import sys, nbformat
nb = nbformat.read(sys.argv[1], 4)
nbformat.validate(nb)
assert nbformat.writes(nb) + "\n" == open(sys.argv[1], encoding="utf-8").read(), "nbformat would write it differently"`, f).CombinedOutput()
	if err != nil {
		t.Errorf("nbformat rejects the notebook: %v\n%s", err, out)
	}
}

func TestErrorStops(t *testing.T) {
	in := writeNB(t, 5,
		code("out \"one\\n\"", "a"),
		code("out \"before\\n\"\nfail TypeError \"bad thing\"", "b"),
		code("out \"never\\n\"", "c"),
	)
	// Without --allow-errors the run stops and, as with nbconvert, nothing
	// is written.
	o := filepath.Join(filepath.Dir(in), "o.ipynb")
	r := runNB(t, Config{}, in, "-o", o)
	if r.status != 1 {
		t.Fatalf("status %d, want 1", r.status)
	}
	if r.nb != nil {
		t.Errorf("a failed run wrote %s", o)
	}
	if !strings.Contains(r.stderr, "TypeError: bad thing") || !strings.Contains(r.stderr, "--allow-errors") ||
		!strings.Contains(r.stderr, "not written") {
		t.Errorf("stderr = %q", r.stderr)
	}

	r = runNB(t, Config{}, in, "--allow-errors", "-o", o)
	if r.status != 0 {
		t.Fatalf("--allow-errors status %d", r.status)
	}
	cells := cellsOf(t, r)
	outs := outputsOf(cells[1])
	if len(outs) != 2 || outs[1]["output_type"] != "error" || outs[1]["ename"] != "TypeError" || outs[1]["evalue"] != "bad thing" {
		t.Fatalf("failing cell outputs = %v", outs)
	}
	if tb := outs[1]["traceback"].([]any); len(tb) != 2 || tb[1] != "\x1b[31mbad thing\x1b[0m" {
		t.Errorf("traceback = %q", tb)
	}
	if cells[2]["execution_count"] != float64(3) || len(outputsOf(cells[2])) != 1 {
		t.Errorf("--allow-errors did not run the last cell: %v", cells[2])
	}
	checkLikeNbformat(t, r.raw)
}

func TestRaisesExceptionTag(t *testing.T) {
	c := code("fail E \"expected\"", "")
	c["metadata"] = map[string]any{"tags": []any{"raises-exception"}}
	in := writeNB(t, 5, c, code("out \"after\"", ""))
	if r := runNB(t, Config{}, in); r.status != 0 || len(outputsOf(cellsOf(t, r)[1])) != 1 {
		t.Errorf("a raises-exception cell stopped the run: status %d\n%s", r.status, r.stderr)
	}
}

func TestDisplayUpdateAndClear(t *testing.T) {
	in := writeNB(t, 5,
		code("show X \"v1\"\nout \"s\"", ""),
		code("update X \"v2\"\nupdate nosuch \"zz\"\nshow X \"v3\"", ""),
		code("out \"a\"\nclearwait\nout \"b\"\nclearwait", ""),
		code("show Y \"y1\"\nclear\nupdate Y \"y2\"\nout \"c\"", ""),
	)
	r := runNB(t, Config{}, in)
	if r.status != 0 {
		t.Fatalf("status %d\n%s", r.status, r.stderr)
	}
	cells := cellsOf(t, r)
	c0 := outputsOf(cells[0])
	if len(c0) != 2 || !reflect.DeepEqual(lines(c0[0]["data"].(map[string]any)["text/html"]), []string{"v3"}) {
		t.Errorf("display in cell 1 not updated by later cells: %v", c0)
	}
	c1 := outputsOf(cells[1])
	if len(c1) != 1 || !reflect.DeepEqual(lines(c1[0]["data"].(map[string]any)["text/html"]), []string{"v3"}) {
		t.Errorf("cell 2 outputs = %v, want one display v3", c1)
	}
	// clear_output(wait) empties the outputs when the next one arrives; a
	// trailing one with nothing after it clears nothing.
	c2 := outputsOf(cells[2])
	if len(c2) != 1 || !reflect.DeepEqual(lines(c2[0]["text"]), []string{"b"}) {
		t.Errorf("clear_output(wait) outputs = %v, want just b", c2)
	}
	c3 := outputsOf(cells[3])
	if len(c3) != 1 || c3[0]["output_type"] != "stream" {
		t.Errorf("clear_output then update of a cleared display = %v, want just the stream", c3)
	}
	checkLikeNbformat(t, r.raw)
}

func TestCarriageReturnCoalesced(t *testing.T) {
	in := writeNB(t, 5, code("out \"10%\\r\"\nout \"50%\\r\"\nout \"100%\\n\"\nout \"x\\r\\ny\\n\"", ""))
	r := runNB(t, Config{}, in)
	outs := outputsOf(cellsOf(t, r)[0])
	if len(outs) != 1 || !reflect.DeepEqual(lines(outs[0]["text"]), []string{"100%\n", "x\r\n", "y\n"}) {
		t.Errorf("outputs = %q", outs)
	}
}

func TestInplace(t *testing.T) {
	in := writeNB(t, 5, code("out \"hi\"", "k"))
	r := runNB(t, Config{}, in, "--inplace")
	if r.status != 0 {
		t.Fatalf("status %d\n%s", r.status, r.stderr)
	}
	if outs := outputsOf(cellsOf(t, r)[0]); len(outs) != 1 {
		t.Errorf("--inplace did not write outputs into %s", in)
	}
	if _, err := os.Stat(strings.TrimSuffix(in, ".ipynb") + ".out.ipynb"); err == nil {
		t.Errorf("--inplace also wrote .out.ipynb")
	}
	// A second run replaces the outputs rather than adding to them.
	r = runNB(t, Config{}, in, "--inplace")
	if outs := outputsOf(cellsOf(t, r)[0]); len(outs) != 1 {
		t.Errorf("second --inplace run has %d outputs", len(outs))
	}
}

func TestTimeout(t *testing.T) {
	in := writeNB(t, 5, code("sleep", ""), code("out \"x\"", ""))
	r := runNB(t, Config{}, in, "--timeout", "50ms", "--allow-errors")
	cells := cellsOf(t, r)
	outs := outputsOf(cells[0])
	if len(outs) != 1 || outs[0]["ename"] != "TimeoutError" || !strings.Contains(outs[0]["evalue"].(string), "50ms") {
		t.Errorf("timed-out cell outputs = %v", outs)
	}
	if len(outputsOf(cells[1])) != 1 {
		t.Errorf("--allow-errors did not go on after a timeout")
	}

	in = writeNB(t, 5, code("hang", ""), code("out \"x\"", ""))
	r = runNB(t, Config{Grace: 50 * time.Millisecond}, in, "--timeout", "0.05", "--allow-errors")
	if r.status != 1 || !strings.Contains(r.stderr, "did not stop") {
		t.Errorf("a cell ignoring its interrupt: status %d, stderr %q", r.status, r.stderr)
	}
	if r.nb != nil {
		t.Errorf("a run that could not go on wrote its notebook")
	}
}

func TestKernelEnvInputAndDir(t *testing.T) {
	os.Unsetenv("GOCL_N")
	in := writeNB(t, 5, code("env GOCL_N\nerr \"|\"\npwd\ninput", ""))
	r := runNB(t, Config{}, in, "--kernel-env", "GOCL_N=1000", "--kernel-env=GOCL_M=a=b")
	if r.status != 0 {
		t.Fatalf("status %d\n%s", r.status, r.stderr)
	}
	outs := outputsOf(cellsOf(t, r)[0])
	got := ""
	for _, o := range outs {
		got += strings.Join(lines(o["text"]), "")
	}
	dir, _ := filepath.EvalSymlinks(filepath.Dir(in))
	want := "1000|" + dir + "reading stdin is not possible here"
	if !strings.HasPrefix(got, want) {
		t.Errorf("cell saw %q, want prefix %q", got, want)
	}
	if _, set := os.LookupEnv("GOCL_N"); set {
		t.Errorf("GOCL_N still set after the run")
	}
}

func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.ipynb")
	os.WriteFile(bad, []byte("{not json"), 0o644)
	v3 := filepath.Join(dir, "v3.ipynb")
	os.WriteFile(v3, []byte(`{"nbformat": 3, "nbformat_minor": 0, "worksheets": []}`), 0o644)
	good := writeNB(t, 5, code("out \"x\"", ""))
	latin1 := filepath.Join(dir, "latin1.ipynb")
	raw, _ := os.ReadFile(good)
	os.WriteFile(latin1, bytes.Replace(raw, []byte(`"x`), []byte("\"caf\xe9"), 1), 0o644)
	readOnly := filepath.Join(dir, "ro.ipynb")
	os.WriteFile(readOnly, raw, 0o444)
	cases := []struct {
		args []string
		want string
	}{
		{nil, "no notebook"},
		{[]string{good, "--inplace", "-o", "x.ipynb"}, "exclude"},
		{[]string{good, "other.ipynb"}, "one notebook"},
		{[]string{good, "--kernel-env", "NOEQUALS"}, "K=V"},
		{[]string{good, "--timeout", "soon"}, "duration"},
		{[]string{bad}, "invalid JSON"},
		{[]string{v3}, "nbformat 3"},
		{[]string{filepath.Join(dir, "missing.ipynb")}, "no such file"},
		{[]string{latin1}, "not UTF-8 (byte 0xe9 at line"},
		{[]string{good, "-o", filepath.Join(dir, "nodir", "x.ipynb")}, "does not exist"},
		{[]string{good, "-o", readOnly}, "read-only"},
		{[]string{readOnly, "--inplace"}, "read-only"},
		{[]string{good, "-o", dir}, "not a regular file"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		noCell := func() (Runner, error) {
			t.Errorf("Main(%q) started an engine before refusing", c.args)
			return newFake()
		}
		st := Config{NewEngine: noCell}.Main(c.args, &out, &errb)
		if st != 2 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("Main(%q) = %d, stderr %q; want 2 and %q", c.args, st, errb.String(), c.want)
		}
	}
	var errb bytes.Buffer
	if st := (Config{}).Main([]string{good}, &errb, &errb); st != 2 || !strings.Contains(errb.String(), "no engine") {
		t.Errorf("Main without an engine = %d, %q", st, errb.String())
	}
}

func TestSplitLines(t *testing.T) {
	cases := map[string][]any{
		"":               {},
		"a":              {"a"},
		"a\n":            {"a\n"},
		"a\nb":           {"a\n", "b"},
		"a\r\nb\rc\n\n":  {"a\r\n", "b\r", "c\n", "\n"},
		"x\vy\fz\u2028w": {"x\v", "y\f", "z\u2028", "w"},
	}
	for in, want := range cases {
		if got := splitLines(in); !reflect.DeepEqual(got, want) {
			t.Errorf("splitLines(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLanguageInfoReplaced(t *testing.T) {
	in := writeNB(t, 5, code("out \"x\"", ""))
	li := map[string]any{"name": "go", "version": "1.99", "codemirror_mode": "go"}
	r := runNB(t, Config{LanguageInfo: li}, in)
	if r.status != 0 {
		t.Fatalf("status %d\n%s", r.status, r.stderr)
	}
	got := r.nb["metadata"].(map[string]any)["language_info"].(map[string]any)
	if len(got) != 3 || got["version"] != "1.99" || got["codemirror_mode"] != "go" {
		t.Errorf("language_info = %v, want %v", got, li)
	}
}

// TestFailureKeepsInplace checks that a failed or interrupted --inplace run
// leaves the notebook byte for byte as it was: its committed outputs are
// not traded for half a run.
func TestFailureKeepsInplace(t *testing.T) {
	in := writeNB(t, 5, code("out \"new\"", "a"), code("fail ValueError \"no\"", "b"), code("out \"later\"", "c"))
	before, _ := os.ReadFile(in)
	if r := runNB(t, Config{}, in, "--inplace"); r.status != 1 {
		t.Fatalf("status %d, want 1", r.status)
	}
	if after, _ := os.ReadFile(in); !bytes.Equal(before, after) {
		t.Errorf("a failed --inplace run changed the notebook")
	}

	in = writeNB(t, 5, code("out \"new\"", "a"), code("sleep", "b"), code("out \"later\"", "c"))
	before, _ = os.ReadFile(in)
	opt, err := parseArgs([]string{in, "--inplace"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel) // Ctrl-C during cell 2
	var errb bytes.Buffer
	if st := (Config{NewEngine: newFake}).run(ctx, opt, io.Discard, &errb); st != 130 {
		t.Errorf("interrupted run: status %d, want 130\n%s", st, errb.String())
	}
	if after, _ := os.ReadFile(in); !bytes.Equal(before, after) {
		t.Errorf("an interrupted --inplace run changed the notebook")
	}
}

// TestWriteThroughSymlink checks that the executed notebook goes to the
// file a symbolic link names, the link staying a link, with the file's
// permissions kept.
func TestWriteThroughSymlink(t *testing.T) {
	in := writeNB(t, 5, code("out \"hi\"", "a"))
	dir := filepath.Dir(in)
	real := filepath.Join(dir, "real.ipynb")
	raw, _ := os.ReadFile(in)
	os.WriteFile(real, raw, 0o640)
	os.Chmod(real, 0o640)
	link := filepath.Join(dir, "link.ipynb")
	if err := os.Symlink("real.ipynb", link); err != nil {
		t.Fatal(err)
	}
	if r := runNB(t, Config{}, link, "--inplace"); r.status != 0 || len(outputsOf(cellsOf(t, r)[0])) != 1 {
		t.Fatalf("status %d\n%s", r.status, r.stderr)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symbolic link was replaced by a file")
	}
	fi, err := os.Stat(real)
	if err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("the notebook's mode is %v, want -rw-r-----", fi.Mode().Perm())
	}
	if b, _ := os.ReadFile(real); !bytes.Contains(b, []byte(`"text": [`)) {
		t.Errorf("the link's target has no outputs:\n%s", b)
	}
}
