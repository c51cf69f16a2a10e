package cellctx

import "testing"

func TestInRequest(t *testing.T) {
	if InRequest() {
		t.Fatal("InRequest on a test's goroutine = true")
	}
	got := make(chan bool)
	go Run(func() { got <- InRequest() })
	if !<-got {
		t.Error("InRequest in Run = false")
	}
	go Run(func() {
		go func() { got <- InRequest() }() // a goroutine the request started
	})
	if <-got {
		t.Error("InRequest in a goroutine started by a request = true")
	}
	var deep func(int) bool
	deep = func(n int) bool {
		if n == 0 {
			return InRequest()
		}
		return deep(n - 1)
	}
	go Run(func() { got <- deep(5000) })
	if !<-got {
		t.Error("InRequest 5000 calls deep in Run = false")
	}
}
