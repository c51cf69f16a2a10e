// Constants: iota, skipped values, bit flags, typed constants with a String
// method, and exact untyped arithmetic.
package main

import "fmt"

type Weekday int

const (
	Sunday Weekday = iota
	Monday
	Tuesday
)

func (d Weekday) String() string { return [...]string{"Sun", "Mon", "Tue"}[d] }

type Flag uint8

const (
	Read Flag = 1 << iota
	Write
	_
	Exec
)

const (
	KB = 1 << (10 * (iota + 1))
	MB
	GB
)

const huge = 1 << 100

func main() {
	fmt.Println(Sunday, Tuesday, Monday+1)
	fmt.Println(Read, Write, Exec, Read|Exec)
	fmt.Println(KB, MB, GB)
	fmt.Println(huge>>98, huge/(1<<99))
	const pi = 3.14159265358979323846264338327950288
	fmt.Printf("%.10f %T\n", pi, pi)
	fmt.Printf("%T %v\n", Monday, Monday)
}
