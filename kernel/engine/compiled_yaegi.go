package engine

import (
	"go/ast"
	"go/token"
	"reflect"
	"sync"
)

// A workaround for yaegi v0.16.1: it refuses to assign to a variable of a
// binary package whose type is a boolean, number or string ("cannot assign to
// 0 (int constant)"), though it reads, increments and takes the address of it.
// A compiled cell's package-level variable is such a variable, so an
// interpreted `Counter = 41` (or `Counter += 1`) is rewritten to
// `*(&Counter) = 41`, which yaegi runs, at the same positions. For any
// variable the two forms mean the same, so a local variable of that name is
// unaffected.

// scalarVars are the names of compiled variables of those kinds, per engine.
var scalarVars sync.Map // *Engine -> map[string]bool (replaced, never mutated)

func (e *Engine) noteCompiledVars(syms map[string]reflect.Value, names []string) {
	old, _ := scalarVars.Load(e)
	next := map[string]bool{}
	if m, ok := old.(map[string]bool); ok {
		for k := range m {
			next[k] = true
		}
	}
	for _, n := range names {
		delete(next, n)
		v, ok := syms[n]
		if !ok || !v.CanSet() {
			continue
		}
		switch v.Kind() {
		case reflect.Bool, reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
			reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
			next[n] = true
		}
	}
	scalarVars.Store(e, next)
}

// rewriteCompiledAssign rewrites, in n, assignments to compiled scalar
// variables into assignments through their address.
func (e *Engine) rewriteCompiledAssign(n ast.Node) {
	m, _ := scalarVars.Load(e)
	names, _ := m.(map[string]bool)
	if len(names) == 0 || n == nil {
		return
	}
	ast.Inspect(n, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Tok == token.DEFINE {
			return true
		}
		for i, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok && names[id.Name] {
				as.Lhs[i] = &ast.StarExpr{Star: id.Pos(), X: &ast.ParenExpr{Lparen: id.Pos(),
					X: &ast.UnaryExpr{OpPos: id.Pos(), Op: token.AND, X: id}, Rparen: id.End()}}
			}
		}
		return true
	})
}
