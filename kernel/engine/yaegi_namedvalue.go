package engine

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ast/astutil"

	"github.com/seed43a1e1ab/gocl/kernel/cellvalue"
)

// yaegi v0.16.1 holds a value of a cell's named type of a basic underlying
// type without methods (`type Celsius float64`) in an interface as a bare
// value of the underlying type: `var v any = Celsius(3)` then matches
// `case float64:`, %T says float64, and `v.(Celsius)` holds for a plain
// 2.5 too. So in a checked cell each conversion of such a value to an
// interface (implicit or explicit: an assignment, a return, an argument, an
// element) makes a namedValue instead, a compiled value that keeps the
// type's name beside the value:
//
//	var v any = c               →  var v any = __gocl_hook.Named(c, 7)
//	x, ok := v.(Celsius)        →  x, ok := __gocl_hook.NamedAs(v, 7).(Celsius)
//	x := v.(Celsius)            →  x := __gocl_hook.NamedMust(v, 7, "interface {}").(Celsius)
//
// A namedValue matches no case of another type, prints as its value (it is
// a fmt.Formatter and a json.Marshaler), is equal to another of the same
// type and value (a map key too), and fmt, errors and encoding/json see its
// type (the crossing's resolver). A case on the type itself in a type
// switch stays refused (yaegi_typeswitch.go). Upgrading yaegi past this bug
// means deleting this file and its calls.

// namedValue is a value of a cell's named basic type held in an interface.
type namedValue struct {
	v    any    // the value, of the underlying type as yaegi holds it
	name string // the type, "main.Celsius"
}

// Format prints the value as fmt prints it (a named basic type without
// methods prints as its underlying value).
func (n namedValue) Format(f fmt.State, verb rune) { fmt.Fprintf(f, fmt.FormatString(f, verb), n.v) }

// MarshalJSON encodes the value as encoding/json encodes it.
func (n namedValue) MarshalJSON() ([]byte, error) { return json.Marshal(n.v) }

// isNamedBasic reports whether t is a cell's named type without methods
// whose underlying type is basic, a slice, an array or a map: those yaegi
// holds bare in an interface. (A slice's namedValue compares and hashes
// as an interface holding the slice does: it panics, as in Go.)
func isNamedBasic(t types.Type) bool {
	n, ok := isCell(t)
	if !ok || n.NumMethods() > 0 {
		return false
	}
	switch n.Underlying().(type) {
	case *types.Basic, *types.Slice, *types.Array, *types.Map:
		return true
	}
	return false
}

// named is __gocl_hook.Named: v, of the type descriptor id names, held in
// an interface.
func (x *crossing) named(v any, id int) any {
	d := x.desc(id)
	if d == nil {
		return v
	}
	if inner, ok := valueInterfaceValue(v); ok {
		v = inner
	}
	if nv, ok := v.(namedValue); ok {
		return nv
	}
	x.mu.Lock()
	if x.namedDescs == nil {
		x.namedDescs = map[string]*cellvalue.Type{}
	}
	x.namedDescs[d.String] = d
	x.mu.Unlock()
	return namedValue{v: v, name: d.String}
}

// namedDesc is the descriptor of a namedValue's type.
func (x *crossing) namedDesc(n namedValue) *cellvalue.Type {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.namedDescs[n.name]
}

// notNamed is what namedAs gives for a value that is not of the type: no
// type assertion of a cell holds for it. (Not a struct: yaegi's assertion
// of an empty struct to a named float64 panicked in reflect.)
type notNamed byte

// namedAs is __gocl_hook.NamedAs: the value v holds when it is a namedValue
// of the type id names, else a value no assertion to that type accepts.
func (x *crossing) namedAs(v any, id int) any {
	if d := x.desc(id); d != nil {
		if nv, ok := v.(namedValue); ok && nv.name == d.String {
			return nv.v
		}
	}
	return notNamed(0)
}

// isNamedWithMethods reports whether t is a cell's named type with methods
// that is neither a struct nor an interface (`type Level int` with a String
// method): yaegi keeps its type beside a value in an interface, but its
// assertion `v.(Level)` holds for a plain int too.
func isNamedWithMethods(t types.Type) bool {
	n, ok := isCell(t)
	if !ok || n.NumMethods() == 0 {
		return false
	}
	switch n.Underlying().(type) {
	case *types.Struct, *types.Interface:
		return false
	}
	return true
}

// typedAs is __gocl_hook.TypedAs, for the types of isNamedWithMethods: v as
// it is when it holds a value of the type id names (or one yaegi keeps of a
// type not known here), else a value no assertion to the type accepts: a
// compiled value, or a cell value of another type.
func (x *crossing) typedAs(v any, id int) any {
	d := x.desc(id)
	if v == nil {
		return notNamed(0) // (no nil is a Level)
	}
	if d == nil {
		return v
	}
	if !isYaegiValue(v) && !isBox(v) {
		if _, ok := v.(namedValue); !ok {
			return notNamed(0) // a plain int is not a Level
		}
	}
	if _, dd, _ := x.resolve(v); dd != nil && dd.Kind != cellvalue.Basic && dd.String != d.String {
		return notNamed(0)
	}
	return v
}

// typedMust is __gocl_hook.TypedMust: typedAs for the single-valued
// assertion, which panics as Go's does.
func (x *crossing) typedMust(v any, id int, iface string) any {
	return x.mustOf(x.typedAs(v, id), v, id, iface)
}

// namedMust is __gocl_hook.NamedMust: namedAs for the single-valued
// assertion, which panics as Go's does.
func (x *crossing) namedMust(v any, id int, iface string) any {
	return x.mustOf(x.namedAs(v, id), v, id, iface)
}

// mustOf is r, what namedAs or typedAs gave for v, or Go's panic when r
// says that v is not of the type id names.
func (x *crossing) mustOf(r, v any, id int, iface string) any {
	if _, failed := r.(notNamed); failed {
		d := x.desc(id)
		want := "?"
		if d != nil {
			want = d.String
		}
		if v == nil {
			panic(&goRuntimeError{"interface conversion: " + iface + " is nil, not " + want})
		}
		dyn := fmt.Sprintf("%T", v)
		if nv, ok := v.(namedValue); ok {
			dyn = nv.name
		} else if _, dd, _ := x.resolve(v); dd != nil && dd.String != "" {
			dyn = dd.String
		}
		panic(&goRuntimeError{fmt.Sprintf("interface conversion: %s is %s, not %s", iface, dyn, want)})
	}
	return r
}

// rewriteNamedAssertions rewrites the cell's type assertions to a named
// basic type (see above).
func rewriteNamedAssertions(ps []*parsed, info *types.Info, descID func(types.Type) int) {
	target := func(x ast.Expr) (*ast.TypeAssertExpr, types.Type) {
		ta, ok := ast.Unparen(x).(*ast.TypeAssertExpr)
		if !ok || ta.Type == nil {
			return nil, nil
		}
		t := info.TypeOf(ta.Type)
		if t == nil || !isNamedBasic(t) && !isNamedWithMethods(t) {
			return nil, nil
		}
		return ta, t
	}
	hook := func(ta *ast.TypeAssertExpr, name string, args ...ast.Expr) {
		pos := ta.X.Pos()
		ta.X = &ast.CallExpr{Fun: hookSel(pos, name), Lparen: pos, Args: append([]ast.Expr{ta.X}, args...), Rparen: ta.X.End()}
	}
	iface := assertedIface(info)
	for _, n := range bodies(ps) {
		commaOK := map[*ast.TypeAssertExpr]bool{}
		ast.Inspect(n, func(n ast.Node) bool {
			switch s := n.(type) {
			case *ast.AssignStmt:
				if len(s.Lhs) == 2 && len(s.Rhs) == 1 {
					if ta, _ := target(s.Rhs[0]); ta != nil {
						commaOK[ta] = true
					}
				}
			case *ast.ValueSpec:
				if len(s.Names) == 2 && len(s.Values) == 1 {
					if ta, _ := target(s.Values[0]); ta != nil {
						commaOK[ta] = true
					}
				}
			}
			return true
		})
		astutil.Apply(n, nil, func(cur *astutil.Cursor) bool {
			x, ok := cur.Node().(ast.Expr)
			if !ok {
				return true
			}
			ta, t := target(x)
			if ta == nil || ast.Expr(ta) != x {
				return true
			}
			id := intLit(ta.Pos(), descID(t))
			as, must := "NamedAs", "NamedMust"
			if !isNamedBasic(t) {
				as, must = "TypedAs", "TypedMust"
			}
			if commaOK[ta] {
				hook(ta, as, id)
			} else {
				hook(ta, must, id, &ast.BasicLit{ValuePos: ta.Pos(), Kind: token.STRING, Value: strconv.Quote(iface(ta.X))})
			}
			return true
		})
	}
}

// assertedIface gives the text of an asserted value's static type, as
// Go's panic prints it ("interface {}", "error").
func assertedIface(info *types.Info) func(ast.Expr) string {
	return func(x ast.Expr) string {
		if t := info.TypeOf(x); t != nil {
			if it, ok := types.Unalias(t).(*types.Interface); ok && it.Empty() {
				return "interface {}" // (any, as the runtime names it)
			}
			return types.TypeString(t, func(p *types.Package) string { return p.Name() })
		}
		return "interface {}"
	}
}

// basicTypeNames are the predeclared types of a basic kind.
var basicTypeNames = map[string]bool{
	"bool": true, "string": true, "int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true, "byte": true,
	"rune": true, "float32": true, "float64": true, "complex64": true, "complex128": true,
}

// hasNamedBasic reports whether the session or the cell declares a named
// type written as a predeclared basic type (`type Celsius float64`) with no
// method (methods: the session's and the cell's, by "T.M"): the cells that
// may hold its values in interfaces are then checked.
func (e *Engine) hasNamedBasic(ps []*parsed, methods map[string]*ast.FuncDecl) bool {
	with := map[string]bool{}
	for k := range methods {
		if i := strings.IndexByte(k, '.'); i > 0 {
			with[k[:i]] = true
		}
	}
	e.state.Lock()
	defer e.state.Unlock()
	for name, text := range e.types {
		f := strings.Fields(text)
		if len(f) >= 2 && (basicTypeNames[f[1]] && len(f) == 2 || strings.HasPrefix(f[1], "[") || strings.HasPrefix(f[1], "map[")) && !with[name] {
			return true
		}
	}
	for _, ts := range cellTypeSpecs(ps) {
		if ts.Assign != 0 || ts.TypeParams != nil || with[ts.Name.Name] {
			continue
		}
		switch x := ts.Type.(type) {
		case *ast.Ident:
			if basicTypeNames[x.Name] {
				return true
			}
		case *ast.ArrayType, *ast.MapType:
			return true
		}
	}
	return false
}

// hasTypedAssertion reports whether the cell asserts a value to a type of
// isNamedWithMethods, which typedAs answers by the value's dynamic type.
func hasTypedAssertion(ps []*parsed, info *types.Info) bool {
	return anyNode(bodies(ps), func(n ast.Node) bool {
		ta, ok := n.(*ast.TypeAssertExpr)
		if !ok || ta.Type == nil {
			return false
		}
		t := info.TypeOf(ta.Type)
		return t != nil && isNamedWithMethods(t)
	})
}
