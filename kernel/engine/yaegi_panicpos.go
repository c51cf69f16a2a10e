package engine

// A pasted program runs as one top-level statement, the call of its func
// main (renamed mainName: body_main.go), so a panic's "cell statement that
// was running" was the line of `func main() {` whatever main was doing
// (issue 24). gocl's yaegi (third_party/yaegi, gocl_panicpos.go) logs each
// unwound frame at the position of the node that was running in it; the
// frame of main gives the line of main's that panicked, or that called the
// function that did, which is the line Go's traceback gives for main.

// mainPanicPos returns the position, in the cells' coordinates, of the
// running statement of the func main that the cell cur declared, from the
// frames yaegi logged while the panic unwound; ok is false when main was
// not among them.
func (e *Engine) mainPanicPos(cur string) (file string, line, col int, ok bool) {
	frames := e.trace.frames()
	for i := len(frames) - 1; i >= 0; i-- { // outermost first
		if f := frames[i]; f.fn == mainName && f.file == cur && f.line > 0 {
			return f.file, f.line, f.col, true
		}
	}
	return "", 0, 0, false
}
