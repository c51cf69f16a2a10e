package history

import (
	"fmt"
	"unicode/utf8"
)

// The caps on what history keeps. IPython's history stores a cell's input
// and, optionally, its output; here both are capped so that one cell that
// made 200 MB of text does not make the file, and every kernel that reads
// it at start, 200 MB bigger.
const (
	// MaxInput is the most bytes of a cell's input kept.
	MaxInput = 1 << 20
	// MaxOutput is the most bytes of a cell's result text kept.
	MaxOutput = 64 << 10
	// MaxBytes is the most text (inputs and outputs) the file keeps; the
	// oldest cells go first.
	MaxBytes = 32 << 20
)

// capped returns e with its input and output cut to MaxInput and MaxOutput
// bytes, each with a note saying how much was kept, and whether it cut.
func capped(e Entry) (Entry, bool) {
	in, cutIn := truncate(e.Input, MaxInput, "\n// ")
	out, cutOut := truncate(e.Output, MaxOutput, "\n")
	e.Input, e.Output = in, out
	return e, cutIn || cutOut
}

// truncate cuts s to at most max bytes at a character boundary and appends
// a note, after lead, of how many bytes of how many were kept.
func truncate(s string, max int, lead string) (string, bool) {
	if len(s) <= max {
		return s, false
	}
	n := max
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	// Copy, so that the kept prefix does not hold the whole text alive.
	return string([]byte(s[:n])) + lead + fmt.Sprintf("[gocl history: truncated, the first %d of %d bytes kept]", n, len(s)), true
}

// size is the text of e, for the MaxBytes budget.
func (e Entry) size() int { return len(e.Input) + len(e.Output) }
