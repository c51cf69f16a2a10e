package conformance

import (
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"strings"
)

// NotebookForm splits a program into the two cells a notebook user would
// write: the imports and declarations (everything but the package clause and
// func main), then the body of main as top-level statements, one indentation
// level out, with the names main declares where the package declares them
// too renamed (see renameShadows). ok is false when the source does not parse or has no func main
// with a body; then there is no notebook form.
func NotebookForm(src string) (cells []string, ok bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "main.go", src, parser.ParseComments)
	if err != nil {
		return nil, false
	}
	var main *ast.FuncDecl
	for _, d := range f.Decls {
		if fd, isFunc := d.(*ast.FuncDecl); isFunc && fd.Recv == nil && fd.Name.Name == "main" && fd.Body != nil {
			main = fd
		}
	}
	if main == nil {
		return nil, false
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	start := main.Pos()
	if main.Doc != nil {
		start = main.Doc.Pos()
	}
	decls := src[off(f.Name.End()):off(start)] + src[off(main.End()):]
	lb := off(main.Body.Lbrace) + 1
	body := src[lb:off(main.Body.Rbrace)]
	if edits := renameShadows(f, main, off); len(edits) > 0 {
		var b strings.Builder
		at := lb
		for i := lb; i < off(main.Body.Rbrace); i++ {
			if to, ok := edits[i]; ok {
				b.WriteString(src[at:i] + to)
				at = i + len(identAt(src, i))
			}
		}
		body = b.String() + src[at:off(main.Body.Rbrace)]
	}
	return []string{strings.TrimSpace(decls) + "\n", dedent(body)}, true
}

// identAt is the identifier that starts at offset i of src.
func identAt(src string, i int) string {
	j := i
	for j < len(src) && (src[j] == '_' || src[j] >= '0' && src[j] <= '9' || src[j] >= 'a' && src[j] <= 'z' || src[j] >= 'A' && src[j] <= 'Z' || src[j] >= 0x80) {
		j++
	}
	return src[i:j]
}

// dedent removes one leading tab from every line of s and the blank lines
// around it, except from the lines that continue a raw string literal: their
// text is the string's (regexp's FindIndex example matches in a multi-line
// raw string, and its indexes count the tabs).
func dedent(s string) string {
	s = strings.Trim(s, "\n")
	inRaw := rawContinuations(s)
	lines := strings.Split(s, "\n")
	at := 0
	for i, l := range lines {
		if !inRaw[at] {
			lines[i] = strings.TrimPrefix(l, "\t")
		}
		at += len(l) + 1
	}
	return strings.TrimRight(strings.Join(lines, "\n"), " \t\n") + "\n"
}

// rawContinuations returns the offsets in src of the lines that begin
// inside a raw string literal.
func rawContinuations(src string) map[int]bool {
	in := map[int]bool{}
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var sc scanner.Scanner
	sc.Init(file, []byte(src), nil, 0)
	for {
		pos, tok, lit := sc.Scan()
		if tok == token.EOF {
			return in
		}
		if tok != token.STRING || !strings.HasPrefix(lit, "`") {
			continue
		}
		start := file.Offset(pos)
		end := strings.IndexByte(src[start+1:], '`') + start + 1 // lit lacks the source's carriage returns
		for i := start; i < end; i++ {
			if src[i] == '\n' {
				in[i+1] = true
			}
		}
	}
}

// renameShadows returns, by source offset, the new names of the
// identifiers in main's body that denote a name the body declares at its
// top level where the package declares it too (`a := 2` in main, with a
// package-level a). In Go such a declaration only shadows the package's
// name inside main; in a notebook, a later cell's top-level declaration
// redefines the name for every earlier cell as well (as in a playground),
// so that the split would be another program (yaegi's scope2: f() prints
// the package's a). Renamed, the body's name stays its own, and the
// notebook form prints what the program prints. From its declaration on,
// every use of the name in the body is renamed (inner re-declarations with
// their uses too, which keeps them consistent); field names, selectors,
// keys of composite literals and labels are not uses.
func renameShadows(f *ast.File, main *ast.FuncDecl, off func(token.Pos) int) map[int]string {
	pkg := map[string]bool{}
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			used[id.Name] = true
		}
		return true
	})
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				pkg[d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					pkg[sp.Name.Name] = true
				case *ast.ValueSpec:
					for _, n := range sp.Names {
						pkg[n.Name] = true
					}
				}
			}
		}
	}
	edits := map[int]string{}
	renamed := map[string]string{} // name -> new name, from its declaration on
	for _, st := range main.Body.List {
		// Uses in this statement of names renamed by earlier ones.
		var declared []*ast.Ident
		switch s := st.(type) {
		case *ast.AssignStmt:
			if s.Tok == token.DEFINE {
				for _, l := range s.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						declared = append(declared, id)
					}
				}
			}
		case *ast.DeclStmt:
			if g, ok := s.Decl.(*ast.GenDecl); ok {
				for _, sp := range g.Specs {
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						declared = append(declared, sp.Name)
					case *ast.ValueSpec:
						declared = append(declared, sp.Names...)
					}
				}
			}
		}
		renameUses(st, renamed, edits, off)
		for _, id := range declared {
			if !pkg[id.Name] || id.Name == "_" {
				continue
			}
			if _, done := renamed[id.Name]; done {
				continue
			}
			name := id.Name + "_main"
			for used[name] {
				name += "_"
			}
			used[name] = true
			renamed[id.Name] = name
			edits[off(id.Pos())] = name
		}
	}
	return edits
}

// renameUses records in edits the identifiers under n whose names renamed
// maps, except those that name no variable: field names, selectors, keys
// of composite literals, labels.
func renameUses(n ast.Node, renamed map[string]string, edits map[int]string, off func(token.Pos) int) {
	if len(renamed) == 0 {
		return
	}
	skip := map[*ast.Ident]bool{}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			skip[n.Sel] = true
		case *ast.Field:
			for _, id := range n.Names {
				if _, isFunc := n.Type.(*ast.FuncType); !isFunc {
					skip[id] = true
				}
			}
		case *ast.KeyValueExpr:
			if id, ok := n.Key.(*ast.Ident); ok {
				skip[id] = true
			}
		case *ast.LabeledStmt:
			skip[n.Label] = true
		case *ast.BranchStmt:
			if n.Label != nil {
				skip[n.Label] = true
			}
		case *ast.Ident:
			if to, ok := renamed[n.Name]; ok && !skip[n] {
				edits[off(n.Pos())] = to
			}
		}
		return true
	})
}
