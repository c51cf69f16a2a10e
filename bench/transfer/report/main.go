// Command report compares the transfer benchmark's two result files, the
// compiled reference (bench/transfer/clref.c) and the notebook cells
// (bench/transfer/cells.ipynb), and prints a markdown section for
// bench/RESULTS.md: issue 4's targets with ratios and verdicts, every copy
// side by side, and the machine it ran on (device, driver, CPU model).
//
//	go run ./bench/transfer/report ref.json cells.json [goref.json]
//	bench/transfer/bin/report ref.json cells.json      (built by make -C bench/transfer)
//
// goref.json, from bench/transfer/goref (the same pinned writes and 8-byte
// loop from compiled Go), is optional: it adds rows that separate the
// binding's cost from the interpreter's.
//
// Run it on the machine that produced the files: the CPU model and kernel
// come from this machine's /proc. The exit status is 0 when the table was
// written, whatever the verdicts; 1 when a file is unreadable, incomplete,
// or the two ran on different devices or sizes; 2 for bad arguments.
package main

import (
	"fmt"
	"io"
	"os"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) != 2 && len(args) != 3 {
		fmt.Fprintln(stderr, "usage: report ref.json cells.json [goref.json]")
		return 2
	}
	ref, err := Load(args[0], "clref")
	if err != nil {
		fmt.Fprintln(stderr, "report:", err)
		return 1
	}
	cells, err := Load(args[1], "cells")
	if err != nil {
		fmt.Fprintln(stderr, "report:", err)
		return 1
	}
	if err := Compatible(ref, cells); err != nil {
		fmt.Fprintln(stderr, "report:", err)
		return 1
	}
	var goref *Result
	if len(args) == 3 {
		if goref, err = Load(args[2], "goref"); err == nil {
			err = Compatible(ref, goref)
		}
		if err != nil {
			fmt.Fprintln(stderr, "report:", err)
			return 1
		}
	}
	Write(stdout, ref, cells, goref, ThisMachine(), Issue4, time.Now())
	return 0
}
