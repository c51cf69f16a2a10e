package conformance

import (
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// laterCell follows every program: a cell that prints nothing, so that a
// func main or a top-level defer that runs again after a later cell shows
// up as output Go does not print.
const laterCell = "_ = \"a later cell\"\n"

// TestSpecCorpus runs our corpus through the go command (the oracle) and
// through gocl, pasted whole and in notebook form, and fails where a program
// does worse than in baseline.json. A corpus program whose output differs
// between two runs of the oracle fails the test: it has no place in the
// corpus.
func TestSpecCorpus(t *testing.T) {
	skipShort(t)
	corpusDir, binDir := "corpus", t.TempDir()
	began := time.Now()
	if err := BuildCorpus(corpusDir, binDir); err != nil {
		t.Fatal(err)
	}
	progs, unbuilt, err := ReadCorpus(corpusDir, binDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range unbuilt {
		t.Logf("%s: not built by this Go (its build constraints need a newer one); skipped", name)
	}
	if len(progs) == 0 {
		t.Fatal("the corpus is empty")
	}
	g := Gocl{Bin: goclBin, Limit: *programLimit, Dir: t.TempDir()}
	forms := func(p CorpusProgram) (pasted, notebook []string) {
		nb, ok := NotebookForm(p.Source)
		if !ok {
			t.Errorf("%s: has no notebook form (no func main, or it does not parse)", p.Name)
		}
		return []string{p.Source, laterCell}, append(nb, laterCell)
	}

	type result struct {
		oracleErr        error
		pasted, notebook Outcome
		classes          CorpusClasses
	}
	res := make([]result, len(progs))
	each(len(progs), func(i int) {
		p := &progs[i]
		bin := filepath.Join(binDir, p.Name)
		var w Want
		var err error
		if p.Refused {
			w, err = RefusedOracle(filepath.Join(corpusDir, p.Name, "main.go"), t.TempDir())
		} else if w, err = Oracle(bin, *programLimit); err == nil {
			var again Want
			if again, err = Oracle(bin, *programLimit); err == nil && !reflect.DeepEqual(w, again) {
				err = fmt.Errorf("two runs printed different output (%q, then %q): nondeterministic programs do not belong in the corpus",
					oneLine(w.Stdout+w.Panic), oneLine(again.Stdout+again.Panic))
			}
		}
		if err != nil {
			res[i].oracleErr = err
			return
		}
		p.Want = w
		pc, nc := forms(*p)
		r := &res[i]
		var pcl, ncl Class
		classOf := func(o Outcome) Class { return Classify(w, o) }
		r.pasted, pcl = worstOf(t, p.Name+" (pasted)", classOf, func() Outcome { return g.Run(p.Name, pc) })
		r.notebook, ncl = worstOf(t, p.Name+" (notebook form)", classOf, func() Outcome { return g.Run(p.Name, nc) })
		r.classes = CorpusClasses{Pasted: pcl, Notebook: ncl}
	})
	t.Logf("ran %d programs with go and twice with gocl in %.0f s", len(progs), time.Since(began).Seconds())

	confirm := func(p CorpusProgram, notebook bool, first Class) Class {
		pc, nc := forms(p)
		cells := pc
		if notebook {
			cells = nc
		}
		if again := Classify(p.Want, g.Run(p.Name, cells)); again.rank() < first.rank() {
			t.Logf("%s: gocl gave %s, then %s on a second run: flaky", p.Name, first, again)
			return again
		}
		return first
	}
	pt, nt := Tally{}, Tally{}
	for i, p := range progs {
		r, c := res[i], res[i].classes
		if r.oracleErr != nil {
			t.Errorf("%s: %v", p.Name, r.oracleErr)
			continue
		}
		pt[c.Pasted]++
		nt[c.Notebook]++
		baseNew.Corpus[p.Name] = c
		want := p.Want.Stdout
		if p.Want.Panic != "" {
			want += "panic: " + p.Want.Panic
		}
		if p.Refused {
			want = "the go command's refusal: " + p.Want.Error
		}
		for _, run := range []struct {
			form     string
			notebook bool
			class    Class
			base     func(CorpusClasses) Class
			o        Outcome
		}{
			{"pasted", false, c.Pasted, func(b CorpusClasses) Class { return b.Pasted }, r.pasted},
			{"notebook form", true, c.Notebook, func(b CorpusClasses) Class { return b.Notebook }, r.notebook},
		} {
			if run.class != Pass {
				addDetail(fmt.Sprintf("- corpus `%s` (%s): %s — got %q%s", p.Name, run.form, run.class, oneLine(run.o.Stdout), errNote(run.o)))
			}
			if run.class == Wrong {
				t.Logf("WRONG ANSWER (gocl, %s) %s:\n  got  %q%s\n  want %q", run.form, p.Name, run.o.Stdout, errNote(run.o), want)
			}
			old, ok := baseOld.Corpus[p.Name]
			if !ok || *update || !run.class.Worse(run.base(old)) {
				continue
			}
			if again := confirm(p, run.notebook, run.class); again.Worse(run.base(old)) {
				t.Errorf("%s regressed (%s): gocl %s, baseline %s%s", p.Name, run.form, again, run.base(old), errNote(run.o))
			}
		}
	}
	addRows(Row{"our corpus", "gocl, pasted whole", pt}, Row{"our corpus", "gocl, notebook form", nt})
	t.Logf("gocl pasted: %v; gocl notebook form: %v", pt, nt)
}
