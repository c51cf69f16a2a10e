// Package cellmodel is the one model of a notebook cell that the kernel's
// parts share: the cell's source, its chunks (runs of imports,
// declarations and statements, cut as the engine runs them), each chunk
// parsed once, the declarations the cell makes (one extractor,
// Declarations) and a position map (PosMap) from every node of the parsed,
// rewritten or generated code back to the user's cell, line and column.
//
// The engine (kernel/engine) parses a cell into yaegi's file set with
// Parse, runs its passes on the chunks' syntax and compiles them; its crash
// replay, its triage of yaegi's refusals, its debugger's breakable lines and
// `gocl export` take the cell's chunks and declarations from here, so that
// they all see the cell as the engine ran it. A compiled cell
// (kernel/compiled) is one Go file, not chunks; it maps its positions with
// a PosMap of its own.
//
// Not here yet: completion and inspection (kernel/assist) cut a cell into
// single statements of their own, tolerant of the half-typed code under
// the cursor and keeping doc comments, which Split's chunks (cut at tokens,
// unbalanced brackets making one chunk) do not; and the debugger reads a
// stopped frame's position from yaegi, which gives a token.Position, not a
// token.Pos the map could take.
package cellmodel

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
)

// Cell is one cell's source, cut into chunks and, after Parse, parsed.
type Cell struct {
	// Name is the engine's name of the cell ("cell3"); positions in the
	// parsed chunks name the file Name + "/_.go".
	Name string
	// Source is the cell as the user wrote it.
	Source string
	// Text is Source with a leading package clause blanked (Program):
	// what runs. It has Source's length and lines, so an offset, line or
	// column of one is the same of the other.
	Text string
	// Program reports that the cell is a whole program (it starts with a
	// package clause): its var declarations are package-level
	// declarations.
	Program bool
	// Chunks are the cell's chunks in source order.
	Chunks []Chunk
	// Parts are the parsed chunks, one per chunk in order, after Parse;
	// when Parse stopped at an error, up to and with the one that failed.
	Parts []*Part
	// Map maps positions of the parsed chunks to the cell; set by Parse.
	Map *PosMap
}

// Split cuts src into chunks as the engine runs them, without parsing. A
// cell with a package clause is a whole program: the clause is blanked and
// its var declarations are declarations. A cell whose brackets do not
// balance comes back as one statement chunk.
func Split(src string) *Cell {
	c := &Cell{Source: src, Text: src}
	if blanked := BlankPackageClause(src); blanked != src {
		c.Text, c.Program = blanked, true
		c.Chunks = SplitProgram(blanked)
		return c
	}
	c.Chunks = SplitText(src)
	return c
}

// Options say how Parse parses a cell's chunks.
type Options struct {
	// Name is the cell's name in positions: the chunks' /*line*/
	// directives name the file Name + "/_.go".
	Name string
	// FileSet receives the chunks' files; nil means a new one.
	FileSet *token.FileSet
	// Mode is the go/parser mode. Declarations needs the parser's object
	// resolution: leave parser.SkipObjectResolution out for it.
	Mode parser.Mode
	// KeepGoing parses every chunk even after one fails; by default
	// Parse stops at the first chunk that does not parse.
	KeepGoing bool
}

// Part is one chunk, parsed. Its source (Src) is the chunk wrapped in a
// file, or for statements in a main function, with a /*line*/ directive so
// that every position of its nodes reports the cell's own line and column.
type Part struct {
	Chunk
	Src   string
	TFile *token.File    // the file of Src in the file set; nil when it did not parse
	File  *ast.File      // the parsed file of an Import or Decl chunk
	Body  *ast.BlockStmt // the statements of a Stmt chunk, as a block
	Err   error          // the parse error, when it did not parse
	// bodyOff is the offset in Src of the chunk's first byte.
	bodyOff int
}

// Node is the chunk's parsed code: the block of its statements, or the
// file of its imports or declarations; nil when it did not parse.
func (p *Part) Node() ast.Node {
	if p.Body != nil {
		return p.Body
	}
	if p.File != nil {
		return p.File
	}
	return nil
}

// NodeText returns the source of node n, a node of the part as parsed, as
// written in the cell; "" for a node that is not the part's.
func (p *Part) NodeText(n ast.Node) string {
	if p.TFile == nil {
		return ""
	}
	a, b := offsetIn(p.TFile, n.Pos()), offsetIn(p.TFile, n.End())
	if a < 0 || b > len(p.Src) || a > b {
		return ""
	}
	return p.Src[a:b]
}

// offsetIn is pos's offset in f, or -1 when pos is not in f.
func offsetIn(f *token.File, pos token.Pos) int {
	if !pos.IsValid() || int(pos) < f.Base() || int(pos) > f.Base()+f.Size() {
		return -1
	}
	return int(pos) - f.Base()
}

// The wrappers of a chunk: Parse parses a statement chunk as the body of
// func main, other chunks as a file's top level.
const (
	stmtPrefix = "package main; func main() {"
	stmtSuffix = "\n}"
	filePrefix = "package main;"
)

// Parse cuts src into chunks (Split) and parses each as opt says, once. It
// returns the cell and the first parse error.
func Parse(src string, opt Options) (*Cell, error) {
	c := Split(src)
	c.Name = opt.Name
	err := c.parse(opt)
	return c, err
}

func (c *Cell) parse(opt Options) error {
	fset := opt.FileSet
	if fset == nil {
		fset = token.NewFileSet()
	}
	c.Map = NewPosMap(c.Name, c.Text)
	var first error
	for _, ch := range c.Chunks {
		p := ParseChunk(fset, c.Name, c.Text, ch, opt.Mode)
		c.Parts = append(c.Parts, p)
		if p.Err != nil {
			if first == nil {
				first = p.Err
			}
			if !opt.KeepGoing {
				break
			}
			continue
		}
		c.Map.Add(p.TFile, p.bodyOff, ch.Start, ch.End-ch.Start)
	}
	return first
}

// ParseChunk parses chunk ch of text, the text of the cell called name,
// into fset with mode, as Parse parses each chunk.
func ParseChunk(fset *token.FileSet, name, text string, ch Chunk, mode parser.Mode) *Part {
	directive := fmt.Sprintf("/*line %s/_.go:%d:%d*/", name, ch.Line, ch.Col)
	body := text[ch.Start:ch.End]
	p := &Part{Chunk: ch}
	if ch.Kind == Stmt {
		p.Src = stmtPrefix + directive + body + stmtSuffix
		p.bodyOff = len(stmtPrefix) + len(directive)
		f, err := parser.ParseFile(fset, "_.go", p.Src, mode)
		if err != nil {
			p.Err = err
			return p
		}
		p.Body = f.Decls[0].(*ast.FuncDecl).Body
		p.TFile = fset.File(f.Pos())
		return p
	}
	p.Src = filePrefix + directive + body
	p.bodyOff = len(filePrefix) + len(directive)
	f, err := parser.ParseFile(fset, "_.go", p.Src, mode)
	if err != nil {
		p.Err = err
		return p
	}
	p.File = f
	p.TFile = fset.File(f.Pos())
	return p
}
