package engine

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
)

// yaegi v0.16.1 fails to compile `a, b := ...` (a call, a comma-ok type
// assertion, map index or receive) inside a block of a statement that runs
// in the global scope — `if ok { v, err := f() }` gives "undefined: v" —
// while the same code inside a function compiles. Cells run their
// statements in the global scope, and this is everyday Go, so the engine
// runs such a compound statement inside a function literal called at once:
// its own variables were local to it anyway, and globals stay reachable.

// inFunc returns st wrapped in func() { st }() when st is a compound
// statement with a multi-name := inside, and st itself otherwise.
func inFunc(st ast.Stmt) ast.Stmt {
	switch st.(type) {
	case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt,
		*ast.SelectStmt, *ast.BlockStmt:
	default:
		return st
	}
	if !hasMultiDefine(st) {
		return st
	}
	pos, end := st.Pos(), st.End()
	lit := &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, Closing: pos}},
		Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{st}, Rbrace: end},
	}
	return &ast.ExprStmt{X: &ast.CallExpr{Fun: lit, Lparen: end, Rparen: end}}
}

// hasMultiDefine reports whether n holds `a, b := ...` outside any function
// literal (inside one, yaegi compiles it fine).
func hasMultiDefine(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE && len(n.Lhs) > 1 {
				found = true
			}
		}
		return !found
	})
	return found
}

// yaegi v0.16.1 also fails ("nil type") on a comma-ok := in the global scope
// itself: `v, ok := x.(T)` and `v, ok := m[k]`, with := or var. Assigning to
// variables that already exist works, so commaOK declares them first:
//
//	v, ok := x.(T)   →   var v T; var ok bool; v, ok = x.(T)
//	v, ok := m[k]    →   v := m[k]; var ok bool; _, ok = m[k]
//
// The map form reads m[k] twice, so it is used only when m and k are names,
// selectors or literals (no calls whose effects would repeat). A receive
// (v, ok := <-ch) cannot be split this way: typedReceive handles it.
func commaOK(st ast.Stmt) []ast.Stmt {
	as, ok := st.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
		return nil
	}
	v, okName := as.Lhs[0].(*ast.Ident), as.Lhs[1].(*ast.Ident)
	if v == nil || okName == nil {
		return nil
	}
	pos := as.Pos()
	declare := func(name *ast.Ident, typ ast.Expr) ast.Stmt { return varDecl(pos, name, typ) }
	boolType := &ast.Ident{NamePos: pos, Name: "bool"}
	var out []ast.Stmt
	switch x := as.Rhs[0].(type) {
	case *ast.TypeAssertExpr:
		if x.Type == nil { // x.(type) belongs to a type switch
			return nil
		}
		if v.Name != "_" {
			out = append(out, declare(v, x.Type))
		}
		if okName.Name != "_" {
			out = append(out, declare(okName, boolType))
		}
		return append(out, &ast.AssignStmt{Lhs: as.Lhs, TokPos: as.TokPos, Tok: token.ASSIGN, Rhs: as.Rhs})
	case *ast.IndexExpr:
		if !pure(x.X) || !pure(x.Index) {
			return nil
		}
		if v.Name != "_" {
			out = append(out, &ast.AssignStmt{Lhs: []ast.Expr{v}, TokPos: as.TokPos, Tok: token.DEFINE, Rhs: []ast.Expr{x}})
		}
		if okName.Name != "_" {
			out = append(out, declare(okName, boolType),
				&ast.AssignStmt{Lhs: []ast.Expr{&ast.Ident{NamePos: pos, Name: "_"}, okName}, TokPos: as.TokPos, Tok: token.ASSIGN, Rhs: as.Rhs})
		}
		return out
	}
	return nil
}

// pure reports whether evaluating x twice is the same as once: names,
// selectors of names, and basic literals.
func pure(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.Ident, *ast.BasicLit:
		return true
	case *ast.SelectorExpr:
		return pure(x.X)
	case *ast.ParenExpr:
		return pure(x.X)
	}
	return false
}

// yaegi v0.16.1 cannot infer, in the global scope, the type of an element
// of a compiled package's named slice or map: `p := plats[0]` with plats a
// cl.PlatformList (or a sort.IntSlice) fails with "constant definition
// loop", and so does `d := p.Devices()[0]`; `var p *cl.Platform = plats[0]`
// works. runTypedIndex writes the second form for `name := X[index]`,
// reading the types off the live collection: a global's value, or X
// evaluated once into a helper variable. It reports false when st has
// another form or the type cannot be written in the cell's terms; then the
// caller keeps yaegi's error.
func (e *Engine) runTypedIndex(ctx context.Context, cell string, p *parsed, st ast.Stmt) (*CellError, bool) {
	as, ok := st.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return nil, false
	}
	name, _ := as.Lhs[0].(*ast.Ident)
	ix, _ := as.Rhs[0].(*ast.IndexExpr)
	if name == nil || name.Name == "_" || ix == nil {
		return nil, false
	}
	pos := as.Pos()
	collName := ""
	if id, ok := ix.X.(*ast.Ident); ok {
		collName = id.Name
	} else {
		// Evaluate X once, into an any-typed helper that yaegi can declare.
		collName = helperPrefix + "coll"
		eval := &ast.AssignStmt{Lhs: []ast.Expr{&ast.Ident{NamePos: pos, Name: collName}}, TokPos: as.TokPos, Tok: token.DEFINE,
			Rhs: []ast.Expr{&ast.CallExpr{Fun: &ast.FuncLit{
				Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{}, Results: &ast.FieldList{List: []*ast.Field{{Type: &ast.Ident{NamePos: pos, Name: "any"}}}}},
				Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{&ast.ReturnStmt{Return: pos, Results: []ast.Expr{ix.X}}}, Rbrace: as.End()},
			}, Lparen: as.End(), Rparen: as.End()}}}
		if err := e.compileRun(ctx, cell, e.block(p, eval)); err != nil {
			return err, true
		}
	}
	sc := e.Scope()
	v := sc.Globals[collName].Value
	if !v.IsValid() {
		if g, ok := globals(e.in)[collName]; ok {
			v = g
		}
	}
	for v.IsValid() && v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	if !v.IsValid() {
		return nil, false
	}
	switch v.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map:
	default:
		return nil, false
	}
	elemType, ok1 := typeExpr(v.Type().Elem(), sc, pos)
	collType, ok2 := typeExpr(v.Type(), sc, pos)
	if !ok1 || !ok2 {
		return nil, false
	}
	coll := ix.X
	if collName == helperPrefix+"coll" {
		coll = &ast.TypeAssertExpr{X: &ast.Ident{NamePos: pos, Name: collName}, Lparen: pos, Type: collType, Rparen: pos}
	}
	decl := varDecl(pos, name, elemType)
	assign := &ast.AssignStmt{Lhs: as.Lhs, TokPos: as.TokPos, Tok: token.ASSIGN,
		Rhs: []ast.Expr{&ast.IndexExpr{X: coll, Lbrack: ix.Lbrack, Index: ix.Index, Rbrack: ix.Rbrack}}}
	for _, t := range []ast.Stmt{decl, assign} {
		if err := e.compileRun(ctx, cell, e.block(p, t)); err != nil {
			return err, true
		}
	}
	return nil, true
}

// typedReceive rewrites `v, ok := <-ch` in the global scope, where yaegi
// v0.16.1 fails ("nil type") as it does for the other comma-ok forms. The
// receive cannot be split into two reads as commaOK splits a map index, so
// the element type is read off the live channel (a global's value) and
// written out: `var v T; var ok bool; v, ok = <-ch`. It returns nil when st
// has another form, ch is not a global channel, or its element type cannot
// be written in the cell's terms; then st runs as written.
func (e *Engine) typedReceive(st ast.Stmt) []ast.Stmt {
	as, ok := st.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
		return nil
	}
	v, okName := as.Lhs[0].(*ast.Ident), as.Lhs[1].(*ast.Ident)
	recv, _ := as.Rhs[0].(*ast.UnaryExpr)
	if v == nil || okName == nil || recv == nil || recv.Op != token.ARROW {
		return nil
	}
	chName, _ := recv.X.(*ast.Ident)
	if chName == nil {
		return nil
	}
	sc := e.Scope()
	ch := sc.Globals[chName.Name].Value
	for ch.IsValid() && ch.Kind() == reflect.Interface && !ch.IsNil() {
		ch = ch.Elem()
	}
	if !ch.IsValid() || ch.Kind() != reflect.Chan {
		return nil
	}
	pos := as.Pos()
	elemType, ok := typeExpr(ch.Type().Elem(), sc, pos)
	if !ok {
		return nil
	}
	// yaegi also fails (a reflect panic) on `_` in `v, _ = <-ch`, so a blank
	// name becomes a hidden helper variable.
	var parts []ast.Stmt
	declare := func(name *ast.Ident, typ ast.Expr, blank string) *ast.Ident {
		id := &ast.Ident{NamePos: name.NamePos, Name: name.Name}
		if id.Name == "_" {
			id.Name = helperPrefix + blank
		}
		parts = append(parts, varDecl(pos, id, typ))
		return &ast.Ident{NamePos: id.NamePos, Name: id.Name}
	}
	lhs := []ast.Expr{declare(v, elemType, "recv"), declare(okName, &ast.Ident{NamePos: pos, Name: "bool"}, "ok")}
	return append(parts, &ast.AssignStmt{Lhs: lhs, TokPos: as.TokPos, Tok: token.ASSIGN, Rhs: as.Rhs})
}

// varDecl declares `var name typ` at pos; name is copied.
func varDecl(pos token.Pos, name *ast.Ident, typ ast.Expr) *ast.DeclStmt {
	return &ast.DeclStmt{Decl: &ast.GenDecl{TokPos: pos, Tok: token.VAR,
		Specs: []ast.Spec{&ast.ValueSpec{Names: []*ast.Ident{{NamePos: name.NamePos, Name: name.Name}}, Type: typ}}}}
}

// typeExpr writes t as a type expression in the cell's terms (packages by
// their alias in sc), positioned at pos. It reports false when t cannot be
// written so, such as a type declared in a cell.
func typeExpr(t reflect.Type, sc Scope, pos token.Pos) (ast.Expr, bool) {
	aliases := map[string]string{}
	for alias, path := range sc.Imports {
		aliases[path] = alias
	}
	src, ok := typeSource(t, aliases)
	if !ok {
		return nil, false
	}
	x, err := parser.ParseExpr(src)
	if err != nil {
		return nil, false
	}
	setPos(x, pos)
	return x, true
}

// typeSource writes t in Go syntax, naming packages by their alias in cells.
func typeSource(t reflect.Type, aliases map[string]string) (string, bool) {
	if t.Name() != "" {
		if t.PkgPath() == "" {
			return t.Name(), true // int, string, error, ...
		}
		alias, ok := aliases[t.PkgPath()]
		if !ok || !token.IsExported(t.Name()) {
			return "", false
		}
		return alias + "." + t.Name(), true
	}
	var prefix string
	switch t.Kind() {
	case reflect.Pointer:
		prefix = "*"
	case reflect.Slice:
		prefix = "[]"
	case reflect.Array:
		prefix = fmt.Sprintf("[%d]", t.Len())
	case reflect.Map:
		key, ok := typeSource(t.Key(), aliases)
		if !ok {
			return "", false
		}
		prefix = "map[" + key + "]"
	default:
		return "", false
	}
	elem, ok := typeSource(t.Elem(), aliases)
	return prefix + elem, ok
}

// setPos gives every identifier of a parsed type expression the position
// pos, so that errors point at the statement it came from.
func setPos(x ast.Expr, pos token.Pos) {
	ast.Inspect(x, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			n.NamePos = pos
		case *ast.StarExpr:
			n.Star = pos
		case *ast.ArrayType:
			n.Lbrack = pos
		case *ast.MapType:
			n.Map = pos
		}
		return true
	})
}
