package nbrun

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"

	"github.com/seed43a1e1ab/gocl/kernel/engine"
	"github.com/seed43a1e1ab/gocl/kernel/symbols"
)

// realEngine makes the interpreter the kernel uses, with display pre-imported.
func realEngine() (Runner, error) {
	return engine.New(engine.Options{
		Exports:    []interp.Exports{symbols.Symbols},
		Preimports: map[string]string{"display": "github.com/seed43a1e1ab/gocl/kernel/display"},
	})
}

// TestRealEngineChild is the child half of TestRealEngine: the engine
// captures the process's fds 1 and 2, so it runs in its own process.
func TestRealEngineChild(t *testing.T) {
	args := os.Getenv("NBRUN_CHILD_ARGS")
	if args == "" {
		t.Skip("run by TestRealEngine")
	}
	os.Exit(Config{NewEngine: realEngine}.Main(strings.Split(args, "\x1f"), os.Stdout, os.Stderr))
}

func TestRealEngine(t *testing.T) {
	in := writeNB(t, 5,
		markdown("# Real engine", "m"),
		code("import \"os\"\nfmt.Println(\"n =\", os.Getenv(\"GOCL_N\"))\nfmt.Print(\"more\\n\")", ""),
		code("h := display.NewHTML(\"<b>1</b>\")\nh.UpdateHTML(\"<b>2</b>\")", ""),
		code("x := 20\nx + 22", ""),
		code("var s []int\n_ = s[3]", ""),
		code("fmt.Println(\"after\")", ""),
	)
	out := filepath.Join(filepath.Dir(in), "out.ipynb")
	cmd := exec.Command(os.Args[0], "-test.run=^TestRealEngineChild$")
	cmd.Env = append(os.Environ(), "NBRUN_CHILD_ARGS="+strings.Join([]string{in, "-o", out, "--kernel-env", "GOCL_N=1000", "--allow-errors"}, "\x1f"))
	term, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("gocl run --allow-errors exited with %v, want status 0; output:\n%s", err, term)
	}
	r := runResult{}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("no output notebook: %v\n%s", err, term)
	}
	r.raw = data
	if err := json.Unmarshal(data, &r.nb); err != nil {
		t.Fatal(err)
	}
	cells := cellsOf(t, r)
	if o := outputsOf(cells[1]); len(o) != 1 || !reflect.DeepEqual(lines(o[0]["text"]), []string{"n = 1000\n", "more\n"}) {
		t.Errorf("stdout cell outputs = %v\nterminal:\n%s", o, term)
	}
	if o := outputsOf(cells[2]); len(o) != 1 || !reflect.DeepEqual(o[0]["data"].(map[string]any)["text/html"], []any{"<b>2</b>"}) {
		t.Errorf("updated display = %v", o)
	}
	if o := outputsOf(cells[3]); len(o) != 1 || o[0]["output_type"] != "execute_result" || o[0]["execution_count"] != float64(3) ||
		!reflect.DeepEqual(o[0]["data"].(map[string]any)["text/plain"], []any{"42"}) {
		t.Errorf("execute_result = %v", o)
	}
	if o := outputsOf(cells[4]); len(o) != 1 || o[0]["output_type"] != "error" {
		t.Errorf("failing cell outputs = %v", o)
	}
	if cells[5]["execution_count"] != float64(5) {
		t.Errorf("--allow-errors did not run the cell after the error")
	}
	if !strings.Contains(string(term), "n = 1000") || !strings.Contains(string(term), "[4/5] cell 5 error") {
		t.Errorf("terminal output:\n%s", term)
	}
	checkLikeNbformat(t, r.raw)
}
