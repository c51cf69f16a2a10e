package engine

import (
	"fmt"
	"go/ast"
	"go/printer"
	"go/token"
	"reflect"
	"strings"
	"sync/atomic"

	"github.com/seed43a1e1ab/gocl/kernel/internal/yaegiaccess"
)

// yaegi v0.16.1 never matches an interface case of a type switch on a value
// of a compiled type: `case error:` takes the default for io.EOF, and
// `case fmt.Stringer:` for time.Second, a silent wrong answer. So a cell's
// type switches are rewritten into expression switches, case by case in Go's
// order, each case asking __gocl_match: by reflection when the value's type
// is a compiled one (exact, methods included), else by a comma-ok assertion
// in interpreted code, which yaegi answers for the cells' own types. The
// bound name takes the case's type where the case names one type, and the
// switched value otherwise:
//
//	switch t := x.(type) {          {
//	case error:                         v := x
//	    A                               m0, k0 := __gocl_match(v, (*error)(nil))
//	case int, string:                   if !k0 && v != nil { _, m0 = v.(error) }
//	    B                               ... (m1, m2 likewise)
//	default:                            switch {
//	    C                               case m0:
//	}                                       t := v.(error); A
//	                                    case m1 || m2:
//	                                        t := v; B
//	                                    default:
//	                                        t := v; C
//	                                    }
//	                                }
//
// A break in a case still leaves the switch, and a label on the switch moves
// with it. yaegi still fails, with a reflect error, on method calls through
// an interface that has held values of the cells' own types and of compiled
// ones (see the README's limits). Upgrading yaegi past this bug means
// deleting this file and its one call.

var typeSwitchSeq atomic.Int64

// rewriteTypeSwitches rewrites every type switch under n (see above).
// isIface reports whether a case's type expression names an interface.
func rewriteTypeSwitches(n ast.Node, isIface, isCellStruct func(ast.Expr) bool) {
	made := map[*ast.TypeSwitchStmt]bool{} // the rewrite's own switches of concrete cases
	rewriteList := func(list []ast.Stmt) {
		for i, st := range list {
			switch s := st.(type) {
			case *ast.TypeSwitchStmt:
				if !made[s] {
					list[i] = exprSwitch(s, nil, isIface, isCellStruct, made)
				}
			case *ast.LabeledStmt:
				if ts, ok := s.Stmt.(*ast.TypeSwitchStmt); ok {
					list[i] = exprSwitch(ts, s, isIface, isCellStruct, made)
				}
			}
		}
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			rewriteList(n.List)
		case *ast.CaseClause:
			rewriteList(n.Body)
		case *ast.CommClause:
			rewriteList(n.Body)
		}
		return true
	})
}

// exprSwitch returns the block that replaces ts (labelled by label, if not
// nil). Nested type switches are rewritten by the caller's walk, which
// visits the new block's case bodies afterwards.
func exprSwitch(ts *ast.TypeSwitchStmt, label *ast.LabeledStmt, isIface, isCellStruct func(ast.Expr) bool, made map[*ast.TypeSwitchStmt]bool) ast.Stmt {
	if !rewritable(ts) || !(hasIfaceCase(ts, isIface) || hasIfaceCase(ts, isCellStruct)) {
		if label != nil {
			return label
		}
		return ts // yaegi reports the error Go gives
	}
	pos := ts.Pos()
	id := func(name string) *ast.Ident { return &ast.Ident{NamePos: pos, Name: name} }
	val := fmt.Sprintf("%sts%d", helperPrefix, typeSwitchSeq.Add(1))

	var bound string // the name the switch binds, if any
	var subject ast.Expr
	switch a := ts.Assign.(type) {
	case *ast.AssignStmt: // t := x.(type)
		bound = a.Lhs[0].(*ast.Ident).Name
		subject = a.Rhs[0].(*ast.TypeAssertExpr).X
	case *ast.ExprStmt: // x.(type)
		subject = a.X.(*ast.TypeAssertExpr).X
	default:
		return ts
	}

	var outer []ast.Stmt
	if ts.Init != nil {
		outer = append(outer, ts.Init)
	}
	outer = append(outer, &ast.AssignStmt{Lhs: []ast.Expr{id(val)}, TokPos: pos, Tok: token.DEFINE, Rhs: []ast.Expr{subject}})

	// The concrete types are told apart by a type switch of their own,
	// which yaegi gets right (two cell struct types alike in shape
	// included); it sets the index of the case type that matched.
	which := id(val + "k")
	concrete := &ast.TypeSwitchStmt{Switch: pos, Assign: &ast.ExprStmt{X: &ast.TypeAssertExpr{X: id(val), Lparen: pos, Rparen: pos}},
		Body: &ast.BlockStmt{Lbrace: pos, Rbrace: pos}}
	made[concrete] = true
	outer = append(outer, &ast.AssignStmt{Lhs: []ast.Expr{which}, TokPos: pos, Tok: token.DEFINE,
		Rhs: []ast.Expr{&ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: "-1"}}})
	outer = append(outer, concrete)
	next := 0

	// yaegi's own switch never matches a cell's struct type (or a pointer
	// to one) when the value is held bare, as it is in a composite literal's
	// []any or behind an error: those cases are asked again, in order, by
	// comma-ok assertions on the unwrapped value, which yaegi answers.
	unwrapped, bare := id(val+"u"), id(val+"b")
	var fallback []ast.Stmt
	fallbackIf := func(t ast.Expr, n ast.Expr) {
		fallback = append(fallback, &ast.IfStmt{If: pos,
			Init: &ast.AssignStmt{Lhs: []ast.Expr{id(helperPrefix + "tv"), id(helperPrefix + "ok")}, TokPos: pos, Tok: token.DEFINE,
				Rhs: []ast.Expr{&ast.TypeAssertExpr{X: unwrapped, Lparen: pos, Type: t, Rparen: pos}}},
			Cond: &ast.BinaryExpr{X: &ast.BinaryExpr{X: id(helperPrefix + "ok"), OpPos: pos, Op: token.LAND, Y: bare}, OpPos: pos, Op: token.LAND,
				Y: &ast.BinaryExpr{X: which, OpPos: pos, Op: token.EQL, Y: &ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: "-1"}}},
			Body: &ast.BlockStmt{Lbrace: pos, Rbrace: pos, List: []ast.Stmt{
				&ast.AssignStmt{Lhs: []ast.Expr{which}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{n}}}}})
	}

	sw := &ast.SwitchStmt{Switch: ts.Switch, Body: &ast.BlockStmt{Lbrace: ts.Body.Lbrace, Rbrace: ts.Body.Rbrace}}
	for _, c := range ts.Body.List {
		cc := c.(*ast.CaseClause)
		var cond ast.Expr
		for _, t := range cc.List {
			var test ast.Expr
			if isNilIdent(t) {
				test = &ast.BinaryExpr{X: id(val), OpPos: pos, Op: token.EQL, Y: id("nil")}
			} else if !isIface(t) {
				n := &ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: fmt.Sprint(next)}
				next++
				concrete.Body.List = append(concrete.Body.List, &ast.CaseClause{Case: pos, Colon: pos, List: []ast.Expr{t},
					Body: []ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{which}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{n}}}})
				if isCellStruct(t) {
					fallbackIf(t, n)
				}
				test = &ast.BinaryExpr{X: which, OpPos: pos, Op: token.EQL, Y: n}
			} else {
				// Asked before the switch, in statements of the block: a
				// comma-ok assertion in a closure fails in yaegi.
				m := id(fmt.Sprintf("%sm%d", val, len(outer)))
				outer = append(outer, matchStmts(id(val), m, t, pos)...)
				test = m
			}
			if cond == nil {
				cond = test
			} else {
				cond = &ast.BinaryExpr{X: cond, OpPos: pos, Op: token.LOR, Y: test}
			}
		}
		var body []ast.Stmt
		switch {
		case bound == "":
			body = cc.Body
		case len(cc.List) == 1 && !isNilIdent(cc.List[0]):
			// (No `_ = t` for an unused t: yaegi accepts unused variables,
			// and an assignment to _ corrupts an interface value.)
			var subject ast.Expr = id(val)
			if isCellStruct(cc.List[0]) {
				subject = unwrapped
			} else if isIface(cc.List[0]) {
				// A cell's value held bare comes as its box, which has the
				// interface's methods (crossing.go).
				subject = &ast.CallExpr{Fun: &ast.SelectorExpr{X: id("__gocl_hook"), Sel: id("AsIface")}, Lparen: pos,
					Args: []ast.Expr{id(val), typeNil(cc.List[0], pos)}, Rparen: pos}
			}
			body = append([]ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{id(bound)}, TokPos: pos, Tok: token.DEFINE,
				Rhs: []ast.Expr{&ast.TypeAssertExpr{X: subject, Lparen: pos, Type: cc.List[0], Rparen: pos}}}}, cc.Body...)
		default:
			body = append([]ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{id(bound)}, TokPos: pos, Tok: token.DEFINE, Rhs: []ast.Expr{id(val)}}}, cc.Body...)
		}
		clause := &ast.CaseClause{Case: cc.Case, Colon: cc.Colon, Body: body}
		if cond != nil {
			clause.List = []ast.Expr{cond}
		}
		sw.Body.List = append(sw.Body.List, clause)
	}
	if len(fallback) > 0 {
		// The fallback's value: the one an error or other yaegi wrapper
		// holds, else the value itself.
		outer = append(outer, &ast.AssignStmt{Lhs: []ast.Expr{unwrapped}, TokPos: pos, Tok: token.DEFINE,
			Rhs: []ast.Expr{&ast.CallExpr{Fun: id(helperPrefix + "unwrapped"), Lparen: pos, Args: []ast.Expr{id(val)}, Rparen: pos}}},
			&ast.AssignStmt{Lhs: []ast.Expr{bare}, TokPos: pos, Tok: token.DEFINE,
				Rhs: []ast.Expr{&ast.CallExpr{Fun: id(helperPrefix + "bare"), Lparen: pos, Args: []ast.Expr{id(val)}, Rparen: pos}}})
		outer = append(outer, fallback...)
	}
	var inner ast.Stmt = sw
	if label != nil {
		inner = &ast.LabeledStmt{Label: label.Label, Colon: label.Colon, Stmt: sw}
	}
	outer = append(outer, inner)
	return &ast.BlockStmt{Lbrace: pos, List: outer, Rbrace: ts.End()}
}

// matchStmts sets m to whether v matches type t:
//
//	m, known := __gocl_match(v, (*T)(nil))
//	if !known && v != nil { tv, ok := v.(T); m = ok }
//
// (the value is named, not _: an assignment to _ can corrupt it in yaegi).
func matchStmts(v *ast.Ident, m *ast.Ident, t ast.Expr, pos token.Pos) []ast.Stmt {
	id := func(name string) *ast.Ident { return &ast.Ident{NamePos: pos, Name: name} }
	known := id(m.Name + "k")
	ok := id(helperPrefix + "ok")
	return []ast.Stmt{
		&ast.AssignStmt{Lhs: []ast.Expr{m, known}, TokPos: pos, Tok: token.DEFINE, Rhs: []ast.Expr{&ast.CallExpr{
			Fun: id(helperPrefix + "match"), Lparen: pos, Args: []ast.Expr{v, typeNil(t, pos)}, Rparen: pos}}},
		&ast.IfStmt{If: pos,
			Cond: &ast.BinaryExpr{X: &ast.UnaryExpr{OpPos: pos, Op: token.NOT, X: known}, OpPos: pos, Op: token.LAND,
				Y: &ast.BinaryExpr{X: v, OpPos: pos, Op: token.NEQ, Y: id("nil")}},
			Body: &ast.BlockStmt{Lbrace: pos, Rbrace: pos, List: []ast.Stmt{
				&ast.AssignStmt{Lhs: []ast.Expr{id(helperPrefix + "tv"), ok}, TokPos: pos, Tok: token.DEFINE,
					Rhs: []ast.Expr{&ast.TypeAssertExpr{X: v, Lparen: pos, Type: t, Rparen: pos}}},
				&ast.AssignStmt{Lhs: []ast.Expr{m}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{ok}},
			}}},
	}
}

func isNilIdent(x ast.Expr) bool {
	id, ok := x.(*ast.Ident)
	return ok && id.Name == "nil"
}

// typeNil is (*T)(nil), which carries T to the engine's matcher.
func typeNil(t ast.Expr, pos token.Pos) ast.Expr {
	return &ast.CallExpr{Fun: &ast.ParenExpr{Lparen: pos, X: &ast.StarExpr{Star: pos, X: t}, Rparen: pos},
		Lparen: pos, Args: []ast.Expr{&ast.Ident{NamePos: pos, Name: "nil"}}, Rparen: pos}
}

// interpPath is the package of yaegi's own wrapper types.
const interpPath = yaegiaccess.InterpPath

// isCompiledValue reports whether v's dynamic type is certainly a compiled
// package's named type, not one that stands for a cell's type.
func isCompiledValue(v any) bool {
	t := reflect.TypeOf(v)
	if t == nil {
		return false
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	// Only a type named in a compiled package says for sure: yaegi hands
	// a cell's `type S int` to compiled code as a plain int, and builds
	// unnamed structs for the cells' struct types.
	return t.PkgPath() != "" && t.PkgPath() != interpPath
}

// matchesType reports whether v's type is typ's element type, or implements
// it when that is an interface; known is false when v's type is a cell's,
// which reflection cannot see the methods of.
func (e *Engine) matchesType(v any, typ any) (matched, known bool) {
	pt := reflect.TypeOf(typ)
	if pt != nil && pt.Kind() == reflect.Pointer && pt.Elem().Kind() == reflect.Interface && !isCompiledValue(v) && e.cross != nil {
		// A cell's value yaegi holds bare: its method set, from go/types.
		if m, k, _, _ := e.cross.implements(v, pt.Elem()); k {
			return m, true
		}
	}
	return matchesType(v, typ)
}

func matchesType(v any, typ any) (matched, known bool) {
	pt := reflect.TypeOf(typ)
	if pt == nil || pt.Kind() != reflect.Pointer || !isCompiledValue(v) {
		return false, false
	}
	want, t := pt.Elem(), reflect.TypeOf(v)
	if want.PkgPath() == interpPath || (want.Name() == "" && want.Kind() == reflect.Struct && want.NumField() > 0) {
		return false, false // a cell's type named in the case
	}
	if want.Kind() == reflect.Interface {
		return t.Implements(want), true
	}
	return t == want, true
}

// hasIfaceCase reports whether a case of ts names an interface type: only
// those need the rewrite.
func hasIfaceCase(ts *ast.TypeSwitchStmt, isIface func(ast.Expr) bool) bool {
	for _, c := range ts.Body.List {
		for _, t := range c.(*ast.CaseClause).List {
			if !isNilIdent(t) && isIface(t) {
				return true
			}
		}
	}
	return false
}

// rewritable reports whether ts is a valid type switch as far as the
// rewrite can tell: no fallthrough and no type listed twice (Go refuses
// both, and an expression switch would not).
func rewritable(ts *ast.TypeSwitchStmt) bool {
	seen := map[string]bool{}
	for _, c := range ts.Body.List {
		cc := c.(*ast.CaseClause)
		for _, t := range cc.List {
			key := types2String(t)
			if seen[key] {
				return false
			}
			seen[key] = true
		}
		for _, st := range cc.Body {
			if br, ok := st.(*ast.BranchStmt); ok && br.Tok == token.FALLTHROUGH {
				return false
			}
		}
	}
	return true
}

// types2String writes a type expression as source, for comparing cases.
func types2String(x ast.Expr) string {
	var b strings.Builder
	printer.Fprint(&b, token.NewFileSet(), x)
	return b.String()
}

// interfaceCase returns the classifier of case types for a cell: the
// predeclared error and any, interface literals and a package's interface
// types (by their symbol tables). A cell's own interface types are not among
// them: yaegi's own type switch answers those right, and asserting a value to
// one outside it goes wrong.
func (e *Engine) interfaceCase() func(ast.Expr) bool {
	var isIface func(ast.Expr) bool
	isIface = func(x ast.Expr) bool {
		switch x := x.(type) {
		case *ast.ParenExpr:
			return isIface(x.X)
		case *ast.InterfaceType:
			return true
		case *ast.Ident:
			return x.Name == "error" || x.Name == "any"
		case *ast.SelectorExpr:
			pkg, ok := x.X.(*ast.Ident)
			if !ok {
				return false
			}
			e.state.Lock()
			ipath := e.imports[pkg.Name]
			e.state.Unlock()
			v, ok := e.symbols[ipath][x.Sel.Name]
			return ok && v.IsValid() && v.Kind() == reflect.Pointer && v.Type().Elem().Kind() == reflect.Interface && v.IsNil()
		}
		return false
	}
	return isIface
}

// isYaegiWrapper reports whether v is one of yaegi's wrappers: a compiled
// struct that makes a cell's value satisfy a compiled interface (error,
// fmt.Stringer, ...), holding the value in its first field, IValue.
func isYaegiWrapper(v any) bool {
	t := reflect.TypeOf(v)
	if t == nil || t.Kind() != reflect.Struct || t.NumField() == 0 || !strings.HasPrefix(t.Name(), "_") {
		return false
	}
	f := t.Field(0)
	return f.Name == "IValue" && f.Type.Kind() == reflect.Interface
}

// isBare reports whether v reached compiled code as itself: not in the
// interp.valueInterface that yaegi uses to keep a cell type beside a value.
func isBare(v any) bool {
	t := reflect.TypeOf(v)
	return t != nil && !yaegiaccess.IsValueInterface(t)
}

// unwrapYaegi returns the value a yaegi wrapper holds.
func unwrapYaegi(v any) any {
	if !isYaegiWrapper(v) {
		return v
	}
	return reflect.ValueOf(v).Field(0).Interface()
}

// Kinds of the cells' own named types, as the type switch rewrite sees them.
const (
	cellStruct = "struct"
	cellIface  = "interface"
	cellOther  = "other" // any other underlying type: int, string, []T, map, func...
)

// cellTypeKinds maps the name of every type the cells declared (the earlier
// cells' and ps's own) to its kind; generic types and aliases are left out.
func (e *Engine) cellTypeKinds(ps []*parsed) map[string]string {
	kinds := map[string]string{}
	e.state.Lock()
	for name, text := range e.types {
		if k := specKind(text); k != "" {
			kinds[name] = k
		}
	}
	e.state.Unlock()
	for _, ts := range cellTypeSpecs(ps) {
		delete(kinds, ts.Name.Name)
		if ts.Assign != 0 || ts.TypeParams != nil {
			continue
		}
		switch ts.Type.(type) {
		case *ast.StructType:
			kinds[ts.Name.Name] = cellStruct
		case *ast.InterfaceType:
			kinds[ts.Name.Name] = cellIface
		default:
			kinds[ts.Name.Name] = cellOther
		}
	}
	return kinds
}

// specKind is the kind of a kept type spec's text ("T struct { ... }"), or
// "" for a generic type or an alias.
func specKind(text string) string {
	f := strings.Fields(text)
	switch {
	case len(f) < 2 || f[1] == "=" || strings.HasPrefix(f[1], "["):
		return ""
	case strings.HasPrefix(f[1], "struct"):
		return cellStruct
	case strings.HasPrefix(f[1], "interface"):
		return cellIface
	}
	return cellOther
}

// caseOf returns the classifier of case (or assertion) types that name a
// cell's type of the given kind, or a pointer to one.
func caseOf(kinds map[string]string, kind string) func(ast.Expr) bool {
	var is func(ast.Expr) bool
	is = func(x ast.Expr) bool {
		switch x := x.(type) {
		case *ast.ParenExpr:
			return is(x.X)
		case *ast.StarExpr:
			return kind != cellIface && is(x.X)
		case *ast.Ident:
			return kinds[x.Name] == kind
		}
		return false
	}
	return is
}

// refuseUntypedCases is the compile error for a type switch case on a
// cell's named type that is not a struct or an interface (type Celsius
// float64): yaegi holds such a value in an interface as its bare underlying
// value, and its type switch never matches the case, nor could any test
// tell a bare Celsius from a float64. (A type assertion to it stays allowed:
// it is right for a Celsius, and wrong only for a bare float64 value, which
// the README's limits name.)
func (e *Engine) refuseUntypedCases(name string, ps []*parsed, kinds map[string]string) *CellError {
	isOther := caseOf(kinds, cellOther)
	var bad ast.Expr
	check := func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			if bad != nil {
				return false
			}
			switch n := n.(type) {
			case *ast.TypeSwitchStmt:
				for _, c := range n.Body.List {
					for _, t := range c.(*ast.CaseClause).List {
						if bad == nil && isOther(t) {
							bad = t
						}
					}
				}
			}
			return true
		})
	}
	for _, p := range ps {
		if n := p.node(); n != nil {
			check(n)
		}
		if bad != nil {
			t := types2String(bad)
			return e.errorAt(name, "CompileError", fmt.Sprintf("a type switch case on %s cannot be "+
				"answered right here: %s is a type declared in a cell that is not a struct, and the interpreter (yaegi) "+
				"keeps a %s held in an interface as a bare value of its underlying type, so it cannot tell the two apart. "+
				"Declare it as a struct (type %s struct{ v ... }), test for a method instead (case interface{ M() }), "+
				"assert it (if c, ok := v.(%[1]s); ok: answered right for a type without methods), or "+
				"put this code in a cell that starts with //gocl:compile", t, t, t, strings.TrimPrefix(t, "*")), bad.Pos(), nil)
		}
	}
	return nil
}

// rewriteCellAssertions makes every type assertion to a cell's struct type
// (or a pointer to one) ask the unwrapped value: yaegi fails it on the
// wrapper an error variable holds (`err.(*MyErr)` is false for
// `var err error = &MyErr{}`).
func rewriteCellAssertions(n ast.Node, isCellStruct func(ast.Expr) bool) {
	ast.Inspect(n, func(n ast.Node) bool {
		ta, ok := n.(*ast.TypeAssertExpr)
		if ok && ta.Type != nil && isCellStruct(ta.Type) {
			ta.X = &ast.CallExpr{Fun: &ast.Ident{NamePos: ta.X.Pos(), Name: helperPrefix + "unwrapped"},
				Lparen: ta.X.Pos(), Args: []ast.Expr{ta.X}, Rparen: ta.X.End()}
		}
		return true
	})
}

var passUntypedCases = pass{
	name:     "untyped-cases",
	bug:      "a case of a cell's named basic type in a type switch cannot be told apart from its underlying type",
	file:     "yaegi_typeswitch.go",
	reads:    needSession,
	changes:  "refuses",
	userOnly: true,
	run:      func(c *cellRun) *CellError { return c.e.refuseUntypedCases(c.name, c.ps, c.kinds) },
}

var passCellAssertions = pass{
	name:     "cell-assertions",
	bug:      "a type assertion to a cell's struct type of a value yaegi wrapped for compiled code fails",
	file:     "yaegi_typeswitch.go",
	reads:    needSession,
	changes:  "type assertions to the cells' struct types",
	userOnly: true,
	chunk: func(c *cellRun, p *parsed) {
		if n := p.node(); n != nil {
			rewriteCellAssertions(n, c.isCellStruct)
		}
	},
}

var passTypeSwitches = pass{
	name:     "type-switches",
	bug:      "an interface case of a type switch never matches a value of a compiled type (case error: takes the default for io.EOF)",
	file:     "yaegi_typeswitch.go",
	reads:    needSession,
	after:    []string{"crossings"}, // the descriptors of the cells' types, which the matches read
	changes:  "type switches, into expression switches",
	userOnly: true,
	chunk: func(c *cellRun, p *parsed) {
		if n := p.node(); n != nil {
			rewriteTypeSwitches(n, c.isIface, c.isCellStruct)
		}
	},
}
