package engine

import "testing"

// TestReceiveInCondition checks a receive that waits for its sender as the
// left operand of && and ||, in a function and at a cell's top level.
func TestReceiveInCondition(t *testing.T) {
	e := newEngine(t)
	_, r := ok(t, e, `func f() {
	messages := make(chan bool)
	go func() { time.Sleep(20 * time.Millisecond); messages <- true }()
	println(<-messages && true)
	go func() { time.Sleep(20 * time.Millisecond); messages <- true }()
	if <-messages || false {
		println("if: yes")
	}
}
f()
done := make(chan bool)
go func() { time.Sleep(20 * time.Millisecond); done <- true }()
fmt.Println(<-done && true)`)
	expect(t, "the receives' values", r.text("stdout"), "true\nif: yes\ntrue\n")
}
