package engine

import (
	"fmt"
	"go/ast"
	"go/token"
	"sync/atomic"
)

// yaegi v0.16.1 initializes a package-level variable declared from a
// multi-valued call (`var a, b int = r2()`) by making new values for a and
// b, while the functions compiled with the declaration still hold the old,
// never-set ones: a function that reads a or b prints "<invalid
// reflect.Value>" when it is called from another function (yaegi's ret5,
// pasted whole: main's println(a, b)). A declaration of variables from
// single values has no such bug, so the call's values go first into
// variables of their own, which nothing else reads:
//
//	var a, b int = r2()  →  var __gocl_mv1_0, __gocl_mv1_1 = r2()
//	                        var a, b int = __gocl_mv1_0, __gocl_mv1_1
//
// This is for a cell's declaration chunks (a program pasted whole); a
// cell's top-level `var` is a statement of its body, which yaegi gets
// right. Upgrading yaegi past this bug means deleting this file and its
// call.

// multiVars numbers the rewritten declarations in the process, so that
// the temporaries of every cell and re-run have names of their own.
var multiVars atomic.Int64

// rewriteMultiVars rewrites the package-level variable declarations of f
// whose single value is a call (see above), in place.
func rewriteMultiVars(f *ast.File) {
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		var specs []ast.Spec
		for _, sp := range g.Specs {
			vs := sp.(*ast.ValueSpec)
			if len(vs.Names) < 2 || len(vs.Values) != 1 {
				specs = append(specs, sp)
				continue
			}
			if _, isCall := ast.Unparen(vs.Values[0]).(*ast.CallExpr); !isCall {
				specs = append(specs, sp)
				continue
			}
			n := multiVars.Add(1)
			tmp := &ast.ValueSpec{Values: vs.Values}
			var values []ast.Expr
			for i, name := range vs.Names {
				t := &ast.Ident{NamePos: name.Pos(), Name: fmt.Sprintf("%smv%d_%d", helperPrefix, n, i)}
				tmp.Names = append(tmp.Names, t)
				values = append(values, &ast.Ident{NamePos: name.Pos(), Name: t.Name})
			}
			vs.Values = values
			specs = append(specs, tmp, vs)
		}
		if len(specs) != len(g.Specs) && !g.Lparen.IsValid() {
			g.Lparen, g.Rparen = g.Specs[0].Pos(), g.End()
		}
		g.Specs = specs
	}
}

var passMultiVars = pass{
	name:     "multi-vars",
	bug:      "a package-level var declared from a multi-valued call is never set for the functions compiled with it (yaegi's ret5)",
	file:     "yaegi_multivar.go",
	changes:  "package-level var declarations from multi-valued calls",
	userOnly: true,
	chunk: func(c *cellRun, p *parsed) {
		if p.body == nil && p.file != nil {
			rewriteMultiVars(p.file)
		}
	},
}
