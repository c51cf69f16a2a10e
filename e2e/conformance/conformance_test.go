package conformance

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

var (
	update = flag.Bool("update", false,
		"rewrite baseline.json with this run's classes (after checking the rule that gocl is never below plain yaegi)")
	resultsPath = flag.String("results", "",
		"write the results (Markdown: counts per corpus and runner, then every program that does not pass) to `FILE`")
	programLimit = flag.Duration("program-timeout", 10*time.Second,
		"time one program may run before it counts as hung")
	updateRuns = flag.Int("update-runs", 3,
		"with -update, run every gocl form this many times and record the worst class, so that a program that is right only sometimes is not recorded as passing")
	workers = flag.Int("workers", min(2, runtime.NumCPU()), "programs run at once")
)

// baselinePath is the committed baseline, beside this file.
const baselinePath = "baseline.json"

var (
	goclBin  string
	selfPath string // this test binary, re-executed as the plain-yaegi child

	resultsMu sync.Mutex
	rows      []Row
	details   []string // one Markdown line per program that does not pass
	baseNew   *Baseline
)

func TestMain(m *testing.M) {
	ServeYaegiChild()
	flag.Parse()
	var err error
	if selfPath, err = os.Executable(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	goclBin = os.Getenv("GOCL_BIN")
	if goclBin == "" {
		// End-to-end tests drive a built binary: install.sh --test sets
		// GOCL_BIN; the inner loop, go test ./..., leaves them out.
		fmt.Println("skipped: end-to-end tests need GOCL_BIN (go build -o bin/gocl . && GOCL_BIN=$PWD/bin/gocl go test ./e2e/...)")
		os.Exit(0)
	}
	base, err := ReadBaseline(baselinePath)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	baseOld = base
	baseNew = &Baseline{Yaegi: map[string]YaegiClasses{}, Corpus: map[string]CorpusClasses{}}
	code := m.Run()
	if code == 0 && *update {
		// Sections not measured in this run (-run picked one test) keep
		// their committed content.
		if len(baseNew.Yaegi) == 0 {
			baseNew.Yaegi = base.Yaegi
		}
		if len(baseNew.Corpus) == 0 {
			baseNew.Corpus = base.Corpus
		}
		if err := baseNew.Write(baselinePath); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		} else {
			fmt.Fprintln(os.Stderr, "wrote", baselinePath)
		}
	}
	if *resultsPath != "" {
		if err := writeResults(*resultsPath); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	os.Exit(code)
}

// baseOld is the committed baseline.
var baseOld *Baseline

func writeResults(path string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "gocl conformance: %s; commit %s; %s, %d logical CPUs, %s/%s; %s\n\n", goclVersion(), commit(),
		cpuModel(), runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Corpus > rows[j].Corpus }) // yaegi's first
	WriteTable(&b, rows)
	if len(details) > 0 {
		b.WriteString("\nPrograms that do not pass everywhere:\n\n")
		for _, d := range details {
			b.WriteString(d + "\n")
		}
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// commit names the checkout's commit, marked when the tree has changes.
func commit() string {
	out, err := exec.Command("git", "describe", "--always", "--dirty", "--abbrev=7").Output()
	if err != nil {
		return "unknown (" + err.Error() + ")"
	}
	return strings.TrimSpace(string(out))
}

// cpuModel is the processor's name from /proc/cpuinfo.
func cpuModel() string {
	raw, _ := os.ReadFile("/proc/cpuinfo")
	for _, line := range strings.Split(string(raw), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

func goclVersion() string {
	out, err := exec.Command(goclBin, "version").Output()
	if err != nil {
		return "gocl version: " + err.Error()
	}
	return strings.ReplaceAll(strings.TrimSpace(string(out)), "\n", ", ")
}

// skipShort skips a corpus run under go test -short.
func skipShort(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a corpus through the gocl binary; not in -short mode")
	}
}

// each runs fn(i) for i in [0, n) on *workers goroutines.
func each(n int, fn func(i int)) { Each(n, *workers, fn) }

// worstOf runs a gocl form once, or *updateRuns times with -update, and
// returns the outcome of the worst class; a form whose class changes from
// run to run is logged as flaky.
func worstOf(t *testing.T, what string, classify func(Outcome) Class, run func() Outcome) (Outcome, Class) {
	o := run()
	c := classify(o)
	for n := 1; *update && n < *updateRuns; n++ {
		again := run()
		if ac := classify(again); ac != c {
			t.Logf("FLAKY %s: %s in one run, %s in another; the worse is recorded", what, c, ac)
			if ac.Worse(c) {
				o, c = again, ac
			}
		}
	}
	return o, c
}

// oneLine shortens an error or output for a log line.
func oneLine(s string) string {
	s = strings.ReplaceAll(strings.TrimSpace(s), "\n", " ⏎ ")
	if len(s) > 160 {
		cut := 160
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut-- // never in the middle of a character
		}
		s = s[:cut] + "…"
	}
	return s
}
