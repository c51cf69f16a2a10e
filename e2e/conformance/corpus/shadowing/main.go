// := in an inner block declares a new variable, of any type, shadowing the
// outer one only inside the block.
package main

import "fmt"

var x = "global"

func main() {
	fmt.Println(x)
	if x := 1; x > 0 {
		fmt.Println("if scope:", x+1)
	}
	{
		x := 3.5
		x *= 2
		fmt.Println("block:", x)
	}
	for x := range 2 {
		fmt.Println("loop:", x)
	}
	err := fmt.Errorf("outer")
	if true {
		err := "inner string"
		_ = err
	}
	fmt.Println(x, err)
}
