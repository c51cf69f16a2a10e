package cellvalue

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// The printer follows fmt's pp (print.go) step by step: which methods are
// called where, how each kind is laid out, and how errors in a format are
// reported. Leaves (numbers, strings, byte slices, addresses) are formatted
// by fmt itself, given a plain value and a directive rebuilt from the flags,
// so padding and number formats are fmt's own; everything that names a type
// or a field comes from the Type descriptors.

// val is a raw value with its static type (nil: a compiled value, described
// by its reflect type). ro marks a value reached through an unexported field,
// on which Go calls no methods.
type val struct {
	v  reflect.Value
	t  *Type
	ro bool
	w  any // the yaegi wrapper v came out of, when no Resolver named it: its methods are the value's
}

type flags struct {
	wid, prec                                                               int
	widPresent, precPresent, minus, plus, sharp, space, zero, plusV, sharpV bool
}

type printer struct {
	buf []byte
	flags
	erroring, panicking, wrapErrs, reordered, goodArgNum bool
	wrapped                                              []int
	cur                                                  val
	curSet                                               bool
}

var printerPool = sync.Pool{New: func() any { return new(printer) }}

func newPrinter() *printer {
	p := printerPool.Get().(*printer)
	p.flags = flags{}
	p.erroring, p.panicking, p.wrapErrs, p.reordered = false, false, false, false
	p.wrapped = p.wrapped[:0]
	p.cur, p.curSet = val{}, false
	return p
}

func (p *printer) free() {
	if cap(p.buf) > 64<<10 {
		p.buf = nil
	} else {
		p.buf = p.buf[:0]
	}
	p.cur = val{}
	printerPool.Put(p)
}

// fromState takes the flags of a directive that compiled fmt handed a box.
func (p *printer) fromState(s fmt.State, verb rune) {
	p.wid, p.widPresent = s.Width()
	p.prec, p.precPresent = s.Precision()
	p.minus, p.space, p.zero = s.Flag('-'), s.Flag(' '), s.Flag('0')
	if verb == 'v' {
		p.sharpV, p.plusV = s.Flag('#'), s.Flag('+')
	} else {
		p.sharp, p.plus = s.Flag('#'), s.Flag('+')
	}
}

// Write appends to the output: the printer is the fmt.State of Format methods.
func (p *printer) Write(b []byte) (int, error) { p.buf = append(p.buf, b...); return len(b), nil }

// WriteString appends to the output.
func (p *printer) WriteString(s string) (int, error) { p.buf = append(p.buf, s...); return len(s), nil }

// Width returns the directive's width.
func (p *printer) Width() (int, bool) { return p.wid, p.widPresent }

// Precision returns the directive's precision.
func (p *printer) Precision() (int, bool) { return p.prec, p.precPresent }

// Flag reports whether the directive has the flag c, as fmt.State's Flag does.
func (p *printer) Flag(c int) bool {
	switch c {
	case '-':
		return p.minus
	case '+':
		return p.plus || p.plusV
	case '#':
		return p.sharp || p.sharpV
	case ' ':
		return p.space
	case '0':
		return p.zero
	}
	return false
}

func (p *printer) clearflags() { p.flags = flags{} }

// directiveWith rebuilds a directive from the current flags.
func (p *printer) directiveWith(verb rune, sharp, plus bool) string {
	b := make([]byte, 0, 16)
	b = append(b, '%')
	if sharp {
		b = append(b, '#')
	}
	if plus {
		b = append(b, '+')
	}
	if p.minus {
		b = append(b, '-')
	}
	if p.space {
		b = append(b, ' ')
	}
	if p.zero {
		b = append(b, '0')
	}
	if p.widPresent {
		b = strconv.AppendInt(b, int64(p.wid), 10)
	}
	if p.precPresent {
		b = append(b, '.')
		b = strconv.AppendInt(b, int64(p.prec), 10)
	}
	return string(utf8.AppendRune(b, verb))
}

func (p *printer) directive(verb rune) string {
	return p.directiveWith(verb, p.sharp || p.sharpV, p.plus || p.plusV)
}

// leaf formats a plain value of kind k with fmt. A %v whose + or # flag was
// not turned into %+v/%#v (the value inside a bad-verb report) cannot be
// written as a directive; the verb fmt uses for %v of that kind is.
func (p *printer) leaf(verb rune, plain any, k reflect.Kind) {
	if verb == 'v' && ((p.sharp && !p.sharpV) || (p.plus && !p.plusV)) {
		switch k {
		case reflect.Bool:
			verb = 't'
		case reflect.String:
			verb = 's'
		case reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
			verb = 'g'
		default:
			verb = 'd'
		}
	}
	p.buf = fmt.Appendf(p.buf, p.directive(verb), plain)
}

func (p *printer) fmtS(s string)                 { p.leaf('s', s, reflect.String) }
func (p *printer) fmtString(s string, verb rune) { p.leaf(verb, s, reflect.String) }

func (p *printer) padNil() {
	p.buf = fmt.Appendf(p.buf, p.directiveWith('v', false, false), nil)
}

func (p *printer) fmt0x64(u uint64, leading0x bool) {
	p.buf = fmt.Appendf(p.buf, p.directiveWith('x', leading0x, p.plus), u)
}

func typeString(x val) string {
	if x.t != nil {
		if x.t.String != "" {
			return x.t.String
		}
		if x.t.Name != "" {
			return x.t.Name
		}
	}
	if x.v.IsValid() {
		return x.v.Type().String()
	}
	return "<nil>"
}

// argVal turns an argument into a typed value.
func argVal(a any) val {
	if b := boxOf(a); b != nil {
		x := unwrapStored(val{v: b.raw, t: b.t})
		if x.t != nil && (x.t.Kind == Interface || structural(x.t) != nil && structural(x.t).Kind == Interface) {
			return resolveValue(x.v, false)
		}
		if !fits(x.v, x.t) {
			x.t = nil
		}
		return x
	}
	return resolveValue(reflect.ValueOf(a), false)
}

func (p *printer) printArg(a any, verb rune) {
	p.curSet = false
	if a == nil {
		p.printNil(verb)
		return
	}
	x := argVal(a)
	if !x.v.IsValid() {
		p.printNil(verb)
		return
	}
	p.cur, p.curSet = x, true
	switch verb {
	case 'T':
		p.fmtS(typeString(x))
		return
	case 'p':
		p.fmtPointer(x, 'p')
		return
	}
	if x.t == nil && x.w == nil && plainVerb(verb) && !needsWalk(x.v.Type()) && x.v.CanInterface() {
		c := x.v.Interface()
		if _, isErr := c.(error); verb == 'w' && p.wrapErrs && isErr {
			verb = 'v'
		}
		p.buf = fmt.Appendf(p.buf, p.directive(verb), c)
		return
	}
	if !p.handleMethods(x, verb) {
		p.printValue(x, verb, 0)
	}
}

// plainVerb reports whether verb can be rebuilt into a directive for fmt:
// one that fmt's parser reads as a flag, width, index or precision cannot.
func plainVerb(verb rune) bool {
	return !strings.ContainsRune("#0+- 123456789[].*%", verb)
}

func (p *printer) printNil(verb rune) {
	switch verb {
	case 'T', 'v':
		p.padNil()
	default:
		p.curSet = false
		p.badVerb(verb)
	}
}

// bound holds the methods fmt would find on a value, bound to it.
type bound struct {
	format             func(fmt.State, rune)
	goString, err, str func() string
}

func methodsOf(x val) bound {
	var m bound
	if x.t != nil {
		ms, raw := x.t.Methods, x.v
		if ms == nil {
			return m
		}
		if ms.Format != nil {
			m.format = func(s fmt.State, verb rune) { ms.Format(raw, s, verb) }
		}
		if ms.GoString != nil {
			m.goString = func() string { return ms.GoString(raw) }
		}
		if ms.Error != nil {
			m.err = func() string { return ms.Error(raw) }
		}
		if ms.String != nil {
			m.str = func() string { return ms.String(raw) }
		}
		return m
	}
	var a any
	switch {
	case x.w != nil:
		a = x.w
	case !x.v.IsValid() || !x.v.CanInterface():
		return m
	default:
		a = x.v.Interface()
	}
	if f, ok := a.(fmt.Formatter); ok {
		m.format = f.Format
	}
	if g, ok := a.(fmt.GoStringer); ok {
		m.goString = g.GoString
	}
	if e, ok := a.(error); ok {
		m.err = e.Error
	}
	if s, ok := a.(fmt.Stringer); ok {
		m.str = s.String
	}
	return m
}

func (p *printer) handleMethods(x val, verb rune) bool {
	if p.erroring {
		return false
	}
	m := methodsOf(x)
	if verb == 'w' {
		if m.err == nil || !p.wrapErrs {
			p.cur, p.curSet = x, true
			p.badVerb(verb)
			return true
		}
		verb = 'v'
	}
	switch {
	case m.format != nil:
		p.call(x, verb, "Format", func() { m.format(p, verb) })
		return true
	case p.sharpV:
		if m.goString != nil {
			p.call(x, verb, "GoString", func() { p.fmtS(m.goString()) })
			return true
		}
		return false
	}
	switch verb {
	case 'v', 's', 'x', 'X', 'q':
		if m.err != nil {
			p.call(x, verb, "Error", func() { p.fmtString(m.err(), verb) })
			return true
		}
		if m.str != nil {
			p.call(x, verb, "String", func() { p.fmtString(m.str(), verb) })
			return true
		}
	}
	return false
}

func (p *printer) call(x val, verb rune, method string, f func()) {
	defer p.catchPanic(x, verb, method)
	f()
}

func (p *printer) catchPanic(x val, verb rune, method string) {
	err := recover()
	if err == nil {
		return
	}
	if x.v.Kind() == reflect.Pointer && x.v.IsNil() {
		p.buf = append(p.buf, "<nil>"...)
		return
	}
	if p.panicking {
		panic(rethrow{err})
	}
	old := p.flags
	p.clearflags()
	p.buf = append(p.buf, "%!"...)
	p.buf = utf8.AppendRune(p.buf, verb)
	p.buf = append(p.buf, "(PANIC="...)
	p.buf = append(p.buf, method...)
	p.buf = append(p.buf, " method: "...)
	p.panicking = true
	p.printArg(err, 'v')
	p.panicking = false
	p.buf = append(p.buf, ')')
	p.flags = old
}

func (p *printer) badVerb(verb rune) {
	p.erroring = true
	p.buf = append(p.buf, "%!"...)
	p.buf = utf8.AppendRune(p.buf, verb)
	p.buf = append(p.buf, '(')
	if p.curSet {
		x := p.cur
		p.buf = append(p.buf, typeString(x)...)
		p.buf = append(p.buf, '=')
		if x.t == nil && x.v.CanInterface() && !needsWalk(x.v.Type()) {
			p.wholeV(x.v.Interface())
		} else {
			p.printValue(x, 'v', 0)
		}
	} else {
		p.buf = append(p.buf, "<nil>"...)
	}
	p.buf = append(p.buf, ')')
	p.erroring = false
}

// wholeV prints a compiled value with %v and the current flags, methods off
// (fmt reports bad verbs with methods off).
func (p *printer) wholeV(c any) {
	x := val{v: reflect.ValueOf(c)}
	switch c.(type) {
	case []byte:
		p.buf = fmt.Appendf(p.buf, p.directive('v'), c)
		return
	}
	p.printValue(x, 'v', 0)
}

func verbOK(k reflect.Kind, verb rune) bool {
	switch k {
	case reflect.Bool:
		return verb == 't' || verb == 'v'
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		switch verb {
		case 'v', 'd', 'b', 'o', 'O', 'x', 'X', 'c', 'q', 'U':
			return true
		}
	case reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		switch verb {
		case 'v', 'b', 'g', 'G', 'x', 'X', 'f', 'F', 'e', 'E':
			return true
		}
	case reflect.String:
		switch verb {
		case 'v', 's', 'x', 'X', 'q':
			return true
		}
	}
	return false
}

func plain(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Bool:
		return v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint()
	case reflect.Float32:
		return float32(v.Float())
	case reflect.Float64:
		return v.Float()
	case reflect.Complex64:
		return complex64(v.Complex())
	case reflect.Complex128:
		return v.Complex()
	case reflect.String:
		return v.String()
	}
	return nil
}

func (p *printer) canInterface(x val) bool {
	return !x.ro && (x.t != nil || x.v.CanInterface())
}
