// What a cell declared, for the supervisor to declare it again in a fresh
// engine after the engine process died, and that declaring again (Declare).

package engine

import (
	"context"
	"fmt"
	"go/ast"
	"regexp"
	"strings"
	"sync"

	"github.com/seed43a1e1ab/gocl/kernel/cellio"
	"github.com/seed43a1e1ab/gocl/kernel/cellmodel"
)

// replayLog is what the running cell declared, chunk by chunk as each one
// took effect, and the names a crash lost in this engine's session.
type replayLog struct {
	mu       sync.Mutex
	cell     string                        // the running (or last) cell
	pending  map[*parsed][]cellio.Declared // made when the cell was parsed
	declared []cellio.Declared             // of the chunks that took effect
	lost     map[string]string             // name -> why a cell may not use it
}

// begin starts the log of the cell called name.
func (r *replayLog) begin(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cell, r.pending, r.declared = name, nil, nil
}

// commit records the declarations of chunk p, which took effect: its
// names are no longer lost.
func (r *replayLog) commit(p *parsed) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.add(r.pending[p]...)
}

// add records declarations; r.mu is held.
func (r *replayLog) add(ds ...cellio.Declared) {
	for _, d := range ds {
		r.declared = append(r.declared, d)
		for _, n := range d.Names {
			delete(r.lost, n)
		}
	}
}

// TakeDeclared returns the name of the last cell and what it declared, for
// the supervisor's crash replay, and forgets them.
func (e *Engine) TakeDeclared() (cell string, declared []cellio.Declared) {
	e.replay.mu.Lock()
	defer e.replay.mu.Unlock()
	cell, declared = e.replay.cell, e.replay.declared
	e.replay.pending, e.replay.declared = nil, nil
	return cell, declared
}

// noteDeclared records, before any rewrite touches them, the top-level
// declarations of each chunk of the cell called cell. They count once the
// chunk took effect (recordDecls).
func (e *Engine) noteDeclared(cell string, ps []*parsed, m *cellmodel.PosMap) {
	if cell == "gocl" {
		return
	}
	pending := map[*parsed][]cellio.Declared{}
	for _, p := range ps {
		if p.part == nil {
			continue
		}
		if ds := cellmodel.Declarations(cell, p.part, m); len(ds) > 0 {
			pending[p] = ds
		}
	}
	e.replay.mu.Lock()
	e.replay.pending = pending
	e.replay.mu.Unlock()
}

// noteCompiled records a compiled cell: it is declared again whole, from
// the plugin cache, unless it has package variables or an init, whose
// values or effects a fresh load would not give back.
func (e *Engine) noteCompiled(cell, code string, decls []string, vars []string) {
	d := cellio.Declared{Cell: cell, Kind: "compiled", Names: decls, Text: code, Line: 1, Col: 1}
	switch {
	case len(vars) > 0:
		d.Lost = fmt.Sprintf("compiled %s has package variables (%s), whose values went with the engine process",
			cellLabel(cell), strings.Join(vars, ", "))
	case initFunc.MatchString(code):
		d.Lost = fmt.Sprintf("compiled %s has a func init, which is not run again", cellLabel(cell))
	}
	e.replay.mu.Lock()
	defer e.replay.mu.Unlock()
	e.replay.add(d)
}

var initFunc = regexp.MustCompile(`(?m)^\s*func\s+init\s*\(`)

// checkLost refuses a cell that uses a name the engine process's crash
// lost, saying which cell to run again, instead of "undefined" or, for a
// func that used it, a wrong answer. The cell's own declarations of such a
// name are no uses.
func (e *Engine) checkLost(cell string, ps []*parsed) *CellError {
	e.replay.mu.Lock()
	if len(e.replay.lost) == 0 {
		e.replay.mu.Unlock()
		return nil
	}
	lost := make(map[string]string, len(e.replay.lost))
	for n, why := range e.replay.lost {
		lost[n] = why
	}
	e.replay.mu.Unlock()
	own := map[string]bool{}
	for _, p := range ps {
		if p.file != nil {
			for n := range p.file.Scope.Objects {
				own[n] = true
			}
		} else if p.body != nil {
			for _, st := range p.body.List {
				for _, id := range cellmodel.TopDeclared(st) {
					own[id.Name] = true
				}
			}
		}
	}
	for _, p := range ps {
		root := p.node()
		if root == nil {
			continue
		}
		var found *ast.Ident
		cellmodel.InspectRefs(root, func(id *ast.Ident) bool {
			if id.Obj == nil && !own[id.Name] && lost[id.Name] != "" {
				found = id
			}
			return found == nil
		})
		if found != nil {
			return e.errorAt(cell, "CompileError", fmt.Sprintf("undefined: %s (%s)", found.Name, lost[found.Name]), found.Pos(), nil)
		}
	}
	return nil
}

// Declare makes decls again in this fresh engine, in order, under their
// cells' own names, after the engine process before it died; lost are the
// names it could not keep, each with the words a cell that uses one gets;
// next is the number of the next cell. Only declarations run: never a
// statement, a main or an init. It returns the declarations that failed,
// each with its error in Lost; their names are lost too.
func (e *Engine) Declare(ctx context.Context, decls []cellio.Declared, lost map[string]string, next int) []cellio.Declared {
	e.mu.Lock()
	defer e.mu.Unlock()
	var failed []cellio.Declared
	for i := 0; i < len(decls); {
		j := i + 1
		if decls[i].Kind != "compiled" {
			for j < len(decls) && decls[j].Cell == decls[i].Cell && decls[j].Kind != "compiled" {
				j++
			}
		}
		failed = append(failed, e.declareGroup(ctx, decls[i:j])...)
		i = j
	}
	e.replay.mu.Lock()
	e.replay.lost = map[string]string{}
	for n, why := range lost {
		e.replay.lost[n] = why
	}
	for _, f := range failed {
		for _, n := range f.Names {
			e.replay.lost[n] = fmt.Sprintf("lost in the crash of %s; run that cell again (it could not be declared again: %s)",
				cellLabel(f.Cell), f.Lost)
		}
	}
	e.replay.cell, e.replay.pending, e.replay.declared = "", nil, nil
	e.replay.mu.Unlock()
	if next-1 > e.cellSeq {
		e.cellSeq = next - 1
	}
	return failed
}

// declareGroup declares one cell's declarations, all at once (they may
// refer to each other in any order) or, when that fails, one by one until
// no more succeed.
func (e *Engine) declareGroup(ctx context.Context, group []cellio.Declared) []cellio.Declared {
	run := func(ds []cellio.Declared) *CellError {
		if ds[0].Kind == "compiled" {
			return e.executeCompiled(ctx, ds[0].Text, discardSink{}, ds[0].Cell).Err
		}
		return e.execute(ctx, layout(ds), discardSink{}, ds[0].Cell).Err
	}
	err := run(group)
	if err == nil {
		return nil
	}
	if len(group) == 1 {
		group[0].Lost = err.Value
		return group
	}
	left := group
	for {
		var again []cellio.Declared
		for _, d := range left {
			if err := run([]cellio.Declared{d}); err != nil {
				d.Lost = err.Value
				again = append(again, d)
			}
		}
		if len(again) == 0 || len(again) == len(left) {
			return again
		}
		left = again
	}
}

// layout writes declarations at the lines and columns they had in their
// cell, so that errors and panics inside them point at the cell as written.
func layout(ds []cellio.Declared) string {
	var b strings.Builder
	line, col := 1, 1
	for _, d := range ds {
		switch {
		case d.Line < line || (d.Line == line && d.Col <= col):
			b.WriteString("\n")
			line, col = line+1, 1
		case d.Line == line && col > 1:
			// Two declarations on one line, which had a semicolon
			// between them.
			b.WriteByte(';')
			col++
		}
		for ; line < d.Line; line++ {
			b.WriteByte('\n')
			col = 1
		}
		for ; col < d.Col; col++ {
			b.WriteByte(' ')
		}
		b.WriteString(d.Text)
		if k := strings.Count(d.Text, "\n"); k > 0 {
			line += k
			col = len(d.Text) - strings.LastIndexByte(d.Text, '\n')
		} else {
			col += len(d.Text)
		}
	}
	return b.String()
}
