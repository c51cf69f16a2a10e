package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed43a1e1ab/gocl/clapi/truth"
)

// checkTruth runs the project's truth check (clapi/truth) on a saved
// notebook: every finding against its own numbers and the link's limit,
// every capability claim against the notebook's own device table, and the
// prose for rates above the link, "zero copy" beside a call that held the
// host, "returned at once" beside one that held it for most of the copy.
// needFindings: the notebook's conclusions must be structured findings.
func checkTruth(t *testing.T, path string, needFindings bool) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	nb, err := truth.ReadNotebook(raw)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for _, p := range nb.Check(needFindings) {
		t.Errorf("%s contradicts its own numbers: %s", filepath.Base(path), p)
	}
	n := 0
	for _, r := range nb.Reports {
		n += len(r.Findings)
	}
	t.Logf("%s: %d findings in %d displays checked", filepath.Base(path), n, len(nb.Reports))
}

// needsFindings reports whether a notebook's conclusions must be findings:
// those of exampleNotebooks marked so.
func needsFindings(file string) bool {
	for _, nb := range exampleNotebooks {
		if nb.file == file {
			return nb.findings
		}
	}
	return false
}

// TestTruthCommittedNotebooks runs the truth check on every committed
// notebook's saved outputs (the GPU run's, bench/gpu/run.sh).
func TestTruthCommittedNotebooks(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(notebooksDir(t), "*.ipynb"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no notebooks: %v", err)
	}
	for _, path := range paths {
		file := filepath.Base(path)
		t.Run(file, func(t *testing.T) { checkTruth(t, path, needsFindings(file)) })
	}
}

// TestTruthCheckFailsOldNotebook08 keeps the check honest: notebook 08 as
// committed before issue 21 (an H200 run, clapi/truth/testdata) claims zero
// copy of 74 ms calls, a 8811 GB/s transfer and no SVM on a device that
// reports it, and the check must say so.
func TestTruthCheckFailsOldNotebook08(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "clapi", "truth", "testdata", "08-before-issue21.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	nb, err := truth.ReadNotebook(raw)
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(nb.Check(true), "\n")
	for _, want := range []string{"8811.50 GB/s", "zero copy / no copy of a call that held the host 74.55 ms", "SVM_CAPABILITIES: COARSE_GRAIN_BUFFER", "no structured findings"} {
		if !strings.Contains(all, want) {
			t.Errorf("the check missed %q in:\n%s", want, all)
		}
	}
}
