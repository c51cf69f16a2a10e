package engine

import "github.com/seed43a1e1ab/gocl/kernel/cellmodel"

// PieceKind is what a top-level piece of a cell is, as the engine runs it.
type PieceKind int

// The kinds of Piece.
const (
	PieceStmt   PieceKind = PieceKind(kindStmt)   // statements (and var declarations), run in order
	PieceDecl   PieceKind = PieceKind(kindDecl)   // func, method, type and const declarations
	PieceImport PieceKind = PieceKind(kindImport) // import declarations
)

// Piece is a run of consecutive top-level units of one kind in a cell.
type Piece struct {
	Kind       PieceKind
	Text       string
	Line       int // 1-based line of the cell where Text starts
	Start, End int // byte offsets of Text in the cell
}

// SplitCell cuts a cell into imports, declarations and statements, in source
// order, exactly as Execute does before it runs them (cellmodel.Split);
// `gocl export` uses it to place a cell's pieces in a Go program. A cell
// with a package clause is a whole program: the clause is blanked and its
// var declarations are declarations. A cell whose brackets do not balance
// comes back as one statement piece.
func SplitCell(src string) []Piece {
	c := cellmodel.Split(src)
	var out []Piece
	for _, ch := range c.Chunks {
		out = append(out, Piece{Kind: PieceKind(ch.Kind), Text: c.Text[ch.Start:ch.End], Line: ch.Line, Start: ch.Start, End: ch.End})
	}
	return out
}
