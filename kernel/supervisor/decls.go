package supervisor

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/cellio"
	"github.com/seed43a1e1ab/gocl/kernel/enginewire"
)

// The engine reports what each cell declared (cellio.Declared, made from
// the chunks it parsed and ran: kernel/engine/replay.go). The supervisor
// keeps those records, in order, and after a crash plans what the fresh
// engine declares again: the same declarations in the same order, less the
// ones that cannot be made again exactly. Those, and every declaration
// that uses what they declared, are lost: a cell that uses a lost name is
// refused, saying which cell to run again, rather than given a zero value
// or an older declaration.

// replayPlan is what a fresh engine declares again, and what it cannot.
type replayPlan struct {
	decls []cellio.Declared // to declare again, in order
	lost  map[string]string // name -> the words a cell that uses it gets
	kept  []string          // the names declared again
}

// lostNames lists the lost names, sorted.
func (p replayPlan) lostNames() []string {
	var out []string
	for n := range p.lost {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// recordKey names a record in the map of records that failed to replay.
func recordKey(d cellio.Declared) string {
	return d.Cell + "\x00" + d.Kind + "\x00" + strings.Join(d.Names, ",")
}

// planReplay plans the replay of recs, the declarations of the cells that
// ran, in order; failed are the records an earlier replay could not make,
// by recordKey, with the error.
func planReplay(recs []cellio.Declared, failed map[string]string) replayPlan {
	defs := map[string][]int{} // name -> the records that declared it, in order
	methods := map[string][]string{}
	for i, r := range recs {
		for _, n := range r.Names {
			defs[n] = append(defs[n], i)
			if r.Kind == "method" {
				t, _, _ := strings.Cut(n, ".")
				methods[t] = append(methods[t], n)
			}
		}
	}
	final := func(n string) int {
		if ds := defs[n]; len(ds) > 0 {
			return ds[len(ds)-1]
		}
		return -1
	}
	// binding is the record that name n meant to record i: the latest
	// before it, or one of its own cell (a cell's declarations may refer
	// to each other in any order).
	binding := func(n string, i int) int {
		b := -1
		for _, j := range defs[n] {
			if j <= i || recs[j].Cell == recs[i].Cell {
				b = j
			}
		}
		return b
	}
	// why says why a lost record is lost, in the words of a cell that
	// uses one of its names.
	why := map[int]string{}
	for i, r := range recs {
		label := cellLabel(r.Cell)
		switch {
		case r.Kind == "var":
			why[i] = "lost in the crash of " + label + "; run that cell again"
		case r.Kind == "main":
			why[i] = "lost in the crash of " + label + "; run that cell again (a func main is not declared again after a crash: it would run)"
		case r.Lost != "":
			why[i] = "lost in the crash of " + label + "; run that cell again (" + r.Lost + ")"
		case failed[recordKey(r)] != "":
			why[i] = "lost in the crash of " + label + "; run that cell again (it could not be declared again: " + failed[recordKey(r)] + ")"
		}
	}
	// root says, for a record lost through what it uses, the lost name
	// at the bottom of it and that name's cell.
	type origin struct{ name, cell string }
	root := map[int]origin{}
	for i, r := range recs {
		if why[i] != "" {
			if len(r.Names) > 0 {
				root[i] = origin{r.Names[0], r.Cell}
			}
		}
	}
	loseThrough := func(i int, u string, j int) {
		o, ok := root[j]
		if !ok {
			o = origin{u, recs[j].Cell}
		}
		root[i] = o
		name := o.name
		if name != u {
			name = o.name + " (through " + u + ")"
		}
		w := "it uses " + name + ", lost in the crash of " + cellLabel(o.cell) + "; run that cell again"
		if recs[i].Cell != o.cell {
			w += ", then " + cellLabel(recs[i].Cell)
		}
		why[i] = w
	}
	for changed := true; changed; {
		changed = false
		for i, r := range recs {
			if why[i] != "" || r.Kind == "import" {
				continue
			}
			for _, u := range r.Uses {
				if b := binding(u, i); b >= 0 && why[b] != "" {
					loseThrough(i, u, b)
				} else if f := final(u); f >= 0 && why[f] != "" {
					loseThrough(i, u, f)
				}
				if why[i] != "" {
					break
				}
			}
			if why[i] == "" && r.Kind == "type" {
				// A type without one of its methods would answer
				// differently (fmt and a Stringer, an interface).
				for _, n := range r.Names {
					for _, m := range methods[n] {
						if f := final(m); f >= 0 && why[f] != "" {
							loseThrough(i, m, f)
							break
						}
					}
				}
			}
			changed = changed || why[i] != ""
		}
	}
	p := replayPlan{lost: map[string]string{}}
	for i, r := range recs {
		if why[i] == "" && r.Kind != "var" && r.Kind != "main" {
			p.decls = append(p.decls, r)
		}
	}
	for n, ds := range defs {
		if strings.Contains(n, ".") {
			continue // a method: its type is lost with it
		}
		if f := ds[len(ds)-1]; why[f] != "" {
			p.lost[n] = why[f]
		} else {
			p.kept = append(p.kept, n)
		}
	}
	sort.Strings(p.kept)
	return p
}

// cellLabel names an engine cell for the user, as the engine does: "cell3"
// is "cell #3".
func cellLabel(cell string) string {
	if n, ok := strings.CutPrefix(cell, "cell"); ok {
		return "cell #" + n
	}
	return cell
}

// cellNumber is the number of an engine cell name, 0 if none.
func cellNumber(cell string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(cell, "cell"))
	return n
}

// replayTimeout bounds a replay: declarations only, but a compiled cell
// whose plugin is not cached any more is built again.
const replayTimeout = 3 * time.Minute

// declare has the fresh engine p make plan's declarations again. The ones
// that fail are remembered, so that the next replay counts them lost. An
// error says p died or did not answer in time.
func (s *Supervisor) declare(p *proc, plan replayPlan, next int) ([]cellio.Declared, error) {
	id, ch, err := p.request(enginewire.OpDeclare, enginewire.DeclareBody{Decls: plan.decls, Lost: plan.lost, NextCell: next})
	if err != nil {
		return nil, err
	}
	timeout := time.NewTimer(replayTimeout)
	defer timeout.Stop()
	for {
		select {
		case ev, ok := <-ch:
			if !ok {
				return nil, errors.New("the fresh engine process died declaring them")
			}
			if ev.Kind != enginewire.EvDone {
				continue
			}
			var r enginewire.DeclareReply
			if err := decodeDone(enginewire.OpDeclare, ev, &r); err != nil {
				return nil, err
			}
			s.mu.Lock()
			if s.failed == nil {
				s.failed = map[string]string{}
			}
			for _, f := range r.Failed {
				s.failed[recordKey(f)] = f.Lost
			}
			s.mu.Unlock()
			return r.Failed, nil
		case <-timeout.C:
			p.notify(enginewire.OpInterrupt, enginewire.TargetBody{Target: id})
			return nil, fmt.Errorf("declaring them took more than %v", replayTimeout)
		}
	}
}

// replayNote tells the next cell what a replay could not declare again.
func replayNote(failed []cellio.Declared) string {
	var b strings.Builder
	for _, f := range failed {
		what := strings.Join(f.Names, ", ")
		if what == "" {
			what = "the " + f.Kind + " " + strings.SplitN(f.Text, "\n", 2)[0]
		}
		fmt.Fprintf(&b, "gocl: %s of %s could not be declared again after the crash, and is lost until that cell runs again: %s\n",
			what, cellLabel(f.Cell), f.Lost)
	}
	return b.String()
}
