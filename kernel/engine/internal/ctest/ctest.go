// Package ctest lets the engine's tests write from C and from compiled Go
// straight to file descriptors, as OpenCL drivers and other libraries do.
package ctest

/*
#include <stdio.h>
#include <stdlib.h>
static void gocl_cprint(const char *s) { fputs(s, stdout); }   // buffered: needs fflush
static void gocl_ceprint(const char *s) { fputs(s, stderr); fflush(stderr); }
*/
import "C"

import (
	"syscall"
	"unsafe"
)

// Print writes s to C's stdout stream without flushing it.
func Print(s string) {
	cs := C.CString(s)
	defer C.free(unsafe.Pointer(cs))
	C.gocl_cprint(cs)
}

// Eprint writes s to C's stderr stream.
func Eprint(s string) {
	cs := C.CString(s)
	defer C.free(unsafe.Pointer(cs))
	C.gocl_ceprint(cs)
}

// WriteFD writes s to descriptor fd with a raw system call.
func WriteFD(fd int, s string) { syscall.Write(fd, []byte(s)) }
