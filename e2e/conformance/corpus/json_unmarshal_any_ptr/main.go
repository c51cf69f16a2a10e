// json.Unmarshal into an interface variable that holds a pointer to a struct
// the program declares (the standard library's json.ExampleRawMessage_unmarshal).
package main

import (
	"encoding/json"
	"fmt"
)

type RGB struct{ R, G, B uint8 }

func main() {
	var dst any = new(RGB)
	err := json.Unmarshal([]byte(`{"R":1,"G":2,"B":3}`), dst)
	fmt.Println(err, dst)
}
