// Package cellctx carries the running cell's cancellation to compiled code.
//
// The engine sets the context of each cell before it runs and clears it after;
// compiled helpers that wait (an OpenCL event, a long loop in Go) select on
// Current().Done() so that an interrupt reaches them too.
package cellctx

import (
	"context"
	"sync/atomic"
)

type holder struct{ ctx context.Context }

var current atomic.Pointer[holder]

// Set makes ctx the context of the running cell. Set(nil) restores the
// background context.
func Set(ctx context.Context) {
	if ctx == nil {
		current.Store(nil)
		return
	}
	current.Store(&holder{ctx})
}

// Current returns the running cell's context, or context.Background() when no
// cell runs (tests, compiled programs, the gocl binary's own commands).
func Current() context.Context {
	if h := current.Load(); h != nil {
		return h.ctx
	}
	return context.Background()
}
