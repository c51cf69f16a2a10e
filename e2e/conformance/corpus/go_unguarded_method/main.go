// A program whose go statement the engine's panic guard cannot express (a
// multi-value call as the only argument) and that calls a method it
// declares: pasted whole, the method's output was lost after the guarded
// form failed to compile.
package main

import "fmt"

type T struct{ n int }

func (t *T) show() { fmt.Println("show", t.n) }

func two() (int, int) { return 1, 2 }

func sum(a, b int) {}

func main() {
	t := &T{n: 7}
	t.show()
	if t.n < 0 {
		go sum(two())
	}
	fmt.Println("end")
}
