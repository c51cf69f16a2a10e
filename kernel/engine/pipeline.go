package engine

import (
	"fmt"
	"go/ast"

	"github.com/seed43a1e1ab/gocl/kernel/celltypes"
)

// A pass is one step of the pipeline a cell goes through between its parse
// and its compile (passes.go lists them in their order): a repair, which
// rewrites the cell's syntax so that yaegi runs it as Go does, or a
// refusal, which stops a cell that yaegi would run wrongly, with Go's words
// or with what to do instead.
//
// Each pass says which yaegi bug it covers, so that upgrading yaegi is a
// walk down the table (the README's "How the engine runs a cell" lists it),
// what it reads and what it may change, and when the cell needs it. The
// runner (runPasses) decides on the cell as parsed which passes it needs,
// type-checks the cell once if one of those reads types, and then runs
// them in the table's order.
type pass struct {
	name string // short, unique: the table's key
	// bug is the yaegi bug the pass covers: a yaegi issue, a PATCHES.md
	// entry or a one-line description; for a check that is Go's and not
	// yaegi's, what it keeps Go's.
	bug string
	// file is the file that holds the pass's code and its full story.
	file string
	// reads says what the pass needs besides the cell's syntax.
	reads need
	// after names the passes whose output this pass needs: they must come
	// earlier in the table (TestPassOrder).
	after []string
	// changes says what the pass may change: "refuses" for a refusal.
	changes string
	// early is set for a pass that rewrites the cell before it is
	// analysed: the needed conditions, the analysis (analyse) and the
	// type check see its output. Early passes stand at the table's head
	// and are always needed.
	early bool
	// userOnly is set for a pass that runs on users' cells only, not on
	// the engine's own setup cell ("gocl").
	userOnly bool
	// needed reports, on the cell as parsed, whether the cell needs the
	// pass; nil means always. It may record what it found in the cell
	// run for the pass's run.
	needed func(c *cellRun) bool
	// Exactly one of run and chunk is set. run runs the pass on the whole
	// cell; chunk on one chunk. The chunk passes that stand together in
	// the table run chunk by chunk: every one on the first chunk, then
	// every one on the next.
	run   func(c *cellRun) *CellError
	chunk func(c *cellRun, p *parsed)
}

// need is what a pass reads besides the cell's syntax.
type need uint8

const (
	// needTypes: the go/types check of the cell against the session.
	needTypes need = 1 << iota
	// needSession: what earlier cells declared or imported.
	needSession
)

func (n need) String() string {
	s := "syntax"
	if n&needTypes != 0 {
		s += ", types"
	}
	if n&needSession != 0 {
		s += ", session"
	}
	return s
}

// cellRun is a cell on its way through the passes: its chunks, which the
// passes change in place, and what the passes share about it.
type cellRun struct {
	e    *Engine
	name string
	ps   []*parsed

	// Of a user's cell, computed before any pass runs.
	cross   celltypes.Cell                // the cell for the session's type checker
	methods map[string]*ast.FuncDecl      // the session's and the cell's methods, by "T.M"
	kinds   map[string]string             // the cells' types' kinds, by name
	later   map[string]bool               // names used before the statement that declares them
	checked *celltypes.Checked            // the type check, when a needed pass reads types
	extra   struct{ eq, box, types bool } // what the crossings pass rewrites besides crossings (crossExtras)

	helpers *parsed // the crossings' method helpers; after insert-helpers, the chunk that holds them

	isIface, isCellStruct func(ast.Expr) bool // a type expression names an interface, a cell's struct type
}

// newCellRun starts the run of the parsed chunks ps of the cell called name.
func (e *Engine) newCellRun(name string, ps []*parsed) *cellRun {
	return &cellRun{e: e, name: name, ps: ps}
}

// analyse records what the passes share about the cell, after the early
// passes and before any other pass decides whether it is needed.
func (c *cellRun) analyse() {
	e, ps := c.e, c.ps
	e.showType = -1
	if c.user() {
		// While the cell's nodes are as parsed: values of the cells'
		// types handed to compiled code (crossing.go).
		c.cross = e.crossCell(ps)
		c.methods = e.methodDecls(ps)
		c.kinds = e.cellTypeKinds(ps)
		c.isIface, c.isCellStruct = e.interfaceCase(), caseOf(c.kinds, cellStruct)
	}
}

// user reports whether the cell is a user's, not the engine's own helpers
// (which switch on types under recover).
func (c *cellRun) user() bool { return c.name != "gocl" }

// runPasses runs the passes of table on c.
func (c *cellRun) runPasses(table []*pass) *CellError {
	first := 0
	for ; first < len(table) && table[first].early; first++ {
		if err := table[first].run(c); err != nil {
			return err
		}
	}
	table = table[first:]
	c.analyse()
	needed := make([]bool, len(table))
	types := false
	for i, p := range table {
		if p.userOnly && !c.user() {
			continue
		}
		needed[i] = p.needed == nil || p.needed(c)
		types = types || needed[i] && p.reads&needTypes != 0
	}
	if types {
		c.checked = c.e.crossSession().Check(c.cross)
		if debugRewrite {
			fmt.Fprintf(OriginalStderr(), "--- %s: type check: %v\n", c.name, c.checked.Errors)
		}
	}
	for i := 0; i < len(table); i++ {
		if table[i].run != nil {
			if needed[i] {
				if err := table[i].run(c); err != nil {
					return err
				}
			}
			continue
		}
		j := i
		for j < len(table) && table[j].chunk != nil {
			j++
		}
		for _, p := range c.ps {
			for k := i; k < j; k++ {
				if needed[k] {
					table[k].chunk(c, p)
				}
			}
		}
		i = j - 1
	}
	if debugRewrite {
		dumpRewrite(c.name, c.ps)
	}
	return nil
}

// passOrderError returns an error naming the first pass of table that comes
// before a pass whose output it needs, or that names one not in the table.
func passOrderError(table []*pass) error {
	at := map[string]int{}
	for i, p := range table {
		if _, dup := at[p.name]; dup {
			return fmt.Errorf("pass %q is in the table twice", p.name)
		}
		at[p.name] = i
	}
	for i, p := range table {
		if (p.run == nil) == (p.chunk == nil) {
			return fmt.Errorf("pass %q must have exactly one of run and chunk", p.name)
		}
		if p.early && (p.run == nil || p.needed != nil || p.userOnly || i > 0 && !table[i-1].early) {
			return fmt.Errorf("pass %q is early: it must stand at the table's head with the other early passes, run on the whole cell and be always needed", p.name)
		}
		for _, a := range p.after {
			j, ok := at[a]
			switch {
			case !ok:
				return fmt.Errorf("pass %q needs the output of %q, which is not in the table", p.name, a)
			case j > i:
				return fmt.Errorf("pass %q (line %d) needs the output of %q (line %d): move it after", p.name, i+1, a, j+1)
			}
		}
	}
	return nil
}
