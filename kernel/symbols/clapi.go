package symbols

// The OpenCL binding, pre-imported in cells as cl. Its direct callers
// (clapi/direct) let a cell call cl.EnqueueCopy and the clock without
// reflect.Value.Call (issue 21).
//go:generate go run ./gen github.com/seed43a1e1ab/gocl/clapi

import _ "github.com/seed43a1e1ab/gocl/clapi/direct"
