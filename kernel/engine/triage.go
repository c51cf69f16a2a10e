package engine

import (
	"fmt"
	"go/ast"
	"go/types"
	"regexp"
	"strconv"
	"strings"
)

// When yaegi refuses a cell, the cell is checked with go/types
// (kernel/celltypes) against the session's declarations. If Go accepts it,
// the refusal is the interpreter's limit, not the user's mistake, and the
// error says so in those words, naming the construct and what to do, in
// place of yaegi's message (which may speak of its compiler's internals, or
// call valid Go invalid: "cannot use type func(int) string as type func(int)
// int" for a generic call Go infers). A cell Go refuses keeps yaegi's error.

// benignTypeErrors are go/types errors that a cell may have and still be
// valid where it runs: a cell's statements are checked as a function body,
// where Go would refuse an unused variable or a bare expression.
var benignTypeErrors = []string{"declared and not used", "is not used", "imported and not used", "missing function body"}

// triage returns the error for a cell yaegi refused with err, or nil to keep
// err; again gives the cell parsed as written (reparse).
func (e *Engine) triage(name string, again func() *reparsed, err *CellError) *CellError {
	if err == nil {
		return nil
	}
	if _, ok := fromInterpreter.LoadAndDelete(err); !ok || err.Name != "CompileError" || name == "gocl" {
		return nil // gocl's own refusal says why already
	}
	re := again()
	if re == nil {
		return nil
	}
	ps := re.ps
	ch := e.crossSession().Check(e.crossCell(ps))
	for _, te := range ch.Errors {
		if !isBenign(te) {
			if te, ok := te.(types.Error); ok {
				return e.goWords(name, err, te) // Go refuses it too: Go's words where yaegi's say nothing useful (triage_words.go)
			}
			return nil // Go refuses it too: yaegi's words stand
		}
	}
	if debugRewrite {
		fmt.Fprintf(OriginalStderr(), "--- %s: yaegi refused valid Go: %s\n", name, strings.Join(err.Traceback, "\n"))
	}
	what, todo := construct(ps, len(ch.Info.Instances) > 0)
	msg := fmt.Sprintf("this cell is valid Go, but the interpreter (yaegi v0.16.1) cannot run %s; %s, or put the code in "+
		"a cell that starts with //gocl:compile, which runs it compiled (see the README's limits)", what, todo)
	tb := []string{"CompileError: " + msg}
	if len(err.Traceback) > 1 {
		tb = append(tb, err.Traceback[1:]...) // where yaegi stopped
	} else if m := anyPosRE.FindStringSubmatch(err.Value); m != nil {
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		tb = append(tb, e.where(name, m[1], line, col, "")...)
	}
	return &CellError{Name: "CompileError", Value: msg, Traceback: tb}
}

// anyPosRE finds a cell position inside a message ("... failed on this
// code: cell3/_.go:30:14: CFG ...").
var anyPosRE = regexp.MustCompile(`([A-Za-z0-9]+)/_\.go:(\d+):(\d+)`)

func isBenign(err error) bool {
	te, ok := err.(types.Error)
	if !ok {
		return false
	}
	for _, b := range benignTypeErrors {
		if strings.Contains(te.Msg, b) {
			return true
		}
	}
	return false
}

// construct names the part of a cell that yaegi most likely failed on, and
// the rewrite that avoids it.
func construct(ps []*parsed, instances bool) (what, todo string) {
	generic, rangeFunc := false, false
	for _, p := range ps {
		n := p.node()
		if n == nil {
			continue
		}
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncType:
				if n.TypeParams != nil && len(n.TypeParams.List) > 0 {
					generic = true
				}
			case *ast.TypeSpec:
				if n.TypeParams != nil && len(n.TypeParams.List) > 0 {
					generic = true
				}
				if it, ok := n.Type.(*ast.InterfaceType); ok && hasTypeSet(it) {
					generic = true // a constraint: type Number interface{ ~int | ~float64 }
				}
			case *ast.IndexListExpr:
				generic = true // an instantiation: Map[int, string]
			case *ast.RangeStmt:
				if _, isCall := n.X.(*ast.CallExpr); isCall || isFuncIdent(n.X) {
					rangeFunc = true
				}
			}
			return true
		})
	}
	switch {
	case generic:
		return "this generic code (its support covers simple generic functions called with inferred types)",
			"write the function for the concrete types you use, or drop the named constraint and explicit instantiation"
	case rangeFunc:
		return "a range over a function iterator", "call the iterator with a yield function instead: seq(func(v T) bool { ...; return true })"
	case instances:
		return "this call of a generic function (yaegi handles few forms of their arguments)",
			"pass it a variable declared with its type (var w []string; w = strings.Fields(s)), or write the loop yourself"
	}
	return "this code", "write the failing statement another way (the position below shows where the interpreter stopped)"
}

func hasTypeSet(it *ast.InterfaceType) bool {
	for _, f := range it.Methods.List {
		if len(f.Names) == 0 {
			if _, isUnion := f.Type.(*ast.BinaryExpr); isUnion {
				return true
			}
			if u, ok := f.Type.(*ast.UnaryExpr); ok && u.Op.String() == "~" {
				return true
			}
		}
	}
	return false
}

// isFuncIdent reports whether x is written as a function value the range
// statement could iterate (a name, or a selector such as maps.Keys(m)'s
// result held in a variable is not told apart: only calls and func literals).
func isFuncIdent(x ast.Expr) bool {
	_, ok := x.(*ast.FuncLit)
	return ok
}
