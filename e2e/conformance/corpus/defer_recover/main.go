// recover in a deferred function stops a panic; a deferred closure can set a
// named result.
package main

import (
	"errors"
	"fmt"
)

func safeDiv(a, b int) (q int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
		}
	}()
	return a / b, nil
}

func double() (n int) {
	defer func() { n *= 2 }()
	return 21
}

func main() {
	fmt.Println(safeDiv(7, 2))
	_, err := safeDiv(1, 0)
	fmt.Println(err)
	fmt.Println(errors.Unwrap(err) == nil)
	fmt.Println(double())
}
