// Package faultguard lets the engine keep its fault handlers in front of
// those an OpenCL driver installs (kernel/enginehost/faultname says why):
// the engine sets the guard, the OpenCL binding (clapi) runs it after
// drivers set themselves up and before each kernel launch. It is a package
// of its own so that clapi, which compiled cells link too, needs neither the
// engine nor cgo of its own for it.
package faultguard

import "sync/atomic"

var guard atomic.Pointer[func()]

// Set makes Run call f; nil stops it.
func Set(f func()) {
	if f == nil {
		guard.Store(nil)
		return
	}
	guard.Store(&f)
}

// Run calls the guard, if one is set.
func Run() {
	if f := guard.Load(); f != nil {
		(*f)()
	}
}
