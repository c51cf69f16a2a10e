// Constants that fit their types, wrap-around of variables at run time,
// untyped constant expressions in range after folding, integer division of
// untyped constants: what the representability checks of issue 24 must
// not refuse (Go's answers).
package main

import (
	"fmt"
	"math"
	"time"
)

type Weekday int

const (
	Sunday Weekday = iota
	Monday
	Tuesday
)

type Flags uint8

const (
	FlagA Flags = 1 << iota
	FlagB
	FlagC
	FlagD
	FlagE
	FlagF
	FlagG
	FlagH
)

const (
	KB = 1 << (10 * (iota + 1))
	MB
	GB
	TB
)

const huge = 1 << 100
const big = huge >> 98

type Small int8

func half(x int8) int8 { return x / 2 }

func ret() uint8 { return 255 }

func neg() int32 { return -2147483648 }

func main() {
	var a int8 = 100
	fmt.Println(a+100, a*3, -a-100) // runtime wrap, as Go
	var b uint8 = 3
	fmt.Println(b-4, b+255)
	fmt.Println(1.5*2, 3/2, 3.0/2, float32(0.1), float64(1<<62))
	var f float64 = huge
	fmt.Println(f, big, huge/huge)
	fmt.Println(uint64(math.MaxUint64), math.MaxInt64, math.MinInt64, int8(math.MinInt8), int8(math.MaxInt8))
	var m uint64 = math.MaxUint64
	fmt.Println(m)
	var n int8 = -1
	var n2 int8 = -128
	var n3 int16 = -32768
	var n4 int32 = -2147483648
	fmt.Println(n, n2, n3, n4, neg())
	fmt.Println(^uint(0), ^uint8(0), ^0, ^int8(0), uint32(^uint32(0)))
	fmt.Println(1<<62, 1<<63-1, uint64(1<<63), int64(-1<<63))
	fmt.Println(byte('a'+1), string(rune('a'+2)), 'x'-'a')
	var r rune = '€'
	var by byte = 'z'
	fmt.Println(r, by)
	fmt.Println(Sunday, Monday, Tuesday, FlagH, FlagA|FlagH, KB, MB, GB, TB)
	var s Small = -128
	fmt.Println(s, half(-128), half(127), ret())
	x := 1 << 10
	var sh uint = 3
	fmt.Println(x, 1<<sh, int8(1)<<sh, uint8(1)<<7)
	fmt.Println(time.Second*2, 2*time.Hour, time.Duration(1<<62))
	var i8 int8 = 127
	i8++
	fmt.Println(i8)
	i8 += 127
	fmt.Println(i8)
	var u8 uint8 = 255
	u8 += 1
	fmt.Println(u8)
	fmt.Println(int8(-128)/1, int8(127)*1, uint8(255)+0, int16(200)*100)
	fmt.Println(float32(1e38)*2, math.MaxFloat32, float32(math.MaxFloat32))
	var c64 complex64 = 1 + 2i
	fmt.Println(c64, complex(1, 2)*2)
	var arr [3]int8
	arr[0] = 127
	arr[1] = -128
	sl := []uint8{0, 255, 'a'}
	mp := map[int8]uint16{-128: 65535}
	fmt.Println(arr, sl, mp)
	ch := make(chan uint8, 1)
	ch <- 255
	fmt.Println(<-ch)
	var d float32 = 1e-50
	fmt.Println(d, float32(1e-50), 1e-50)
	fmt.Println(int(3.0), int64(1e18), uint32(4e9), int8(-1.0*100))
	const typed int8 = 50
	fmt.Println(typed*2, typed+typed, -typed, typed-100-28)
	var iff interface{} = 300
	fmt.Println(iff)
	var q int8 = (100 + 100) / 2
	fmt.Println(q, 100+100 > 150, a == 100, a < 127)
	fmt.Printf("%d %v\n", 1<<40, uint16(65535))
	var z int8 = 5
	z = z - 127 + 126
	fmt.Println(z, z<<1, z>>1)
	var j int8 = 'a'
	fmt.Println(j, 'a'+j)
	h := 0xff
	var hb byte = 0xff
	fmt.Println(h, hb, 0b1111_1111, 0o377, 1_000_000)
	fmt.Println(len("abc")*100, cap(make([]int, 3, 300)))
	var fq float64 = 3 / 2
	var fr float64
	fr = 7 / 2
	const ci = 7 / 2
	var fw float32 = ci
	fmt.Println(fq, fr, float64(7/2), fw, 7/2*2.0, 1/2*2.0, 7.0/2, 7/2.0, 3/2*1.5)
}
