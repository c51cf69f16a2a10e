// gocl patch: this file is gocl's own (see PATCHES.md).

package interp

import "unsafe"

// goclPanicNode returns the node of the function funcNode (or, when nil,
// of the tree n is in) whose exec closure is exec: the node that was
// running when a panic unwound runCfg's frame, or nil.
//
// Unpatched, runCfg's loop declared its own exec, so the deferred report
// saw a nil one and logged every frame at the position of the function's
// first statement ("6:6: panic: main.main(...)" for any panic in main);
// and originalExecNode compares code pointers, which every closure made by
// the same builtin shares, so it could name another node of the same kind.
// A closure's funcval pointer is its own: two nodes never share one unless
// the closure captures nothing, and then the first match stands.
func goclPanicNode(n, funcNode *node, exec bltn) *node {
	if exec == nil {
		return nil
	}
	want := funcval(exec)
	root := funcNode
	if root == nil {
		for root = n; root.anc != nil; root = root.anc {
		}
	}
	var found *node
	root.Walk(func(wn *node) bool {
		if found != nil {
			return false
		}
		if wn.exec != nil && funcval(wn.exec) == want {
			found = wn
			return false
		}
		return true
	}, nil)
	return found
}

// funcval is the address of the closure record a func value points to.
func funcval(b bltn) uintptr { return *(*uintptr)(unsafe.Pointer(&b)) }
