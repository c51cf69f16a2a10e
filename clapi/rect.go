package clapi

/*
#include "gocl_cl.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"time"
)

// Rect describes a rectangular copy (a 2D or 3D box of bytes) for
// [EnqueueCopyRect]. X is in bytes, Y in rows, Z in slices. A row pitch of 0
// means rows are Region[0] bytes apart; a slice pitch of 0 means slices are
// Region[1] rows apart. Region[1] and Region[2] of 0 count as 1, so a 2D
// copy needs only Region[0] and Region[1], as PyOpenCL pads shorter
// tuples.
type Rect struct {
	SrcOrigin, DstOrigin [3]int // where the box starts on each side: byte, row, slice
	Region               [3]int // its size: bytes per row, rows, slices
	SrcRowPitch          int
	SrcSlicePitch        int
	DstRowPitch          int
	DstSlicePitch        int
}

// EnqueueCopyRect copies a rectangular box between host memory and a
// buffer, or between two buffers (clEnqueueWriteBufferRect,
// clEnqueueReadBufferRect, clEnqueueCopyBufferRect; PyOpenCL's enqueue_copy
// with buffer_origin, host_origin, region and pitches). The arguments
// choose the call as in [EnqueueCopy]; a box that does not fit either side
// is refused before OpenCL sees it. Options: NonBlocking, WaitFor.
func EnqueueCopyRect(q *Queue, dst, src any, r Rect, opts ...Option) *Event {
	const call = "EnqueueCopyRect"
	o := parseOptions(call, opts, optNonBlocking, optWaitFor)
	db, dBuf := dst.(*Buffer)
	sb, sBuf := src.(*Buffer)
	reg := r.Region
	for i := 1; i < 3; i++ {
		if reg[i] == 0 {
			reg[i] = 1
		}
	}
	if reg[0] <= 0 || reg[1] < 0 || reg[2] < 0 {
		refuse(call, "CL_INVALID_VALUE", fmt.Sprintf("region %v", r.Region), "Region[0] is the bytes per row and must be positive")
	}
	switch {
	case dBuf && sBuf:
		return copyRect(q, db, sb, r, reg, o)
	case dBuf:
		h, ok := hostOf("clEnqueueWriteBufferRect", src)
		if !ok {
			refuse("clEnqueueWriteBufferRect", "CL_INVALID_VALUE", fmt.Sprintf("the source is a %T", src), "copy from a host slice, a *cl.PinnedHost or a *cl.Buffer")
		}
		return transferRect(q, db, h, r, reg, o, true)
	case sBuf:
		h, ok := hostOf("clEnqueueReadBufferRect", dst)
		if !ok {
			refuse("clEnqueueReadBufferRect", "CL_INVALID_VALUE", fmt.Sprintf("the destination is a %T", dst), "copy into a host slice, a *cl.PinnedHost or a *cl.Buffer")
		}
		return transferRect(q, sb, h, r, reg, o, false)
	}
	refuse(call, "CL_INVALID_VALUE", fmt.Sprintf("cannot copy from %T to %T", src, dst), "one side must be a *cl.Buffer")
	return nil
}

// box checks that a box at origin with the given pitches fits size bytes,
// fills in default pitches and returns them with the first and one past the
// last byte the box touches.
func box(call, what string, origin, reg [3]int, row, slice int, size int64) (int, int, int64, int64) {
	if row == 0 {
		row = reg[0]
	}
	if slice == 0 {
		slice = reg[1] * row
	}
	if row < reg[0] {
		refuse(call, "CL_INVALID_VALUE", fmt.Sprintf("the %s row pitch %d is less than the %d bytes of a row", what, row, reg[0]), "a row pitch is at least Region[0]")
	}
	if slice < reg[1]*row || slice%row != 0 {
		refuse(call, "CL_INVALID_VALUE", fmt.Sprintf("the %s slice pitch %d is not a multiple of its row pitch %d of at least %d rows", what, slice, row, reg[1]), "")
	}
	for i, x := range origin {
		if x < 0 {
			refuse(call, "CL_INVALID_VALUE", fmt.Sprintf("the %s origin[%d] is negative", what, i), "")
		}
	}
	first := int64(origin[2])*int64(slice) + int64(origin[1])*int64(row) + int64(origin[0])
	end := first + int64(reg[2]-1)*int64(slice) + int64(reg[1]-1)*int64(row) + int64(reg[0])
	if end > size {
		refuse(call, "CL_INVALID_VALUE", fmt.Sprintf("the box reaches byte %d of the %d-byte %s", end, size, what), "check the origin, region and pitches")
	}
	return row, slice, first, end
}

func sizes(a [3]int) [3]C.size_t { return [3]C.size_t{C.size_t(a[0]), C.size_t(a[1]), C.size_t(a[2])} }

func transferRect(q *Queue, b *Buffer, h hostMem, r Rect, reg [3]int, o options, write bool) *Event {
	call, dir := "clEnqueueReadBufferRect", DeviceToHost
	bufOrigin, hostOrigin := r.SrcOrigin, r.DstOrigin
	bRow, bSlice, hRow, hSlice := r.SrcRowPitch, r.SrcSlicePitch, r.DstRowPitch, r.DstSlicePitch
	if write {
		call, dir = "clEnqueueWriteBufferRect", HostToDevice
		bufOrigin, hostOrigin = r.DstOrigin, r.SrcOrigin
		bRow, bSlice, hRow, hSlice = r.DstRowPitch, r.DstSlicePitch, r.SrcRowPitch, r.SrcSlicePitch
	}
	qid := q.handle(call)
	mid := b.handle(call)
	if b.ctx != q.ctx {
		refuse(call, "CL_INVALID_CONTEXT", "the buffer and the queue belong to different contexts", "")
	}
	bRow, bSlice, _, _ = box(call, "buffer", bufOrigin, reg, bRow, bSlice, b.size)
	hRow, hSlice, _, _ = box(call, "host memory ("+h.typ+")", hostOrigin, reg, hRow, hSlice, h.bytes)
	wl := waitList(call, q.ctx, o.waitFor)
	st := newEventState()
	st.hold(b)
	if o.nonBlocking {
		if h.region != nil {
			h.region.use(st)
			st.hold(h.value)
		} else {
			st.pin(h.ptr, h.value)
		}
	}
	b.use(st)
	blocking := C.cl_bool(C.CL_TRUE)
	if o.nonBlocking {
		blocking = C.CL_FALSE
	}
	bo, ho, rg := sizes(bufOrigin), sizes(hostOrigin), sizes(reg)
	var ev C.cl_event
	var rc C.cl_int
	start := time.Now()
	if write {
		rc = C.clEnqueueWriteBufferRect(qid, mid, blocking, &bo[0], &ho[0], &rg[0], C.size_t(bRow), C.size_t(bSlice), C.size_t(hRow), C.size_t(hSlice),
			h.ptr, C.cl_uint(len(wl)), firstEvent(wl), &ev)
	} else {
		rc = C.clEnqueueReadBufferRect(qid, mid, blocking, &bo[0], &ho[0], &rg[0], C.size_t(bRow), C.size_t(bSlice), C.size_t(hRow), C.size_t(hSlice),
			h.ptr, C.cl_uint(len(wl)), firstEvent(wl), &ev)
	}
	ret := time.Now()
	runtime.KeepAlive(h.value)
	runtime.KeepAlive(q)
	runtime.KeepAlive(b)
	runtime.KeepAlive(o.waitFor)
	n := int64(reg[0]) * int64(reg[1]) * int64(reg[2])
	if rc != C.CL_SUCCESS {
		st.settle(int(rc))
		fail(call, int(rc), fmt.Sprintf("region %v, %s", reg, dir))
	}
	return newEvent(q, ev, st, eventInfo{command: call, direction: dir, hostMemory: h.kind, bytes: n,
		nonBlocking: o.nonBlocking, start: start, ret: ret})
}

func copyRect(q *Queue, dst, src *Buffer, r Rect, reg [3]int, o options) *Event {
	const call = "clEnqueueCopyBufferRect"
	qid := q.handle(call)
	did := dst.handle(call)
	sid := src.handle(call)
	if dst.ctx != q.ctx || src.ctx != q.ctx {
		refuse(call, "CL_INVALID_CONTEXT", "the buffers and the queue must belong to one context", "")
	}
	sRow, sSlice, sLo, sHi := box(call, "source buffer", r.SrcOrigin, reg, r.SrcRowPitch, r.SrcSlicePitch, src.size)
	dRow, dSlice, dLo, dHi := box(call, "destination buffer", r.DstOrigin, reg, r.DstRowPitch, r.DstSlicePitch, dst.size)
	if dst == src && sLo < dHi && dLo < sHi {
		refuse(call, "CL_MEM_COPY_OVERLAP", "the source and destination boxes may overlap in the same buffer", "copy through a second buffer")
	}
	wl := waitList(call, q.ctx, o.waitFor)
	st := newEventState()
	st.hold(dst, src)
	dst.use(st)
	src.use(st)
	so, do, rg := sizes(r.SrcOrigin), sizes(r.DstOrigin), sizes(reg)
	var ev C.cl_event
	start := time.Now()
	rc := C.clEnqueueCopyBufferRect(qid, sid, did, &so[0], &do[0], &rg[0], C.size_t(sRow), C.size_t(sSlice), C.size_t(dRow), C.size_t(dSlice),
		C.cl_uint(len(wl)), firstEvent(wl), &ev)
	ret := time.Now()
	runtime.KeepAlive(q)
	runtime.KeepAlive(dst)
	runtime.KeepAlive(src)
	runtime.KeepAlive(o.waitFor)
	if rc != C.CL_SUCCESS {
		st.settle(int(rc))
		fail(call, int(rc), fmt.Sprintf("region %v", reg))
	}
	n := int64(reg[0]) * int64(reg[1]) * int64(reg[2])
	e := newEvent(q, ev, st, eventInfo{command: call, direction: DeviceToDevice, bytes: n, nonBlocking: o.nonBlocking, start: start, ret: ret})
	if !o.nonBlocking {
		e.finishBlocking()
	}
	return e
}
