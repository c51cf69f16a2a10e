// Maps: comma-ok, delete, counting, iteration in sorted key order.
package main

import (
	"fmt"
	"sort"
	"strings"
)

func main() {
	counts := map[string]int{}
	for _, w := range strings.Fields("a b a c b a") {
		counts[w]++
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Println(k, counts[k])
	}
	v, ok := counts["z"]
	fmt.Println(v, ok)
	delete(counts, "a")
	fmt.Println(len(counts), counts)
	groups := map[bool][]int{}
	for i := range 6 {
		groups[i%2 == 0] = append(groups[i%2 == 0], i)
	}
	fmt.Println(groups)
}
