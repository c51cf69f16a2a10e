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

	"github.com/seed43a1e1ab/gocl/internal/faultguard"
)

// Program is an OpenCL program built for every device of its context.
type Program struct {
	mu      sync.Mutex
	id      C.cl_program
	ctx     *Context
	options string
}

// BuildProgram compiles OpenCL C source for every device of the context.
// A failed build panics with an *Error that carries each device's build log.
func BuildProgram(ctx *Context, source, options string) *Program {
	call := "clCreateProgramWithSource"
	cid := ctx.handle(call)
	if strings.TrimSpace(source) == "" {
		refuse(call, "CL_INVALID_VALUE", "the source is empty", "pass the OpenCL C source as a string")
	}
	src := C.CString(source)
	defer C.free(unsafe.Pointer(src))
	var rc C.cl_int
	createStart := time.Now()
	id := C.clCreateProgramWithSource(cid, 1, &src, nil, &rc)
	traceCall(call, createStart)
	runtime.KeepAlive(ctx)
	if rc != C.CL_SUCCESS {
		fail(call, int(rc), "")
	}
	p := &Program{id: id, ctx: ctx, options: options}
	runtime.SetFinalizer(p, func(p *Program) { releaseLater(p.Release) })
	call = "clBuildProgram"
	opts := C.CString(withArgInfo(options))
	defer C.free(unsafe.Pointer(opts))
	buildStart := time.Now()
	rc = C.clBuildProgram(id, 0, nil, opts, nil, nil)
	traceCall(call, buildStart)
	if rc != C.CL_SUCCESS {
		detail := "the build failed"
		if options != "" {
			detail += " (options " + fmt.Sprintf("%q", options) + ")"
		}
		if log := p.BuildLog(); log != "" {
			detail += "\n" + log
		}
		p.Release()
		fail(call, int(rc), detail)
	}
	return p
}

// BuildLog returns every device's build log, each under a header line
// naming the device.
func (p *Program) BuildLog() string {
	id := p.handle("clGetProgramBuildInfo")
	var b strings.Builder
	for _, d := range p.ctx.devices {
		var size C.size_t
		if C.clGetProgramBuildInfo(id, d.id, C.CL_PROGRAM_BUILD_LOG, 0, nil, &size) != C.CL_SUCCESS || size == 0 {
			continue
		}
		buf := make([]byte, size)
		if C.clGetProgramBuildInfo(id, d.id, C.CL_PROGRAM_BUILD_LOG, size, unsafe.Pointer(&buf[0]), nil) != C.CL_SUCCESS {
			continue
		}
		if log := cString(buf); log != "" {
			fmt.Fprintf(&b, "--- build log for %s ---\n%s\n", d.Name, log)
		}
	}
	runtime.KeepAlive(p)
	return strings.TrimRight(b.String(), "\n")
}

// KernelNames lists the program's __kernel functions.
func (p *Program) KernelNames() []string {
	id := p.handle("clGetProgramInfo")
	var size C.size_t
	if C.clGetProgramInfo(id, C.CL_PROGRAM_KERNEL_NAMES, 0, nil, &size) != C.CL_SUCCESS || size == 0 {
		return nil
	}
	buf := make([]byte, size)
	C.clGetProgramInfo(id, C.CL_PROGRAM_KERNEL_NAMES, size, unsafe.Pointer(&buf[0]), nil)
	runtime.KeepAlive(p)
	s := cString(buf)
	if s == "" {
		return nil
	}
	return strings.Split(s, ";")
}

// Kernel returns the named kernel of the program.
func (p *Program) Kernel(name string) *Kernel {
	const call = "clCreateKernel"
	id := p.handle(call)
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var rc C.cl_int
	defer traceCall(call, time.Now())
	kid := C.clCreateKernel(id, cname, &rc)
	runtime.KeepAlive(p)
	if rc != C.CL_SUCCESS {
		fail(call, int(rc), fmt.Sprintf("kernel %q (the program has: %s)", name, strings.Join(p.KernelNames(), ", ")))
	}
	var nargs C.cl_uint
	C.clGetKernelInfo(kid, C.CL_KERNEL_NUM_ARGS, C.size_t(unsafe.Sizeof(nargs)), unsafe.Pointer(&nargs), nil)
	k := &Kernel{id: kid, prog: p, name: name, args: make([]any, nargs), set: make([]bool, nargs)}
	k.readArgInfo()
	runtime.SetFinalizer(k, func(k *Kernel) { releaseLater(k.Release) })
	return k
}

// String describes the program.
func (p *Program) String() string {
	return fmt.Sprintf("cl.Program with kernels [%s]", strings.Join(p.KernelNames(), ", "))
}

// Release releases the program. Kernels made from it stay usable. Release is
// idempotent.
func (p *Program) Release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.id != nil {
		C.clReleaseProgram(p.id)
		p.id = nil
	}
}

func (p *Program) handle(call string) C.cl_program {
	if p == nil {
		refuse(call, "CL_INVALID_PROGRAM", "the program is nil", "")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.id == nil {
		refuse(call, "CL_INVALID_PROGRAM", "the program was released", "build it again")
	}
	return p.id
}

// LocalMem is a __local kernel argument of the given size in bytes.
type LocalMem struct{ Bytes int }

// Local returns a __local kernel argument of nbytes bytes.
func Local(nbytes int) LocalMem { return LocalMem{Bytes: nbytes} }

// argInfo is what the compiler says about one kernel argument, when it
// says anything (CL_KERNEL_ARG_INFO_NOT_AVAILABLE otherwise).
type argInfo struct {
	name, typ string
	space     C.cl_kernel_arg_address_qualifier
}

// Kernel is one __kernel function of a program, with its arguments.
type Kernel struct {
	mu   sync.Mutex
	id   C.cl_kernel
	prog *Program
	name string
	args []any // values set, kept alive (buffers) for enqueues
	set  []bool
	info []argInfo
}

func (k *Kernel) readArgInfo() {
	info := make([]argInfo, len(k.args))
	for i := range info {
		var q C.cl_kernel_arg_address_qualifier
		if C.clGetKernelArgInfo(k.id, C.cl_uint(i), C.CL_KERNEL_ARG_ADDRESS_QUALIFIER, C.size_t(unsafe.Sizeof(q)), unsafe.Pointer(&q), nil) != C.CL_SUCCESS {
			return
		}
		info[i].space = q
		info[i].typ = kernelArgString(k.id, i, C.CL_KERNEL_ARG_TYPE_NAME)
		info[i].name = kernelArgString(k.id, i, C.CL_KERNEL_ARG_NAME)
	}
	k.info = info
}

func kernelArgString(k C.cl_kernel, i int, param C.cl_kernel_arg_info) string {
	var size C.size_t
	if C.clGetKernelArgInfo(k, C.cl_uint(i), param, 0, nil, &size) != C.CL_SUCCESS || size == 0 {
		return ""
	}
	buf := make([]byte, size)
	C.clGetKernelArgInfo(k, C.cl_uint(i), param, size, unsafe.Pointer(&buf[0]), nil)
	return cString(buf)
}

// Name is the kernel's function name.
func (k *Kernel) Name() string { return k.name }

// NumArgs is the number of arguments the kernel takes.
func (k *Kernel) NumArgs() int { return len(k.args) }

// String describes the kernel.
func (k *Kernel) String() string { return fmt.Sprintf("cl.Kernel %s (%d args)", k.name, len(k.args)) }

// SetArgs sets every argument in order. Each is a *Buffer, a sized scalar
// (int32, uint32, int64, uint64, float32, float64, int16, uint16, int8,
// uint8), a vector ([2]float32 is float2, [4]int32 is int4, any array of
// 2, 3, 4, 8 or 16 of those; complex64 is float2 and complex128 double2),
// an *SVM allocation, or a cl.Local(nbytes). A Go int is refused: OpenCL's int is 32 bits
// and long is 64, so say which with int32(x) or int64(x).
func (k *Kernel) SetArgs(args ...any) {
	if len(args) != len(k.args) {
		refuse("clSetKernelArg", "CL_INVALID_KERNEL_ARGS", fmt.Sprintf("kernel %s takes %d arguments, got %d", k.name, len(k.args), len(args)), k.signature())
	}
	for i, a := range args {
		k.SetArg(i, a)
	}
}

// signature describes the kernel's parameters, when the compiler said.
func (k *Kernel) signature() string {
	if k.info == nil {
		return ""
	}
	parts := make([]string, len(k.info))
	for i, a := range k.info {
		parts[i] = strings.TrimSpace(spaceName(a.space) + " " + a.typ + " " + a.name)
	}
	return "the kernel is " + k.name + "(" + strings.Join(parts, ", ") + ")"
}

func spaceName(q C.cl_kernel_arg_address_qualifier) string {
	switch q {
	case C.CL_KERNEL_ARG_ADDRESS_GLOBAL:
		return "__global"
	case C.CL_KERNEL_ARG_ADDRESS_LOCAL:
		return "__local"
	case C.CL_KERNEL_ARG_ADDRESS_CONSTANT:
		return "__constant"
	}
	return ""
}

// scalarTypes maps Go scalar types to the OpenCL C type names they match.
var scalarTypes = map[string][]string{
	"float32": {"float"}, "float64": {"double"}, "int32": {"int"}, "uint32": {"uint", "unsigned int"},
	"int64": {"long"}, "uint64": {"ulong", "unsigned long"}, "int16": {"short"}, "uint16": {"ushort", "unsigned short"},
	"int8": {"char"}, "uint8": {"uchar", "unsigned char"},
}

// SetArg sets argument i; see [Kernel.SetArgs] for the accepted values.
func (k *Kernel) SetArg(i int, v any) {
	const call = "clSetKernelArg"
	id := k.handle(call)
	defer traceCall(call, time.Now())
	if i < 0 || i >= len(k.args) {
		refuse(call, "CL_INVALID_ARG_INDEX", fmt.Sprintf("kernel %s has no argument %d (it takes %d)", k.name, i, len(k.args)), k.signature())
	}
	where := fmt.Sprintf("argument %d of kernel %s", i, k.name)
	var info *argInfo
	if k.info != nil {
		info = &k.info[i]
		where = fmt.Sprintf("argument %d (%s %s) of kernel %s", i, info.typ, info.name, k.name)
	}
	var rc C.cl_int
	switch a := v.(type) {
	case *Buffer:
		mid := a.handle(call)
		if a.ctx != k.prog.ctx {
			refuse(call, "CL_INVALID_CONTEXT", where+": the buffer belongs to another context", "")
		}
		if info != nil && info.space != C.CL_KERNEL_ARG_ADDRESS_GLOBAL && info.space != C.CL_KERNEL_ARG_ADDRESS_CONSTANT {
			refuse(call, "CL_INVALID_ARG_VALUE", where+" is not a __global or __constant pointer, got a *cl.Buffer", k.signature())
		}
		rc = C.gocl_set_arg_mem(id, C.cl_uint(i), mid)
		runtime.KeepAlive(a)
	case *SVM:
		p := a.live(call)
		if a.ctx != k.prog.ctx {
			refuse(call, "CL_INVALID_CONTEXT", where+": the SVM belongs to another context", "")
		}
		rc = C.clSetKernelArgSVMPointer(id, C.cl_uint(i), p)
		runtime.KeepAlive(a)
	case LocalMem:
		if a.Bytes <= 0 {
			refuse(call, "CL_INVALID_ARG_SIZE", where+": cl.Local needs a positive size in bytes", "")
		}
		if info != nil && info.space != C.CL_KERNEL_ARG_ADDRESS_LOCAL {
			refuse(call, "CL_INVALID_ARG_VALUE", where+" is not a __local pointer, got cl.Local", k.signature())
		}
		rc = C.clSetKernelArg(id, C.cl_uint(i), C.size_t(a.Bytes), nil)
	case int, uint, uintptr:
		refuse(call, "CL_INVALID_ARG_VALUE", fmt.Sprintf("%s: got a Go %T", where, v),
			"use int32(x) or int64(x): OpenCL kernel ints have a fixed size (int is 32 bits, long is 64)")
	case nil:
		refuse(call, "CL_INVALID_ARG_VALUE", where+": got nil", "pass a *cl.Buffer, a sized scalar or cl.Local(n)")
	default:
		if raw, clType, ok := vectorArg(v); ok {
			if info != nil && info.typ != "" {
				if info.space != C.CL_KERNEL_ARG_ADDRESS_PRIVATE {
					refuse(call, "CL_INVALID_ARG_VALUE", fmt.Sprintf("%s is a pointer, got a %T", where, v), "pass a *cl.Buffer (or cl.Local(n) for __local)")
				}
				if info.typ != clType {
					refuse(call, "CL_INVALID_ARG_VALUE", fmt.Sprintf("%s: a Go %T is an OpenCL %s", where, v, clType), "the kernel takes "+info.typ+"; pass the Go array of that many elements of its type")
				}
			}
			rc = C.clSetKernelArg(id, C.cl_uint(i), C.size_t(len(raw)), unsafe.Pointer(&raw[0]))
			break
		}
		var buf [8]byte
		size := scalarBytes(v, &buf)
		if size == 0 {
			refuse(call, "CL_INVALID_ARG_VALUE", fmt.Sprintf("%s: a %T cannot be a kernel argument", where, v),
				"pass a *cl.Buffer, int32/uint32/int64/uint64/float32/float64, a vector such as [4]float32, or cl.Local(n)")
		}
		goType := fmt.Sprintf("%T", v)
		if info != nil && info.typ != "" {
			if info.space != C.CL_KERNEL_ARG_ADDRESS_PRIVATE {
				refuse(call, "CL_INVALID_ARG_VALUE", fmt.Sprintf("%s is a pointer, got a %s", where, goType), "pass a *cl.Buffer (or cl.Local(n) for __local)")
			}
			if want, ok := scalarTypes[goType]; ok && !matchesType(info.typ, want) {
				refuse(call, "CL_INVALID_ARG_VALUE", fmt.Sprintf("%s: got a Go %s", where, goType), "convert it: "+goTypeFor(info.typ))
			}
		}
		rc = C.clSetKernelArg(id, C.cl_uint(i), C.size_t(size), unsafe.Pointer(&buf[0]))
	}
	runtime.KeepAlive(k)
	if rc != C.CL_SUCCESS {
		fail(call, int(rc), where)
	}
	k.mu.Lock()
	k.args[i], k.set[i] = v, true
	k.mu.Unlock()
}

func matchesType(clType string, want []string) bool {
	for _, w := range want {
		if clType == w {
			return true
		}
	}
	return false
}

// goTypeFor names the Go type to pass for an OpenCL scalar type.
func goTypeFor(clType string) string {
	for g, names := range scalarTypes {
		if matchesType(clType, names) {
			return fmt.Sprintf("the kernel takes %s, pass %s(x)", clType, g)
		}
	}
	return "the kernel takes " + clType
}

// scalarBytes writes a sized scalar's bytes and returns its size, or 0 for
// anything else.
func scalarBytes(v any, buf *[8]byte) int {
	p := unsafe.Pointer(&buf[0])
	switch a := v.(type) {
	case float32:
		*(*float32)(p) = a
		return 4
	case float64:
		*(*float64)(p) = a
		return 8
	case int32:
		*(*int32)(p) = a
		return 4
	case uint32:
		*(*uint32)(p) = a
		return 4
	case int64:
		*(*int64)(p) = a
		return 8
	case uint64:
		*(*uint64)(p) = a
		return 8
	case int16:
		*(*int16)(p) = a
		return 2
	case uint16:
		*(*uint16)(p) = a
		return 2
	case int8:
		buf[0] = byte(a)
		return 1
	case uint8:
		buf[0] = a
		return 1
	}
	return 0
}

// Release releases the kernel. Release is idempotent.
func (k *Kernel) Release() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.id != nil {
		C.clReleaseKernel(k.id)
		k.id = nil
	}
	k.args = make([]any, len(k.args))
}

func (k *Kernel) handle(call string) C.cl_kernel {
	if k == nil {
		refuse(call, "CL_INVALID_KERNEL", "the kernel is nil", "")
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.id == nil {
		refuse(call, "CL_INVALID_KERNEL", "the kernel was released", "get it again with prog.Kernel(name)")
	}
	return k.id
}

// EnqueueKernel runs k over a global range of 1 to 3 dimensions. local may
// be nil to let OpenCL choose the work-group size. Options: WaitFor,
// GlobalOffset (where global IDs start), NonBlocking (the default for kernels is to return at once, as OpenCL does;
// NonBlocking is accepted for symmetry). Wait on the returned event.
func EnqueueKernel(q *Queue, k *Kernel, global, local []int, opts ...Option) *Event {
	const call = "clEnqueueNDRangeKernel"
	o := parseOptions(call, opts, optWaitFor, optNonBlocking, optGlobalOffset)
	qid := q.handle(call)
	kid := k.handle(call)
	if k.prog.ctx != q.ctx {
		refuse(call, "CL_INVALID_CONTEXT", "the kernel and the queue belong to different contexts", "")
	}
	if len(global) < 1 || len(global) > 3 {
		refuse(call, "CL_INVALID_WORK_DIMENSION", fmt.Sprintf("global has %d dimensions", len(global)), "pass 1 to 3 sizes, e.g. []int{n}")
	}
	if local != nil && len(local) != len(global) {
		refuse(call, "CL_INVALID_WORK_DIMENSION", fmt.Sprintf("global has %d dimensions but local has %d", len(global), len(local)), "pass nil for local to let OpenCL choose")
	}
	gs := make([]C.size_t, len(global))
	var items int64 = 1
	for i, g := range global {
		if g <= 0 {
			refuse(call, "CL_INVALID_GLOBAL_WORK_SIZE", fmt.Sprintf("global[%d] = %d", i, g), "every size must be positive")
		}
		gs[i] = C.size_t(g)
		items *= int64(g)
	}
	var ls []C.size_t
	if local != nil {
		ls = make([]C.size_t, len(local))
		for i, l := range local {
			if l <= 0 {
				refuse(call, "CL_INVALID_WORK_GROUP_SIZE", fmt.Sprintf("local[%d] = %d", i, l), "every size must be positive, or pass nil")
			}
			ls[i] = C.size_t(l)
		}
	}
	k.mu.Lock()
	args := append([]any(nil), k.args...)
	for i, s := range k.set {
		if !s {
			k.mu.Unlock()
			refuse(call, "CL_INVALID_KERNEL_ARGS", fmt.Sprintf("argument %d of kernel %s was never set", i, k.name), "call k.SetArgs(...) with every argument first; "+k.signature())
		}
	}
	k.mu.Unlock()
	st := newEventState()
	st.hold(k, args)
	for _, a := range args {
		if b, ok := a.(*Buffer); ok {
			b.handle(call) // refuse buffers released since SetArgs
			b.use(st)
		}
		if s, ok := a.(*SVM); ok {
			s.live(call) // refuse SVM freed since SetArgs
			s.r.use(st)
		}
	}
	wl := waitList(call, q.ctx, o.waitFor)
	var lp *C.size_t
	if ls != nil {
		lp = &ls[0]
	}
	var op *C.size_t
	if o.offset != nil {
		if len(o.offset) != len(global) {
			refuse(call, "CL_INVALID_GLOBAL_OFFSET", fmt.Sprintf("global has %d dimensions but cl.GlobalOffset has %d", len(global), len(o.offset)), "give one offset per dimension")
		}
		os := make([]C.size_t, len(o.offset))
		for i, x := range o.offset {
			os[i] = C.size_t(x)
		}
		op = &os[0]
	}
	var ev C.cl_event
	faultguard.Run() // a kernel's fault must reach the engine's handler, whatever a driver installed since
	start := time.Now()
	rc := C.clEnqueueNDRangeKernel(qid, kid, C.cl_uint(len(gs)), op, &gs[0], lp, C.cl_uint(len(wl)), firstEvent(wl), &ev)
	ret := time.Now()
	runtime.KeepAlive(q)
	runtime.KeepAlive(k)
	runtime.KeepAlive(args)
	runtime.KeepAlive(o.waitFor)
	if rc != C.CL_SUCCESS {
		st.settle(int(rc))
		fail(call, int(rc), fmt.Sprintf("kernel %s, global %v, local %v", k.name, global, local))
	}
	return newEvent(q, ev, st, eventInfo{command: "kernel " + k.name, api: call, nonBlocking: true, start: start, ret: ret,
		kernel: &launch{name: k.name, global: append([]int(nil), global...), local: append([]int(nil), local...), offset: o.offset}})
}

// launch describes a kernel launch for cards and traces.
type launch struct {
	name                  string
	global, local, offset []int
}

// withArgInfo asks the compiler to keep argument names and types, so that
// SetArg can say which Go type an argument needs.
func withArgInfo(options string) string {
	if strings.Contains(options, "-cl-kernel-arg-info") {
		return options
	}
	return strings.TrimSpace(options + " -cl-kernel-arg-info")
}
