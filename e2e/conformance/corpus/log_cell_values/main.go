// log's printing functions and a *log.Logger's methods given values of a cell's
// types: real field names, %T, String methods, and log.Panicf's value.
package main

import (
	"log"
	"os"
)

type P struct {
	X      int
	hidden string
}
type L int

func (l L) String() string { return "level" }

func main() {
	log.SetFlags(0)
	log.SetOutput(os.Stdout)
	p := P{1, "h"}
	log.Printf("%+v %T %v", p, p, L(2))
	log.Println(p, L(1))
	log.Print(p, "x", L(1))
	lg := log.New(os.Stdout, "pfx ", 0)
	lg.Printf("%+v %v", p, L(3))
	lg.Println(L(0))
	var e any = p
	log.Printf("%T %d", e, 5)
	defer func() { log.Println("recovered:", recover()) }()
	log.Panicf("bad %v", L(1))
}
