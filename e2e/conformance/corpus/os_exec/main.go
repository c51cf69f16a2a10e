// os/exec runs a command with the user's rights and collects its output.
package main

import (
	"fmt"
	"os/exec"
	"strings"
)

func main() {
	out, err := exec.Command("echo", "hello", "from", "echo").Output()
	fmt.Printf("%q %v\n", out, err)
	cmd := exec.Command("sh", "-c", "read x; echo got $x; exit 3")
	cmd.Stdin = strings.NewReader("input\n")
	out, err = cmd.Output()
	fmt.Printf("%q %v\n", out, err)
	if ee, ok := err.(*exec.ExitError); ok {
		fmt.Println("exit code", ee.ExitCode())
	}
	_, err = exec.LookPath("no-such-command-gocl")
	fmt.Println(err)
}
