package e2e

import (
	"testing"

	"github.com/seed43a1e1ab/gocl/e2e/conformance"
)

// selectProgram breaks out of selects every way yaegi v0.16.1 got wrong (a
// plain break in a select case left the enclosing for loop, or the
// function): with and without default, in a function, in main's body (a
// cell's top level in notebook form), in a goroutine, in a switch case,
// with no loop around, next to a labelled break; breaks that belong to a
// switch, a for or a function literal inside a select; gotos from a select
// case back before it and continues from a select case (they crashed
// yaegi's compiler); labels in switch cases (yaegi called them undefined).
const selectProgram = `package main

import (
	"fmt"
	"sync"
	"time"
)

func fill(vs ...int) chan int {
	ch := make(chan int, len(vs))
	for _, v := range vs {
		ch <- v
	}
	return ch
}

func nested() {
	ch := fill(1, 2, 3, 4)
	out := []string{}
	for len(ch) > 0 {
		select {
		case v := <-ch:
			switch v {
			case 2:
				break
			}
			for j := 0; j < 5; j++ {
				if j == 1 {
					break
				}
				out = append(out, fmt.Sprint("j", j))
			}
			f := func() string {
				select {
				default:
					if v == 3 {
						break
					}
					return "f-ret"
				}
				return "f-broke"
			}
			out = append(out, f())
			if v == 3 {
				break
			}
			out = append(out, fmt.Sprint("v", v))
		}
	}
	fmt.Println(out)
}

func inner() {
	a, b := fill(1, 2), fill(10)
	for n := 0; n < 2; n++ {
		select {
		case x := <-a:
			select {
			case y := <-b:
				if y == 10 {
					break
				}
				fmt.Println("not reached", x)
			default:
				fmt.Println("b empty", x)
				break
			}
			fmt.Println("after inner", x)
		}
	}
}

func inCase(k int) string {
	switch k {
	case 1:
		select {
		default:
			if k == 1 {
				break
			}
			return "not broken"
		}
		return "after the select in a case"
	}
	return ""
}

func noLoop() string {
	select {
	case v := <-fill(5):
		if v == 5 {
			break
		}
		return "no"
	}
	return "after the select, no loop"
}

func mixedJumps() {
	ch := make(chan int, 20)
	for i := 0; i < 20; i++ {
		ch <- i
	}
	out := []int{}
outer:
	for round := 0; round < 10; round++ {
		switch round % 3 {
		case 0:
			select {
			case v := <-ch:
				if v%2 == 0 {
					continue outer
				}
				out = append(out, v)
			}
		case 1:
		inner:
			for {
				select {
				case v := <-ch:
					if v > 15 {
						break outer
					}
					if v%3 == 0 {
						break inner
					}
					if v%5 == 0 {
						continue
					}
					out = append(out, -v)
					break
				}
				break
			}
		default:
			select {
			case v := <-ch:
				switch {
				case v == 7:
					break
				default:
					out = append(out, v*10)
				}
			}
		}
	}
	fmt.Println(out, len(ch))
}

func rangeBreak() []int {
	done := make(chan struct{})
	res := []int{}
rl:
	for _, x := range []int{1, 2, 3, 4, 5, 6} {
		select {
		case <-done:
			break rl
		default:
			if x%2 == 0 {
				continue rl
			}
			if x == 5 {
				close(done)
				continue
			}
		}
		res = append(res, x)
	}
	return res
}

func retry() string {
	tries := 0
	results := make(chan int, 1)
again:
	select {
	case v := <-results:
		return fmt.Sprint("got ", v, " after ", tries, " tries")
	case <-time.After(time.Millisecond):
		if tries++; tries == 3 {
			results <- 42
		}
		goto again
	}
}

func main() {
	fmt.Println(retry())
	mixedJumps()
	fmt.Println(rangeBreak())
	nested()
	inner()
	fmt.Println(inCase(1))
	fmt.Println(noLoop())
	var wg sync.WaitGroup
	res := make([]int, 3)
	for g := 0; g < 3; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			ch := fill(g, g+1, g+2)
			for i := 0; i < 3; i++ {
				select {
				case v := <-ch:
					if v == g+1 {
						break
					}
					res[g] += v
				}
			}
		}(g)
	}
	wg.Wait()
	fmt.Println("goroutines", res)
	ch := fill(3, 5, 12, 1)
	sum, rounds := 0, 0
loop:
	for {
		rounds++
		select {
		case v := <-ch:
			if v > 10 {
				break loop
			}
			if v == 5 {
				break
			}
			sum += v
		default:
			break loop
		}
	}
	fmt.Println("sum", sum, "rounds", rounds, "left", len(ch))
	total := 0
	for len(ch) > 0 {
		select {
		case v := <-ch:
			total += v
		default:
			break
		}
		total += 100
	}
	fmt.Println("total", total)
	k := 0
back:
	k++
	select {
	default:
		if k < 3 {
			goto back
		}
	}
	fmt.Println("k", k)
}
`

// recoverProgram recovers run-time panics and the program's own values.
const recoverProgram = `package main

import (
	"errors"
	"fmt"
	"io"
	"runtime"
)

type T struct{ n int }

func try(what string, f func()) {
	defer func() { fmt.Printf("%s: %v\n", what, recover()) }()
	f()
}

func asError(f func()) (err error) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if e, ok := r.(error); ok {
			err = e
			return
		}
		err = fmt.Errorf("not an error: %v", r)
	}()
	f()
	return nil
}

func main() {
	i := 3
	try("index", func() { var xs []int; _ = xs[i] })
	try("array index", func() { a := [2]int{}; _ = a[i%4] })
	try("string index", func() { s := "ab"; _ = s[i] })
	try("slice bounds", func() { xs := make([]int, 2); _ = xs[1:i] })
	try("string slice", func() { s := "ab"; _ = s[1:i] })
	try("nil map write", func() { var m map[string]int; m["a"] = 1 })
	try("nil pointer", func() { var p *T; _ = p.n })
	try("nil func", func() { var g func(); g() })
	try("nil deref", func() { var p *int; x := *p; fmt.Println(x) })
	try("nil deref passed", func() { var p *int; fmt.Println(*p) })
	try("nil store", func() { var p *int; *p = 3 })
	try("divide by zero", func() { z := 0; _ = 10 / z })
	try("type assertion", func() { var v any = "s"; _ = v.(int) })
	try("closed channel", func() { c := make(chan int); close(c); close(c) })
	try("custom", func() { panic(fmt.Sprintf("custom %d", 42)) })
	try("error value", func() { panic(fmt.Errorf("an error")) })
	fmt.Println(asError(func() {}))
	fmt.Println(asError(func() { panic(io.EOF) }) == io.EOF)
	fmt.Println(errors.Is(asError(func() { panic(fmt.Errorf("wrapped: %w", io.EOF)) }), io.EOF))
	fmt.Println(asError(func() { panic("a string") }))
	err := asError(func() { var xs []int; _ = xs[i] })
	_, isRuntime := err.(runtime.Error)
	fmt.Println(err, isRuntime)
}
`

// TestSelectBreakAndRecoverAsGoRun runs both programs pasted whole and in
// notebook form (declarations, then main's body as top-level statements)
// through the real binary, and compares with go run (for recover, the
// bounds errors with Go's numbers: kernel/engine/yaegi_bounds.go).
func TestSelectBreakAndRecoverAsGoRun(t *testing.T) {
	for _, c := range []struct{ name, src string }{
		{"select", selectProgram},
		{"recover", recoverProgram},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := goRun(t, c.src)
			k := startKernel(t)
			if got := cellOutput(t, k, c.src); got != want {
				t.Errorf("pasted whole, the cell printed\n%s\ngo run printed\n%s", got, want)
			}
			cells, ok := conformance.NotebookForm(c.src)
			if !ok {
				t.Fatal("no notebook form")
			}
			k2 := startKernel(t)
			got := cellOutput(t, k2, cells[0]) + cellOutput(t, k2, cells[1])
			if got != want {
				t.Errorf("in notebook form, the cells printed\n%s\ngo run printed\n%s", got, want)
			}
		})
	}
}
