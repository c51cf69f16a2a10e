// Package rt is the part of gocl that the code generated for a compiled cell
// calls at run time, inside the loaded plugin: it registers the cell's
// symbols with the kernel and turns a panic in compiled code into one value
// that carries the frames of cell code.
//
// It is shared by the gocl binary and every plugin (one package in one
// process), so a plugin's init registers into the kernel's table.
package rt

import (
	"fmt"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"sync"
)

var (
	mu      sync.Mutex
	symbols = map[string]map[string]reflect.Value{}
)

// Register records the symbols of the compiled cell package path, as yaegi
// wants them: a function or constant by value, a variable as the addressable
// variable itself (reflect.ValueOf(&v).Elem()), a type as a nil pointer to it.
// Generated code calls it from the package's init.
func Register(path string, syms map[string]reflect.Value) {
	mu.Lock()
	defer mu.Unlock()
	symbols[path] = syms
}

// Symbols returns what the package path registered, or nil.
func Symbols(path string) map[string]reflect.Value {
	mu.Lock()
	defer mu.Unlock()
	return symbols[path]
}

// Rethrow, deferred by the generated wrapper of each compiled function the
// interpreter calls, turns a panic into a *Panic with the cell frames of the
// panicking goroutine. A *Panic passes through unchanged.
func Rethrow() {
	r := recover()
	if r == nil {
		return
	}
	if p, ok := r.(*Panic); ok {
		panic(p)
	}
	panic(&Panic{Value: r, Frames: cellFrames()})
}

// Frame is one call in cell code.
type Frame struct {
	Cell string // the kernel's name of the cell, "cell5"
	Line int    // line in the cell
	Func string // function name, without the package
}

// Panic is a panic of compiled cell code. Error gives Go's message first,
// then one line per cell frame, innermost first, in the form
// "  inside F (compiled cell5, line 7)".
type Panic struct {
	Value  any
	Frames []Frame
}

// cellFileRE matches the file of a compiled cell, as its build records it
// (goclsession/c3/cell5.go: the build directory is trimmed away).
var cellFileRE = regexp.MustCompile(`^goclsession/c\d+/(cell\d+)\.go$`)

func cellFrames() []Frame {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	var out []Frame
	for {
		f, more := frames.Next()
		if m := cellFileRE.FindStringSubmatch(f.File); m != nil {
			fn := f.Function
			if i := strings.LastIndex(fn, "/"); i >= 0 {
				fn = fn[i+1:]
			}
			if _, rest, ok := strings.Cut(fn, "."); ok {
				fn = rest
			}
			out = append(out, Frame{Cell: m[1], Line: f.Line, Func: fn})
		}
		if !more {
			return out
		}
	}
}

// Error returns Go's message of the panic value and the cell frames.
func (p *Panic) Error() string {
	var b strings.Builder
	switch v := p.Value.(type) {
	case error:
		b.WriteString(v.Error())
	case fmt.Stringer:
		b.WriteString(v.String())
	default:
		fmt.Fprintf(&b, "%v", v)
	}
	for _, f := range p.Frames {
		fmt.Fprintf(&b, "\n  inside %s (compiled %s, line %d)", f.Func, f.Cell, f.Line)
	}
	return b.String()
}

// ErrorName is the error's name in the notebook: the wrapped value's own
// (a *cl.Error says "CL_INVALID_VALUE", say) or "panic".
func (p *Panic) ErrorName() string {
	if n, ok := p.Value.(interface{ ErrorName() string }); ok {
		return n.ErrorName()
	}
	return "panic"
}

// Unwrap returns the panic value when it is an error.
func (p *Panic) Unwrap() error {
	err, _ := p.Value.(error)
	return err
}

// NewPanic returns r as a *Panic with the cell frames of the panicking
// goroutine; call it in the deferred function that recovered r.
func NewPanic(r any) *Panic {
	if p, ok := r.(*Panic); ok {
		return p
	}
	return &Panic{Value: r, Frames: cellFrames()}
}
