package symbols

// The OpenCL binding, pre-imported in cells as cl.
//go:generate go run ./gen github.com/seed43a1e1ab/gocl/clapi
