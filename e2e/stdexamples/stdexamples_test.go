package stdexamples

import (
	"errors"
	"flag"
	"fmt"
	"go/build"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/seed43a1e1ab/gocl/e2e/conformance"
)

var (
	stride = flag.Int("stride", 1,
		"run every `N`th example by name only (a fixed sample; each package keeps some), not all of them")
	only         = flag.String("only", "", "run only the examples whose name contains `TEXT`")
	resultsPath  = flag.String("results", "", "write the results (Markdown) to `FILE`")
	programLimit = flag.Duration("program-timeout", 20*time.Second, "time one program may run before it counts as hung")
	workers      = flag.Int("workers", min(2, runtime.NumCPU()), "programs run at once")
)

var goclBin string

func TestMain(m *testing.M) {
	flag.Parse()
	goclBin = os.Getenv("GOCL_BIN")
	os.Exit(m.Run())
}

// laterCell follows every program, as in e2e/conformance: a func main or
// a defer that runs again after a later cell shows as output Go does not
// print.
const laterCell = "_ = \"a later cell\"\n"

// result is what gocl did with one example in both forms.
type result struct {
	ex               Example
	pasted, notebook conformance.Outcome
	pclass, nclass   conformance.Class
	nbFailed         bool
	// env: go run prints other than the Output comment; the classes are
	// against goWant then. goErr: the go command could not build or run it.
	env    bool
	goWant conformance.Want
	goErr  error
}

// normal prepares an outcome for comparison with an example's output: its
// standard output trimmed, as go test trims both sides; and a run that ended
// by calling os.Exit counts as a failure at run time, not a refusal. No
// example exits (go test would fail it), so an exit is the program's own
// reaction to something that went otherwise than in Go, such as
// log.Fatal(err) on an error Go does not return.
func normal(o conformance.Outcome) conformance.Outcome {
	o.Stdout = strings.TrimSpace(o.Stdout)
	if strings.HasPrefix(o.Err, "Exit:") {
		o.Runtime = true
	}
	return o
}

// goClass classifies an outcome against what go run printed: a run that
// prints it is a GoAnswer (right, though not the comment).
func goClass(w conformance.Want, o conformance.Outcome) conformance.Class {
	c := conformance.Classify(w, normal(o))
	if c == conformance.Pass {
		return conformance.GoAnswer
	}
	return c
}

// TestStdExamples runs the standard library's examples (see Extract)
// through the gocl binary, pasted whole as one cell and in notebook form
// (declarations, then main's body as top-level statements; e2e/conformance's
// NotebookForm), and compares what each prints with its "// Output:"
// comment, trimmed as go test trims it. It fails on every wrong answer and
// every hang or crash that Quarantine does not name, and on every
// quarantine entry whose example no longer goes wrong.
func TestStdExamples(t *testing.T) {
	if goclBin == "" {
		// End-to-end tests drive a built binary: install.sh --test sets
		// GOCL_BIN; the inner loop, go test ./..., leaves them out.
		t.Skip("end-to-end tests need GOCL_BIN (go build -o bin/gocl . && GOCL_BIN=$PWD/bin/gocl go test ./e2e/...)")
	}
	if testing.Short() {
		t.Skip("runs hundreds of programs through the gocl binary; not in -short mode")
	}
	exs, skips, err := Extract(build.Default.GOROOT, Packages)
	if err != nil {
		t.Fatal(err)
	}
	if len(exs) < 100 {
		t.Fatalf("only %d examples extracted from %s: the extraction is broken", len(exs), build.Default.GOROOT)
	}
	picked := pick(exs)
	g := conformance.Gocl{Bin: goclBin, Limit: *programLimit, Dir: t.TempDir()}
	began := time.Now()
	res := make([]result, len(picked))
	each(len(picked), func(i int) {
		ex := picked[i]
		r := result{ex: ex}
		want := conformance.Want{Stdout: strings.TrimSpace(ex.Output)}
		classOf := func(o conformance.Outcome) conformance.Class {
			return conformance.Classify(want, normal(o))
		}
		file := strings.ReplaceAll(ex.Name, "/", "_") // a notebook's name, not a path
		r.pasted = g.Run(file, []string{ex.Source, laterCell})
		r.pclass = classOf(r.pasted)
		nb, ok := conformance.NotebookForm(ex.Source)
		if !ok {
			r.nbFailed = true
		} else {
			r.notebook = g.Run(file, append(nb, laterCell))
			r.nclass = classOf(r.notebook)
		}
		if r.pclass != conformance.Pass || r.nclass != conformance.Pass {
			// The comment or gocl is wrong: ask the go command.
			gw, err := GoRun(ex, g.Dir, *programLimit)
			if err != nil {
				r.goErr = err
			} else if gw.Panic != "" || strings.TrimSpace(gw.Stdout) != want.Stdout {
				r.env = true
				gw.Stdout = strings.TrimSpace(gw.Stdout)
				r.goWant = gw
				r.pclass = goClass(gw, r.pasted)
				if !r.nbFailed {
					r.nclass = goClass(gw, r.notebook)
				}
			}
		}
		res[i] = r
	})
	t.Logf("ran %d of %d examples (%d more skipped at extraction) pasted whole and in notebook form in %.0f s",
		len(picked), len(exs), len(skips), time.Since(began).Seconds())

	pt, nt := conformance.Tally{}, conformance.Tally{}
	var lines []string
	differ, envs := 0, 0
	var noOracle []string // examples go run cannot run here either
	for _, r := range res {
		if r.nbFailed {
			t.Errorf("%s: the program has no notebook form (NotebookForm refused it)", r.ex.Name)
			continue
		}
		var env EnvError
		if errors.As(r.goErr, &env) {
			noOracle = append(noOracle, fmt.Sprintf("- `%s`: %s", r.ex.Name, oneLine(env.Error())))
			t.Logf("%s: left out: gocl did not pass, and the program does not run to its end under go run either (%v)", r.ex.Name, env)
			continue
		}
		if r.goErr != nil {
			t.Errorf("%s: gocl did not pass and the go command cannot tell what Go does: %v", r.ex.Name, r.goErr)
			continue
		}
		if r.env {
			envs++
			t.Logf("%s: go run prints %q, not its Output comment (the test binary's environment differs); go run is the oracle", r.ex.Name, oneLine(r.goWant.Stdout))
		}
		pt[r.pclass]++
		nt[r.nclass]++
		if passes(r.pclass) != passes(r.nclass) {
			differ++
		}
		for _, run := range []struct {
			form  string
			class conformance.Class
			o     conformance.Outcome
		}{{"pasted", r.pclass, r.pasted}, {"notebook form", r.nclass, r.notebook}} {
			if passes(run.class) {
				continue
			}
			lines = append(lines, fmt.Sprintf("- `%s` (%s): %s — %s", r.ex.Name, run.form, run.class, describe(run.o)))
			bad := run.class == conformance.Wrong || run.class == conformance.Hang || run.class == conformance.Crash
			if !bad {
				continue
			}
			msg := fmt.Sprintf("%s (gocl, %s) %s:\n  got  %q%s\n  want %q", strings.ToUpper(string(run.class)), run.form,
				r.ex.Name, run.o.Stdout, errNote(run.o), wantOf(r))
			if reason, ok := Quarantine[r.ex.Name]; ok {
				t.Logf("quarantined (%s): %s", reason, msg)
				continue
			}
			t.Error(msg)
		}
	}
	for _, r := range res {
		if reason, ok := Quarantine[r.ex.Name]; ok && !r.nbFailed && !isBad(r.pclass) && !isBad(r.nclass) {
			t.Errorf("%s is quarantined (%s) but gives no wrong answer, hang or crash now: remove the entry", r.ex.Name, reason)
		}
	}
	t.Logf("gocl pasted whole: %v; notebook form: %v; %d examples pass in one form only; %d judged by go run", pt, nt, differ, envs)
	if *resultsPath != "" {
		if err := writeResults(*resultsPath, len(exs), skips, pt, nt, differ, envs, lines, noOracle); err != nil {
			t.Error(err)
		}
	}
}

// pick is the examples this run takes: all, or every -stride'th in name
// order; -only narrows either to the names that contain its text.
func pick(exs []Example) []Example {
	var out []Example
	for i, ex := range exs {
		if *only != "" {
			if strings.Contains(ex.Name, *only) {
				out = append(out, ex)
			}
			continue
		}
		if i%max(*stride, 1) == 0 {
			out = append(out, ex)
		}
	}
	return out
}

func passes(c conformance.Class) bool { return c == conformance.Pass || c == conformance.GoAnswer }

func isBad(c conformance.Class) bool {
	return c == conformance.Wrong || c == conformance.Hang || c == conformance.Crash
}

// each runs fn(i) for i in [0, n) on *workers goroutines.
func each(n int, fn func(i int)) { conformance.Each(n, *workers, fn) }

// wantOf is what the example should print: the Output comment, or what go
// run printed where the two differ.
func wantOf(r result) string {
	if r.env {
		s := r.goWant.Stdout
		if r.goWant.Panic != "" {
			s += " then panic: " + r.goWant.Panic
		}
		return s
	}
	return strings.TrimSpace(r.ex.Output)
}

// describe is one line on what a run that did not pass did.
func describe(o conformance.Outcome) string {
	switch {
	case o.Hung:
		return "did not finish"
	case o.Err != "":
		return "error: " + oneLine(firstLine(o.Err))
	}
	return "printed " + fmt.Sprintf("%q", oneLine(o.Stdout))
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}

func errNote(o conformance.Outcome) string {
	if o.Err == "" {
		return ""
	}
	return ", then error " + oneLine(o.Err)
}

// oneLine shortens a text for a log line.
func oneLine(s string) string {
	s = strings.ReplaceAll(strings.TrimSpace(s), "\n", " ⏎ ")
	if r := []rune(s); len(r) > 140 {
		s = string(r[:140]) + "…"
	}
	return s
}

// writeResults writes the counts of both forms and every example that does
// not pass as Markdown.
func writeResults(path string, extracted int, skips []Skip, pt, nt conformance.Tally, differ, envs int, lines, noOracle []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Standard library examples through gocl: commit %s; %s, %d logical CPUs; examples of %s (%s); %s\n\n",
		commit(), cpuModel(), runtime.NumCPU(), runtime.Version(), build.Default.GOROOT, time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	fmt.Fprintf(&b, "%d examples of %d packages with an ordered // Output: comment made whole programs (%d left out at extraction); %d counted here.\n\n",
		extracted, len(Packages), len(skips), pt.Total())
	conformance.WriteTable(&b, []conformance.Row{
		{Corpus: "std examples", Runner: "gocl, pasted whole", Tally: pt},
		{Corpus: "std examples", Runner: "gocl, notebook form", Tally: nt},
	})
	fmt.Fprintf(&b, "\n%d examples pass in one form and not the other. For %d examples go run prints other than the Output comment "+
		"(the package's test binary sets another environment, or the type's package is main, not pkg_test); "+
		"go run is their oracle, and a run that prints what it prints counts as go-answer.\n", differ, envs)
	if len(lines) > 0 {
		sort.Strings(lines)
		b.WriteString("\nExamples that do not pass:\n\n" + strings.Join(lines, "\n") + "\n")
	}
	if len(noOracle) > 0 {
		b.WriteString("\nLeft out of the counts: gocl did not pass, and go run does not run them to their end here either " +
			"(they read their package's testdata directory):\n\n" + strings.Join(noOracle, "\n") + "\n")
	}
	reasons := map[string]int{}
	for _, s := range skips {
		reasons[s.Reason]++
	}
	b.WriteString("\nLeft out at extraction:\n\n")
	for _, r := range sortedKeys(reasons) {
		fmt.Fprintf(&b, "- %d: %s\n", reasons[r], r)
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
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
