// strconv conversions and their errors; fmt width, precision and flags.
package main

import (
	"fmt"
	"strconv"
)

func main() {
	n, err := strconv.Atoi("42")
	fmt.Println(n+1, err)
	_, err = strconv.Atoi("4x2")
	fmt.Println(err)
	f, _ := strconv.ParseFloat("2.5e3", 64)
	fmt.Println(f, strconv.Quote("a\tb\"c"), strconv.FormatInt(-255, 16))
	b, err := strconv.ParseBool("maybe")
	fmt.Println(b, err)
	fmt.Printf("|%5d|%-5d|%05d|%x|%X|%o|%b|\n", 42, 42, 42, 255, 255, 8, 5)
	fmt.Printf("|%8.3f|%-8.2f|%e|%g|\n", 3.14159, 2.5, 123456.789, 0.000012)
	fmt.Printf("|%10s|%-10s|%q|%v|%c|\n", "right", "left", "quoted", []string{"a"}, 'G')
	fmt.Printf("%t %v %6.2f%%\n", true, struct{}{}, 12.345)
	fmt.Println(fmt.Sprintf("%[2]d %[1]d", 1, 2), fmt.Sprint("a", 1, 2, "b"))
}
