package assist

import (
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"strings"
)

const (
	filePrefix = "package p\n"
	funcPrefix = "package p; func _() {\n"
	funcSuffix = "\n}"
)

// parsed is one chunk of a cell, parsed as declarations or as statements.
type parsed struct {
	fset   *token.FileSet
	file   *ast.File
	stmts  []ast.Stmt // set when the chunk parsed as statements
	shift  int        // byte offset in the cell of the chunk's first byte, minus the wrapper's length
	text   string     // the wrapped source
	srcEnd int        // offset in text where the chunk ends
}

// cellOffset converts a position in p's wrapped text to a byte offset in the
// cell.
func (p *parsed) cellOffset(pos token.Pos) int {
	return p.fset.Position(pos).Offset + p.shift
}

// slice returns the cell text of node n.
func (p *parsed) slice(n ast.Node) string {
	a, b := p.fset.Position(n.Pos()).Offset, p.fset.Position(n.End()).Offset
	if a < 0 || b > len(p.text) || a > b {
		return ""
	}
	return p.text[a:b]
}

// parseChunk parses src[c.start:c.end] the way yaegi reads a cell: as
// declarations when it starts with const, func, import, type or var, as
// statements inside a function otherwise; when that fails it tries the other
// way. The error is the one of the preferred way.
func parseChunk(src string, c chunk, first token.Token) (*parsed, error) {
	body := src[c.start:c.end]
	asDecl := func() (*parsed, error) {
		text := filePrefix + body
		if first == token.PACKAGE {
			text = body
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "cell", text, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		return &parsed{fset: fset, file: f, shift: c.start - (len(text) - len(body)), text: text, srcEnd: len(text)}, nil
	}
	asStmts := func() (*parsed, error) {
		text := funcPrefix + body + funcSuffix
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "cell", text, parser.ParseComments)
		if err != nil {
			return &parsed{text: text, srcEnd: len(funcPrefix) + len(body)}, err
		}
		var stmts []ast.Stmt
		if len(f.Decls) == 1 {
			if fd, ok := f.Decls[0].(*ast.FuncDecl); ok && fd.Body != nil {
				stmts = fd.Body.List
			}
		}
		return &parsed{fset: fset, file: f, stmts: stmts, shift: c.start - len(funcPrefix), text: text, srcEnd: len(funcPrefix) + len(body)}, nil
	}
	preferDecl := false
	switch first {
	case token.CONST, token.FUNC, token.IMPORT, token.TYPE, token.VAR, token.PACKAGE:
		preferDecl = true
	}
	if preferDecl {
		p, err := asDecl()
		if err == nil {
			return p, nil
		}
		if q, err2 := asStmts(); err2 == nil {
			return q, nil
		}
		// Report the error as if the chunk were wrapped in nothing.
		return &parsed{text: filePrefix + body, srcEnd: len(filePrefix) + len(body), shift: c.start - len(filePrefix)}, err
	}
	q, err := asStmts()
	if err == nil {
		return q, nil
	}
	if p, err2 := asDecl(); err2 == nil {
		return p, nil
	}
	return q, err
}

// firstToken returns the first token of src[c.start:c.end] that is not a
// comment.
func firstToken(toks []tok, c chunk) token.Token {
	for _, t := range toks {
		if t.pos < c.start || t.t == token.COMMENT || t.t == token.SEMICOLON {
			continue
		}
		if t.pos >= c.end {
			break
		}
		return t.t
	}
	return token.ILLEGAL
}

// parseCell parses every chunk of src. Chunks that do not parse are skipped;
// the first error, with its offset in the wrapped text and the end of the
// chunk in that text, is returned too.
func parseCell(src string) (ps []*parsed, firstErr error, errAtEnd bool) {
	toks, _ := scan(src)
	for _, c := range chunks(src, toks) {
		if strings.TrimSpace(src[c.start:c.end]) == "" {
			continue
		}
		p, err := parseChunk(src, c, firstToken(toks, c))
		if err != nil {
			if firstErr == nil {
				firstErr = err
				errAtEnd = errorsAtEnd(err, p.srcEnd)
			}
			continue
		}
		ps = append(ps, p)
	}
	return ps, firstErr, errAtEnd
}

// errorsAtEnd reports whether the first parse error lies at or beyond the end
// of the user's text, so that more input could fix it.
func errorsAtEnd(err error, end int) bool {
	list, ok := err.(scanner.ErrorList)
	if !ok || len(list) == 0 {
		return false
	}
	return list[0].Pos.Offset >= end
}
