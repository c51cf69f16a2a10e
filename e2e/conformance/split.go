package conformance

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// NotebookForm splits a program into the two cells a notebook user would
// write: the imports and declarations (everything but the package clause and
// func main), then the body of main as top-level statements, one indentation
// level out. ok is false when the source does not parse or has no func main
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
	body := src[off(main.Body.Lbrace)+1 : off(main.Body.Rbrace)]
	return []string{strings.TrimSpace(decls) + "\n", dedent(body)}, true
}

// dedent removes one leading tab from every line of s and the blank lines
// around it.
func dedent(s string) string {
	lines := strings.Split(strings.Trim(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "\t")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), " \t\n") + "\n"
}
