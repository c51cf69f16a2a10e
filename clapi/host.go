package clapi

import (
	"fmt"
	"reflect"
	"strconv"
	"sync"
	"unsafe"
)

// Host memory kinds, as event cards show them.
const (
	memPageable = "pageable" // an ordinary Go slice
	memPinned   = "pinned"   // memory mapped from an AllocHostPtr buffer
	memMapped   = "mapped"   // a device buffer mapped for the host
)

// hostMem is a checked view of host memory passed to an enqueue call.
type hostMem struct {
	ptr    unsafe.Pointer
	bytes  int64
	elem   int64
	kind   string
	typ    string
	value  any     // the slice (or *PinnedHost), kept alive by events
	region *region // non-nil when the memory is a live mapped region
}

// hostOf interprets v as host memory. ok is false when v is not host memory
// at all (e.g. a *Buffer); bad host values panic with a clear *Error.
func hostOf(call string, v any) (h hostMem, ok bool) {
	var p unsafe.Pointer
	var n, elem int
	switch s := v.(type) {
	case []float64:
		p, n, elem = unsafe.Pointer(unsafe.SliceData(s)), len(s), 8
	case []float32:
		p, n, elem = unsafe.Pointer(unsafe.SliceData(s)), len(s), 4
	case []int64:
		p, n, elem = unsafe.Pointer(unsafe.SliceData(s)), len(s), 8
	case []uint64:
		p, n, elem = unsafe.Pointer(unsafe.SliceData(s)), len(s), 8
	case []int32:
		p, n, elem = unsafe.Pointer(unsafe.SliceData(s)), len(s), 4
	case []uint32:
		p, n, elem = unsafe.Pointer(unsafe.SliceData(s)), len(s), 4
	case []int16:
		p, n, elem = unsafe.Pointer(unsafe.SliceData(s)), len(s), 2
	case []uint16:
		p, n, elem = unsafe.Pointer(unsafe.SliceData(s)), len(s), 2
	case []int8:
		p, n, elem = unsafe.Pointer(unsafe.SliceData(s)), len(s), 1
	case []byte:
		p, n, elem = unsafe.Pointer(unsafe.SliceData(s)), len(s), 1
	case *PinnedHost:
		if s == nil {
			refuse(call, "CL_INVALID_HOST_PTR", "the *PinnedHost is nil", "")
		}
		r := s.live(call)
		return hostMem{ptr: r.ptr, bytes: r.bytes, elem: 1, kind: memPinned, typ: "*cl.PinnedHost", value: s, region: r}, true
	case []int, []uint, []uintptr:
		refuse(call, "CL_INVALID_HOST_PTR", fmt.Sprintf("a %T cannot be copied", v),
			"Go's int is "+strconv.Itoa(strconv.IntSize/8)+" bytes here but has no fixed OpenCL twin; use []int32 (OpenCL int) or []int64 (OpenCL long)")
	case nil:
		return hostMem{}, false
	case *Buffer:
		return hostMem{}, false
	default:
		if isSliceLike(v) {
			refuse(call, "CL_INVALID_HOST_PTR", fmt.Sprintf("%T is not a supported host slice", v),
				"use []float64, []float32, []int64, []uint64, []int32, []uint32, []int16, []uint16, []int8, []byte or a *cl.PinnedHost")
		}
		return hostMem{}, false
	}
	if n == 0 {
		refuse(call, "CL_INVALID_VALUE", fmt.Sprintf("the %T is empty", v), "make it with a length, e.g. make([]float64, n)")
	}
	h = hostMem{ptr: p, bytes: int64(n) * int64(elem), elem: int64(elem), kind: memPageable, typ: fmt.Sprintf("%T", v), value: v}
	if r := regions.find(call, p, h.bytes); r != nil {
		h.kind, h.region = memPinned, r
		if r.owner == "cl.SVM" {
			h.kind = memSVM
		}
	}
	return h, true
}

func isSliceLike(v any) bool {
	switch reflect.TypeOf(v).Kind() {
	case reflect.Slice, reflect.Array, reflect.Pointer:
		return true
	}
	return false
}

// region is host memory that OpenCL mapped for us (a PinnedHost or a
// Mapping). Views over it are slices of C memory: once the region is
// unmapped, copies from them must be refused.
type region struct {
	ptr   unsafe.Pointer
	bytes int64
	owner string // "cl.PinnedHost" or "cl.Mapping", for messages

	mu       sync.Mutex
	closed   bool
	inflight []*eventState // non-blocking commands that may still use it
}

// use records a command that may touch the region until it settles.
func (r *region) use(st *eventState) {
	r.mu.Lock()
	defer r.mu.Unlock()
	live := r.inflight[:0]
	for _, s := range r.inflight {
		if !s.settled() {
			live = append(live, s)
		}
	}
	r.inflight = append(live, st)
}

// drain waits for every command that uses the region. It returns an
// *Error when the cell is interrupted first.
func (r *region) drain() *Error {
	r.mu.Lock()
	pending := append([]*eventState(nil), r.inflight...)
	r.mu.Unlock()
	adoptPending() // each command's callback settles its state
	for _, s := range pending {
		e := &Event{st: s, info: eventInfo{command: "a command using " + r.owner}}
		if err := e.wait(); err != nil && err.Name == "INTERRUPTED" {
			return err
		}
	}
	return nil
}

func (r *region) contains(p unsafe.Pointer, n int64) bool {
	a, b := uintptr(r.ptr), uintptr(p)
	return b >= a && b+uintptr(n) <= a+uintptr(r.bytes)
}

func (r *region) overlaps(p unsafe.Pointer, n int64) bool {
	a, b := uintptr(r.ptr), uintptr(p)
	return b < a+uintptr(r.bytes) && a < b+uintptr(n)
}

// maxClosed bounds how many closed regions are remembered.
const maxClosed = 4096

// registry tracks live and recently closed regions by address.
type registry struct {
	mu     sync.Mutex
	live   []*region
	closed []*region
}

var regions registry

func (g *registry) add(r *region) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.live = append(g.live, r)
	// Memory reused by the new mapping is no longer "closed".
	kept := g.closed[:0]
	for _, c := range g.closed {
		if !c.overlaps(r.ptr, r.bytes) {
			kept = append(kept, c)
		}
	}
	g.closed = kept
}

func (g *registry) close(r *region) {
	g.mu.Lock()
	defer g.mu.Unlock()
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
	for i, x := range g.live {
		if x == r {
			g.live = append(g.live[:i], g.live[i+1:]...)
			break
		}
	}
	g.closed = append(g.closed, r)
	if len(g.closed) > maxClosed {
		g.closed = g.closed[len(g.closed)-maxClosed:]
	}
}

// find returns the live region holding [p, p+n), nil for memory no region
// touches, and panics for memory of a closed region or one that straddles a
// region's end.
func (g *registry) find(call string, p unsafe.Pointer, n int64) *region {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, r := range g.live {
		if r.contains(p, n) {
			return r
		}
		if r.overlaps(p, n) {
			refuse(call, "CL_INVALID_HOST_PTR", fmt.Sprintf("the slice runs past the end of its %s (%d bytes)", r.owner, r.bytes),
				"slice the view within its length")
		}
	}
	for _, r := range g.closed {
		if r.overlaps(p, n) {
			refuse(call, "CL_INVALID_HOST_PTR", "the slice is a view of a "+r.owner+" that was closed or unmapped",
				"take views from a live "+r.owner+"; views die with Close/Unmap")
		}
	}
	return nil
}
