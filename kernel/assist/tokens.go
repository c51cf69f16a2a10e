package assist

import (
	"go/scanner"
	"go/token"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tok is one token of a cell, with byte offsets into the cell.
type tok struct {
	pos, end int
	t        token.Token
	lit      string
}

// scanErr is a scanner error at a byte offset.
type scanErr struct {
	off int
	msg string
}

// scan splits src into tokens, comments included. It never fails: errors are
// returned beside the tokens so half-written cells can still be read.
func scan(src string) ([]tok, []scanErr) {
	fset := token.NewFileSet()
	file := fset.AddFile("cell", -1, len(src))
	var errs []scanErr
	var s scanner.Scanner
	s.Init(file, []byte(src), func(p token.Position, msg string) {
		errs = append(errs, scanErr{p.Offset, msg})
	}, scanner.ScanComments)
	var toks []tok
	for {
		p, t, lit := s.Scan()
		if t == token.EOF {
			break
		}
		off := file.Offset(p)
		end := off
		switch {
		case t == token.SEMICOLON && lit == "\n":
			// automatic semicolon: zero width
		case lit != "":
			end = off + len(lit)
		default:
			end = off + len(t.String())
		}
		if end > len(src) {
			end = len(src)
		}
		toks = append(toks, tok{off, end, t, lit})
	}
	return toks, errs
}

// byteOffset converts a cursor counted in code points to a byte offset,
// clamped to src.
func byteOffset(src string, cursor int) int {
	if cursor <= 0 {
		return 0
	}
	n := 0
	for i := range src {
		if n == cursor {
			return i
		}
		n++
	}
	return len(src)
}

// runeOffset converts a byte offset into src to a count of code points.
func runeOffset(src string, off int) int {
	if off > len(src) {
		off = len(src)
	}
	return utf8.RuneCountInString(src[:off])
}

func isIdentRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// identAround returns the byte range [start, end) of the identifier that
// touches offset b in src (start == end == b when there is none).
func identAround(src string, b int) (start, end int) {
	start = b
	for start > 0 {
		r, n := utf8.DecodeLastRuneInString(src[:start])
		if !isIdentRune(r) {
			break
		}
		start -= n
	}
	end = b
	for end < len(src) {
		r, n := utf8.DecodeRuneInString(src[end:])
		if !isIdentRune(r) {
			break
		}
		end += n
	}
	// An identifier cannot start with a digit: "3x" or "1e5" are numbers.
	if start < end {
		r, _ := utf8.DecodeRuneInString(src[start:])
		if unicode.IsDigit(r) {
			return b, b
		}
	}
	return start, end
}

// tokenAt returns the index of the last token that starts before b, or -1.
func tokenAt(toks []tok, b int) int {
	i := -1
	for j, t := range toks {
		if t.pos >= b {
			break
		}
		i = j
	}
	return i
}

// stepKind says how one link of a selector chain is reached.
type stepKind int

const (
	stepIdent  stepKind = iota // x or .x
	stepCall                   // (...)
	stepIndex                  // [...]
	stepAssert                 // .(T), with T's source in name
)

type step struct {
	kind stepKind
	name string
}

// chainBefore reads, backwards from token index i (inclusive), an operand
// like `a.b(1)[2].c` and returns its steps in source order. It returns nil
// when the tokens do not end in such an operand.
func chainBefore(toks []tok, i int) []step {
	var rev []step
	for i >= 0 {
		switch toks[i].t {
		case token.IDENT:
			rev = append(rev, step{stepIdent, toks[i].lit})
			if i > 0 && toks[i-1].t == token.PERIOD {
				i -= 2
				continue
			}
			i = -1
		case token.RPAREN, token.RBRACK:
			open := matching(toks, i)
			if open <= 0 {
				return nil
			}
			if toks[i].t == token.RPAREN && open >= 2 && toks[open-1].t == token.PERIOD {
				// A type assertion x.(T): the operand has type T.
				var typ strings.Builder
				for _, t := range toks[open+1 : i] {
					if t.lit != "" {
						typ.WriteString(t.lit)
					} else {
						typ.WriteString(t.t.String())
					}
				}
				rev = append(rev, step{kind: stepAssert, name: typ.String()})
				i = open - 2
				continue
			}
			if toks[i].t == token.RPAREN {
				rev = append(rev, step{kind: stepCall})
			} else {
				rev = append(rev, step{kind: stepIndex})
			}
			i = open - 1
		default:
			return nil
		}
	}
	if len(rev) == 0 || rev[len(rev)-1].kind != stepIdent {
		return nil
	}
	out := make([]step, len(rev))
	for k, s := range rev {
		out[len(rev)-1-k] = s
	}
	return out
}

// matching returns the index of the bracket that opens the one closed at
// toks[i], or -1.
func matching(toks []tok, i int) int {
	depth := 0
	for j := i; j >= 0; j-- {
		switch toks[j].t {
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth++
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// chunk is a top-level piece of a cell: a declaration or a statement.
type chunk struct{ start, end int }

// chunks splits src at the semicolons (written or automatic) that are not
// inside brackets.
func chunks(src string, toks []tok) []chunk {
	var out []chunk
	depth, start := 0, 0
	for _, t := range toks {
		switch t.t {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			if depth > 0 {
				depth--
			}
		case token.SEMICOLON:
			if depth == 0 {
				out = append(out, chunk{start, t.pos})
				start = t.end
				if t.end == t.pos && t.pos < len(src) {
					start = t.pos + 1 // skip the newline
				}
			}
		}
	}
	if start < len(src) {
		out = append(out, chunk{start, len(src)})
	}
	return out
}
