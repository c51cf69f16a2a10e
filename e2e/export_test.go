package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// exportOnly are the notebooks whose output a program cannot match, and
// why: they must export and build, but their output is not compared.
var exportOnly = map[string]string{
	"00-tour.ipynb":              "its input cell reads stdin, which gocl run refuses and a program reads",
	"07-explore-transfers.ipynb": "its measurements run in widget callbacks, which only a front end fires",
}

// TestExportRunsLikeTheNotebook exports every notebook in notebooks/ with
// gocl export into a directory outside any module, runs the program with
// go run, as a user would, and compares its output with the notebook's
// stdout under gocl run, numbers masked (they are measurements).
func TestExportRunsLikeTheNotebook(t *testing.T) {
	needOpenCL(t)
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	nbs, _ := filepath.Glob(filepath.Join(notebooksDir(t), "*.ipynb"))
	if len(nbs) == 0 {
		t.Fatal("no notebooks")
	}
	for _, nb := range nbs {
		name := filepath.Base(nb)
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			prog := filepath.Join(dir, "prog")
			cmd := exec.Command(goclBin, "export", nb, "-o", filepath.Join(prog, "main.go"))
			if log, err := runLogged(t, 3*time.Minute, cmd); err != nil {
				t.Fatalf("gocl export: %v\n%s", err, log)
			}
			for _, f := range []string{"main.go", "go.mod", "go.sum"} {
				if _, err := os.Stat(filepath.Join(prog, f)); err != nil {
					t.Fatalf("gocl export wrote no %s: %v", f, err)
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
			defer cancel()
			if why, ok := exportOnly[name]; ok {
				build := exec.CommandContext(ctx, "go", "build", "-o", filepath.Join(dir, "prog.bin"), ".")
				build.Dir = prog
				if out, err := build.CombinedOutput(); err != nil {
					t.Fatalf("go build of the export: %v\n%s", err, out)
				}
				t.Skipf("exported and built; output not compared: %s", why)
			}
			run := exec.CommandContext(ctx, "go", "run", ".")
			run.Dir = prog
			run.Env = append(os.Environ(), "GOCL_N="+smallN, "GOWORK=off")
			var stderr strings.Builder
			run.Stderr = &stderr
			got, err := run.Output()
			if err != nil {
				t.Fatalf("go run . of the export: %v\n%s\nstdout:\n%s", err, stderr.String(), got)
			}

			in := copyNotebook(t, name, dir)
			out := filepath.Join(dir, "out.ipynb")
			gr := exec.Command(goclBin, "run", in, "-o", out, "--allow-errors", "--kernel-env", "GOCL_N="+smallN)
			gr.Dir = dir
			if log, err := runLogged(t, 4*time.Minute, gr); err != nil {
				t.Fatalf("gocl run: %v\n%s", err, log)
			}
			want := notebookStdout(t, out)
			if mask(string(got)) != mask(want) {
				t.Errorf("go run of the export printed (numbers masked)\n%s\nthe notebook printed\n%s", mask(string(got)), mask(want))
			}
		})
	}
}

var (
	numbers = regexp.MustCompile(`[0-9][0-9.e+\-]*`)
	units   = regexp.MustCompile(`# ?(ns|µs|ms|s|B|KB|MB|GB|KiB|MiB|GiB|GB/s|MB/s)\b`)
)

// mask replaces numbers and their units (a measurement picks its unit) with
// #, and drops spacing that follows their width.
func mask(s string) string {
	s = numbers.ReplaceAllString(s, "#")
	s = units.ReplaceAllString(s, "#")
	return regexp.MustCompile(`[ \t]+`).ReplaceAllString(s, " ")
}

// notebookStdout is the stdout text of an executed notebook's cells.
func notebookStdout(t *testing.T, path string) string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var nb struct {
		Cells []struct {
			Outputs []struct {
				Type string          `json:"output_type"`
				Name string          `json:"name"`
				Text json.RawMessage `json:"text"`
			} `json:"outputs"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(raw, &nb); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, c := range nb.Cells {
		for _, o := range c.Outputs {
			if o.Type != "stream" || o.Name != "stdout" {
				continue
			}
			var s string
			if json.Unmarshal(o.Text, &s) != nil {
				var l []string
				json.Unmarshal(o.Text, &l)
				s = strings.Join(l, "")
			}
			b.WriteString(s)
		}
	}
	return b.String()
}
