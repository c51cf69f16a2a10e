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
)

// MemFlag is a buffer flag (CL_MEM_*); combine them with |.
type MemFlag uint64

// Buffer flags.
const (
	ReadWrite     MemFlag = C.CL_MEM_READ_WRITE      // kernels read and write it (the default)
	WriteOnly     MemFlag = C.CL_MEM_WRITE_ONLY      // kernels only write it
	ReadOnly      MemFlag = C.CL_MEM_READ_ONLY       // kernels only read it
	UseHostPtr    MemFlag = C.CL_MEM_USE_HOST_PTR    // the buffer lives in the given Go slice, which stays pinned
	AllocHostPtr  MemFlag = C.CL_MEM_ALLOC_HOST_PTR  // the runtime allocates host-accessible (often pinned) memory
	CopyHostPtr   MemFlag = C.CL_MEM_COPY_HOST_PTR   // initialise from the given slice
	HostWriteOnly MemFlag = C.CL_MEM_HOST_WRITE_ONLY // the host only writes it
	HostReadOnly  MemFlag = C.CL_MEM_HOST_READ_ONLY  // the host only reads it
	HostNoAccess  MemFlag = C.CL_MEM_HOST_NO_ACCESS  // the host neither reads nor writes it
)

var memFlagNames = []struct {
	f    MemFlag
	name string
}{
	{ReadWrite, "ReadWrite"}, {WriteOnly, "WriteOnly"}, {ReadOnly, "ReadOnly"}, {UseHostPtr, "UseHostPtr"},
	{AllocHostPtr, "AllocHostPtr"}, {CopyHostPtr, "CopyHostPtr"}, {HostWriteOnly, "HostWriteOnly"},
	{HostReadOnly, "HostReadOnly"}, {HostNoAccess, "HostNoAccess"},
}

// String writes the flags as a cell would: "cl.ReadWrite|cl.CopyHostPtr".
func (f MemFlag) String() string {
	var parts []string
	for _, x := range memFlagNames {
		if f&x.f != 0 {
			parts = append(parts, "cl."+x.name)
			f &^= x.f
		}
	}
	if f != 0 {
		parts = append(parts, fmt.Sprintf("%#x", uint64(f)))
	}
	if len(parts) == 0 {
		return "0"
	}
	return strings.Join(parts, "|")
}

// Buffer is an OpenCL memory object.
type Buffer struct {
	mu    sync.Mutex
	id    C.cl_mem
	ctx   *Context
	size  int64
	flags MemFlag
	// For UseHostPtr: the Go slice the buffer lives in, pinned until Release.
	hostPin  *runtime.Pinner
	host     any
	inflight []*eventState // commands that may use the UseHostPtr slice
	// For a sub-buffer: the buffer it was taken from, and where.
	parent *Buffer
	origin int64
}

// use records a command that may touch a UseHostPtr buffer's slice until it
// settles.
func (b *Buffer) use(st *eventState) {
	if b.parent != nil {
		b.parent.use(st)
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.hostPin == nil {
		return
	}
	live := b.inflight[:0]
	for _, s := range b.inflight {
		if !s.settled() {
			live = append(live, s)
		}
	}
	b.inflight = append(live, st)
}

// NewBuffer creates a buffer. With CopyHostPtr it is initialised from host
// (any host slice EnqueueCopy accepts); with UseHostPtr it lives in host,
// which stays pinned until Release. Without either flag pass nil, or use
// NewBufferSize.
func NewBuffer(ctx *Context, flags MemFlag, host any) *Buffer {
	const call = "clCreateBuffer"
	if host == nil {
		if flags&(CopyHostPtr|UseHostPtr) != 0 {
			refuse(call, "CL_INVALID_HOST_PTR", flags.String()+" needs a host slice, got nil", "pass the slice, or use cl.NewBufferSize(ctx, flags, nbytes)")
		}
		refuse(call, "CL_INVALID_BUFFER_SIZE", "no host slice to take the size from", "use cl.NewBufferSize(ctx, flags, nbytes) for an uninitialised buffer")
	}
	h, ok := hostOf(call, host)
	if !ok {
		refuse(call, "CL_INVALID_HOST_PTR", fmt.Sprintf("%T is not host memory", host), "pass a host slice such as []float64")
	}
	if flags&(CopyHostPtr|UseHostPtr) == 0 {
		refuse(call, "CL_INVALID_HOST_PTR", "a host slice was given but the flags "+flags.String()+" do not use it",
			"add cl.CopyHostPtr (copy it now) or cl.UseHostPtr (live in it)")
	}
	if flags&UseHostPtr != 0 && h.region != nil {
		refuse(call, "CL_INVALID_HOST_PTR", "UseHostPtr over a "+h.region.owner+" view is not supported",
			"the mapping can be closed under the buffer; use CopyHostPtr, or EnqueueCopy from the pinned memory")
	}
	return newBuffer(call, ctx, flags, h)
}

// NewBufferSize creates an uninitialised buffer of nbytes bytes.
func NewBufferSize(ctx *Context, flags MemFlag, nbytes int) *Buffer {
	const call = "clCreateBuffer"
	if flags&(CopyHostPtr|UseHostPtr) != 0 {
		refuse(call, "CL_INVALID_HOST_PTR", flags.String()+" needs a host slice", "use cl.NewBuffer(ctx, flags, slice)")
	}
	return newBuffer(call, ctx, flags, hostMem{bytes: int64(nbytes)})
}

func newBuffer(call string, ctx *Context, flags MemFlag, h hostMem) *Buffer {
	cid := ctx.handle(call)
	checkMemFlags(call, flags)
	if h.bytes <= 0 {
		refuse(call, "CL_INVALID_BUFFER_SIZE", fmt.Sprintf("size %d bytes", h.bytes), "a buffer needs at least one byte")
	}
	for _, d := range ctx.devices {
		if d.MaxAllocBytes > 0 && h.bytes > d.MaxAllocBytes {
			refuse(call, "CL_INVALID_BUFFER_SIZE",
				fmt.Sprintf("%d bytes is more than %s's max allocation of %d bytes (%s)", h.bytes, d.Name, d.MaxAllocBytes, formatBytes(d.MaxAllocBytes)),
				"split the data over several buffers")
		}
	}
	b := &Buffer{ctx: ctx, size: h.bytes, flags: flags}
	if flags&UseHostPtr != 0 {
		b.hostPin = new(runtime.Pinner)
		b.hostPin.Pin(h.ptr)
		b.host = h.value
	}
	var rc C.cl_int
	start := time.Now()
	id := C.clCreateBuffer(cid, C.cl_mem_flags(flags), C.size_t(h.bytes), h.ptr, &rc)
	traceCall(call, start)
	runtime.KeepAlive(h.value)
	runtime.KeepAlive(ctx)
	if rc != C.CL_SUCCESS {
		if b.hostPin != nil {
			b.hostPin.Unpin()
		}
		fail(call, int(rc), fmt.Sprintf("%s, %d bytes", flags, h.bytes))
	}
	b.id = id
	runtime.SetFinalizer(b, func(b *Buffer) { releaseLater(b.Release) })
	return b
}

func checkMemFlags(call string, f MemFlag) {
	known := ReadWrite | WriteOnly | ReadOnly | UseHostPtr | AllocHostPtr | CopyHostPtr | HostWriteOnly | HostReadOnly | HostNoAccess
	if f&^known != 0 {
		refuse(call, "CL_INVALID_VALUE", fmt.Sprintf("unknown flag bits %#x", uint64(f&^known)), "use the cl.* flag constants")
	}
	if count(f, ReadWrite, WriteOnly, ReadOnly) > 1 {
		refuse(call, "CL_INVALID_VALUE", f.String()+": ReadWrite, WriteOnly and ReadOnly exclude each other", "")
	}
	if count(f, HostWriteOnly, HostReadOnly, HostNoAccess) > 1 {
		refuse(call, "CL_INVALID_VALUE", f.String()+": HostWriteOnly, HostReadOnly and HostNoAccess exclude each other", "")
	}
	if f&UseHostPtr != 0 && f&(CopyHostPtr|AllocHostPtr) != 0 {
		refuse(call, "CL_INVALID_VALUE", f.String()+": UseHostPtr excludes CopyHostPtr and AllocHostPtr", "")
	}
}

func count(f MemFlag, fs ...MemFlag) int {
	n := 0
	for _, x := range fs {
		if f&x != 0 {
			n++
		}
	}
	return n
}

// Size is the buffer's size in bytes.
func (b *Buffer) Size() int { return int(b.size) }

// Flags returns the flags the buffer was created with.
func (b *Buffer) Flags() MemFlag { return b.flags }

// Context returns the buffer's context.
func (b *Buffer) Context() *Context { return b.ctx }

// String describes the buffer.
func (b *Buffer) String() string {
	s := fmt.Sprintf("cl.Buffer %s (%d bytes), %s", formatBytes(b.size), b.size, b.flags)
	if b.parent != nil {
		s = fmt.Sprintf("cl.Buffer %s (%d bytes at offset %d of a %s buffer), %s", formatBytes(b.size), b.size, b.origin, formatBytes(b.parent.size), b.flags)
	}
	if b.released() {
		s += " (released)"
	}
	return s
}

// Release releases the buffer (commands already enqueued on it still
// complete) and unpins a UseHostPtr slice. Release is idempotent.
func (b *Buffer) Release() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.id != nil {
		defer traceCall("clReleaseMemObject", time.Now())
		C.clReleaseMemObject(b.id)
		b.id = nil
	}
	if b.hostPin != nil {
		// Commands in flight may still read or write the slice: unpin it
		// only after they settle.
		pin, host, pending := b.hostPin, b.host, b.inflight
		b.hostPin, b.host, b.inflight = nil, nil, nil
		go func() {
			adoptPending() // each command's callback settles its state
			for _, s := range pending {
				<-s.doneChan()
			}
			pin.Unpin()
			runtime.KeepAlive(host)
		}()
	}
}

func (b *Buffer) released() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.id == nil
}

func (b *Buffer) handle(call string) C.cl_mem {
	if b == nil {
		refuse(call, "CL_INVALID_MEM_OBJECT", "the buffer is nil", "")
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.id == nil {
		refuse(call, "CL_INVALID_MEM_OBJECT", "the buffer was released", "create a new one")
	}
	if b.parent != nil && b.parent.released() {
		refuse(call, "CL_INVALID_MEM_OBJECT", "the sub-buffer's parent buffer was released", "keep the parent until its sub-buffers are done")
	}
	return b.id
}
