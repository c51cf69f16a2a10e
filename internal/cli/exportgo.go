package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/seed43a1e1ab/gocl/kernel/cellmodel"
	"github.com/seed43a1e1ab/gocl/kernel/engine"
	"github.com/seed43a1e1ab/gocl/kernel/session"
)

// How a notebook becomes a Go program (gocl export):
//
// Each code cell is cut into imports, declarations and statements by the
// engine's own splitter (cellmodel.Split), the one that runs cells, so the
// program places every piece where the kernel ran it. Imports join one
// import block, with the packages cells use without an import line
// (engine.DefaultImports and session.Preimports) added when used.
// Declarations (funcs, methods, types, consts, and the whole of a
// //gocl:compile cell) go to package level. Statements go into main, in cell
// order. A variable a cell declares at its top level is a global of the
// notebook, which later cells and funcs see: the program declares it at
// package level, with the type go/types gives it, and main assigns it where
// the cell declared it. A value a cell ends with, which the notebook shows,
// is assigned to _ (its computation still runs). A call of display or
// widgets that only shows something is kept as a comment, as is a cell
// tagged raises-exception; other uses of those packages stay code, which
// outside a kernel publishes nothing.

// nbCell is a cell of a notebook file.
type nbCell struct {
	Type     string          `json:"cell_type"`
	Source   json.RawMessage `json:"source"`
	Metadata struct {
		Tags []string `json:"tags"`
	} `json:"metadata"`
}

func (c nbCell) text() string {
	var s string
	if json.Unmarshal(c.Source, &s) == nil {
		return s
	}
	var l []string
	json.Unmarshal(c.Source, &l)
	return strings.Join(l, "")
}

func (c nbCell) tagged(tag string) bool {
	for _, t := range c.Metadata.Tags {
		if t == tag {
			return true
		}
	}
	return false
}

// readCells reads a notebook's cells.
func readCells(path string) ([]nbCell, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var nb struct {
		Cells []nbCell `json:"cells"`
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		return nil, fmt.Errorf("%s is not a notebook (JSON): %w", path, err)
	}
	return nb.Cells, nil
}

// notebookOnly are the packages whose calls only make sense in a notebook.
var notebookOnly = map[string]bool{"display": true, "widgets": true}

// autoImports maps the names cells use without an import line to their paths.
func autoImports() map[string]string {
	m := map[string]string{}
	for _, p := range engine.DefaultImports {
		m[p[strings.LastIndex(p, "/")+1:]] = p
	}
	for name, p := range session.Preimports {
		m[name] = p
	}
	m["cell"] = goclModule + "/cell" // compiled cells name it without an import
	return m
}

// cellParts is one code cell, cut into what goes where.
type cellParts struct {
	n       int      // 1-based index among the notebook's cells
	md      string   // the markdown cells before it
	imports []string // import specs: `name "path"` or `"path"`
	decls   []string
	stmts   string // the cell's top-level statements, as written
	comment string // non-empty: the cell is kept only as this comment
}

// program is the notebook on its way to a Go file.
type program struct {
	name    string // the notebook's file name, for comments
	cells   []cellParts
	imports map[string]string
	auto    map[string]string
}

// split cuts the notebook's cells; errors name the cell.
func split(name string, cells []nbCell) (*program, error) {
	p := &program{name: name, imports: map[string]string{}, auto: autoImports()}
	md := ""
	for i, c := range cells {
		src := c.text()
		switch {
		case c.Type == "markdown":
			md += strings.TrimSpace(src) + "\n\n"
			continue
		case c.Type != "code" || strings.TrimSpace(src) == "":
			continue
		}
		cp := cellParts{n: i + 1, md: md}
		md = ""
		if c.tagged("raises-exception") {
			cp.comment = "gocl export: this cell is tagged raises-exception (its error is the point), so the program leaves it out:\n" + src
			p.cells = append(p.cells, cp)
			continue
		}
		compiled := strings.HasPrefix(strings.TrimSpace(src), "//gocl:compile")
		var stmts []string
		prev := 0
		for _, ch := range cellmodel.Split(src).Chunks {
			// With the comments before it (a doc comment is not a token).
			text := strings.TrimLeft(src[prev:ch.End], "\n")
			prev = ch.End
			switch {
			case ch.Kind == cellmodel.Import:
				specs, err := importSpecs(text)
				if err != nil {
					return nil, fmt.Errorf("cell %d: %w", i+1, err)
				}
				cp.imports = append(cp.imports, specs...)
			case ch.Kind == cellmodel.Decl || compiled:
				cp.decls = append(cp.decls, text)
			default:
				stmts = append(stmts, text)
			}
		}
		cp.stmts = strings.Join(stmts, "\n")
		p.cells = append(p.cells, cp)
	}
	return p, nil
}

// probe is the program with each cell's statements in main as written, each
// cell in a block inside the previous one's, so that go/types can give the
// type of every variable a cell declares (funcs that use them fail to check
// here; that is expected).
func (p *program) probe(imports []string) string {
	var b strings.Builder
	p.header(&b, imports)
	b.WriteString("func main() {\n")
	for _, c := range p.cells {
		if c.comment != "" {
			continue
		}
		fmt.Fprintf(&b, "{ // cell %d\n%s\n", c.n, c.stmts)
	}
	for _, c := range p.cells {
		if c.comment == "" {
			b.WriteString("}\n")
		}
	}
	b.WriteString("}\n")
	return b.String()
}

// header writes the package clause, the imports and the declarations.
func (p *program) header(b *strings.Builder, imports []string) {
	b.WriteString("package main\n\nimport (\n")
	seen := map[string]bool{}
	for _, imp := range imports {
		seen[imp] = true
		b.WriteString("\t" + imp + "\n")
	}
	for _, c := range p.cells {
		for _, imp := range c.imports {
			if !seen[imp] {
				seen[imp] = true
				b.WriteString("\t" + imp + "\n")
			}
		}
	}
	b.WriteString(")\n\n")
	for _, c := range p.cells {
		for _, d := range c.decls {
			fmt.Fprintf(b, "// From cell %d.\n%s\n\n", c.n, d)
		}
	}
}

var identRe = regexp.MustCompile(`[\p{L}_][\p{L}\p{Nd}_]*`)

// usedAuto returns the import specs of the packages cells use without an
// import line: names that occur in the cells and are not imported by them.
func (p *program) usedAuto() []string {
	seen := map[string]bool{}
	own := map[string]bool{}
	for _, c := range p.cells {
		for _, im := range c.imports {
			name, path, _ := strings.Cut(im, " ")
			if path == "" {
				path = name
				uq, _ := strconv.Unquote(path)
				name = uq[strings.LastIndex(uq, "/")+1:]
			}
			own[name], own[path] = true, true
		}
		for _, t := range append(append([]string{}, c.decls...), c.stmts) {
			for _, id := range identRe.FindAllString(t, -1) {
				seen[id] = true
			}
		}
	}
	var all strings.Builder
	for _, c := range p.cells {
		all.WriteString(strings.Join(c.decls, "\n") + "\n" + c.stmts + "\n")
	}
	var specs []string
	for name, path := range p.auto {
		// A name the cells declare themselves is theirs, not the package's.
		declared := regexp.MustCompile(`(?m)(^|[^.\w])` + name + `\s*:=|\b(var|const|type|func)\s+` + name + `\b`)
		if seen[name] && !own[name] && !own[strconv.Quote(path)] && !declared.MatchString(all.String()) {
			specs = append(specs, importSpec(name, path))
		}
	}
	sort.Strings(specs)
	return specs
}

func importSpec(name, path string) string {
	if path[strings.LastIndex(path, "/")+1:] == name {
		return strconv.Quote(path)
	}
	return name + " " + strconv.Quote(path)
}

// importSpecs parses an import declaration into its specs.
func importSpecs(decl string) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+decl, parser.ImportsOnly)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, im := range f.Imports {
		s := im.Path.Value
		if im.Name != nil {
			s = im.Name.Name + " " + s
		}
		out = append(out, s)
	}
	return out, nil
}

// checker type-checks a Go file of package main; it returns the parsed file,
// its type information and the errors.
type checker func(src string) (*token.FileSet, *ast.File, *types.Info, *types.Package, []error, error)

// hoisted is a variable a cell declares at its top level.
type hoisted struct {
	name, typ string
	cell      int
}

// Export turns the notebook at path into a Go program: its source, gofmt'ed.
func exportProgram(path string, check checker) ([]byte, error) {
	cells, err := readCells(path)
	if err != nil {
		return nil, err
	}
	p, err := split(path, cells)
	if err != nil {
		return nil, err
	}
	imports := p.usedAuto()
	probeSrc := p.probe(imports)
	fset, f, info, pkg, _, err := check(probeSrc)
	if err != nil {
		return nil, err
	}
	var mainFn *ast.FuncDecl
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "main" && fd.Recv == nil {
			mainFn = fd
		}
	}
	if mainFn == nil {
		return nil, errors.New("gocl export: internal error: the probe program has no main")
	}
	tf := fset.File(f.Pos())
	off := func(pos token.Pos) int { return tf.Offset(pos) }
	// The package a type needs in the program, by path, when no import names it.
	importedAs := map[string]string{} // path -> the name the program's imports give it
	for _, imp := range f.Imports {
		s, _ := strconv.Unquote(imp.Path.Value)
		if imp.Name != nil {
			importedAs[s] = imp.Name.Name
		} else if pn, ok := info.Implicits[imp].(*types.PkgName); ok {
			importedAs[s] = pn.Name()
		}
	}
	extra := map[string]string{}
	qual := func(tp *types.Package) string {
		if tp == pkg {
			return ""
		}
		if name, ok := importedAs[tp.Path()]; ok {
			return name
		}
		extra[tp.Path()] = tp.Name()
		return tp.Name()
	}
	vars := map[string]*hoisted{}
	var order []string
	var body strings.Builder
	// main's body is one block, cell in cell; block is the current cell's.
	block := mainFn.Body
	if len(block.List) == 1 {
		if b, ok := block.List[0].(*ast.BlockStmt); ok {
			block = b
		}
	}
	ci := 0
	for _, c := range p.cells {
		if c.md != "" {
			body.WriteString("\n" + commentOut(strings.TrimSpace(c.md)) + "\n")
		}
		if c.comment != "" {
			fmt.Fprintf(&body, "\n// Cell %d. %s\n", c.n, commentOut(c.comment))
			continue
		}
		ci++
		inner := block.List
		var next *ast.BlockStmt
		if n := len(inner); n > 0 {
			if b, ok := inner[n-1].(*ast.BlockStmt); ok {
				next = b
				inner = inner[:n-1]
			}
		}
		fmt.Fprintf(&body, "\n// Cell %d.\n", c.n)
		prevEnd := off(block.Lbrace) + len(fmt.Sprintf("{ // cell %d\n", c.n))
		for _, s := range inner {
			body.WriteString(probeSrc[prevEnd:off(s.Pos())])
			prevEnd = off(s.End())
			text := probeSrc[off(s.Pos()):off(s.End())]
			if why := notebookUse(s, info); why != "" {
				fmt.Fprintf(&body, "// gocl export: %s only shows in a notebook:\n%s", why, commentOut(text))
				continue
			}
			out, err := p.rewrite(s, text, off, probeSrc, info, qual, vars, &order, c.n)
			if err != nil {
				return nil, err
			}
			body.WriteString(out)
		}
		tailEnd := off(block.Rbrace)
		if next != nil {
			tailEnd = off(next.Lbrace)
		}
		body.WriteString(probeSrc[prevEnd:tailEnd])
		if !strings.HasSuffix(body.String(), "\n") {
			body.WriteString("\n")
		}
		if next == nil {
			break
		}
		block = next
	}
	var b strings.Builder
	fmt.Fprintf(&b, "// Command %s is the notebook %s exported by gocl export: its cells in order,\n",
		progName(path), baseName(path))
	b.WriteString("// declarations at package level, statements in main, and the variables that\n")
	b.WriteString("// cells declare as package variables, since later cells and funcs use them.\n")
	b.WriteString("// Outside a notebook, display and widgets publish nothing: the calls that only\n")
	b.WriteString("// show something are comments, and the rest (a progress bar, say) do nothing.\n")
	var all []string
	all = append(all, imports...)
	for path, name := range extra {
		all = append(all, importSpec(name, path))
	}
	sort.Strings(all)
	var hb strings.Builder
	p.header(&hb, all)
	b.WriteString(hb.String())
	if len(order) > 0 {
		b.WriteString("// The notebook's variables, declared by its cells.\nvar (\n")
		for _, n := range order {
			fmt.Fprintf(&b, "\t%s %s // cell %d\n", n, vars[n].typ, vars[n].cell)
		}
		b.WriteString(")\n\n")
	}
	b.WriteString("func main() {" + body.String() + "}\n")
	src := b.String()
	// Imports the program does not use after all (a name that occurs only in
	// a string, or a package used only by statements kept as comments).
	for range 2 {
		_, _, _, _, errs, err := check(src)
		if err != nil {
			return nil, err
		}
		var unused []string
		var other []error
		for _, e := range errs {
			if m := unusedImport.FindStringSubmatch(e.Error()); m != nil {
				unused = append(unused, m[1])
			} else {
				other = append(other, e)
			}
		}
		if len(other) > 0 {
			return []byte(src), fmt.Errorf("the exported program does not compile (the notebook relies on something only the kernel has):\n%w", errors.Join(other...))
		}
		if len(unused) == 0 {
			break
		}
		for _, u := range unused {
			src = strings.Replace(src, "\t"+u+"\n", "", 1)
		}
	}
	out, err := format.Source([]byte(src))
	if err != nil {
		return []byte(src), fmt.Errorf("gofmt of the exported program: %w", err)
	}
	return out, nil
}

var unusedImport = regexp.MustCompile(`^.*: ("[^"]+"(?: as \w+)?) imported and not used`)

// rewrite turns one top-level statement of a cell into main's: a variable
// declaration becomes an assignment to the package variable, and a value
// the notebook shows is assigned to _.
func (p *program) rewrite(s ast.Stmt, text string, off func(token.Pos) int, src string, info *types.Info,
	qual types.Qualifier, vars map[string]*hoisted, order *[]string, cell int) (string, error) {
	declare := func(id *ast.Ident) (fresh bool, err error) {
		if id.Name == "_" {
			return false, nil
		}
		obj := info.Defs[id]
		if obj == nil {
			return false, nil // := that assigns an existing variable
		}
		if obj.Type() == nil || obj.Type() == types.Typ[types.Invalid] {
			return false, fmt.Errorf("cell %d: gocl export cannot tell the type of %s (the cell does not compile as Go)", cell, id.Name)
		}
		typ := types.TypeString(obj.Type(), qual)
		if h, ok := vars[id.Name]; ok {
			if h.typ != typ {
				return false, fmt.Errorf("cell %d declares %s again, as %s (cell %d made it %s): a notebook may, a Go program cannot; rename one", cell, id.Name, typ, h.cell, h.typ)
			}
			return false, nil
		}
		vars[id.Name] = &hoisted{name: id.Name, typ: typ, cell: cell}
		*order = append(*order, id.Name)
		return true, nil
	}
	switch s := s.(type) {
	case *ast.AssignStmt:
		if s.Tok != token.DEFINE {
			return text, nil
		}
		for _, l := range s.Lhs {
			if id, ok := l.(*ast.Ident); ok {
				if _, err := declare(id); err != nil {
					return "", err
				}
			}
		}
		at := int(s.TokPos) - int(s.Pos())
		return text[:at] + "=" + text[at+2:], nil
	case *ast.DeclStmt:
		gd, ok := s.Decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR {
			return text, nil
		}
		var lines []string
		for _, sp := range gd.Specs {
			vs := sp.(*ast.ValueSpec)
			var names []string
			for _, id := range vs.Names {
				fresh, err := declare(id)
				if err != nil {
					return "", err
				}
				names = append(names, id.Name)
				if len(vs.Values) == 0 && !fresh && id.Name != "_" {
					lines = append(lines, fmt.Sprintf("%s = *new(%s) // the cell declares it again: its zero value", id.Name, vars[id.Name].typ))
				}
			}
			if len(vs.Values) > 0 {
				vals := src[off(vs.Values[0].Pos()):off(vs.Values[len(vs.Values)-1].End())]
				lines = append(lines, strings.Join(names, ", ")+" = "+vals)
			}
		}
		if len(lines) == 0 {
			return "// " + strings.ReplaceAll(text, "\n", "\n// ") + " (a package variable above)", nil
		}
		return strings.Join(lines, "\n"), nil
	case *ast.ExprStmt:
		if !validStatement(s.X, info) {
			return "_ = " + text + " // the notebook shows this value", nil
		}
	}
	return text, nil
}

// validStatement reports whether Go accepts expression x as a statement: a
// call of a function or method (not a conversion, nor a builtin that only
// computes a value), or a receive.
func validStatement(x ast.Expr, info *types.Info) bool {
	x = ast.Unparen(x)
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		return true
	}
	call, ok := x.(*ast.CallExpr)
	if !ok {
		return false
	}
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		return false
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := info.Uses[id].(*types.Builtin); ok {
			switch b.Name() {
			case "copy", "panic", "print", "println", "recover", "close", "delete", "clear":
				return true
			}
			return false
		}
	}
	return true
}

// notebookUse says why a statement only makes sense in a notebook: it is
// a call of the display or widgets package whose only effect is what the
// notebook shows (display.Markdown(md), widgets.Show(w)); else "". Other uses
// of those packages stay code: outside a kernel they publish nothing (a
// progress bar's Add does nothing), so the work around them still runs.
func notebookUse(s ast.Stmt, info *types.Info) string {
	es, ok := s.(*ast.ExprStmt)
	if !ok {
		return ""
	}
	call, ok := ast.Unparen(es.X).(*ast.CallExpr)
	if !ok {
		return ""
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return ""
	}
	if pn, ok := info.Uses[id].(*types.PkgName); ok && notebookOnly[pn.Imported().Name()] &&
		strings.HasPrefix(pn.Imported().Path(), goclModule+"/") {
		return "the notebook's " + pn.Imported().Name() + " output"
	}
	return ""
}

// commentOut turns text into Go line comments.
func commentOut(text string) string {
	var b bytes.Buffer
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		b.WriteString("// " + l + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}
