package clapi

import "fmt"

// Option adjusts one enqueue call: [NonBlocking], [WaitFor], [SrcOffset],
// [DstOffset], [ByteCount], [Offset], [ToHost], [ContentUndefined]. A call
// given an option it does not use panics with an *Error rather than
// ignoring it.
type Option struct {
	kind   optKind
	n      int
	events []*Event
	dims   []int
}

type optKind int

const (
	optNone optKind = iota
	optNonBlocking
	optWaitFor
	optSrcOffset
	optDstOffset
	optByteCount
	optOffset
	optToHost
	optContentUndefined
	optGlobalOffset
)

var optNames = [...]string{"", "NonBlocking", "WaitFor", "SrcOffset", "DstOffset", "ByteCount", "Offset", "ToHost", "ContentUndefined", "GlobalOffset"}

// NonBlocking makes an enqueue call return without waiting for the command.
// The returned *Event tells when it is done; Go memory it reads or writes is
// pinned and kept alive until then, even if the event is dropped.
var NonBlocking = Option{kind: optNonBlocking}

// ToHost makes [EnqueueMigrate] move the buffers to the host.
var ToHost = Option{kind: optToHost}

// ContentUndefined lets [EnqueueMigrate] skip copying the buffers' contents.
var ContentUndefined = Option{kind: optContentUndefined}

// WaitFor makes the command wait for the given events first.
func WaitFor(events ...*Event) Option { return Option{kind: optWaitFor, events: events} }

// SrcOffset starts a copy at this byte offset in its source.
func SrcOffset(bytes int) Option { return Option{kind: optSrcOffset, n: bytes} }

// DstOffset starts a copy at this byte offset in its destination.
func DstOffset(bytes int) Option { return Option{kind: optDstOffset, n: bytes} }

// ByteCount limits a copy, fill or map to n bytes.
func ByteCount(n int) Option { return Option{kind: optByteCount, n: n} }

// GlobalOffset starts a kernel's global IDs at these offsets, one per
// dimension (the global_work_offset of clEnqueueNDRangeKernel, PyOpenCL's
// global_offset): get_global_id(0) then runs from offsets[0].
func GlobalOffset(offsets ...int) Option { return Option{kind: optGlobalOffset, dims: offsets} }

// Offset starts a fill or map at this byte offset in the buffer.
func Offset(bytes int) Option { return Option{kind: optOffset, n: bytes} }

// String names the option as a cell would write it.
func (o Option) String() string {
	switch o.kind {
	case optWaitFor:
		return fmt.Sprintf("cl.WaitFor(%d events)", len(o.events))
	case optSrcOffset, optDstOffset, optByteCount, optOffset:
		return fmt.Sprintf("cl.%s(%d)", optNames[o.kind], o.n)
	case optGlobalOffset:
		return fmt.Sprintf("cl.GlobalOffset%v", o.dims)
	case optNone:
		return "cl.Option{} (empty)"
	}
	return "cl." + optNames[o.kind]
}

// options is the parsed form of an []Option.
type options struct {
	nonBlocking      bool
	waitFor          []*Event
	srcOff, dstOff   int64
	off              int64
	count            int64 // -1: not given
	toHost, undefine bool
	offset           []int // global work offset
}

// parseOptions checks that every option is one call accepts.
func parseOptions(call string, opts []Option, allowed ...optKind) options {
	o := options{count: -1}
	if len(opts) == 0 {
		return o
	}
	var ok uint32 // a bit per optKind; no map, since every enqueue call comes here
	for _, k := range allowed {
		ok |= 1 << k
	}
	for _, op := range opts {
		if op.kind < 0 || int(op.kind) >= len(optNames) || ok&(1<<op.kind) == 0 {
			refuse(call, "CL_INVALID_VALUE", op.String()+" does not apply to this call", allowedList(allowed))
		}
		switch op.kind {
		case optSrcOffset, optDstOffset, optOffset:
			if op.n < 0 {
				refuse(call, "CL_INVALID_VALUE", fmt.Sprintf("%s is negative", op), "offsets are bytes from the start, >= 0")
			}
		case optByteCount:
			if op.n <= 0 {
				refuse(call, "CL_INVALID_VALUE", fmt.Sprintf("%s: the byte count must be positive", op), "leave ByteCount out to copy everything")
			}
		}
		switch op.kind {
		case optNonBlocking:
			o.nonBlocking = true
		case optWaitFor:
			o.waitFor = append(o.waitFor, op.events...)
		case optSrcOffset:
			o.srcOff = int64(op.n)
		case optDstOffset:
			o.dstOff = int64(op.n)
		case optOffset:
			o.off = int64(op.n)
		case optByteCount:
			o.count = int64(op.n)
		case optToHost:
			o.toHost = true
		case optContentUndefined:
			o.undefine = true
		case optGlobalOffset:
			for _, d := range op.dims {
				if d < 0 {
					refuse(call, "CL_INVALID_VALUE", fmt.Sprintf("%s has a negative offset", op), "global offsets are >= 0")
				}
			}
			o.offset = append([]int(nil), op.dims...)
		}
	}
	return o
}

func allowedList(allowed []optKind) string {
	s := "this call accepts:"
	for _, k := range allowed {
		s += " cl." + optNames[k]
	}
	return s
}
