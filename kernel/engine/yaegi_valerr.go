package engine

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"

	"github.com/seed43a1e1ab/gocl/kernel/cellvalue"
)

// yaegi v0.16.1 makes a broken interface value of a struct of two or more
// fields whose methods have value receivers, when it converts one to an
// interface with methods (an error, a fmt.Stringer): its wrapper keeps the
// last field alone. Error still works, but %T says interp._error, errors.As
// and a type assertion back to the struct fail, `var err error = ValErr{1,
// "x"}` then err.Error() panics in reflect, and an assignment to a named
// result returns nil. (An empty interface keeps the whole value.) So in a
// checked cell each such implicit or explicit conversion hands the value
// to compiled code, which keeps it whole in kernel/cellvalue's box: a real
// Go error whose Error, Unwrap, Is and As call the type's methods, which
// fmt, errors and the engine's comparisons, assertions and type switches
// all see through:
//
//	var err error = ValErr{1, "x"}  →  var err error = __gocl_hook.Box(ValErr{1, "x"}, 7).(error)
//
// Upgrading yaegi past this bug means deleting this file and its calls.

// valueMethodStructs are the session's struct types that have a method with
// a value receiver, by name (methods: the session's and the cell's method
// declarations, by "T.M").
func valueMethodStructs(methods map[string]*ast.FuncDecl, kinds map[string]string) map[string]bool {
	out := valueMethodTypes(methods, kinds, cellStruct)
	return out
}

// valueMethodTypes are the session's types of the kind that have a method
// with a value receiver, by name.
func valueMethodTypes(methods map[string]*ast.FuncDecl, kinds map[string]string, kind string) map[string]bool {
	out := map[string]bool{}
	for _, f := range methods {
		if f.Recv == nil || len(f.Recv.List) != 1 {
			continue
		}
		t := f.Recv.List[0].Type
		if ix, ok := t.(*ast.IndexExpr); ok {
			t = ix.X // (a generic type's method: left alone below)
		}
		if id, ok := t.(*ast.Ident); ok && kinds[id.Name] == kind {
			out[id.Name] = true
		}
	}
	return out
}

// boxValueStructs rewrites the conversions described above in the cell's
// function bodies and statements.
func boxValueStructs(ps []*parsed, info *types.Info, descID func(types.Type) int, qualify func(*types.Package) string) {
	broken := func(from, to types.Type) bool {
		n, ok := isCell(from)
		if !ok {
			return false
		}
		st, ok := n.Underlying().(*types.Struct)
		it, isIface := types.Unalias(to).Underlying().(*types.Interface)
		if !ok || st.NumFields() < 2 || !isIface || it.NumMethods() == 0 || !types.Implements(from, it) {
			return false
		}
		if _, cellIface := isCell(to); cellIface {
			return false // an interface of the cells' own: yaegi keeps the value whole there
		}
		return boxImplements(from, it)
	}
	replace := func(x ast.Expr, to types.Type) ast.Expr {
		from := info.TypeOf(x)
		if from == nil || to == nil {
			return x
		}
		if isNamedBasic(from) && types.IsInterface(to) { // yaegi_namedvalue.go
			return &ast.CallExpr{Fun: hookSel(x.Pos(), "Named"), Lparen: x.Pos(), Args: []ast.Expr{x, intLit(x.Pos(), descID(from))}, Rparen: x.End()}
		}
		if !broken(from, to) {
			return x
		}
		typ, ok := goTypeExpr(to, qualify, x.Pos())
		if !ok {
			return x
		}
		box := &ast.CallExpr{Fun: hookSel(x.Pos(), "Box"), Lparen: x.Pos(), Args: []ast.Expr{x, intLit(x.Pos(), descID(from))}, Rparen: x.End()}
		return &ast.TypeAssertExpr{X: box, Lparen: x.End(), Type: typ, Rparen: x.End()}
	}
	type body struct {
		n   ast.Node
		sig *types.Signature // the function's whose body n is; nil for a cell's statements
	}
	var todo []body
	for _, p := range ps {
		switch {
		case p.body != nil:
			todo = append(todo, body{n: p.body})
		case p.file != nil:
			for _, d := range p.file.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
					if f, ok := info.Defs[fd.Name].(*types.Func); ok {
						sig, _ := f.Type().(*types.Signature)
						todo = append(todo, body{n: fd.Body, sig: sig})
					}
				}
			}
		}
	}
	for _, b := range todo {
		sigs := []*types.Signature{b.sig} // the enclosing functions', for return statements
		astutil.Apply(b.n, func(cur *astutil.Cursor) bool {
			if lit, ok := cur.Node().(*ast.FuncLit); ok {
				sig, _ := info.TypeOf(lit).(*types.Signature)
				sigs = append(sigs, sig)
			}
			return true
		}, func(cur *astutil.Cursor) bool {
			switch s := cur.Node().(type) {
			case *ast.FuncLit:
				sigs = sigs[:len(sigs)-1]
			case *ast.AssignStmt:
				if len(s.Lhs) == len(s.Rhs) && s.Tok == token.ASSIGN {
					for i := range s.Rhs {
						s.Rhs[i] = replace(s.Rhs[i], info.TypeOf(s.Lhs[i]))
					}
				}
			case *ast.ValueSpec:
				if s.Type != nil && len(s.Values) == len(s.Names) {
					to := info.TypeOf(s.Type)
					for i := range s.Values {
						s.Values[i] = replace(s.Values[i], to)
					}
				}
			case *ast.ReturnStmt:
				if sig := sigs[len(sigs)-1]; sig != nil && sig.Results().Len() == len(s.Results) {
					for i := range s.Results {
						s.Results[i] = replace(s.Results[i], sig.Results().At(i).Type())
					}
				}
			case *ast.CallExpr:
				if compiledCallee(info, s) {
					// Compiled code gets the value as yaegi holds it (a
					// namedValue would be news to reflect.TypeOf), but an
					// error or Stringer whole: the box is a real one.
					boxCallArgs(s, info, func(x ast.Expr, to types.Type) ast.Expr {
						if from := info.TypeOf(x); from != nil && isNamedBasic(from) {
							return x
						}
						return replace(x, to)
					})
					break
				}
				boxCallArgs(s, info, replace)
			case *ast.CompositeLit:
				boxElements(s, info, replace)
			case *ast.IndexExpr: // m[k] of a map with interface keys
				if mt, ok := types.Unalias(info.TypeOf(s.X)).(*types.Map); ok || isMapType(info.TypeOf(s.X), &mt) {
					s.Index = replace(s.Index, mt.Key())
				}
			case *ast.SendStmt:
				if ch, ok := types.Unalias(info.TypeOf(s.Chan)).Underlying().(*types.Chan); ok {
					s.Value = replace(s.Value, ch.Elem())
				}
			}
			return true
		})
	}
}

// boxCallArgs replaces the arguments of a call, or the operand of a
// conversion, by their parameter's (or the conversion's) type.
func boxCallArgs(c *ast.CallExpr, info *types.Info, replace func(ast.Expr, types.Type) ast.Expr) {
	if tv, ok := info.Types[c.Fun]; ok && tv.IsType() {
		if len(c.Args) == 1 {
			c.Args[0] = replace(c.Args[0], tv.Type)
		}
		return
	}
	t := info.TypeOf(c.Fun)
	if t == nil {
		return
	}
	sig, ok := types.Unalias(t).Underlying().(*types.Signature)
	if !ok {
		return
	}
	params := sig.Params()
	for i := range c.Args {
		var to types.Type
		switch {
		case sig.Variadic() && i >= params.Len()-1 && !c.Ellipsis.IsValid():
			if sl, ok := params.At(params.Len() - 1).Type().(*types.Slice); ok {
				to = sl.Elem()
			}
		case i < params.Len():
			to = params.At(i).Type()
		}
		if to != nil {
			c.Args[i] = replace(c.Args[i], to)
		}
	}
}

// boxElements replaces a composite literal's elements by their element,
// key or field type.
func boxElements(lit *ast.CompositeLit, info *types.Info, replace func(ast.Expr, types.Type) ast.Expr) {
	t := info.TypeOf(lit)
	if t == nil {
		return
	}
	switch u := types.Unalias(t).Underlying().(type) {
	case *types.Slice:
		eachElement(lit, func(x *ast.Expr) { *x = replace(*x, u.Elem()) }, nil)
	case *types.Array:
		eachElement(lit, func(x *ast.Expr) { *x = replace(*x, u.Elem()) }, nil)
	case *types.Map:
		eachElement(lit, func(x *ast.Expr) { *x = replace(*x, u.Elem()) }, func(k *ast.Expr) { *k = replace(*k, u.Key()) })
	case *types.Struct:
		for i, e := range lit.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				if id, ok := kv.Key.(*ast.Ident); ok {
					for j := 0; j < u.NumFields(); j++ {
						if u.Field(j).Name() == id.Name {
							kv.Value = replace(kv.Value, u.Field(j).Type())
						}
					}
				}
			} else if i < u.NumFields() {
				lit.Elts[i] = replace(e, u.Field(i).Type())
			}
		}
	}
}

// eachElement calls value for each element (or key: value's value) of a
// slice, array or map literal, and key for each key.
func eachElement(lit *ast.CompositeLit, value, key func(*ast.Expr)) {
	for i := range lit.Elts {
		if kv, ok := lit.Elts[i].(*ast.KeyValueExpr); ok {
			value(&kv.Value)
			if key != nil {
				key(&kv.Key)
			}
			continue
		}
		value(&lit.Elts[i])
	}
}

// unboxed is __gocl_hook.Unboxed: the value a box keeps, as yaegi holds it
// (a type assertion or switch of the cell asks it, through __gocl_unwrapped).
func unboxed(v any) any {
	raw, _, _ := cellvalue.Unbox(v)
	return raw
}

// boxImplements reports whether the box of a value of type t (kernel/
// cellvalue: an error when t has Error, else a fmt.Stringer when it has
// String) has every method of the compiled interface it: error and
// fmt.Stringer, not io.Reader, whose Read the box would not have (there
// yaegi's wrapper stays: its methods are right).
func boxImplements(t types.Type, it *types.Interface) bool {
	has := func(name string) bool {
		obj, _, _ := types.LookupFieldOrMethod(t, false, nil, name)
		_, isFunc := obj.(*types.Func)
		return isFunc
	}
	want := "String"
	if has("Error") {
		want = "Error"
	}
	return it.NumMethods() == 1 && it.Method(0).Name() == want
}

// isMapType reports whether t is a map type, named or not, and sets *m.
func isMapType(t types.Type, m **types.Map) bool {
	if t == nil {
		return false
	}
	mt, ok := types.Unalias(t).Underlying().(*types.Map)
	if ok {
		*m = mt
	}
	return ok
}

// compiledCallee reports whether c calls a compiled package's function or
// a method of a compiled package's type.
func compiledCallee(info *types.Info, c *ast.CallExpr) bool {
	var id *ast.Ident
	switch f := ast.Unparen(c.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return false
	}
	fn, ok := info.Uses[id].(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() != "main"
}

// mayConvert reports whether the cell has a form in which Go may convert a
// value to an interface (a call, a composite literal, a return, a send, an
// assignment to a variable or element, a typed var) or asserts one: only
// such a cell is checked for boxValueStructs (`x := 1` is not).
func mayConvert(ps []*parsed) bool {
	return anyNode(cellNodes(ps), func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.CallExpr, *ast.CompositeLit, *ast.ReturnStmt, *ast.SendStmt, *ast.TypeAssertExpr, *ast.IndexExpr:
			return true
		case *ast.AssignStmt:
			return s.Tok != token.DEFINE
		case *ast.ValueSpec:
			return s.Type != nil
		}
		return false
	})
}
