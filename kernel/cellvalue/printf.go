package cellvalue

import (
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"
)

func appendf(b []byte, format string, a any) []byte { return fmt.Appendf(b, format, a) }

// Sprintf is fmt.Sprintf for arguments that may be boxes or cell values.
func Sprintf(format string, a ...any) string {
	p := newPrinter()
	p.guard(func() { p.doPrintf(format, a) }, func() []byte { return fmt.Appendf(nil, format, rawArgs(a)...) })
	s := string(p.buf)
	p.free()
	return s
}

// Sprint is fmt.Sprint for arguments that may be boxes or cell values.
func Sprint(a ...any) string {
	p := newPrinter()
	p.guard(func() { p.doPrint(a) }, func() []byte { return fmt.Append(nil, rawArgs(a)...) })
	s := string(p.buf)
	p.free()
	return s
}

// Sprintln is fmt.Sprintln for arguments that may be boxes or cell values.
func Sprintln(a ...any) string {
	p := newPrinter()
	p.guard(func() { p.doPrintln(a) }, func() []byte { return fmt.Appendln(nil, rawArgs(a)...) })
	s := string(p.buf)
	p.free()
	return s
}

// Fprintf is fmt.Fprintf for arguments that may be boxes or cell values.
func Fprintf(w io.Writer, format string, a ...any) (int, error) {
	p := newPrinter()
	p.guard(func() { p.doPrintf(format, a) }, func() []byte { return fmt.Appendf(nil, format, rawArgs(a)...) })
	n, err := w.Write(p.buf)
	p.free()
	return n, err
}

// Fprint is fmt.Fprint for arguments that may be boxes or cell values.
func Fprint(w io.Writer, a ...any) (int, error) {
	p := newPrinter()
	p.guard(func() { p.doPrint(a) }, func() []byte { return fmt.Append(nil, rawArgs(a)...) })
	n, err := w.Write(p.buf)
	p.free()
	return n, err
}

// Fprintln is fmt.Fprintln for arguments that may be boxes or cell values.
func Fprintln(w io.Writer, a ...any) (int, error) {
	p := newPrinter()
	p.guard(func() { p.doPrintln(a) }, func() []byte { return fmt.Appendln(nil, rawArgs(a)...) })
	n, err := w.Write(p.buf)
	p.free()
	return n, err
}

// Printf is fmt.Printf for arguments that may be boxes or cell values.
func Printf(format string, a ...any) (int, error) { return Fprintf(os.Stdout, format, a...) }

// Print is fmt.Print for arguments that may be boxes or cell values.
func Print(a ...any) (int, error) { return Fprint(os.Stdout, a...) }

// Println is fmt.Println for arguments that may be boxes or cell values.
func Println(a ...any) (int, error) { return Fprintln(os.Stdout, a...) }

// Appendf is fmt.Appendf for arguments that may be boxes or cell values.
func Appendf(b []byte, format string, a ...any) []byte {
	p := newPrinter()
	p.guard(func() { p.doPrintf(format, a) }, func() []byte { return fmt.Appendf(nil, format, rawArgs(a)...) })
	b = append(b, p.buf...)
	p.free()
	return b
}

// Append is fmt.Append for arguments that may be boxes or cell values.
func Append(b []byte, a ...any) []byte {
	p := newPrinter()
	p.guard(func() { p.doPrint(a) }, func() []byte { return fmt.Append(nil, rawArgs(a)...) })
	b = append(b, p.buf...)
	p.free()
	return b
}

// Appendln is fmt.Appendln for arguments that may be boxes or cell values.
func Appendln(b []byte, a ...any) []byte {
	p := newPrinter()
	p.guard(func() { p.doPrintln(a) }, func() []byte { return fmt.Appendln(nil, rawArgs(a)...) })
	b = append(b, p.buf...)
	p.free()
	return b
}

// Errorf is fmt.Errorf for arguments that may be boxes or cell values. The
// error it returns has fmt's own types (*fmt.wrapError, *fmt.wrapErrors) and
// wraps the %w operands exactly as given, so boxes stay boxes: the engine
// Unboxes what errors.Unwrap returns.
func Errorf(format string, a ...any) error {
	if len(a) == 0 && !strings.Contains(format, "%") {
		return errors.New(format)
	}
	p := newPrinter()
	p.wrapErrs = true
	p.guard(func() { p.doPrintf(format, a) }, func() []byte { return fmt.Appendf(nil, format, rawArgs(a)...) })
	s := string(p.buf)
	wrapped := slices.Clone(p.wrapped)
	reordered := p.reordered
	p.free()
	switch len(wrapped) {
	case 0:
		return errors.New(s)
	case 1:
		e, _ := a[wrapped[0]].(error)
		return newWrapError(s, e)
	}
	if reordered {
		slices.Sort(wrapped)
	}
	var errs []error
	for i, n := range wrapped {
		if i > 0 && wrapped[i-1] == n {
			continue
		}
		if e, ok := a[n].(error); ok {
			errs = append(errs, e)
		}
	}
	return newWrapErrors(s, errs)
}

// rethrow carries a panic that fmt itself would let through (a method
// panicking while its own panic is printed) past guard.
type rethrow struct{ v any }

// guard runs one print; should this package fail on a value it does not
// understand, the output is what fmt gives for the raw values instead.
func (p *printer) guard(run func(), fallback func() []byte) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if re, ok := r.(rethrow); ok {
			panic(re.v)
		}
		p.buf = fallback()
	}()
	run()
}

func rawArgs(a []any) []any {
	out := make([]any, len(a))
	for i, x := range a {
		out[i] = x
		if raw, _, ok := Unbox(x); ok {
			out[i] = raw
		}
	}
	return out
}

func isString(a any) bool {
	if a == nil {
		return false
	}
	x := argVal(a)
	return x.v.IsValid() && x.v.Kind() == reflect.String
}

func (p *printer) doPrint(a []any) {
	prevString := false
	for n, arg := range a {
		s := isString(arg)
		if n > 0 && !s && !prevString {
			p.buf = append(p.buf, ' ')
		}
		p.printArg(arg, 'v')
		prevString = s
	}
}

func (p *printer) doPrintln(a []any) {
	for n, arg := range a {
		if n > 0 {
			p.buf = append(p.buf, ' ')
		}
		p.printArg(arg, 'v')
	}
	p.buf = append(p.buf, '\n')
}

const maxNum = 1e6

func tooLarge(x int) bool { return x > maxNum || x < -maxNum }

func parsenum(s string, start, end int) (num int, isnum bool, newi int) {
	if start >= end {
		return 0, false, end
	}
	for newi = start; newi < end && '0' <= s[newi] && s[newi] <= '9'; newi++ {
		if tooLarge(num) {
			return 0, false, end
		}
		num = num*10 + int(s[newi]-'0')
		isnum = true
	}
	return
}

// intFromArg reads a * width or precision; a box counts as its raw value.
func intFromArg(a []any, argNum int) (num int, isInt bool, newArgNum int) {
	newArgNum = argNum
	if argNum < len(a) {
		arg := a[argNum]
		if b := boxOf(arg); b != nil && b.raw.IsValid() && b.raw.CanInterface() {
			arg = b.raw.Interface()
		}
		num, isInt = arg.(int)
		if !isInt {
			switch v := reflect.ValueOf(arg); v.Kind() {
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
				n := v.Int()
				if int64(int(n)) == n {
					num, isInt = int(n), true
				}
			case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
				n := v.Uint()
				if int64(n) >= 0 && uint64(int(n)) == n {
					num, isInt = int(n), true
				}
			}
		}
		newArgNum = argNum + 1
		if tooLarge(num) {
			num, isInt = 0, false
		}
	}
	return
}

func parseArgNumber(format string) (index int, wid int, ok bool) {
	if len(format) < 3 {
		return 0, 1, false
	}
	for i := 1; i < len(format); i++ {
		if format[i] == ']' {
			width, ok, newi := parsenum(format, 1, i)
			if !ok || newi != i {
				return 0, i + 1, false
			}
			return width - 1, i + 1, true
		}
	}
	return 0, 1, false
}

func (p *printer) argNumber(argNum int, format string, i int, numArgs int) (int, int, bool) {
	if len(format) <= i || format[i] != '[' {
		return argNum, i, false
	}
	p.reordered = true
	index, wid, ok := parseArgNumber(format[i:])
	if ok && 0 <= index && index < numArgs {
		return index, i + wid, true
	}
	p.goodArgNum = false
	return argNum, i + wid, ok
}

func (p *printer) setV() {
	p.sharpV, p.sharp = p.sharp, false
	p.plusV, p.plus = p.plus, false
}

// doPrintf is fmt's doPrintf: the same parse of flags, indexes, widths and
// precisions, the same reports of bad ones.
func (p *printer) doPrintf(format string, a []any) {
	end := len(format)
	argNum := 0
	afterIndex := false
	p.reordered = false
formatLoop:
	for i := 0; i < end; {
		p.goodArgNum = true
		lasti := i
		for i < end && format[i] != '%' {
			i++
		}
		if i > lasti {
			p.buf = append(p.buf, format[lasti:i]...)
		}
		if i >= end {
			break
		}
		i++
		p.clearflags()
	simpleFormat:
		for ; i < end; i++ {
			c := format[i]
			switch c {
			case '#':
				p.sharp = true
			case '0':
				p.zero = true
			case '+':
				p.plus = true
			case '-':
				p.minus = true
			case ' ':
				p.space = true
			default:
				if 'a' <= c && c <= 'z' && argNum < len(a) {
					switch c {
					case 'w':
						p.wrapped = append(p.wrapped, argNum)
						p.setV()
					case 'v':
						p.setV()
					}
					p.printArg(a[argNum], rune(c))
					argNum++
					i++
					continue formatLoop
				}
				break simpleFormat
			}
		}

		argNum, i, afterIndex = p.argNumber(argNum, format, i, len(a))

		if i < end && format[i] == '*' {
			i++
			p.wid, p.widPresent, argNum = intFromArg(a, argNum)
			if !p.widPresent {
				p.buf = append(p.buf, "%!(BADWIDTH)"...)
			}
			if p.wid < 0 {
				p.wid = -p.wid
				p.minus = true
				p.zero = false
			}
			afterIndex = false
		} else {
			p.wid, p.widPresent, i = parsenum(format, i, end)
			if afterIndex && p.widPresent {
				p.goodArgNum = false
			}
		}

		if i+1 < end && format[i] == '.' {
			i++
			if afterIndex {
				p.goodArgNum = false
			}
			argNum, i, afterIndex = p.argNumber(argNum, format, i, len(a))
			if i < end && format[i] == '*' {
				i++
				p.prec, p.precPresent, argNum = intFromArg(a, argNum)
				if p.prec < 0 {
					p.prec = 0
					p.precPresent = false
				}
				if !p.precPresent {
					p.buf = append(p.buf, "%!(BADPREC)"...)
				}
				afterIndex = false
			} else {
				p.prec, p.precPresent, i = parsenum(format, i, end)
				if !p.precPresent {
					p.prec = 0
					p.precPresent = true
				}
			}
		}

		if !afterIndex {
			argNum, i, afterIndex = p.argNumber(argNum, format, i, len(a))
		}

		if i >= end {
			p.buf = append(p.buf, "%!(NOVERB)"...)
			break
		}

		verb, size := utf8.DecodeRuneInString(format[i:])
		i += size

		switch {
		case verb == '%':
			p.buf = append(p.buf, '%')
		case !p.goodArgNum:
			p.buf = append(p.buf, "%!"...)
			p.buf = utf8.AppendRune(p.buf, verb)
			p.buf = append(p.buf, "(BADINDEX)"...)
		case argNum >= len(a):
			p.buf = append(p.buf, "%!"...)
			p.buf = utf8.AppendRune(p.buf, verb)
			p.buf = append(p.buf, "(MISSING)"...)
		default:
			switch verb {
			case 'w':
				p.wrapped = append(p.wrapped, argNum)
				p.setV()
			case 'v':
				p.setV()
			}
			p.printArg(a[argNum], verb)
			argNum++
		}
	}

	if !p.reordered && argNum < len(a) {
		p.clearflags()
		p.buf = append(p.buf, "%!(EXTRA "...)
		for i, arg := range a[argNum:] {
			if i > 0 {
				p.buf = append(p.buf, ", "...)
			}
			if arg == nil {
				p.buf = append(p.buf, "<nil>"...)
				continue
			}
			x := argVal(arg)
			p.buf = append(p.buf, typeString(x)...)
			p.buf = append(p.buf, '=')
			p.printArg(arg, 'v')
		}
		p.buf = append(p.buf, ')')
	}
}
