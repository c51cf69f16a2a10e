package engine

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
// order, exactly as Execute does before it runs them; `gocl export` uses it
// to place a cell's pieces in a Go program. A cell with a package clause is
// a whole program: the clause is blanked and its var declarations are
// declarations. A cell whose brackets do not balance comes back as one
// statement piece.
func SplitCell(src string) []Piece {
	split := splitCell
	if blanked := blankPackageClause(src); blanked != src {
		src, split = blanked, splitProgram
	}
	var out []Piece
	for _, c := range split(src) {
		out = append(out, Piece{Kind: PieceKind(c.kind), Text: src[c.start:c.end], Line: c.line, Start: c.start, End: c.end})
	}
	return out
}
