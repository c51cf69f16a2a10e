package assist

import (
	"fmt"
	"go/constant"
	"go/token"
	"reflect"
	"sort"
	"strings"
)

// maxValueLen bounds the current value shown by Inspect.
const maxValueLen = 2000

// Inspect answers an inspect_request: the signature (declaration) and doc
// comment of the name under the cursor, or of the function whose call the
// cursor is in. It knows standard-library names, this module's packages
// (display, cl), package members (pkg.Name), fields and methods (x.Field),
// keywords and predeclared names, and the user's own functions, types and
// variables (with type and current value). detailLevel 1 adds more: the
// source of user functions, the members of packages and types.
//
// data holds "text/plain" and "text/markdown"; found is false when the name
// is unknown.
func (a *Assistant) Inspect(code string, cursor, detailLevel int, sc Scope) (data map[string]any, found bool) {
	b := byteOffset(code, cursor)
	toks, _ := scan(code)
	chain := chainAt(code, toks, b)
	if len(chain) == 0 {
		return nil, false
	}
	s := a.session(sc)
	var in info
	if len(chain) == 1 {
		in = s.describeRoot(chain[0].name, detailLevel)
	} else {
		op, ok := s.resolve(chain[:len(chain)-1])
		if !ok {
			return nil, false
		}
		in = s.describeMember(op, chain[len(chain)-1].name, detailLevel)
	}
	if in.decl == "" && in.doc == "" {
		return nil, false
	}
	return in.bundle(), true
}

// chainAt finds the selector chain ending in the identifier under the cursor
// or, when the cursor is not on one, the function of the call it is in.
func chainAt(code string, toks []tok, b int) []step {
	start, end := identAround(code, b)
	if start < end {
		for i, t := range toks {
			if t.t == token.IDENT && t.pos == start {
				return chainBefore(toks, i)
			}
		}
		return nil
	}
	// In a call's arguments: find the unclosed '(' before the cursor.
	depth := 0
	for i := tokenAt(toks, b); i >= 0; i-- {
		switch toks[i].t {
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth++
		case token.LBRACK, token.LBRACE:
			depth--
		case token.LPAREN:
			if depth == 0 {
				if i > 0 && toks[i-1].t == token.IDENT {
					return chainBefore(toks, i-1)
				}
				return nil
			}
			depth--
		}
		if depth < 0 {
			return nil
		}
	}
	return nil
}

// info is what Inspect shows about one name.
type info struct {
	title string // e.g. "package fmt" or "var x int"
	decl  string // Go declaration text
	doc   string
	value string // current value of a variable
	extra string // detail-level additions
}

func (in info) bundle() map[string]any {
	var plain, md strings.Builder
	if in.title != "" {
		plain.WriteString(in.title + "\n\n")
		md.WriteString("**" + in.title + "**\n\n")
	}
	if in.decl != "" {
		plain.WriteString(in.decl + "\n")
		md.WriteString("```go\n" + in.decl + "\n```\n")
	}
	if in.value != "" {
		plain.WriteString("\nValue: " + in.value + "\n")
		md.WriteString("\nValue: `" + strings.ReplaceAll(in.value, "`", "'") + "`\n")
	}
	if in.doc != "" {
		plain.WriteString("\n" + in.doc + "\n")
		md.WriteString("\n" + in.doc + "\n")
	}
	if in.extra != "" {
		plain.WriteString("\n" + in.extra + "\n")
		md.WriteString("\n```go\n" + in.extra + "\n```\n")
	}
	return map[string]any{"text/plain": plain.String(), "text/markdown": md.String()}
}

// describeRoot describes a name used on its own.
func (s *session) describeRoot(name string, detail int) info {
	u := s.decls.names[name]
	if v, ok := s.globals[name]; ok && v.IsValid() {
		in := info{value: valueString(v)}
		typ := typeString(v)
		kind := "var"
		if isConstant(v) {
			kind = "const"
		}
		if u != nil {
			in.doc = u.doc
			if t := s.userTypeOf(u); t != "" {
				typ = t
			}
			if u.kind == "const" {
				kind = "const"
			}
			if detail > 0 {
				in.extra = u.source
			}
		}
		in.decl = kind + " " + name + " " + typ
		return in
	}
	if u != nil {
		in := info{decl: u.decl, doc: u.doc}
		if detail > 0 {
			switch u.kind {
			case "func":
				in.extra = u.source
			case "type":
				in.extra = s.userMethodList(name)
			}
		} else if u.kind == "type" {
			in.extra = s.userMethodList(name)
		}
		return in
	}
	if p, ok := s.imports[name]; ok {
		return s.describePackage(p, detail)
	}
	if decl, doc, _, ok := docEntry("builtin", name); ok {
		return info{decl: decl, doc: doc}
	}
	if token.Lookup(name).IsKeyword() {
		return info{title: "keyword " + name, doc: "Go keyword; see https://go.dev/ref/spec#Keywords."}
	}
	if p, ok := s.a.names[name]; ok {
		return s.describePackage(p, detail)
	}
	return info{}
}

// userMethodList lists the methods the cells declared for type name.
func (s *session) userMethodList(name string) string {
	var lines []string
	for _, m := range s.decls.methods[name] {
		lines = append(lines, m.decl)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func (s *session) describePackage(path string, detail int) info {
	in := info{title: "package " + path}
	if p := docs(path); p != nil {
		in.decl = "import \"" + path + "\""
		in.doc = p.Synopsis
		if detail > 0 {
			var names []string
			for n, e := range p.Names {
				if !strings.Contains(n, ".") && (e.Kind == "func" || e.Kind == "type") {
					names = append(names, e.Kind+" "+n)
				}
			}
			sort.Strings(names)
			in.extra = strings.Join(names, "\n")
		}
		return in
	}
	if _, ok := s.a.pkgs[path]; ok {
		in.decl = "import \"" + path + "\""
	}
	return in
}

// describeMember describes op.name.
func (s *session) describeMember(op operand, name string, detail int) info {
	if op.pkg != "" {
		decl, doc, kind, ok := docEntry(op.pkg, name)
		v, inTable := s.a.pkgs[op.pkg][name]
		if !ok && !inTable {
			return info{}
		}
		in := info{decl: decl, doc: doc}
		k, t := classify(v)
		if !ok {
			kind = k
			if t != nil {
				in.decl = k + " " + name + " " + t.String()
			}
		}
		if kind == "var" && inTable {
			in.value = valueString(v)
		}
		if detail > 0 && kind == "type" && docs(op.pkg) != nil {
			in.extra = methodList(op.pkg, name)
		}
		return in
	}
	// A compiled named type: its package docs know its fields and methods.
	t := op.typ
	if v := dynamic(op.val); v.IsValid() {
		t = v.Type()
	}
	if nt := deref(t); nt != nil && nt.Name() != "" && nt.PkgPath() != "" {
		if decl, doc, _, ok := docEntry(nt.PkgPath(), nt.Name()+"."+name); ok {
			in := info{decl: decl, doc: doc}
			if next, ok := s.apply(op, step{stepIdent, name}); ok && next.kind == "field" {
				in.value = valueString(next.val)
			}
			return in
		}
	}
	// A user type: the cell sources.
	if op.user != "" {
		if m := s.decls.methods[op.user][name]; m != nil {
			in := info{decl: m.decl, doc: m.doc}
			if detail > 0 {
				in.extra = m.source
			}
			return in
		}
	}
	next, ok := s.apply(op, step{stepIdent, name})
	if !ok {
		return info{}
	}
	in := info{}
	switch next.kind {
	case "field":
		typ := ""
		if next.typ != nil {
			typ = next.typ.String()
		}
		if next.user != "" {
			typ = next.user
		} else if op.user != "" {
			typ = s.userFieldTypeText(op.user, name, typ)
		}
		in.decl = "field " + name + " " + typ
		if next.val.IsValid() {
			in.value = valueString(next.val)
		}
	case "method":
		if next.typ != nil {
			in.decl = "func " + name + strings.TrimPrefix(next.typ.String(), "func")
		}
	}
	return in
}

// userFieldTypeText returns the written type of field name of user struct
// typ, or def.
func (s *session) userFieldTypeText(typ, name, def string) string {
	if u := s.decls.names[typ]; u != nil && u.spec != nil {
		names, _, types := structFields(u.spec)
		for i, n := range names {
			if n == name {
				return exprString(types[i])
			}
		}
	}
	return def
}

// methodList lists the documented methods of type typ in package path.
func methodList(path, typ string) string {
	p := docs(path)
	var lines []string
	for n, e := range p.Names {
		if strings.HasPrefix(n, typ+".") && e.Kind == "method" {
			lines = append(lines, p.Declaration(e))
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// typeString names the type of a live value, hiding yaegi's representation
// of constants.
func typeString(v reflect.Value) string {
	if !isConstant(v) {
		return unmangle(v.Type(), v.Type().String())
	}
	if c, ok := v.Interface().(constant.Value); ok {
		return "(untyped " + strings.ToLower(c.Kind().String()) + " constant)"
	}
	return v.Type().String()
}

// valueString formats a live value, shortened to maxValueLen.
func valueString(v reflect.Value) (s string) {
	if !v.IsValid() {
		return ""
	}
	defer func() {
		if recover() != nil {
			s = "(value cannot be shown)"
		}
	}()
	if !v.CanInterface() {
		return ""
	}
	x := v.Interface()
	if c, ok := x.(constant.Value); ok {
		s = c.ExactString()
	} else {
		s = unmangle(v.Type(), fmt.Sprintf("%+v", x))
	}
	if len(s) > maxValueLen {
		s = strings.ToValidUTF8(s[:maxValueLen], "") + "…"
	}
	return s
}

// isConstant reports whether v is how yaegi stores an untyped constant.
func isConstant(v reflect.Value) bool {
	if !v.IsValid() || !v.CanInterface() {
		return false
	}
	_, ok := v.Interface().(constant.Value)
	return ok
}
