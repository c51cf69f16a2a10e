// math/rand/v2 with a fixed seed gives the same numbers every run.
package main

import (
	"fmt"
	"math/rand/v2"
)

func main() {
	r := rand.New(rand.NewPCG(1, 2))
	for range 5 {
		fmt.Print(r.IntN(100), " ")
	}
	fmt.Println()
	fmt.Println(r.Perm(5))
	c := rand.New(rand.NewChaCha8([32]byte{7}))
	fmt.Printf("%.4f\n", c.Float64())
}
