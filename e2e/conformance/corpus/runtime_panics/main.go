// Runtime panics carry Go's messages.
package main

import "fmt"

func try(what string, f func()) {
	defer func() { fmt.Printf("%s: %v\n", what, recover()) }()
	f()
}

type T struct{ n int }

func main() {
	i := 3
	try("index", func() { var xs []int; _ = xs[i] })
	try("array index", func() { a := [2]int{}; _ = a[i%4] })
	try("slice bounds", func() { xs := make([]int, 2); _ = xs[1:i] })
	try("nil map write", func() { var m map[string]int; m["a"] = 1 })
	try("nil pointer", func() { var p *T; _ = p.n })
	try("divide by zero", func() { z := 0; _ = 10 / z })
	try("type assertion", func() { var v any = "s"; _ = v.(int) })
	try("closed channel", func() { c := make(chan int); close(c); close(c) })
	try("custom", func() { panic(fmt.Sprintf("custom %d", 42)) })
	try("error value", func() { panic(fmt.Errorf("an error")) })
}
