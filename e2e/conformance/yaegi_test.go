package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// yaegiResult is what the three runs of one of yaegi's programs did.
type yaegiResult struct {
	yaegi, pasted, notebook Outcome
	classes                 YaegiClasses
}

// TestYaegiCorpus runs yaegi's own test programs with plain yaegi, pasted
// whole into one gocl cell, and in notebook form, and compares each run with
// what the program declares. It fails where gocl (pasted) does worse than
// plain yaegi and no known gap explains it, and where a gocl run does worse
// than in baseline.json.
func TestYaegiCorpus(t *testing.T) {
	skipShort(t)
	dir, err := YaegiTestDir(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	progs, undeclared, err := YaegiPrograms(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d programs from %s (%d more declare no output and are skipped, as yaegi's test skips them)",
		len(progs), dir, len(undeclared))
	scratch := t.TempDir()
	gopath, err := YaegiGoPath(filepath.Join(scratch, "gopath"), dir)
	if err != nil {
		t.Fatal(err)
	}
	g := Gocl{Bin: goclBin, Limit: *programLimit, Dir: scratch}
	runGocl := func(p YaegiProgram, notebook bool) Outcome {
		src, err := os.ReadFile(p.Path)
		if err != nil {
			return Outcome{Crashed: true, Err: err.Error()}
		}
		cells := []string{string(src), laterCell}
		if nb, ok := NotebookForm(string(src)); ok && notebook {
			cells = append(nb, laterCell)
		}
		o := g.Run(p.Name, cells)
		o.Stdout = strings.TrimSpace(o.Stdout) // as yaegi's test trims
		return o
	}

	// Where gocl prints other than the declaration, the go command decides
	// whether gocl printed Go's answer (GoAnswer) or a wrong one.
	oracle := &GoOracle{Dir: filepath.Join(scratch, "go"), Limit: *programLimit}
	if err := os.MkdirAll(oracle.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	classify := func(p YaegiProgram, o Outcome) Class {
		c := Classify(p.Want, o)
		// The go command is asked only where gocl printed other than
		// declared, failed otherwise than declared, or ended as os.Exit
		// where the program declares it goes on (yaegi's restricted mode).
		if c == Pass || c != Wrong && p.Want.Error == "" && !strings.Contains(o.Err, "os.Exit(") {
			return c
		}
		g, err := oracle.Run(p)
		if err != nil {
			t.Errorf("%s: the go command's run, which decides what Go prints: %v", p.Name, err)
			return c
		}
		if g.Agrees(o) {
			return GoAnswer
		}
		return c
	}

	res := make([]yaegiResult, len(progs))
	began := time.Now()
	each(len(progs), func(i int) {
		p := progs[i]
		r := &res[i]
		r.yaegi = RunYaegi(selfPath, p, gopath, *programLimit)
		var pc, nc Class
		classOf := func(o Outcome) Class { return classify(p, o) }
		r.pasted, pc = worstOf(t, p.Name+" (pasted)", classOf, func() Outcome { return runGocl(p, false) })
		r.notebook, nc = worstOf(t, p.Name+" (notebook form)", classOf, func() Outcome { return runGocl(p, true) })
		r.classes = YaegiClasses{Yaegi: Classify(p.Want, r.yaegi), Gocl: pc, Notebook: nc}
	})
	t.Logf("ran %d programs three times in %.0f s", len(progs), time.Since(began).Seconds())

	// A regression is checked once more before it counts: some programs
	// race goroutines against timers, and two busy cores make them late.
	confirm := func(p YaegiProgram, notebook bool, first Class) Class {
		if again := classify(p, runGocl(p, notebook)); again.rank() < first.rank() {
			t.Logf("%s: gocl gave %s, then %s on a second run: flaky", p.Name, first, again)
			return again
		}
		return first
	}

	yt, pt, nt := Tally{}, Tally{}, Tally{}
	used := make([]int, len(KnownGaps))
	for i, p := range progs {
		r, c := res[i], res[i].classes
		yt[c.Yaegi]++
		pt[c.Gocl]++
		nt[c.Notebook]++
		baseNew.Yaegi[p.Name] = c
		want := p.Want.Stdout + p.Want.Error
		for _, run := range []struct {
			form  string
			class Class
			o     Outcome
		}{{"pasted", c.Gocl, r.pasted}, {"notebook form", c.Notebook, r.notebook}} {
			if run.class == Wrong {
				t.Logf("WRONG ANSWER (gocl, %s) %s: got %q, want %q%s", run.form, p.Name, oneLine(run.o.Stdout), oneLine(want), errNote(run.o))
			}
		}
		if c.Yaegi != Pass || c.Gocl != Pass || c.Notebook != Pass {
			if c.Gocl == GoAnswer || c.Notebook == GoAnswer {
				t.Logf("GO'S ANSWER, NOT THE DECLARED ONE (gocl) %s: gocl printed what the go command's build prints, %q; the program declares %q",
					p.Name, oneLine(r.pasted.Stdout), oneLine(p.Want.Stdout))
			}
			addDetail(fmt.Sprintf("- yaegi `%s`: plain yaegi %s%s; gocl pasted %s%s; notebook form %s%s", p.Name,
				c.Yaegi, errNote(r.yaegi), c.Gocl, errNote(r.pasted), c.Notebook, errNote(r.notebook)))
		}
		if old, ok := baseOld.Yaegi[p.Name]; ok && !*update {
			if c.Gocl.Worse(old.Gocl) {
				if again := confirm(p, false, c.Gocl); again.Worse(old.Gocl) {
					t.Errorf("%s regressed (pasted): gocl %s, baseline %s%s", p.Name, again, old.Gocl, errNote(r.pasted))
				}
			}
			if c.Notebook.Worse(old.Notebook) {
				if again := confirm(p, true, c.Notebook); again.Worse(old.Notebook) {
					t.Errorf("%s regressed (notebook form): gocl %s, baseline %s%s", p.Name, again, old.Notebook, errNote(r.notebook))
				}
			}
		}
		if c.Yaegi == Pass && c.Gocl.Worse(Pass) {
			gap := -1
			for j, k := range KnownGaps {
				if k.Matches(p, r.pasted) {
					gap = j
					break
				}
			}
			if gap >= 0 {
				used[gap]++
			} else if again := confirm(p, false, c.Gocl); again.Worse(Pass) {
				t.Errorf("%s: gocl (pasted) %s where plain yaegi passes, and no known gap in gaps.go explains it%s",
					p.Name, again, errNote(r.pasted))
			}
		}
	}
	for j, k := range KnownGaps {
		if used[j] == 0 {
			t.Logf("KNOWN GAP MATCHED NOTHING in this run (delete it from gaps.go unless an earlier gap hides its programs): %s", k.Reason)
		} else {
			t.Logf("known gap (%d programs): %s", used[j], k.Reason)
		}
	}
	addRows(Row{"yaegi _test", "plain yaegi", yt}, Row{"yaegi _test", "gocl, pasted whole", pt},
		Row{"yaegi _test", "gocl, notebook form", nt})
	t.Logf("plain yaegi: %v; gocl pasted: %v; gocl notebook form: %v", yt, pt, nt)
}

func errNote(o Outcome) string {
	if o.Err == "" {
		return ""
	}
	return " — " + oneLine(o.Err)
}

func addRows(r ...Row) {
	resultsMu.Lock()
	defer resultsMu.Unlock()
	rows = append(rows, r...)
}

func addDetail(s string) {
	resultsMu.Lock()
	defer resultsMu.Unlock()
	details = append(details, s)
}
