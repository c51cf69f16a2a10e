// Package stdlib holds the yaegi symbol tables of the Go standard library,
// generated for the Go that builds gocl by yaegi's own extractor, and the
// interpreted sources of the generic standard packages (see Sources).
//
// Pass Symbols to interp.Interpreter.Use, then compile each of Sources. The
// tables are generated; never edit them. After a Go upgrade run
//
//	go generate ./kernel/symbols/stdlib
//
// The test fails whenever a table is out of date for the go command on the
// PATH. Which packages are left out, and why, is in package catalog.
package stdlib

import "reflect"

//go:generate go run ./gen

// Symbols maps "importpath/pkgname" to the package's exported symbols, in the
// form interp.Interpreter.Use expects.
var Symbols = map[string]map[string]reflect.Value{}

// MapTypes lists, for compiled functions that take an interface{} but treat
// some interfaces specially (fmt.Println and fmt.Stringer, json.Marshal and
// json.Marshaler...), the interfaces an interpreted value must be wrapped
// into before it is passed, so that its methods are seen.
var MapTypes = map[reflect.Value][]reflect.Type{}

func init() {
	// yaegi reads the "." entry as its MapTypes.
	Symbols["."] = map[string]reflect.Value{"MapTypes": reflect.ValueOf(MapTypes)}
}
