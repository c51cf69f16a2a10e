// log's Lshortfile flag prints the caller's file and line (main.go:16).
// In a cell the compiled log package sees the interpreter's frames and
// printed one of yaegi's files (value.go:369) with no error: gocl refuses
// the program before it runs, naming the flag (issue 24; the standard
// library's ExampleLogger and ExampleLogger_Output, and slog's AddSource
// in Example_wrapping).
package main

import (
	"log"
	"os"
)

func main() {
	logger := log.New(os.Stdout, "logger: ", log.Lshortfile)
	logger.Print("Hello, log file!")
}
