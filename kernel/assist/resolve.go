package assist

import (
	"go/ast"
	"go/parser"
	"go/types"
	"reflect"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// operand is what a selector chain denotes, as far as it can be known.
type operand struct {
	pkg    string        // import path when the operand is a package
	typ    reflect.Type  // static type when known
	val    reflect.Value // live value when known
	user   string        // user type name from the cell sources when known
	isType bool          // the operand is a type, not a value
	kind   string        // what the last step named: "func", "var", "const", "type", "field", "method", "package"
}

// session bundles what one request may look at.
type session struct {
	a       *Assistant
	globals map[string]reflect.Value
	imports map[string]string
	decls   *cellDecls
}

func (a *Assistant) session(sc Scope) *session {
	sc = orEmpty(sc)
	return &session{a: a, globals: sc.Globals(), imports: sc.Imports(), decls: a.userDecls(sc)}
}

// classify tells what an entry of a yaegi symbol table is: yaegi stores
// variables as addressable values, types as nil pointers to the type,
// functions as funcs and constants as plain values.
func classify(v reflect.Value) (kind string, typ reflect.Type) {
	switch {
	case !v.IsValid():
		return "", nil
	case v.CanAddr():
		return "var", v.Type()
	case v.Kind() == reflect.Pointer && v.IsNil():
		return "type", v.Type().Elem()
	case v.Kind() == reflect.Func:
		return "func", v.Type()
	default:
		return "const", v.Type()
	}
}

// root resolves the first identifier of a chain.
func (s *session) root(name string) (operand, bool) {
	if v, ok := s.globals[name]; ok && v.IsValid() {
		op := operand{val: v, typ: v.Type(), kind: "var"}
		if isConstant(v) {
			op.kind = "const"
		}
		if u := s.decls.names[name]; u != nil {
			op.user = s.userTypeOf(u)
			if u.kind == "const" {
				op.kind = "const"
			}
		}
		if op.user == "" {
			op.user = s.matchStruct(v.Type())
		}
		return op, true
	}
	if u := s.decls.names[name]; u != nil {
		switch u.kind {
		case "type":
			return operand{user: name, isType: true, kind: "type"}, true
		case "func":
			return operand{kind: "func"}, true
		default:
			return s.fromTypeExpr(s.userTypeExpr(u), u.kind), true
		}
	}
	if p, ok := s.imports[name]; ok {
		return operand{pkg: p, kind: "package"}, true
	}
	if p, ok := s.a.names[name]; ok {
		return operand{pkg: p, kind: "package"}, true
	}
	return operand{}, false
}

// userTypeExpr returns the type expression of a user variable: its declared
// type or, for x := T{...}, &T{...}, new(T) and f(), the type it was built
// from.
func (s *session) userTypeExpr(u *userDecl) ast.Expr {
	if u.typ != nil {
		return u.typ
	}
	switch v := u.value.(type) {
	case *ast.CompositeLit:
		return v.Type
	case *ast.UnaryExpr:
		if cl, ok := v.X.(*ast.CompositeLit); ok && v.Op.String() == "&" {
			return &ast.StarExpr{X: cl.Type}
		}
	case *ast.CallExpr:
		if id, ok := v.Fun.(*ast.Ident); ok {
			if id.Name == "new" && len(v.Args) == 1 {
				return &ast.StarExpr{X: v.Args[0]}
			}
			if f := s.decls.names[id.Name]; f != nil && f.kind == "func" {
				return f.typ
			}
		}
	}
	return nil
}

// userTypeOf returns the user type name of a user variable, or "".
func (s *session) userTypeOf(u *userDecl) string {
	return s.fromTypeExpr(s.userTypeExpr(u), u.kind).user
}

// fromTypeExpr turns a type written in a cell into an operand: a user type
// (T, *T) or a package type (pkg.T, *pkg.T).
func (s *session) fromTypeExpr(x ast.Expr, kind string) operand {
	for {
		st, ok := x.(*ast.StarExpr)
		if !ok {
			break
		}
		x = st.X
	}
	switch t := x.(type) {
	case *ast.Ident:
		if u := s.decls.names[t.Name]; u != nil && u.kind == "type" {
			return operand{user: t.Name, kind: kind}
		}
	case *ast.SelectorExpr:
		if id, ok := t.X.(*ast.Ident); ok {
			if pkg, ok := s.root(id.Name); ok && pkg.pkg != "" {
				if v, ok := s.a.pkgs[pkg.pkg][t.Sel.Name]; ok {
					if k, typ := classify(v); k == "type" {
						return operand{typ: typ, kind: kind}
					}
				}
			}
		}
	}
	return operand{kind: kind}
}

// matchStruct finds the user struct type whose fields match those of the
// interpreted struct type t (yaegi builds such types with reflect.StructOf,
// so they have no name).
func (s *session) matchStruct(t reflect.Type) string {
	t = deref(t)
	if t == nil || t.Kind() != reflect.Struct || t.Name() != "" {
		return ""
	}
	var best []string
	for name, u := range s.decls.names {
		if u.kind != "type" || u.spec == nil {
			continue
		}
		names, _, _ := structFields(u.spec)
		if len(names) != t.NumField() {
			continue
		}
		ok := true
		for i, n := range names {
			if fieldName(t.Field(i).Name) != n && t.Field(i).Name != n {
				ok = false
				break
			}
		}
		if ok {
			best = append(best, name)
		}
	}
	if len(best) == 0 {
		return ""
	}
	sort.Strings(best)
	return best[0]
}

// fieldName undoes yaegi's renaming of unexported fields of interpreted
// structs: it exports "name" as "Xname".
func fieldName(n string) string {
	if len(n) > 1 && n[0] == 'X' {
		r, _ := utf8.DecodeRuneInString(n[1:])
		if unicode.IsLower(r) || r == '_' {
			return n[1:]
		}
	}
	return n
}

func deref(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// dynamic returns the value inside interfaces and pointers, when there is one.
func dynamic(v reflect.Value) reflect.Value {
	for v.IsValid() && (v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer) {
		if v.IsNil() {
			return reflect.Value{}
		}
		v = v.Elem()
	}
	return v
}

// apply follows one step of a chain from op.
func (s *session) apply(op operand, st step) (operand, bool) {
	switch st.kind {
	case stepAssert:
		x, err := parser.ParseExpr(st.name)
		if err != nil || op.isType || op.kind == "type" || op.pkg != "" {
			return operand{}, false
		}
		t := s.fromTypeExpr(x, "var")
		return t, t.typ != nil || t.user != ""
	case stepCall:
		if op.kind == "type" || op.isType { // conversion
			return operand{typ: op.typ, user: op.user, kind: "var"}, op.typ != nil || op.user != ""
		}
		if op.typ != nil && op.typ.Kind() == reflect.Func && op.typ.NumOut() > 0 {
			return operand{typ: op.typ.Out(0), kind: "var"}, true
		}
		if op.user != "" && (op.kind == "func" || op.kind == "method") {
			return operand{user: op.user, kind: "var"}, true
		}
		return operand{}, false
	case stepIndex:
		t := deref(op.typ)
		if t == nil {
			return operand{}, false
		}
		switch t.Kind() {
		case reflect.Slice, reflect.Array, reflect.Map:
			return operand{typ: t.Elem(), kind: "var"}, true
		}
		return operand{}, false
	}
	name := st.name
	if op.pkg != "" {
		if v, ok := s.a.pkgs[op.pkg][name]; ok {
			k, t := classify(v)
			out := operand{typ: t, kind: k, isType: k == "type"}
			if k == "var" || k == "const" {
				out.val = v
			}
			return out, true
		}
		return operand{}, false
	}
	// Fields from the live value or its type.
	v := dynamic(op.val)
	t := deref(op.typ)
	if v.IsValid() {
		t = v.Type()
	}
	if t != nil && t.Kind() == reflect.Struct && !op.isType {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if f.Name != name && fieldName(f.Name) != name {
				continue
			}
			out := operand{typ: f.Type, kind: "field"}
			if v.IsValid() {
				out.val = v.Field(i)
			}
			if op.user != "" {
				out.user = s.userFieldType(op.user, name)
			}
			if out.user == "" {
				out.user = s.matchStruct(f.Type)
			}
			return out, true
		}
	}
	// Methods known to reflect.
	if op.typ != nil {
		for _, mt := range []reflect.Type{op.typ, reflect.PointerTo(op.typ)} {
			if m, ok := mt.MethodByName(name); ok {
				ft := m.Type
				if mt.Kind() != reflect.Interface && ft.NumIn() > 0 && !op.isType {
					// drop the receiver
					in := make([]reflect.Type, 0, ft.NumIn()-1)
					for i := 1; i < ft.NumIn(); i++ {
						in = append(in, ft.In(i))
					}
					out := make([]reflect.Type, ft.NumOut())
					for i := range out {
						out[i] = ft.Out(i)
					}
					ft = reflect.FuncOf(in, out, ft.IsVariadic())
				}
				return operand{typ: ft, kind: "method"}, true
			}
		}
	}
	// Methods and fields from the cell sources.
	if op.user != "" {
		if m := s.decls.methods[op.user][name]; m != nil {
			res := s.fromTypeExpr(m.typ, "method")
			return operand{user: res.user, typ: nil, kind: "method"}, true
		}
		if u := s.decls.names[op.user]; u != nil && u.spec != nil && !op.isType {
			names, _, types := structFields(u.spec)
			for i, n := range names {
				if n == name {
					out := s.fromTypeExpr(types[i], "field")
					return out, true
				}
			}
		}
	}
	return operand{}, false
}

// userFieldType returns the user type name of field name of user struct typ.
func (s *session) userFieldType(typ, name string) string {
	u := s.decls.names[typ]
	if u == nil || u.spec == nil {
		return ""
	}
	names, _, types := structFields(u.spec)
	for i, n := range names {
		if n == name {
			return s.fromTypeExpr(types[i], "").user
		}
	}
	return ""
}

// resolve follows a whole chain.
func (s *session) resolve(chain []step) (operand, bool) {
	if len(chain) == 0 || chain[0].kind != stepIdent {
		return operand{}, false
	}
	op, ok := s.root(chain[0].name)
	if !ok {
		return op, false
	}
	for _, st := range chain[1:] {
		if op, ok = s.apply(op, st); !ok {
			return op, false
		}
	}
	return op, true
}

// member is one name reachable with a dot.
type member struct {
	name, kind, sig string
}

// members lists what can follow `op.`.
func (s *session) members(op operand) []member {
	var out []member
	seen := map[string]bool{}
	add := func(m member) {
		if m.name == "" || seen[m.name] {
			return
		}
		seen[m.name] = true
		out = append(out, m)
	}
	if op.pkg != "" {
		for name, v := range s.a.pkgs[op.pkg] {
			k, t := classify(v)
			sig := ""
			if t != nil {
				sig = t.String()
			}
			add(member{name, kindWord(k), sig})
		}
		if p := docs(op.pkg); p != nil {
			for name, e := range p.Names {
				if !strings.Contains(name, ".") {
					add(member{name, kindWord(e.Kind), ""})
				}
			}
		}
		return sortMembers(out)
	}
	v := dynamic(op.val)
	t := op.typ
	if v.IsValid() {
		t = v.Type()
	}
	if t != nil && !op.isType {
		st := deref(t)
		if st.Kind() == reflect.Struct {
			for i := 0; i < st.NumField(); i++ {
				f := st.Field(i)
				if f.PkgPath != "" { // unexported field of a compiled type
					continue
				}
				add(member{fieldName(f.Name), "field", f.Type.String()})
			}
		}
	}
	if t != nil {
		for _, mt := range []reflect.Type{t, reflect.PointerTo(deref(t))} {
			for i := 0; i < mt.NumMethod(); i++ {
				m := mt.Method(i)
				if m.IsExported() {
					add(member{m.Name, "method", m.Type.String()})
				}
			}
		}
	}
	if op.user != "" {
		s.userMembers(op.user, op.isType, add, 0)
	}
	return sortMembers(out)
}

// userMembers lists fields (and promoted fields) and methods of a user type
// from the cell sources.
func (s *session) userMembers(typ string, isType bool, add func(member), depth int) {
	if depth > 4 {
		return
	}
	for name, m := range s.decls.methods[typ] {
		add(member{name, "method", m.decl})
	}
	u := s.decls.names[typ]
	if u == nil || u.spec == nil || isType {
		return
	}
	names, embedded, types := structFields(u.spec)
	for i, n := range names {
		add(member{n, "field", exprString(types[i])})
		if embedded[i] {
			if e := s.decls.names[n]; e != nil && e.kind == "type" {
				s.userMembers(n, false, add, depth+1)
			}
		}
	}
}

func sortMembers(ms []member) []member {
	sort.Slice(ms, func(i, j int) bool { return ms[i].name < ms[j].name })
	return ms
}

// kindWord maps declaration kinds to the words front ends show.
func kindWord(k string) string {
	switch k {
	case "func":
		return "function"
	case "var":
		return "variable"
	case "const":
		return "constant"
	case "":
		return "name"
	}
	return k
}

// exprString prints a type expression of a cell.
func exprString(x ast.Expr) string {
	if x == nil {
		return ""
	}
	return types.ExprString(x)
}
