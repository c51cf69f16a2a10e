//go:build gocl_refused

// An iota enumeration whose third constant does not fit the type: Go
// refuses the program (issue 24: yaegi printed -56, or said "constant
// definition loop").
package main

import "fmt"

type Level int8

const (
	Low Level = iota * 100
	Mid
	High
)

func main() {
	fmt.Println(Low, Mid, High)
}
