package cli

import (
	"fmt"
	"io"
)

func doctorCmd(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "gocl doctor: not wired yet")
	return 1
}
