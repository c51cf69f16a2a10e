//go:build cgo

package engine

/*
#include <stdio.h>
static void gocl_fflush_all(void) { fflush(NULL); }
*/
import "C"

// flushCStdio writes out what C code left in stdio buffers (stdout is fully
// buffered when fd 1 is a pipe).
func flushCStdio() { C.gocl_fflush_all() }
