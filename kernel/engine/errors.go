package engine

import (
	"errors"
	"fmt"
	"go/scanner"
	"go/token"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/seed43a1e1ab/gocl/kernel/symbols/stdlib/catalog"

	"github.com/traefik/yaegi/interp"
)

// simpleError is a CellError with no position.
func simpleError(name, value string) *CellError {
	return &CellError{Name: name, Value: value, Traceback: []string{name + ": " + value}}
}

func interrupted(note string) *CellError {
	e := simpleError("Interrupted", "the cell was interrupted")
	if note != "" {
		e.Traceback = append(e.Traceback, note)
	}
	return e
}

// posRE matches a position of a cell chunk: "cell3/_.go:2:5: ".
var posRE = regexp.MustCompile(`^([A-Za-z0-9]+)/_\.go:(\d+):(\d+): `)

// barePosRE matches a position yaegi printed without a file name (a node of
// the wrapper around a chunk).
var barePosRE = regexp.MustCompile(`^(?:_\.go:)?\d+:\d+: `)

// where renders the location lines of a position: a header, the quoted
// source line and a caret under the column.
func (e *Engine) where(cur, file string, line, col int, what string) []string {
	e.state.Lock()
	src, ok := e.files[file]
	e.state.Unlock()
	var head string
	switch {
	case !ok:
		return []string{fmt.Sprintf("  %s%s:%d:%d", what, file, line, col)}
	case file == cur:
		head = fmt.Sprintf("  %sline %d, column %d:", what, line, col)
	default:
		head = fmt.Sprintf("  %searlier %s, line %d, column %d:", what, cellLabel(file), line, col)
	}
	text := sourceLine(src, line)
	if text == "" {
		return []string{head}
	}
	col = min(max(col, 1), len(text)+1)
	prefix := text[:col-1]
	width := utf8.RuneCountInString(strings.ReplaceAll(prefix, "\t", "    "))
	return []string{head, "    " + strings.ReplaceAll(text, "\t", "    "), "    " + strings.Repeat(" ", width) + "^"}
}

func cellLabel(file string) string {
	if n, ok := strings.CutPrefix(file, "cell"); ok {
		return "cell #" + n
	}
	return file + " (engine setup)"
}

// errorAt makes an error located at pos of the running cell.
func (e *Engine) errorAt(cur, name, msg string, pos token.Pos, extra []string) *CellError {
	file, line, col := e.cellPos(pos) // split.go
	tb := []string{name + ": " + msg}
	tb = append(tb, e.where(cur, file, line, col, "")...)
	return &CellError{Name: name, Value: firstLine(msg), Traceback: append(tb, extra...)}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// clampLine keeps a parser position inside the cell (an unterminated block
// reports the wrapper's closing brace, one line past the end).
func (e *Engine) clampLine(file string, line int) int {
	e.state.Lock()
	src := e.files[file]
	e.state.Unlock()
	return min(line, strings.Count(src, "\n")+1)
}

func (e *Engine) syntaxError(cur string, err error) *CellError {
	var list scanner.ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		return simpleError("SyntaxError", err.Error())
	}
	first := list[0]
	file := strings.TrimSuffix(first.Pos.Filename, "/_.go")
	msg := strings.ReplaceAll(first.Msg, "'EOF'", "end of cell")
	tb := []string{"SyntaxError: " + msg}
	tb = append(tb, e.where(cur, file, e.clampLine(file, first.Pos.Line), first.Pos.Column, "")...)
	if len(list) > 1 {
		tb = append(tb, fmt.Sprintf("  (and %d more syntax errors)", len(list)-1))
	}
	return &CellError{Name: "SyntaxError", Value: msg, Traceback: tb}
}

// compileError turns a yaegi compile error ("cell3/_.go:2:5: undefined: x")
// into a located CellError.
func (e *Engine) compileError(cur string, err error) *CellError {
	var list scanner.ErrorList
	if errors.As(err, &list) {
		return e.syntaxError(cur, err)
	}
	msg := err.Error()
	name := "CompileError"
	var loc []string
	if m := posRE.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		loc = e.where(cur, m[1], line, col, "")
		msg = msg[len(m[0]):]
	} else if m := barePosRE.FindString(msg); m != "" {
		msg = msg[len(m):]
	}
	if strings.HasSuffix(msg, "definition loop") {
		msg += " (yaegi's words for: a name used here is undefined, or a definition depends on itself)"
	}
	if strings.HasPrefix(msg, "import ") {
		name = "ImportError"
	}
	msg += e.missingSymbolNote(msg) + e.importHint(msg)
	ce := &CellError{Name: name, Value: firstLine(msg), Traceback: append([]string{name + ": " + msg}, loc...)}
	fromInterpreter.Store(ce, true)
	return ce
}

// fromInterpreter holds the errors that yaegi's compiler gave, which
// triage.go may tell apart from gocl's own refusals (a type redefined, a
// case it cannot answer): only yaegi's are asked about.
var fromInterpreter sync.Map // *CellError -> true

// runError converts what Execute returned: a panic (with the frames yaegi
// logged while unwinding) or a late compile error.
func (e *Engine) runError(cur string, err error) *CellError {
	var p interp.Panic
	if !errors.As(err, &p) {
		return e.compileError(cur, err)
	}
	v := panicValue(p.Value)
	if _, ok := v.(stopBody); ok {
		return interrupted("")
	}
	if code, ok := v.(exitRequest); ok {
		if code == 0 {
			return nil
		}
		return simpleError("Exit", fmt.Sprintf("os.Exit(%d) was called; the cell stopped and the kernel keeps running", int(code)))
	}
	name, text := "panic", "panic called with nil argument"
	if v != nil {
		text = panicText(v)
	}
	if n, ok := v.(interface{ ErrorName() string }); ok {
		name = n.ErrorName()
	}
	var note []string
	if goText, changed := goRuntimeText(text); goText != text {
		if changed && (strings.HasPrefix(goText, "runtime error: index") || strings.HasPrefix(goText, "runtime error: slice")) {
			note = append(note, "  (the interpreter does not report the index and the length that Go's message gives)")
		}
		text = goText
	}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	value := lines[0]
	tb := []string{name + ": " + value}
	// yaegi logs each unwound frame with the function's name but only the
	// position of the function's first statement: show the names, and let
	// locateTop add the cell statement that was running.
	for _, f := range e.trace.frames() {
		if f.fn == "main" || strings.HasPrefix(f.fn, helperPrefix) || f.file == "gocl" {
			continue
		}
		where := "  inside " + f.fn
		if f.file != cur {
			where += " (declared in earlier " + cellLabel(f.file) + ")"
		}
		tb = append(tb, where)
	}
	tb = append(tb, lines[1:]...)
	tb = append(tb, note...)
	return &CellError{Name: name, Value: value, Traceback: tb, Panicked: true}
}

// locateTop adds to a panic the cell statement that was running, pos, as the
// outermost frame (after the header line).
func (e *Engine) locateTop(cur string, err *CellError, pos token.Pos) *CellError {
	if err == nil || !err.Panicked {
		return err
	}
	err.Panicked = false
	file, line, col := e.cellPos(pos) // split.go
	loc := e.where(cur, file, line, col, "")
	if file, line, col, ok := e.mainPanicPos(cur); ok { // yaegi_panicpos.go
		loc = e.where(cur, file, line, col, "")
	}
	tb := append([]string{err.Traceback[0]}, loc...)
	err.Traceback = append(tb, err.Traceback[1:]...)
	return err
}

func panicText(v any) (s string) {
	defer func() {
		if r := recover(); r != nil {
			s = fmt.Sprintf("%T (its Error/String method panicked: %v)", v, r)
		}
	}()
	switch x := v.(type) {
	case error:
		return x.Error()
	case fmt.Stringer:
		return x.String()
	case string:
		return x
	}
	return fmt.Sprintf("%v", v)
}

// traceLog collects the lines yaegi writes to its stderr while a panic
// unwinds: "cell3/_.go:1:25: panic: main.f(...)", innermost frame first.
type traceLog struct {
	mu    sync.Mutex
	lines []string
}

var panicLineRE = regexp.MustCompile(`^(?:([A-Za-z0-9]+)/_\.go:)?(\d+):(\d+): panic: (.*)\(\.\.\.\)\n?$`)

func (t *traceLog) reset() {
	t.mu.Lock()
	t.lines = nil
	t.mu.Unlock()
}

func (t *traceLog) add(line string) {
	t.mu.Lock()
	if len(t.lines) < 64 {
		t.lines = append(t.lines, line)
	}
	t.mu.Unlock()
}

type frame struct {
	file, fn  string
	line, col int
}

func (t *traceLog) frames() []frame {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []frame
	for _, l := range t.lines {
		m := panicLineRE.FindStringSubmatch(l)
		if m == nil || m[1] == "" {
			continue
		}
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		out = append(out, frame{file: m[1], fn: strings.TrimPrefix(m[4], "main."), line: line, col: col})
	}
	return out
}

// stderrFilter is the interpreter's stderr: yaegi's panic frame lines go to
// the trace log, everything else (log, flag) to fd 2 like any other output.
type stderrFilter struct{ e *Engine }

func (f *stderrFilter) Write(p []byte) (int, error) {
	if panicLineRE.Match(p) {
		f.e.trace.add(string(p))
		return len(p), nil
	}
	return cellStderr.Write(p)
}

// missingSymbolRE matches yaegi's words for a name a package does not have:
// "undefined selector errors.AsType", `package errors "errors" has no
// symbol AsType`.
var missingSymbolRE = regexp.MustCompile(`undefined selector (\w+)\.(\w+)|package \w+ "([^"]+)" has no symbol (\w+)`)

// missingSymbolNote says why a standard package lacks a name cells ask for,
// when the package's note in the catalog names it (a compiled generic such
// as errors.AsType), or "".
func (e *Engine) missingSymbolNote(msg string) string {
	m := missingSymbolRE.FindStringSubmatch(msg)
	if m == nil {
		return ""
	}
	path, sym := m[3], m[4]
	if m[1] != "" {
		e.state.Lock()
		path = e.imports[m[1]]
		e.state.Unlock()
		sym = m[2]
	}
	note, ok := catalog.Notes[path]
	if !ok || !strings.Contains(note, sym) {
		return ""
	}
	return " (not supported in cells: " + note + ")"
}
