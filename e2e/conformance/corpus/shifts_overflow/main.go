// Integer arithmetic wraps around; shifts by variable counts; signed right
// shift keeps the sign.
package main

import (
	"fmt"
	"math"
)

func main() {
	var a int8 = 127
	a++
	fmt.Println(a)
	var u uint8 = 0
	u--
	fmt.Println(u)
	var m uint32 = math.MaxUint32
	m *= 3
	fmt.Println(m)
	n := 3
	fmt.Println(1<<n, -16>>2, uint16(0xFFFF)>>n, int64(1)<<62)
	var i64 int64 = math.MinInt64
	fmt.Println(-i64 == i64, i64/-1)
	x := 0b1011
	fmt.Println(x&^0b10, x^0xF, x|0x10, 0o17, 1_000_000)
	var s uint = 70
	var one int32 = 1
	fmt.Println(uint64(1)<<s, one<<31)
}
