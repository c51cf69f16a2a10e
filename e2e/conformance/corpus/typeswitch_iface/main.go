// Type switch cases that are interfaces match every type that implements
// them, compiled or declared in the program.
package main

import (
	"errors"
	"fmt"
	"io"
	"time"
)

type Celsius float64

func (c Celsius) String() string { return fmt.Sprintf("%.1f°C", float64(c)) }

type myErr struct{}

func (myErr) Error() string { return "my error" }

func kind(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case error:
		return "error: " + x.Error()
	case fmt.Stringer:
		return "Stringer: " + x.String()
	case int, int64:
		return fmt.Sprintf("integer %v", x)
	case string:
		return "string " + x
	default:
		return fmt.Sprintf("other %T", x)
	}
}

func main() {
	for _, v := range []any{io.EOF, fmt.Errorf("wrapped: %w", io.EOF), errors.New("plain"), myErr{},
		time.Second, Celsius(21.5), 42, int64(7), "s", 3.5, nil} {
		fmt.Println(kind(v))
	}
	var s fmt.Stringer = time.Minute
	if _, ok := s.(error); !ok {
		fmt.Println("time.Duration is not an error")
	}
}
