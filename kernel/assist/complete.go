package assist

import (
	"go/token"
	"sort"
	"strings"
)

// Keywords, predeclared functions, types and constants of Go.
var (
	keywords = []string{"break", "case", "chan", "const", "continue", "default", "defer", "else",
		"fallthrough", "for", "func", "go", "goto", "if", "import", "interface", "map", "package",
		"range", "return", "select", "struct", "switch", "type", "var"}
	builtinFuncs = []string{"append", "cap", "clear", "close", "complex", "copy", "delete", "imag",
		"len", "make", "max", "min", "new", "panic", "print", "println", "real", "recover"}
	builtinTypes = []string{"any", "bool", "byte", "comparable", "complex128", "complex64", "error",
		"float32", "float64", "int", "int16", "int32", "int64", "int8", "rune", "string",
		"uint", "uint16", "uint32", "uint64", "uint8", "uintptr"}
	builtinConsts = []string{"false", "iota", "nil", "true"}
)

// Complete answers a complete_request for code with the cursor at cursor
// (counted in code points). It works on half-written cells: the context is
// read from the tokens before the cursor.
//
// After `pkg.` it offers the package's exported names; after `x.` the fields
// and methods of x's type (live value, cell sources); inside an import
// string, package paths; elsewhere the user's names, imported packages,
// keywords and predeclared names. Inside other strings and comments it offers
// nothing.
func (a *Assistant) Complete(code string, cursor int, sc Scope) Completion {
	b := byteOffset(code, cursor)
	none := Completion{Matches: []string{}, CursorStart: runeOffset(code, b), CursorEnd: runeOffset(code, b),
		Metadata: map[string]any{}}
	toks, _ := scan(code)

	// Inside a string, a rune literal or a comment?
	for i, t := range toks {
		if t.pos >= b {
			break
		}
		if b >= t.end && !(b == t.end && unterminated(t)) {
			continue
		}
		switch t.t {
		case token.STRING:
			if inImport(toks, i) && strings.HasPrefix(t.lit, `"`) {
				return a.completePaths(code, t.pos+1, b)
			}
			return none
		case token.CHAR, token.COMMENT:
			return none
		}
	}

	start, end := identAround(code, b)
	prefix := code[start:b]
	if start == b && end == b && b > 0 {
		// Right after a number such as "1e" or "0x": nothing to offer.
		if i := tokenAt(toks, b); i >= 0 && toks[i].end == b && (toks[i].t == token.INT || toks[i].t == token.FLOAT) {
			return none
		}
	}
	s := a.session(sc)

	var cands []member
	if start > 0 && code[start-1] == '.' {
		i := tokenAt(toks, start)
		if i < 0 || toks[i].t != token.PERIOD || toks[i].end != start {
			return none // e.g. the dot of a float literal
		}
		chain := chainBefore(toks, i-1)
		op, ok := s.resolve(chain)
		if !ok {
			return none
		}
		cands = s.members(op)
	} else {
		skip := -1
		if i := tokenAt(toks, b); i >= 0 && toks[i].t == token.IDENT && toks[i].end >= b {
			skip = i
		}
		cands = s.topLevel(toks, skip)
	}

	matches := filter(cands, prefix)
	c := Completion{Matches: make([]string, 0, len(matches)), CursorStart: runeOffset(code, start),
		CursorEnd: runeOffset(code, end)}
	var types []any
	for _, m := range matches {
		c.Matches = append(c.Matches, m.name)
		types = append(types, map[string]any{"start": c.CursorStart, "end": c.CursorEnd,
			"text": m.name, "type": m.kind, "signature": m.sig})
	}
	c.Metadata = map[string]any{"_jupyter_types_experimental": types}
	return c
}

// unterminated reports whether a string or comment token runs to the end of
// the cell without its closing quote, so a cursor at its end is inside it.
func unterminated(t tok) bool {
	switch t.t {
	case token.STRING:
		q := t.lit[:1]
		return len(t.lit) < 2 || !strings.HasSuffix(t.lit, q)
	case token.CHAR:
		return len(t.lit) < 2 || !strings.HasSuffix(t.lit, "'")
	case token.COMMENT:
		return strings.HasPrefix(t.lit, "//") || !strings.HasSuffix(t.lit, "*/")
	}
	return false
}

// inImport reports whether the string token toks[i] is an import path.
func inImport(toks []tok, i int) bool {
	for j := i - 1; j >= 0; j-- {
		switch toks[j].t {
		case token.IMPORT:
			return true
		case token.LPAREN, token.IDENT, token.PERIOD, token.SEMICOLON, token.COMMENT, token.STRING:
			continue
		}
		return false
	}
	return false
}

// completePaths offers import paths for the string being typed from
// code[start:b].
func (a *Assistant) completePaths(code string, start, b int) Completion {
	prefix := code[start:b]
	end := b
	for end < len(code) && code[end] != '"' && code[end] != '\n' {
		end++
	}
	c := Completion{Matches: []string{}, CursorStart: runeOffset(code, start), CursorEnd: runeOffset(code, end)}
	var types []any
	for _, p := range a.paths {
		if strings.HasPrefix(p, prefix) {
			c.Matches = append(c.Matches, p)
			types = append(types, map[string]any{"start": c.CursorStart, "end": c.CursorEnd, "text": p, "type": "module", "signature": ""})
		}
	}
	c.Metadata = map[string]any{"_jupyter_types_experimental": types}
	return c
}

// topLevel lists the names usable at the start of an expression.
func (s *session) topLevel(toks []tok, skip int) []member {
	var out []member
	seen := map[string]bool{}
	add := func(name, kind, sig string) {
		if name == "" || name == "_" || seen[name] {
			return
		}
		seen[name] = true
		out = append(out, member{name, kind, sig})
	}
	for name, v := range s.globals {
		sig := ""
		if v.IsValid() {
			sig = unmangle(v.Type(), v.Type().String())
		}
		add(name, "variable", sig)
	}
	for name, u := range s.decls.names {
		add(name, kindWord(u.kind), u.decl)
	}
	for name, kind := range currentCellNames(toks, skip) {
		add(name, kind, "")
	}
	for name, path := range s.imports {
		add(name, "module", path)
	}
	for _, k := range keywords {
		add(k, "keyword", "")
	}
	for _, f := range builtinFuncs {
		add(f, "function", "")
	}
	for _, t := range builtinTypes {
		add(t, "type", "")
	}
	for _, c := range builtinConsts {
		add(c, "constant", "")
	}
	return out
}

// filter keeps the members that start with prefix, sorted; when none match
// case-sensitively it matches ignoring case.
func filter(ms []member, prefix string) []member {
	var out []member
	for _, m := range ms {
		if strings.HasPrefix(m.name, prefix) {
			out = append(out, m)
		}
	}
	if len(out) == 0 && prefix != "" {
		lp := strings.ToLower(prefix)
		for _, m := range ms {
			if strings.HasPrefix(strings.ToLower(m.name), lp) {
				out = append(out, m)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}
