package engine

import (
	"go/types"
	"sort"
	"strconv"
	"strings"
)

// goWords returns the cell error in Go's words for a cell that yaegi refused
// and go/types refuses too, when yaegi's own words say nothing a user can act
// on: its compiler panicked (yaegiFailed: a package name used without its
// import made it dereference nil), or it speaks of a "constant definition
// loop" where Go says a name is undefined. Otherwise it returns nil and
// yaegi's words stand, as before.
func (e *Engine) goWords(name string, err *CellError, te types.Error) *CellError {
	loop := strings.Contains(err.Value, "definition loop")
	if !strings.Contains(err.Value, yaegiFailed) && !(loop && strings.HasPrefix(te.Msg, "undefined: ")) {
		return nil // a true definition loop keeps yaegi's words and their gloss (errors.go)
	}
	return e.errorAt(name, "CompileError", te.Msg+e.importHint(te.Msg), te.Pos, nil)
}

// importHint returns, for "undefined: json" where json is the name of a
// package the session can import, the note that says which import line is
// missing; "" otherwise.
func (e *Engine) importHint(msg string) string {
	id, ok := strings.CutPrefix(msg, "undefined: ")
	if !ok || id == "" || strings.ContainsAny(id, " .") {
		return ""
	}
	var paths []string
	e.state.Lock()
	for p := range e.avail {
		if importName(p) == id {
			paths = append(paths, strconv.Quote(p))
		}
	}
	e.state.Unlock()
	if len(paths) == 0 {
		return ""
	}
	sort.Strings(paths)
	return " (" + id + " is a package: add import " + strings.Join(paths, " or import ") + ")"
}
