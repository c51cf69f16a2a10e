// bufio.Scanner over a string reader: lines and words.
package main

import (
	"bufio"
	"fmt"
	"strings"
)

const text = `first line
second line has more words

last`

func main() {
	sc := bufio.NewScanner(strings.NewReader(text))
	n := 0
	for sc.Scan() {
		n++
		fmt.Printf("%d: %q\n", n, sc.Text())
	}
	words := bufio.NewScanner(strings.NewReader(text))
	words.Split(bufio.ScanWords)
	count := 0
	for words.Scan() {
		count++
	}
	fmt.Println("words:", count, sc.Err())
}
