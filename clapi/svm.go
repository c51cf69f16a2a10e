package clapi

/*
#include "gocl_cl.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"
	"unsafe"
)

// SVM allocation flags for [NewSVM], besides ReadWrite, ReadOnly and
// WriteOnly.
const (
	SVMFineGrain MemFlag = C.CL_MEM_SVM_FINE_GRAIN_BUFFER // host and device see each other's writes without map/unmap
	SVMAtomics   MemFlag = C.CL_MEM_SVM_ATOMICS           // with SVMFineGrain: atomics work across host and device
)

const memSVM = "shared virtual" // host memory kind of SVM, as cards show it

// SVM is shared virtual memory (clSVMAlloc): one pointer that the host
// and the device both use, with no buffer object between them. Coarse-grain
// SVM (the default) must be mapped before the host touches it
// ([EnqueueSVMMap], [EnqueueSVMUnmap]); fine-grain SVM needs no map. Pass it
// to kernels as an argument, copy with [EnqueueSVMMemcpy], and Free it when
// done. A device that reports no SVM capabilities (any OpenCL 1.x device,
// for one) makes NewSVM fail with a message that says so; the H200's NVIDIA
// OpenCL reports coarse-grain buffers (notebook 08 measures them).
type SVM struct {
	mu    sync.Mutex
	ctx   *Context
	ptr   unsafe.Pointer
	size  int64
	flags MemFlag
	r     *region
	views bool
	freed bool
}

// NewSVM allocates nbytes of shared virtual memory in the context. flags
// may add SVMFineGrain (and SVMAtomics) to ReadWrite (the default),
// ReadOnly or WriteOnly.
func NewSVM(ctx *Context, flags MemFlag, nbytes int) *SVM {
	const call = "clSVMAlloc"
	cid := ctx.handle(call)
	if flags&^(ReadWrite|ReadOnly|WriteOnly|SVMFineGrain|SVMAtomics) != 0 {
		refuse(call, "CL_INVALID_VALUE", "flags "+flags.String(), "use cl.ReadWrite, cl.ReadOnly or cl.WriteOnly, with cl.SVMFineGrain and cl.SVMAtomics")
	}
	if nbytes <= 0 {
		refuse(call, "CL_INVALID_VALUE", fmt.Sprintf("size %d bytes", nbytes), "SVM needs at least one byte")
	}
	for _, d := range ctx.devices {
		if d.SVM.Value == 0 {
			refuse(call, "CL_INVALID_OPERATION", d.Name+" has no shared virtual memory (CL_DEVICE_SVM_CAPABILITIES is 0 on "+d.Version+")",
				"this device offers no SVM; move data with buffers, and use cl.NewPinnedHost for fast host memory")
		}
		if flags&SVMFineGrain != 0 && !d.SVM.Has(2) {
			refuse(call, "CL_INVALID_OPERATION", d.Name+" has only "+d.SVM.String()+" SVM, no fine-grain buffers", "leave out cl.SVMFineGrain and map the memory with cl.EnqueueSVMMap")
		}
		if flags&SVMAtomics != 0 && !d.SVM.Has(8) {
			refuse(call, "CL_INVALID_OPERATION", d.Name+" has no SVM atomics ("+d.SVM.String()+")", "leave out cl.SVMAtomics")
		}
		if d.MaxAllocBytes > 0 && int64(nbytes) > d.MaxAllocBytes {
			refuse(call, "CL_INVALID_VALUE", fmt.Sprintf("%d bytes is more than %s's max allocation of %d bytes", nbytes, d.Name, d.MaxAllocBytes), "allocate less")
		}
	}
	start := time.Now()
	p := C.clSVMAlloc(cid, C.cl_svm_mem_flags(flags), C.size_t(nbytes), 0)
	traceCall(call, start)
	runtime.KeepAlive(ctx)
	if p == nil {
		fail(call, int(C.CL_MEM_OBJECT_ALLOCATION_FAILURE), fmt.Sprintf("clSVMAlloc returned NULL for %d bytes (%s)", nbytes, flags))
	}
	s := &SVM{ctx: ctx, ptr: p, size: int64(nbytes), flags: flags, r: &region{ptr: p, bytes: int64(nbytes), owner: "cl.SVM"}}
	regions.add(s.r)
	runtime.SetFinalizer(s, func(s *SVM) {
		s.mu.Lock()
		views := s.views
		s.mu.Unlock()
		if !views {
			releaseLater(s.Free)
		}
	})
	return s
}

// Size is the allocation's size in bytes.
func (s *SVM) Size() int { return int(s.size) }

// FineGrain reports whether the host may touch the memory without mapping.
func (s *SVM) FineGrain() bool { return s.flags&SVMFineGrain != 0 }

// String describes the allocation.
func (s *SVM) String() string {
	kind := "coarse-grain"
	if s.FineGrain() {
		kind = "fine-grain"
	}
	out := fmt.Sprintf("cl.SVM %s (%d bytes), %s", formatBytes(s.size), s.size, kind)
	if s.isFreed() {
		out += " (freed)"
	}
	return out
}

func (s *SVM) isFreed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.freed
}

func (s *SVM) live(call string) unsafe.Pointer {
	if s == nil {
		refuse(call, "CL_INVALID_VALUE", "the *cl.SVM is nil", "")
	}
	if s.isFreed() {
		refuse(call, "CL_INVALID_VALUE", "the cl.SVM was freed", "allocate a new one with cl.NewSVM")
	}
	return s.ptr
}

func (s *SVM) view(call string) (unsafe.Pointer, int64) {
	p := s.live("cl.SVM." + call)
	s.mu.Lock()
	s.views = true
	s.mu.Unlock()
	return p, s.size
}

// Float64s returns the memory as []float64. Coarse-grain SVM must be
// mapped (EnqueueSVMMap) while the host reads or writes it.
func (s *SVM) Float64s() []float64 {
	p, n := s.view("Float64s")
	return unsafe.Slice((*float64)(p), n/8)
}

// Float32s returns the memory as []float32; see [SVM.Float64s].
func (s *SVM) Float32s() []float32 {
	p, n := s.view("Float32s")
	return unsafe.Slice((*float32)(p), n/4)
}

// Int32s returns the memory as []int32; see [SVM.Float64s].
func (s *SVM) Int32s() []int32 {
	p, n := s.view("Int32s")
	return unsafe.Slice((*int32)(p), n/4)
}

// Bytes returns the memory as []byte; see [SVM.Float64s].
func (s *SVM) Bytes() []byte {
	p, n := s.view("Bytes")
	return unsafe.Slice((*byte)(p), n)
}

// Free waits for the commands that use the memory and frees it
// (clSVMFree). Views must not be used afterwards. Free is idempotent.
func (s *SVM) Free() {
	s.mu.Lock()
	if s.freed {
		s.mu.Unlock()
		return
	}
	s.freed = true
	s.mu.Unlock()
	regions.close(s.r)
	if err := s.r.drain(); err != nil {
		panic(err)
	}
	s.ctx.mu.Lock()
	cid := s.ctx.id
	s.ctx.mu.Unlock()
	if cid != nil {
		C.clSVMFree(cid, s.ptr)
	}
}

// Release is Free, for symmetry with the other objects.
func (s *SVM) Release() { s.Free() }

// svmSide resolves one side of an SVM copy.
func svmSide(call, what string, v any) (p unsafe.Pointer, n int64, h hostMem, isSVM bool) {
	if s, ok := v.(*SVM); ok {
		return s.live(call), s.size, hostMem{}, true
	}
	h, ok := hostOf(call, v)
	if !ok {
		refuse(call, "CL_INVALID_VALUE", fmt.Sprintf("the %s is a %T", what, v), "copy between a *cl.SVM and a host slice (or another *cl.SVM)")
	}
	return h.ptr, h.bytes, h, false
}

// EnqueueSVMMemcpy copies between SVM and host memory, or between two SVM
// allocations (clEnqueueSVMMemcpy; PyOpenCL's enqueue_copy with SVM). It
// blocks unless NonBlocking is given; options: ByteCount, WaitFor.
func EnqueueSVMMemcpy(q *Queue, dst, src any, opts ...Option) *Event {
	const call = "clEnqueueSVMMemcpy"
	o := parseOptions(call, opts, optNonBlocking, optWaitFor, optByteCount)
	qid := q.handle(call)
	dp, dn, dh, dSVM := svmSide(call, "destination", dst)
	sp, sn, sh, sSVM := svmSide(call, "source", src)
	if !dSVM && !sSVM {
		refuse(call, "CL_INVALID_VALUE", "neither side is SVM", "use Go's copy for host to host, cl.EnqueueCopy for buffers")
	}
	n := min(dn, sn)
	if o.count > 0 {
		n = o.count
	}
	if n > dn || n > sn {
		refuse(call, "CL_INVALID_VALUE", fmt.Sprintf("%d bytes do not fit: the source has %d, the destination %d", n, sn, dn), "copy fewer bytes with cl.ByteCount")
	}
	if o.count < 0 && sn > dn {
		refuse(call, "CL_INVALID_VALUE", fmt.Sprintf("the %d-byte source does not fit the %d-byte destination", sn, dn), "copy part of it with cl.ByteCount(n)")
	}
	dir, mem := DeviceToDevice, memSVM
	switch {
	case dSVM && !sSVM:
		dir, mem = HostToDevice, sh.kind
	case sSVM && !dSVM:
		dir, mem = DeviceToHost, dh.kind
	}
	wl := waitList(call, q.ctx, o.waitFor)
	st := newEventState()
	st.hold(dst, src)
	for _, side := range []any{dst, src} {
		if s, ok := side.(*SVM); ok {
			s.r.use(st)
		}
	}
	if o.nonBlocking {
		for _, h := range []hostMem{dh, sh} {
			if h.ptr != nil && h.region == nil {
				st.pin(h.ptr, h.value)
			} else if h.region != nil {
				h.region.use(st)
			}
		}
	}
	blocking := C.cl_bool(C.CL_TRUE)
	if o.nonBlocking {
		blocking = C.CL_FALSE
	}
	var ev C.cl_event
	start := time.Now()
	rc := C.clEnqueueSVMMemcpy(qid, blocking, dp, sp, C.size_t(n), C.cl_uint(len(wl)), firstEvent(wl), &ev)
	ret := time.Now()
	runtime.KeepAlive(dst)
	runtime.KeepAlive(src)
	runtime.KeepAlive(q)
	runtime.KeepAlive(o.waitFor)
	if rc != C.CL_SUCCESS {
		st.settle(int(rc))
		fail(call, int(rc), fmt.Sprintf("%d bytes, %s", n, dir))
	}
	return newEvent(q, ev, st, eventInfo{command: call, direction: dir, hostMemory: mem, bytes: n, nonBlocking: o.nonBlocking, start: start, ret: ret})
}

// EnqueueSVMMap maps coarse-grain SVM for the host (clEnqueueSVMMap) and,
// unless NonBlocking is given, waits until it is. Options: NonBlocking,
// WaitFor.
func EnqueueSVMMap(q *Queue, s *SVM, flags MapFlag, opts ...Option) *Event {
	const call = "clEnqueueSVMMap"
	o := parseOptions(call, opts, optNonBlocking, optWaitFor)
	if flags == 0 || flags&^(MapRead|MapWrite|MapWriteInvalidate) != 0 {
		refuse(call, "CL_INVALID_VALUE", fmt.Sprintf("map flags %#x", uint64(flags)), "use cl.MapRead, cl.MapWrite or both")
	}
	qid := q.handle(call)
	p := s.live(call)
	wl := waitList(call, q.ctx, o.waitFor)
	blocking := C.cl_bool(C.CL_TRUE)
	if o.nonBlocking {
		blocking = C.CL_FALSE
	}
	st := newEventState()
	st.hold(s)
	var ev C.cl_event
	start := time.Now()
	rc := C.clEnqueueSVMMap(qid, blocking, C.cl_map_flags(flags), p, C.size_t(s.size), C.cl_uint(len(wl)), firstEvent(wl), &ev)
	ret := time.Now()
	runtime.KeepAlive(s)
	runtime.KeepAlive(q)
	if rc != C.CL_SUCCESS {
		st.settle(int(rc))
		fail(call, int(rc), fmt.Sprintf("%d bytes", s.size))
	}
	dir := DeviceToHost
	if flags&MapRead == 0 {
		dir = "for host writes"
	}
	return newEvent(q, ev, st, eventInfo{command: call, direction: dir, hostMemory: memSVM, bytes: s.size, nonBlocking: o.nonBlocking, start: start, ret: ret})
}

// EnqueueSVMUnmap hands mapped coarse-grain SVM back to the device
// (clEnqueueSVMUnmap) and, unless NonBlocking is given, waits until done.
func EnqueueSVMUnmap(q *Queue, s *SVM, opts ...Option) *Event {
	const call = "clEnqueueSVMUnmap"
	o := parseOptions(call, opts, optNonBlocking, optWaitFor)
	qid := q.handle(call)
	p := s.live(call)
	wl := waitList(call, q.ctx, o.waitFor)
	st := newEventState()
	st.hold(s)
	var ev C.cl_event
	start := time.Now()
	rc := C.clEnqueueSVMUnmap(qid, p, C.cl_uint(len(wl)), firstEvent(wl), &ev)
	ret := time.Now()
	runtime.KeepAlive(s)
	runtime.KeepAlive(q)
	if rc != C.CL_SUCCESS {
		st.settle(int(rc))
		fail(call, int(rc), "")
	}
	e := newEvent(q, ev, st, eventInfo{command: call, direction: HostToDevice, hostMemory: memSVM, bytes: s.size, nonBlocking: o.nonBlocking, start: start, ret: ret})
	if !o.nonBlocking {
		e.finishBlocking()
	}
	return e
}

// SVMSupport says in words what shared virtual memory the device offers,
// "none" included.
func (d *Device) SVMSupport() string {
	if d.SVM.Value == 0 {
		return "none: " + d.Name + " reports no SVM capabilities (" + strings.TrimSpace(d.Version) + ")"
	}
	return d.SVM.String()
}
