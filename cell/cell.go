// Package cell is what a compiled cell (one whose first line is
// //gocl:compile) uses to cooperate with the kernel.
//
// The interpreter cannot stop compiled code: an interrupt cancels the cell's
// context, and a long loop in a compiled cell stops early only when it checks
// it, for example every few thousand iterations:
//
//	for i := range xs {
//		if i%4096 == 0 && cell.Interrupted() {
//			return 0, cell.Context().Err()
//		}
//		...
//	}
//
// Compiled cells may name cell without importing it (like cl and fmt).
package cell

import (
	"context"

	"github.com/seed43a1e1ab/gocl/kernel/cellctx"
)

// Context returns the context of the running cell: it is cancelled when the
// user interrupts the cell. Outside a cell (a plain Go program) it is
// context.Background().
func Context() context.Context { return cellctx.Current() }

// Interrupted reports whether the running cell was interrupted.
func Interrupted() bool { return cellctx.Current().Err() != nil }
