package engine

import (
	"go/parser"
	"go/token"
	"strings"

	"github.com/seed43a1e1ab/gocl/kernel/cellmodel"
)

// The engine's names for the model of a cell (kernel/cellmodel), which
// splits and parses cells for the engine, its replay, triage, debugger and
// `gocl export`.

// kind classifies a top-level piece of a cell.
type kind = cellmodel.Kind

const (
	kindStmt   = cellmodel.Stmt   // statements, run in the global scope
	kindDecl   = cellmodel.Decl   // func, type, var, const declarations
	kindImport = cellmodel.Import // import declarations
)

// chunk is a run of consecutive top-level units of one kind, as text of the
// cell with its start position (1-based line and byte column).
type chunk struct {
	kind       kind
	start, end int // byte offsets in the cell
	line, col  int
}

func chunkOf(c cellmodel.Chunk) chunk {
	return chunk{kind: c.Kind, start: c.Start, end: c.End, line: c.Line, col: c.Col}
}

// splitCell cuts a cell's text into chunks (cellmodel.SplitText), without
// looking for a package clause.
func splitCell(src string) []chunk {
	var out []chunk
	for _, c := range cellmodel.SplitText(src) {
		out = append(out, chunkOf(c))
	}
	return out
}

// lineCol converts a byte offset of src to a 1-based line and column.
func lineCol(src string, off int) (line, col int) { return cellmodel.LineCol(src, off) }

// sourceLine returns line n (1-based) of src without its newline.
func sourceLine(src string, n int) string { return cellmodel.SourceLine(src, n) }

// parseCell parses code, the cell called name, once (cellmodel.Parse)
// into the interpreter's file set, so that every position reports the
// cell's own line and column in a file named "<name>/_.go" (yaegi keys
// imports by the base name "_.go"). It returns the parsed chunks, which
// the passes then change in place, and the cell's model; or the first
// parse error.
func (e *Engine) parseCell(name, code string) ([]*parsed, *cellmodel.Cell, error) {
	if testHookParsed != nil {
		testHookParsed(name)
	}
	model, err := cellmodel.Parse(code, cellmodel.Options{Name: name, FileSet: e.in.FileSet(), Mode: parser.DeclarationErrors})
	if err != nil {
		return nil, model, err
	}
	ps := make([]*parsed, 0, len(model.Parts))
	for _, pt := range model.Parts {
		ps = append(ps, parsedOf(pt))
	}
	return ps, model, nil
}

// testHookParsed, when set by a test, is called each time a cell is parsed.
var testHookParsed func(name string)

// parseChunk parses chunk ch of code, the cell called name, as parseCell
// parses each chunk.
func (e *Engine) parseChunk(name, code string, ch chunk) (*parsed, error) {
	pt := cellmodel.ParseChunk(e.in.FileSet(), name, code,
		cellmodel.Chunk{Kind: ch.kind, Start: ch.start, End: ch.end, Line: ch.line, Col: ch.col}, parser.DeclarationErrors)
	if pt.Err != nil {
		return &parsed{chunk: ch, src: pt.Src, part: pt}, pt.Err
	}
	return parsedOf(pt), nil
}

// parsedOf is the engine's copy of part pt, whose syntax the passes change.
func parsedOf(pt *cellmodel.Part) *parsed {
	return &parsed{chunk: chunkOf(pt.Chunk), src: pt.Src, tfile: pt.TFile, file: pt.File, body: pt.Body, part: pt}
}

// reparsed is a cell parsed once more, as written: the passes changed the
// syntax of the parse that ran, and the words given to a refused cell
// (explainStmtVars, triage) read the cell as the user wrote it.
type reparsed struct {
	model *cellmodel.Cell
	ps    []*parsed
}

// reparse returns the parse of code, the cell called name, for the
// explanations of its compile error: made on the first call, which only an
// explanation that applies makes, and shared by the next; nil when the cell
// does not parse.
func (e *Engine) reparse(name, code string) func() *reparsed {
	var r *reparsed
	done := false
	return func() *reparsed {
		if !done {
			done = true
			if ps, model, err := e.parseCell(name, code); err == nil {
				r = &reparsed{model: model, ps: ps}
			}
		}
		return r
	}
}

// cellPos is where pos lies in a user's cell: the cell's name, line and
// column, by the running cell's model (cellmodel.PosMap), which maps the
// cell's wrapped, rewritten and generated nodes back to the cell. A
// position outside it (an earlier cell's, a user expression's, the
// engine's own code) is read from the file set, whose /*line*/ directives
// name the cell.
func (e *Engine) cellPos(pos token.Pos) (cell string, line, col int) {
	if m := e.model.Load(); m != nil {
		if p, ok := m.Map.Position(pos); ok {
			return p.Cell, p.Line, p.Col
		}
	}
	p := e.in.FileSet().Position(pos)
	return strings.TrimSuffix(p.Filename, "/_.go"), p.Line, p.Column
}
