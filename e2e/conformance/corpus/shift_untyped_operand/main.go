// A shift of an untyped constant by a variable takes the type of the other
// operand, as if the shift were its left operand alone: in
// w & (1 << uint(j)) with w a uint64 the shift is a uint64 (issue 24: yaegi
// computed an int and stopped with "Value.Uint on int Value").
package main

import "fmt"

func bits(w uint64) int {
	n := 0
	for j := 0; j < 64; j++ {
		if w&(1<<uint(j)) != 0 {
			n++
		}
	}
	return n
}

func main() {
	var w uint64 = 0xF0F0
	fmt.Println(bits(w), bits(1<<63|1))
	var x uint64
	for j := 0; j < 4; j++ {
		x |= 1 << uint(j)
	}
	fmt.Println(x)
	var b uint8 = 0xFF
	k := 3
	fmt.Println(b&(1<<k), b>>(1<<1))
	var m uint32 = 1
	m = m | (1 << uint(k))
	fmt.Println(m)
	y := w ^ (1 << uint(k+1))
	fmt.Println(y)
}
