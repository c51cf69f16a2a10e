package assist

import (
	"go/ast"
	"go/token"
	"strings"
)

// IndentUnit is what IsComplete puts in front of the next line once per open
// bracket.
var IndentUnit = "    "

// IsComplete answers an is_complete_request: status is "complete" when the
// cell can run as it is, "incomplete" when more lines are expected (an open
// bracket, an unterminated raw string or comment, a trailing operator or
// comma), and "invalid" when no more input can fix it (a stray closing
// bracket, a broken string literal, a syntax error in the middle). indent is
// the text the next line should start with when status is "incomplete".
//
// Cells may mix declarations and statements; each top-level piece is parsed
// as a declaration or as a statement, as yaegi would.
func IsComplete(code string) (status, indent string) {
	if strings.TrimSpace(code) == "" {
		return "complete", ""
	}
	toks, errs := scan(code)

	var stack []token.Token
	for _, t := range toks {
		switch t.t {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			stack = append(stack, t.t)
		case token.RPAREN, token.RBRACK, token.RBRACE:
			want := map[token.Token]token.Token{token.RPAREN: token.LPAREN, token.RBRACK: token.LBRACK, token.RBRACE: token.LBRACE}[t.t]
			if len(stack) == 0 || stack[len(stack)-1] != want {
				return "invalid", ""
			}
			stack = stack[:len(stack)-1]
		}
	}
	depth := len(stack)
	for _, e := range errs {
		switch {
		case strings.Contains(e.msg, "raw string literal not terminated"),
			strings.Contains(e.msg, "comment not terminated"):
			return "incomplete", strings.Repeat(IndentUnit, depth)
		default:
			return "invalid", ""
		}
	}
	if depth > 0 {
		return "incomplete", strings.Repeat(IndentUnit, depth)
	}
	if last := lastCodeToken(toks); last != nil && continues(last.t) {
		return "incomplete", IndentUnit
	}
	ps, err, atEnd := parseCell(code)
	switch {
	case err == nil && bodiless(ps):
		return "incomplete", "" // `func f()` waits for its body
	case err == nil:
		return "complete", ""
	case atEnd:
		return "incomplete", ""
	default:
		return "invalid", ""
	}
}

// lastCodeToken returns the last token that is neither a comment nor an
// automatic semicolon.
func lastCodeToken(toks []tok) *tok {
	for i := len(toks) - 1; i >= 0; i-- {
		t := &toks[i]
		if t.t == token.COMMENT || (t.t == token.SEMICOLON && t.lit == "\n") {
			continue
		}
		return t
	}
	return nil
}

// continues reports whether a line ending in t must go on: binary operators,
// assignments, commas, a dot, and keywords that need what follows.
func continues(t token.Token) bool {
	switch t {
	case token.COMMA, token.PERIOD, token.COLON, token.ARROW,
		token.ASSIGN, token.DEFINE,
		token.ADD_ASSIGN, token.SUB_ASSIGN, token.MUL_ASSIGN, token.QUO_ASSIGN, token.REM_ASSIGN,
		token.AND_ASSIGN, token.OR_ASSIGN, token.XOR_ASSIGN, token.SHL_ASSIGN, token.SHR_ASSIGN, token.AND_NOT_ASSIGN,
		token.FUNC, token.IF, token.ELSE, token.FOR, token.SWITCH, token.SELECT, token.GO, token.DEFER,
		token.VAR, token.CONST, token.TYPE, token.IMPORT, token.PACKAGE, token.CASE, token.RANGE,
		token.STRUCT, token.INTERFACE, token.MAP, token.CHAN, token.GOTO:
		return true
	}
	return t.IsOperator() && t.Precedence() > 0 // binary operators
}

// bodiless reports whether a function declaration lacks its body, which Go
// allows only for functions written in assembly, never in a cell.
func bodiless(ps []*parsed) bool {
	for _, p := range ps {
		if p.stmts != nil || p.file == nil {
			continue
		}
		for _, d := range p.file.Decls {
			if f, ok := d.(*ast.FuncDecl); ok && f.Body == nil {
				return true
			}
		}
	}
	return false
}
