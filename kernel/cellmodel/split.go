package cellmodel

import (
	"go/scanner"
	"go/token"
	"strings"
)

// Kind classifies a top-level piece of a cell, as the engine runs it.
type Kind int

// The kinds of Chunk.
const (
	Stmt   Kind = iota // statements (and var declarations), run in the global scope in order
	Decl               // func, method, type and const declarations
	Import             // import declarations
)

// String returns "stmt", "decl" or "import".
func (k Kind) String() string {
	switch k {
	case Stmt:
		return "stmt"
	case Decl:
		return "decl"
	case Import:
		return "import"
	}
	return "Kind(?)"
}

// Chunk is a run of consecutive top-level units of one kind of a cell: the
// bytes Start to End of the cell's Text, which begin at the 1-based Line
// and byte column Col.
type Chunk struct {
	Kind       Kind
	Start, End int
	Line, Col  int
}

// unit is one top-level statement or declaration.
type unit struct {
	kind       Kind
	start, end int
}

// SplitText cuts a cell's text into chunks of imports, declarations and
// statements, in source order. It only tokenizes: syntax errors are left
// for the parser, which sees each chunk with its true position. A text whose
// brackets do not balance comes back as one statement chunk, so the parser
// reports it. It does not look for a package clause: Split does.
func SplitText(src string) []Chunk {
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(file, []byte(src), func(token.Position, string) {}, 0)

	type tok struct {
		pos int
		tok token.Token
		lit string
	}
	var toks []tok
	for {
		p, t, lit := s.Scan()
		if t == token.EOF {
			break
		}
		toks = append(toks, tok{file.Offset(p), t, lit})
	}

	var units []unit
	depth := 0
	begin := -1 // index in toks of the current unit's first token
	endOf := func(i int) int {
		t := toks[i]
		if t.tok == token.SEMICOLON && t.lit == "\n" {
			return t.pos
		}
		if t.lit != "" {
			return t.pos + len(t.lit)
		}
		return t.pos + len(t.tok.String())
	}
	closeUnit := func(last int) {
		if begin < 0 || last < begin {
			begin = -1
			return
		}
		units = append(units, unit{classify(toks[begin].tok, func(k int) (token.Token, bool) {
			if begin+k < len(toks) {
				return toks[begin+k].tok, true
			}
			return token.ILLEGAL, false
		}), toks[begin].pos, endOf(last)})
		begin = -1
	}
	for i, t := range toks {
		switch t.tok {
		case token.LPAREN, token.LBRACE, token.LBRACK:
			depth++
		case token.RPAREN, token.RBRACE, token.RBRACK:
			depth--
		}
		if depth < 0 {
			return wholeCell(src)
		}
		if depth == 0 && t.tok == token.SEMICOLON {
			closeUnit(i - 1)
			continue
		}
		if begin < 0 {
			begin = i
		}
	}
	if depth != 0 {
		return wholeCell(src)
	}
	closeUnit(len(toks) - 1)

	return mergeUnits(src, units)
}

// SplitProgram is SplitText for a whole program (a cell with a package
// clause, already blanked): its var declarations are package-level
// declarations, compiled with its funcs and types as one file, so that they
// may refer to each other in any order, as in Go.
func SplitProgram(src string) []Chunk {
	chunks := SplitText(src)
	var units []unit
	for _, c := range chunks {
		k := c.Kind
		if k == Stmt {
			k = Decl
		}
		units = append(units, unit{kind: k, start: c.Start, end: c.End})
	}
	return mergeUnits(src, units)
}

// mergeUnits joins consecutive units of one kind into chunks.
func mergeUnits(src string, units []unit) []Chunk {
	var chunks []Chunk
	for _, u := range units {
		if n := len(chunks); n > 0 && chunks[n-1].Kind == u.kind {
			chunks[n-1].End = u.end
			continue
		}
		line, col := LineCol(src, u.start)
		chunks = append(chunks, Chunk{Kind: u.kind, Start: u.start, End: u.end, Line: line, Col: col})
	}
	return chunks
}

func wholeCell(src string) []Chunk {
	if strings.TrimSpace(src) == "" {
		return nil
	}
	return []Chunk{{Kind: Stmt, Start: 0, End: len(src), Line: 1, Col: 1}}
}

// classify decides a unit's kind from its first tokens: a func keyword
// followed by a name, or by a receiver and a name, is a declaration; a func
// literal is a statement.
func classify(first token.Token, at func(int) (token.Token, bool)) Kind {
	switch first {
	case token.IMPORT:
		return Import
	case token.VAR:
		// As a statement in the global scope: yaegi refuses a package-level
		// var that refers to a variable made by a statement ("variable
		// definition loop").
		return Stmt
	case token.TYPE, token.CONST:
		return Decl
	case token.FUNC:
		t, _ := at(1)
		if t == token.IDENT {
			return Decl
		}
		if t != token.LPAREN {
			return Stmt
		}
		depth := 0
		for k := 1; ; k++ {
			t, ok := at(k)
			if !ok {
				return Stmt
			}
			switch t {
			case token.LPAREN:
				depth++
			case token.RPAREN:
				depth--
			}
			if depth == 0 {
				next, _ := at(k + 1)
				if next == token.IDENT && k > 2 {
					return Decl // method: a receiver, then the name
				}
				return Stmt // func() T { ... }() has no receiver
			}
		}
	}
	return Stmt
}

// LineCol converts a byte offset of src to a 1-based line and byte column.
func LineCol(src string, off int) (line, col int) {
	off = min(max(off, 0), len(src))
	line = 1 + strings.Count(src[:off], "\n")
	col = off - (strings.LastIndexByte(src[:off], '\n') + 1) + 1
	return line, col
}

// SourceLine returns line n (1-based) of src without its newline.
func SourceLine(src string, n int) string {
	lines := strings.Split(src, "\n")
	if n < 1 || n > len(lines) {
		return ""
	}
	return strings.TrimRight(lines[n-1], "\r")
}

// BlankPackageClause replaces a leading `package name` clause with spaces,
// so that a whole program pasted into a cell runs as its body would; every
// other byte keeps its position.
func BlankPackageClause(src string) string {
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(file, []byte(src), func(token.Position, string) {}, 0)
	p, t, _ := s.Scan()
	if t != token.PACKAGE {
		return src
	}
	q, t, lit := s.Scan()
	if t != token.IDENT {
		return src
	}
	start, end := file.Offset(p), file.Offset(q)+len(lit)
	return src[:start] + strings.Repeat(" ", end-start) + src[end:]
}
