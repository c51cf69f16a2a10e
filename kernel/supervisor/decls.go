package supervisor

import (
	"go/scanner"
	"go/token"
	"strings"
)

// declarations returns the top-level declarations of a cell that have no
// effects when run again, imports, consts, types, funcs and methods, and
// the names of the funcs and types among them. Statements and var
// declarations (whose initializers may do anything) are left out.
func declarations(src string) (decls string, names []string) {
	fset := token.NewFileSet()
	file := fset.AddFile("cell", -1, len(src))
	var s scanner.Scanner
	s.Init(file, []byte(src), nil, 0)
	type tok struct {
		pos token.Pos
		tok token.Token
		lit string
	}
	var toks []tok
	for {
		pos, t, lit := s.Scan()
		if t == token.EOF {
			break
		}
		toks = append(toks, tok{pos, t, lit})
	}
	var out []string
	depth := 0
	stmtStart := true
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if depth == 0 && stmtStart {
			kind := t.tok
			keep := kind == token.IMPORT || kind == token.CONST || kind == token.TYPE
			name := ""
			if kind == token.TYPE && i+1 < len(toks) && toks[i+1].tok == token.IDENT {
				name = toks[i+1].lit
			}
			if kind == token.FUNC && i+1 < len(toks) {
				switch toks[i+1].tok {
				case token.IDENT: // func f(
					keep, name = true, toks[i+1].lit
				case token.LPAREN: // a method, or a func literal called at once
					j, d := i+1, 0
					for ; j < len(toks); j++ {
						if toks[j].tok == token.LPAREN {
							d++
						} else if toks[j].tok == token.RPAREN {
							d--
							if d == 0 {
								break
							}
						}
					}
					if j+1 < len(toks) && toks[j+1].tok == token.IDENT {
						keep, name = true, toks[j+1].lit
					}
				}
			}
			if keep {
				end := i
				d := 0
				for ; end < len(toks); end++ {
					switch toks[end].tok {
					case token.LPAREN, token.LBRACE, token.LBRACK:
						d++
					case token.RPAREN, token.RBRACE, token.RBRACK:
						d--
					}
					if d == 0 && toks[end].tok == token.SEMICOLON {
						break
					}
				}
				from := file.Offset(t.pos)
				to := len(src)
				if end < len(toks) {
					to = file.Offset(toks[end].pos)
				}
				out = append(out, strings.TrimSpace(src[from:to]))
				if name != "" && name != "_" && (kind == token.TYPE || kind == token.FUNC) {
					names = append(names, name)
				}
				i = end
				stmtStart = true
				continue
			}
		}
		switch t.tok {
		case token.LPAREN, token.LBRACE, token.LBRACK:
			depth++
		case token.RPAREN, token.RBRACE, token.RBRACK:
			depth--
		}
		stmtStart = depth == 0 && t.tok == token.SEMICOLON
	}
	return strings.Join(out, "\n\n"), names
}
