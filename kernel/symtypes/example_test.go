package symtypes_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"

	"github.com/seed43a1e1ab/gocl/kernel/symbols"
	"github.com/seed43a1e1ab/gocl/kernel/symbols/stdlib"
	"github.com/seed43a1e1ab/gocl/kernel/symtypes"
)

// A cell is type-checked against the packages gocl's interpreter has.
func ExampleNew() {
	var sources []symtypes.Source
	for _, s := range stdlib.Sources() {
		sources = append(sources, symtypes.Source(s))
	}
	im := symtypes.New([]map[string]map[string]reflect.Value{stdlib.Symbols, symbols.Symbols}, sources)

	fset := token.NewFileSet()
	cell, _ := parser.ParseFile(fset, "cell.go", `package main
import ("slices"; "strings"; "time"; "unicode/utf8")
var words = strings.Fields("b a c")
var d = 90 * time.Second
var r = utf8.RuneError
func main() { slices.Sort(words) }`, 0)
	conf := types.Config{Importer: im}
	pkg, err := conf.Check("main", fset, []*ast.File{cell}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, name := range []string{"words", "d", "r"} {
		fmt.Println(name, pkg.Scope().Lookup(name).Type())
	}
	// Output:
	// words []string
	// d time.Duration
	// r rune
}
