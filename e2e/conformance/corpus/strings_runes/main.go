// Strings are bytes; range yields runes with their byte offsets.
package main

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

func main() {
	s := "héllo, 世界"
	fmt.Println(len(s), utf8.RuneCountInString(s), len([]rune(s)))
	for i, r := range s {
		if r > 127 {
			fmt.Printf("%d:%c(%U) ", i, r, r)
		}
	}
	fmt.Println()
	fmt.Println(s[1], s[:3], s[8:11], string([]rune(s)[8]))
	var b strings.Builder
	for i := 0; i < 3; i++ {
		fmt.Fprintf(&b, "%d-", i)
	}
	fmt.Println(b.String(), strings.Repeat("ab", 3), strings.ToTitle("x"))
	bs := []byte("abc")
	bs[0] = 'X'
	fmt.Println(string(bs), string(rune(65)), fmt.Sprint('a'))
}
