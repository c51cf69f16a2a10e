// A type that refers to itself through a pointer or a func type alone is
// Go (type P *P; the state-function pattern type stateFn func(*lexer)
// stateFn). yaegi panics compiling one, or hangs (type A [2]*A): gocl
// refuses the program before it runs, naming the type (issue 24).
package main

import "fmt"

type P *P

type lexer struct{ n int }

type stateFn func(*lexer) stateFn

func count(l *lexer) stateFn {
	l.n++
	if l.n == 3 {
		return nil
	}
	return count
}

func main() {
	var p P
	fmt.Println(p == nil)
	l := &lexer{}
	for s := stateFn(count); s != nil; s = s(l) {
	}
	fmt.Println(l.n)
}
