package cellmodel

import (
	"go/ast"
	"go/token"
	"sort"
)

// Position is a place in a user's cell.
type Position struct {
	Cell   string // the engine's name of the cell, "cell3"
	Offset int    // byte offset in the cell's text
	Line   int    // 1-based
	Col    int    // 1-based, in bytes
}

// PosMap maps positions of the code the engine compiles (a chunk wrapped
// in a file or a function, rewritten by the passes, or generated) back to
// the user's cell. A span of a parsed or generated file maps byte for byte
// onto a span of the cell; a rewritten node keeps the position of the node
// it stands for, so it maps to that node's place. A nil *PosMap maps
// nothing. Lookups may run concurrently; Add may not run beside them.
type PosMap struct {
	cell string
	text string
	// spans, sorted by from: [from, from+n] in the file set maps to
	// [to, to+n] in the cell's text.
	spans []span
	// lines are the offsets in text where each line starts.
	lines []int
}

type span struct {
	from token.Pos
	to   int
	n    int
}

// NewPosMap returns an empty map onto text, the text of the cell called
// cell.
func NewPosMap(cell, text string) *PosMap {
	m := &PosMap{cell: cell, text: text, lines: []int{0}}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			m.lines = append(m.lines, i+1)
		}
	}
	return m
}

// Add maps n bytes of file f, from its offset off, onto the cell's text
// from offset cellOff: generated code that copies a run of the cell adds
// the run here.
func (m *PosMap) Add(f *token.File, off, cellOff, n int) {
	if f == nil || off < 0 || off+n > f.Size() {
		return
	}
	s := span{from: token.Pos(f.Base() + off), to: cellOff, n: n}
	i := sort.Search(len(m.spans), func(i int) bool { return m.spans[i].from > s.from })
	m.spans = append(m.spans, span{})
	copy(m.spans[i+1:], m.spans[i:])
	m.spans[i] = s
}

// Position returns the place in the cell of pos, and false when pos is not
// of the cell's code (no position, or a position in code the engine made
// up, such as its helpers).
func (m *PosMap) Position(pos token.Pos) (Position, bool) {
	if m == nil || !pos.IsValid() {
		return Position{}, false
	}
	i := sort.Search(len(m.spans), func(i int) bool { return m.spans[i].from > pos }) - 1
	if i < 0 {
		return Position{}, false
	}
	s := m.spans[i]
	rel := int(pos - s.from)
	if rel > s.n {
		return Position{}, false
	}
	off := min(s.to+rel, len(m.text))
	line, col := m.lineCol(off)
	return Position{Cell: m.cell, Offset: off, Line: line, Col: col}, true
}

// lineCol is LineCol(m.text, off), by a search of the lines' starts.
func (m *PosMap) lineCol(off int) (line, col int) {
	i := sort.SearchInts(m.lines, off+1) - 1 // the last line starting at or before off
	return i + 1, off - m.lines[i] + 1
}

// Node returns the place in the cell of node n: of n's own position, or,
// for a node the engine generated without one, of the first node inside it
// that maps to the cell.
func (m *PosMap) Node(n ast.Node) (Position, bool) {
	if n == nil {
		return Position{}, false
	}
	if p, ok := m.Position(n.Pos()); ok {
		return p, true
	}
	var found Position
	ok := false
	ast.Inspect(n, func(c ast.Node) bool {
		if ok || c == nil {
			return false
		}
		if c != n {
			found, ok = m.Position(c.Pos())
		}
		return !ok
	})
	return found, ok
}
