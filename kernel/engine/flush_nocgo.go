//go:build !cgo

package engine

// flushCStdio does nothing without cgo: no C code can have buffered output.
func flushCStdio() {}
