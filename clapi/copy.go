package clapi

/*
#include "gocl_cl.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"time"
	"unsafe"
)

// Copy directions, as [Event.Direction] reports them.
const (
	HostToDevice   = "host→device"
	DeviceToHost   = "device→host"
	DeviceToDevice = "device→device"
)

// EnqueueCopy copies between host memory and buffers, choosing the call
// from its arguments as PyOpenCL's enqueue_copy does:
//
//	EnqueueCopy(q, buf, slice)   host to device (clEnqueueWriteBuffer)
//	EnqueueCopy(q, slice, buf)   device to host (clEnqueueReadBuffer)
//	EnqueueCopy(q, dst, src)     buffer to buffer (clEnqueueCopyBuffer)
//
// Host memory is a slice ([]float64, []float32, []int64, []uint64, []int32,
// []uint32, []int16, []uint16, []int8, []byte), a view of a PinnedHost, or
// a *PinnedHost. The copy blocks until done unless NonBlocking is given;
// other options: WaitFor, SrcOffset, DstOffset, ByteCount (all in bytes).
// By default the whole source is copied; it must fit the destination.
func EnqueueCopy(q *Queue, dst, src any, opts ...Option) *Event {
	const call = "EnqueueCopy"
	probe(probeEntry)
	o := parseOptions(call, opts, optNonBlocking, optWaitFor, optSrcOffset, optDstOffset, optByteCount)
	probe(probeParsed)
	db, dBuf := dst.(*Buffer)
	sb, sBuf := src.(*Buffer)
	switch {
	case dBuf && sBuf:
		return copyBuffer(q, db, sb, o)
	case dBuf:
		h, ok := hostOf("clEnqueueWriteBuffer", src)
		if !ok {
			refuse("clEnqueueWriteBuffer", "CL_INVALID_VALUE", fmt.Sprintf("the source is a %T", src), "copy from a host slice, a *cl.PinnedHost or a *cl.Buffer")
		}
		return transfer(q, db, h, o, true)
	case sBuf:
		h, ok := hostOf("clEnqueueReadBuffer", dst)
		if !ok {
			refuse("clEnqueueReadBuffer", "CL_INVALID_VALUE", fmt.Sprintf("the destination is a %T", dst), "copy into a host slice, a *cl.PinnedHost or a *cl.Buffer")
		}
		return transfer(q, sb, h, o, false)
	}
	_, dHost := hostOf(call, dst)
	_, sHost := hostOf(call, src)
	if dHost && sHost {
		refuse(call, "CL_INVALID_VALUE", "both arguments are host memory", "copy host to host with Go's copy(dst, src); EnqueueCopy needs a *cl.Buffer on at least one side")
	}
	refuse(call, "CL_INVALID_VALUE", fmt.Sprintf("cannot copy from %T to %T", src, dst), "one side must be a *cl.Buffer, the other a host slice, a *cl.PinnedHost or a *cl.Buffer")
	return nil
}

// span checks that [off, off+n) fits in size and returns n, defaulting to
// everything from off. what names the memory in errors, with typ (when
// set) in parentheses; the name is only built for an error, since every
// copy comes here.
func span(call, what, typ string, off, count, size int64) int64 {
	if off >= size || (count >= 0 && off+count > size) {
		if typ != "" {
			what += " (" + typ + ")"
		}
		return spanRefused(call, what, off, count, size)
	}
	if count < 0 {
		return size - off
	}
	return count
}

func spanRefused(call, what string, off, count, size int64) int64 {
	if off >= size {
		refuse(call, "CL_INVALID_VALUE", fmt.Sprintf("offset %d is past the end of the %d-byte %s", off, size, what), "")
	}
	n := count
	if n < 0 {
		n = size - off
	}
	if off+n > size {
		refuse(call, "CL_INVALID_VALUE", fmt.Sprintf("%d bytes at offset %d do not fit the %d-byte %s", n, off, size, what),
			"copy fewer bytes (cl.ByteCount) or use a larger "+what)
	}
	return n
}

// transfer writes host memory to a buffer (write) or reads it back.
func transfer(q *Queue, b *Buffer, h hostMem, o options, write bool) *Event {
	call, dir := "clEnqueueReadBuffer", DeviceToHost
	hostOff, bufOff := o.dstOff, o.srcOff
	if write {
		call, dir = "clEnqueueWriteBuffer", HostToDevice
		hostOff, bufOff = o.srcOff, o.dstOff
	}
	probe(probeHost)
	qid := q.handle(call)
	mid := b.handle(call)
	if b.ctx != q.ctx {
		refuse(call, "CL_INVALID_CONTEXT", "the buffer and the queue belong to different contexts", "")
	}
	n := span(call, "host memory", h.typ, hostOff, o.count, h.bytes)
	if o.count < 0 {
		// Default: the whole host side, which must fit the buffer.
		if bufOff+n > b.size {
			refuse(call, "CL_INVALID_VALUE", fmt.Sprintf("the %d-byte %s does not fit the %d-byte buffer at offset %d", n, h.typ, b.size, bufOff),
				"use a larger buffer, or copy part of it with cl.ByteCount(n)")
		}
	}
	span(call, "buffer", "", bufOff, n, b.size)
	probe(probeChecked)
	wl := waitList(call, q.ctx, o.waitFor)
	st := newEventState()
	st.hold(b)
	ptr := unsafe.Add(h.ptr, hostOff)
	if o.nonBlocking {
		if h.region != nil {
			h.region.use(st)
			st.hold(h.value)
		} else {
			st.pin(h.ptr, h.value)
		}
	}
	probe(probeState)
	b.use(st)
	blocking := C.cl_bool(C.CL_TRUE)
	if o.nonBlocking {
		blocking = C.CL_FALSE
	}
	// What the call's return needs is allocated before the driver call:
	// after it the driver is starting the copy, and the host is timed.
	e := new(Event)
	var ev C.cl_event
	var rc C.cl_int
	start := time.Now()
	if write {
		rc = C.clEnqueueWriteBuffer(qid, mid, blocking, C.size_t(bufOff), C.size_t(n), ptr, C.cl_uint(len(wl)), firstEvent(wl), &ev)
	} else {
		rc = C.clEnqueueReadBuffer(qid, mid, blocking, C.size_t(bufOff), C.size_t(n), ptr, C.cl_uint(len(wl)), firstEvent(wl), &ev)
	}
	ret := time.Now()
	runtime.KeepAlive(h.value)
	runtime.KeepAlive(q)
	runtime.KeepAlive(b)
	runtime.KeepAlive(o.waitFor)
	if rc != C.CL_SUCCESS {
		st.settle(int(rc))
		fail(call, int(rc), fmt.Sprintf("%d bytes, %s", n, dir))
	}
	e = initEvent(e, q, ev, st, eventInfo{command: call, direction: dir, hostMemory: h.kind, bytes: n,
		nonBlocking: o.nonBlocking, start: start, ret: ret})
	probe(probeEvent)
	return e
}

// copyBuffer copies between two buffers on the device.
func copyBuffer(q *Queue, dst, src *Buffer, o options) *Event {
	const call = "clEnqueueCopyBuffer"
	qid := q.handle(call)
	did := dst.handle(call)
	sid := src.handle(call)
	if dst.ctx != q.ctx || src.ctx != q.ctx {
		refuse(call, "CL_INVALID_CONTEXT", "the buffers and the queue must belong to one context", "")
	}
	n := span(call, "source buffer", "", o.srcOff, o.count, src.size)
	span(call, "destination buffer", "", o.dstOff, n, dst.size)
	if dst == src && o.srcOff < o.dstOff+n && o.dstOff < o.srcOff+n {
		refuse(call, "CL_MEM_COPY_OVERLAP", "the source and destination ranges overlap in the same buffer", "copy through a second buffer")
	}
	wl := waitList(call, q.ctx, o.waitFor)
	st := newEventState()
	st.hold(dst, src)
	dst.use(st)
	src.use(st)
	var ev C.cl_event
	start := time.Now()
	rc := C.clEnqueueCopyBuffer(qid, sid, did, C.size_t(o.srcOff), C.size_t(o.dstOff), C.size_t(n), C.cl_uint(len(wl)), firstEvent(wl), &ev)
	ret := time.Now()
	runtime.KeepAlive(q)
	runtime.KeepAlive(dst)
	runtime.KeepAlive(src)
	runtime.KeepAlive(o.waitFor)
	if rc != C.CL_SUCCESS {
		st.settle(int(rc))
		fail(call, int(rc), fmt.Sprintf("%d bytes", n))
	}
	e := newEvent(q, ev, st, eventInfo{command: call, direction: DeviceToDevice, bytes: n, nonBlocking: o.nonBlocking, start: start, ret: ret})
	if !o.nonBlocking {
		e.finishBlocking()
	}
	return e
}

// EnqueueFill fills a buffer with a repeated scalar pattern: float64,
// float32, int64, uint64, int32, uint32, int16, uint16, int8 or uint8 (not
// int: its OpenCL size is not fixed). Options: Offset, ByteCount (both
// multiples of the pattern's size), WaitFor, NonBlocking. It blocks until
// done unless NonBlocking is given.
func EnqueueFill(q *Queue, b *Buffer, pattern any, opts ...Option) *Event {
	const call = "clEnqueueFillBuffer"
	o := parseOptions(call, opts, optOffset, optByteCount, optWaitFor, optNonBlocking)
	var pat [8]byte
	var size int64
	switch v := pattern.(type) {
	case float64:
		*(*float64)(unsafe.Pointer(&pat[0])), size = v, 8
	case float32:
		*(*float32)(unsafe.Pointer(&pat[0])), size = v, 4
	case int64:
		*(*int64)(unsafe.Pointer(&pat[0])), size = v, 8
	case uint64:
		*(*uint64)(unsafe.Pointer(&pat[0])), size = v, 8
	case int32:
		*(*int32)(unsafe.Pointer(&pat[0])), size = v, 4
	case uint32:
		*(*uint32)(unsafe.Pointer(&pat[0])), size = v, 4
	case int16:
		*(*int16)(unsafe.Pointer(&pat[0])), size = v, 2
	case uint16:
		*(*uint16)(unsafe.Pointer(&pat[0])), size = v, 2
	case int8:
		pat[0], size = byte(v), 1
	case uint8:
		pat[0], size = v, 1
	case int:
		refuse(call, "CL_INVALID_VALUE", "the pattern is a Go int", "use int32(x) or int64(x): OpenCL ints have a fixed size")
	default:
		refuse(call, "CL_INVALID_VALUE", fmt.Sprintf("the pattern is a %T", pattern), "use a scalar such as float32(0) or float64(1.5)")
	}
	qid := q.handle(call)
	mid := b.handle(call)
	if b.ctx != q.ctx {
		refuse(call, "CL_INVALID_CONTEXT", "the buffer and the queue belong to different contexts", "")
	}
	n := span(call, "buffer", "", o.off, o.count, b.size)
	if o.off%size != 0 || n%size != 0 {
		refuse(call, "CL_INVALID_VALUE", fmt.Sprintf("offset %d and byte count %d must be multiples of the %d-byte pattern", o.off, n, size), "")
	}
	wl := waitList(call, q.ctx, o.waitFor)
	st := newEventState()
	st.hold(b)
	b.use(st)
	var ev C.cl_event
	start := time.Now()
	rc := C.clEnqueueFillBuffer(qid, mid, unsafe.Pointer(&pat[0]), C.size_t(size), C.size_t(o.off), C.size_t(n), C.cl_uint(len(wl)), firstEvent(wl), &ev)
	ret := time.Now()
	runtime.KeepAlive(q)
	runtime.KeepAlive(b)
	runtime.KeepAlive(o.waitFor)
	if rc != C.CL_SUCCESS {
		st.settle(int(rc))
		fail(call, int(rc), fmt.Sprintf("%d bytes", n))
	}
	e := newEvent(q, ev, st, eventInfo{command: call, bytes: n, nonBlocking: o.nonBlocking, start: start, ret: ret})
	if !o.nonBlocking {
		e.finishBlocking()
	}
	return e
}

// EnqueueMigrate moves buffers to the queue's device (or, with ToHost, to
// the host) ahead of use. Drivers often allocate device memory lazily, on
// first use; migrating first keeps that cost out of a timed copy. Options:
// ToHost, ContentUndefined, WaitFor, NonBlocking; it blocks unless
// NonBlocking is given.
func EnqueueMigrate(q *Queue, bufs []*Buffer, opts ...Option) *Event {
	const call = "clEnqueueMigrateMemObjects"
	o := parseOptions(call, opts, optToHost, optContentUndefined, optWaitFor, optNonBlocking)
	if len(bufs) == 0 {
		refuse(call, "CL_INVALID_VALUE", "no buffer given", "pass []*cl.Buffer{buf}")
	}
	qid := q.handle(call)
	ids := make([]C.cl_mem, len(bufs))
	var total int64
	for i, b := range bufs {
		ids[i] = b.handle(call)
		if b.ctx != q.ctx {
			refuse(call, "CL_INVALID_CONTEXT", fmt.Sprintf("buffer %d belongs to another context", i), "")
		}
		total += b.size
	}
	var flags C.cl_mem_migration_flags
	if o.toHost {
		flags |= C.CL_MIGRATE_MEM_OBJECT_HOST
	}
	if o.undefine {
		flags |= C.CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED
	}
	wl := waitList(call, q.ctx, o.waitFor)
	st := newEventState()
	st.hold(bufs)
	var ev C.cl_event
	start := time.Now()
	rc := C.clEnqueueMigrateMemObjects(qid, C.cl_uint(len(ids)), &ids[0], flags, C.cl_uint(len(wl)), firstEvent(wl), &ev)
	ret := time.Now()
	runtime.KeepAlive(q)
	runtime.KeepAlive(bufs)
	runtime.KeepAlive(o.waitFor)
	if rc != C.CL_SUCCESS {
		st.settle(int(rc))
		fail(call, int(rc), "")
	}
	dir := "to " + q.dev.Name
	if o.toHost {
		dir = "to host"
	}
	e := newEvent(q, ev, st, eventInfo{command: call, direction: dir, bytes: total, nonBlocking: o.nonBlocking, start: start, ret: ret})
	if !o.nonBlocking {
		e.finishBlocking()
	}
	return e
}
