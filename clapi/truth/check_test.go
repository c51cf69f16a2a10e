package truth

import (
	"os"
	"strings"
	"testing"
)

// TestCheckFailsNotebook08BeforeIssue21 runs the check on notebook 08's
// outputs as committed before issue 21 (an H200 run; SVGs stripped): each of
// the issue's three contradictions must be reported.
func TestCheckFailsNotebook08BeforeIssue21(t *testing.T) {
	raw, err := os.ReadFile("testdata/08-before-issue21.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	nb, err := ReadNotebook(raw)
	if err != nil {
		t.Fatal(err)
	}
	problems := nb.Check(true)
	all := strings.Join(problems, "\n")
	t.Logf("%d problems:\n%s", len(problems), all)
	for _, want := range []string{
		"no structured findings",
		"8811.50 GB/s as a transfer rate",
		"zero copy / no copy of a call that held the host 74.55 ms",
		"says the device has no shared virtual memory, but its device table says SVM_CAPABILITIES: COARSE_GRAIN_BUFFER",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the check missed %q", want)
		}
	}
}
