package clapi

/*
#include "gocl_cl.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"sync"
	"time"
	"unsafe"
)

// MapFlag says how the host will use mapped memory.
type MapFlag uint64

// Map flags.
const (
	MapRead            MapFlag = C.CL_MAP_READ
	MapWrite           MapFlag = C.CL_MAP_WRITE
	MapWriteInvalidate MapFlag = C.CL_MAP_WRITE_INVALIDATE_REGION
)

// Mapping is a buffer region mapped into host memory by [EnqueueMap]. Its
// views (Float64s, Bytes, ...) are slices over that memory; Unmap ends them.
//
// After Unmap, EnqueueCopy and NewBuffer refuse the views with an *Error,
// but indexing a view in Go is the one thing gocl cannot guard: the memory
// is gone and reading it may crash. Drop the views when you unmap.
type Mapping struct {
	mu    sync.Mutex
	q     *Queue
	buf   *Buffer
	r     *region
	ev    *Event
	views bool // a view was handed out
	done  bool
	flags MapFlag
}

// EnqueueMap maps a buffer (or, with Offset and ByteCount, part of it) into
// host memory (clEnqueueMapBuffer, PyOpenCL's enqueue_map_buffer). With
// cl.MapRead the map moves the device's data to the host (device→host);
// with cl.MapWrite the host's writes go back to the device when the mapping
// is unmapped (host→device); cl.MapWriteInvalidate skips the first move.
// It waits until the mapping is ready unless NonBlocking is given; then the
// views wait for the map command themselves. Options: Offset, ByteCount,
// WaitFor, NonBlocking.
func EnqueueMap(q *Queue, b *Buffer, flags MapFlag, opts ...Option) *Mapping {
	const call = "clEnqueueMapBuffer"
	o := parseOptions(call, opts, optOffset, optByteCount, optWaitFor, optNonBlocking)
	return mapBuffer(call, q, b, flags, o, "cl.Mapping")
}

func mapBuffer(call string, q *Queue, b *Buffer, flags MapFlag, o options, owner string) *Mapping {
	if flags == 0 || flags&^(MapRead|MapWrite|MapWriteInvalidate) != 0 {
		refuse(call, "CL_INVALID_VALUE", fmt.Sprintf("map flags %#x", uint64(flags)), "use cl.MapRead, cl.MapWrite or both")
	}
	qid := q.handle(call)
	mid := b.handle(call)
	if b.ctx != q.ctx {
		refuse(call, "CL_INVALID_CONTEXT", "the buffer and the queue belong to different contexts", "")
	}
	n := span(call, "buffer", "", o.off, o.count, b.size)
	wl := waitList(call, q.ctx, o.waitFor)
	blocking := C.cl_bool(C.CL_TRUE)
	if o.nonBlocking {
		blocking = C.CL_FALSE
	}
	var ev C.cl_event
	var rc C.cl_int
	start := time.Now()
	p := C.clEnqueueMapBuffer(qid, mid, blocking, C.cl_map_flags(flags), C.size_t(o.off), C.size_t(n), C.cl_uint(len(wl)), firstEvent(wl), &ev, &rc)
	ret := time.Now()
	runtime.KeepAlive(q)
	runtime.KeepAlive(b)
	runtime.KeepAlive(o.waitFor)
	if rc != C.CL_SUCCESS {
		fail(call, int(rc), fmt.Sprintf("%d bytes", n))
	}
	if p == nil {
		fail(call, int(C.CL_MAP_FAILURE), "the runtime returned a NULL mapping")
	}
	mem := memMapped
	if owner == "cl.PinnedHost" {
		mem = memPinned
	}
	dir := DeviceToHost
	if flags&MapRead == 0 {
		dir = "for host writes"
	}
	m := &Mapping{q: q, buf: b, r: &region{ptr: p, bytes: n, owner: owner}, flags: flags}
	m.ev = newEvent(q, ev, newEventState(), eventInfo{command: call, direction: dir, hostMemory: mem, bytes: n, nonBlocking: o.nonBlocking, start: start, ret: ret})
	regions.add(m.r)
	return m
}

// Event returns the map command's event.
func (m *Mapping) Event() *Event { return m.ev }

// Size is the mapped region's size in bytes.
func (m *Mapping) Size() int { return int(m.r.bytes) }

// Float64s returns the mapped memory as []float64.
func (m *Mapping) Float64s() []float64 {
	p, n := m.view("Float64s", 8)
	return unsafe.Slice((*float64)(p), n)
}

// Float32s returns the mapped memory as []float32.
func (m *Mapping) Float32s() []float32 {
	p, n := m.view("Float32s", 4)
	return unsafe.Slice((*float32)(p), n)
}

// Int32s returns the mapped memory as []int32.
func (m *Mapping) Int32s() []int32 {
	p, n := m.view("Int32s", 4)
	return unsafe.Slice((*int32)(p), n)
}

// Int64s returns the mapped memory as []int64.
func (m *Mapping) Int64s() []int64 {
	p, n := m.view("Int64s", 8)
	return unsafe.Slice((*int64)(p), n)
}

// Uint32s returns the mapped memory as []uint32.
func (m *Mapping) Uint32s() []uint32 {
	p, n := m.view("Uint32s", 4)
	return unsafe.Slice((*uint32)(p), n)
}

// Bytes returns the mapped memory as []byte.
func (m *Mapping) Bytes() []byte {
	p, n := m.view("Bytes", 1)
	return unsafe.Slice((*byte)(p), n)
}

// view checks that a view of elem-byte elements can be handed out. A
// region whose size is not a multiple of elem gives the whole elements only.
func (m *Mapping) view(name string, elem int64) (unsafe.Pointer, int) {
	call := m.r.owner + "." + name
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.done {
		refuse(call, "CL_INVALID_OPERATION", "the "+m.r.owner+" was closed", "create a new one")
	}
	if ev := m.ev; ev != nil && ev.info.nonBlocking {
		m.mu.Unlock()
		ev.Wait() // a non-blocking map: the memory is the host's once the command is done
		m.mu.Lock()
	}
	if uintptr(m.r.ptr)%uintptr(elem) != 0 {
		refuse(call, "CL_INVALID_OPERATION", fmt.Sprintf("the mapping is not %d-byte aligned", elem), "map at an offset that is a multiple of the element size")
	}
	if m.r.bytes < elem {
		refuse(call, "CL_INVALID_OPERATION", fmt.Sprintf("the %d-byte mapping holds no %d-byte element", m.r.bytes, elem), "")
	}
	m.views = true
	return m.r.ptr, int(m.r.bytes / elem)
}

// Unmap waits for commands that still use the mapped memory, unmaps it and
// waits for the unmap to finish (with cl.NonBlocking: returns at once; the
// event says when the host's writes have reached the buffer). Views must
// not be used afterwards. Unmap is idempotent; it returns nil when there
// was nothing left to unmap.
func (m *Mapping) Unmap(opts ...Option) *Event {
	const call = "clEnqueueUnmapMemObject"
	o := parseOptions(call, opts, optNonBlocking)
	m.mu.Lock()
	if m.done {
		m.mu.Unlock()
		return nil
	}
	m.done = true
	m.mu.Unlock()
	regions.close(m.r) // no new command may use the memory
	if err := m.r.drain(); err != nil {
		panic(err)
	}
	m.q.mu.Lock()
	qid := m.q.id
	m.q.mu.Unlock()
	mid := m.buf.handleOrNil()
	if qid == nil || mid == nil {
		// Nothing to unmap through: releasing the buffer frees the mapping.
		return nil
	}
	var ev C.cl_event
	start := time.Now()
	rc := C.clEnqueueUnmapMemObject(qid, mid, m.r.ptr, 0, nil, &ev)
	ret := time.Now()
	runtime.KeepAlive(m)
	if rc != C.CL_SUCCESS {
		fail(call, int(rc), "")
	}
	mem, dir := memMapped, ""
	if m.r.owner == "cl.PinnedHost" {
		mem = memPinned
	}
	if m.flags&(MapWrite|MapWriteInvalidate) != 0 {
		dir = HostToDevice
	}
	e := newEvent(m.q, ev, newEventState(), eventInfo{command: call, direction: dir, hostMemory: mem, bytes: m.r.bytes, nonBlocking: o.nonBlocking, start: start, ret: ret})
	if !o.nonBlocking {
		e.finishBlocking()
	}
	return e
}

// Release is Unmap, for symmetry with the other objects. A Mapping has no
// finalizer: its views are slices over the mapped memory, and Go cannot
// tell when they become unreachable.
func (m *Mapping) Release() { m.Unmap() }

// handleOrNil returns the buffer's handle, or nil once released.
func (b *Buffer) handleOrNil() C.cl_mem {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.id
}

// PinnedHost is host memory the OpenCL runtime allocated and keeps mapped:
// an AllocHostPtr buffer, mapped once. Drivers page-lock such memory, so a
// non-blocking copy from or to it returns at once and runs at full DMA
// speed (a copy from an ordinary Go slice may be staged synchronously).
//
// Use the PinnedHost, or its typed views, anywhere a host slice is
// accepted. Close it when done: Close waits for copies in flight, unmaps and
// releases. After Close, EnqueueCopy refuses the views; indexing a view in
// Go after Close is the one thing gocl cannot guard (the memory is gone), so
// drop the views too. A PinnedHost that is dropped without Close stays
// mapped if any view was ever taken, since Go cannot tell when slices over C
// memory become unreachable; one whose views were never taken is released
// by the garbage collector.
type PinnedHost struct {
	m *Mapping
}

// NewPinnedHost allocates nbytes of pinned host memory through the queue's
// context and maps it for reading and writing.
func NewPinnedHost(q *Queue, nbytes int) *PinnedHost {
	const call = "NewPinnedHost"
	ctx := q.Context()
	q.handle(call)
	b := NewBufferSize(ctx, ReadWrite|AllocHostPtr, nbytes)
	m := mapBuffer("clEnqueueMapBuffer", q, b, MapRead|MapWrite, options{count: -1}, "cl.PinnedHost")
	p := &PinnedHost{m: m}
	runtime.SetFinalizer(p, func(p *PinnedHost) { releaseLater(p.finalize) })
	return p
}

// finalize releases a dropped PinnedHost when no view of it was handed out.
func (p *PinnedHost) finalize() {
	p.m.mu.Lock()
	views := p.m.views
	p.m.mu.Unlock()
	if views {
		return
	}
	p.Close()
}

// Size is the pinned memory's size in bytes.
func (p *PinnedHost) Size() int { return p.m.Size() }

// Float64s returns the pinned memory as []float64.
func (p *PinnedHost) Float64s() []float64 { return p.m.Float64s() }

// Float32s returns the pinned memory as []float32.
func (p *PinnedHost) Float32s() []float32 { return p.m.Float32s() }

// Int32s returns the pinned memory as []int32.
func (p *PinnedHost) Int32s() []int32 { return p.m.Int32s() }

// Int64s returns the pinned memory as []int64.
func (p *PinnedHost) Int64s() []int64 { return p.m.Int64s() }

// Uint32s returns the pinned memory as []uint32.
func (p *PinnedHost) Uint32s() []uint32 { return p.m.Uint32s() }

// Bytes returns the pinned memory as []byte.
func (p *PinnedHost) Bytes() []byte { return p.m.Bytes() }

// Close waits for copies that use the memory, unmaps it and releases its
// buffer. It is idempotent. A PinnedHost of at most 32 MiB whose views were
// taken stays mapped after Close, up to 256 MiB in all (the oldest is freed
// first), so that a stray write through a view cannot corrupt the C heap
// (see quarantine.go).
func (p *PinnedHost) Close() {
	if p.keepMapped() {
		return
	}
	p.m.Unmap()
	p.m.buf.Release()
}

// Release is Close, for symmetry with the other objects.
func (p *PinnedHost) Release() { p.Close() }

// String describes the pinned memory.
func (p *PinnedHost) String() string {
	s := fmt.Sprintf("cl.PinnedHost %s (%d bytes)", formatBytes(p.m.r.bytes), p.m.r.bytes)
	if p.closed() {
		s += " (closed)"
	}
	return s
}

func (p *PinnedHost) closed() bool {
	p.m.mu.Lock()
	defer p.m.mu.Unlock()
	return p.m.done
}

// live returns the region for a copy, or panics once closed.
func (p *PinnedHost) live(call string) *region {
	if p.closed() {
		refuse(call, "CL_INVALID_HOST_PTR", "the cl.PinnedHost was closed", "create a new one with cl.NewPinnedHost")
	}
	return p.m.r
}
