package engine

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"math"
	"reflect"
	"strings"
)

// The debugger's evaluate request (JupyterLab's Evaluate Code dialog and
// its hovers) takes a Go expression over the stopped frame's variables and
// the session's globals, without running the cell's code: names, fields
// (x.f), indexing (xs[i], m[k], s[i]), len and cap, literals, parentheses,
// and the unary and binary operators on numbers, strings and booleans.
// Operands follow Go's rules: two typed operands have the same type, an
// untyped constant takes the other operand's type (or is refused when it
// does not fit), integer arithmetic wraps as Go's does, and an integer
// division by zero or an index out of range is an error, never a value.
// Anything else (calls, conversions, composite literals, shifts) is
// refused with a message that says what is supported.

// evalError is an expression the debugger cannot or will not evaluate.
type evalError string

func (e evalError) Error() string { return string(e) }

// operand is a value, or an untyped constant (val set, v invalid).
type operand struct {
	v   reflect.Value
	val constant.Value
}

// evalExpr evaluates expr in the frame frameID (when stopped) and the
// globals; d.mu is held.
func (d *debugState) evalExpr(expr string, frameID int) (_ reflect.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = evalError(fmt.Sprintf("cannot evaluate %q: %v", expr, r))
		}
	}()
	x, err := parser.ParseExpr(expr)
	if err != nil {
		return reflect.Value{}, evalError(fmt.Sprintf("%q is not a Go expression: %v", expr, err))
	}
	op, err := d.eval(x, frameID)
	if err != nil {
		return reflect.Value{}, err
	}
	if op.v.IsValid() {
		return op.v, nil
	}
	return defaultValue(op.val)
}

func (d *debugState) eval(x ast.Expr, frameID int) (operand, error) {
	switch x := x.(type) {
	case *ast.ParenExpr:
		return d.eval(x.X, frameID)
	case *ast.BasicLit:
		v := constant.MakeFromLiteral(x.Value, x.Kind, 0)
		if v.Kind() == constant.Unknown {
			return operand{}, evalError("bad literal " + x.Value)
		}
		return operand{val: v}, nil
	case *ast.Ident:
		switch x.Name {
		case "true", "false":
			return operand{val: constant.MakeBool(x.Name == "true")}, nil
		}
		v, ok := d.lookup(x.Name, frameID)
		if !ok {
			return operand{}, evalError(fmt.Sprintf("no variable %s in the frame or the session", x.Name))
		}
		return operand{v: v}, nil
	case *ast.SelectorExpr:
		op, err := d.eval(x.X, frameID)
		if err != nil {
			return op, err
		}
		v := deref(op.v)
		if v.Kind() != reflect.Struct {
			return operand{}, evalError(fmt.Sprintf("%s is not a struct: the debugger evaluates fields, not methods", typeText(op.v)))
		}
		f := v.FieldByName(x.Sel.Name)
		if !f.IsValid() {
			return operand{}, evalError(fmt.Sprintf("%s has no field %s", v.Type(), x.Sel.Name))
		}
		return operand{v: f}, nil
	case *ast.IndexExpr:
		return d.evalIndex(x, frameID)
	case *ast.CallExpr:
		return d.evalBuiltin(x, frameID)
	case *ast.UnaryExpr:
		op, err := d.eval(x.X, frameID)
		if err != nil {
			return op, err
		}
		return unaryOp(x.Op, op)
	case *ast.BinaryExpr:
		l, err := d.eval(x.X, frameID)
		if err != nil {
			return l, err
		}
		r, err := d.eval(x.Y, frameID)
		if err != nil {
			return r, err
		}
		return binaryOp(x.Op, l, r)
	}
	return operand{}, evalError(fmt.Sprintf("the debugger evaluates names, fields, indexing, len, cap and operators on numbers, strings and booleans, not %T", x))
}

func (d *debugState) evalIndex(x *ast.IndexExpr, frameID int) (operand, error) {
	base, err := d.eval(x.X, frameID)
	if err != nil {
		return base, err
	}
	idx, err := d.eval(x.Index, frameID)
	if err != nil {
		return idx, err
	}
	v := base.v
	if !v.IsValid() {
		return operand{}, evalError("indexing a constant is not supported")
	}
	if v.Kind() == reflect.Pointer && v.Type().Elem().Kind() == reflect.Array {
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Slice, reflect.Array, reflect.String:
		i, err := intIndex(idx)
		if err != nil {
			return operand{}, err
		}
		if i < 0 || i >= int64(v.Len()) {
			return operand{}, evalError(fmt.Sprintf("index out of range [%d] with length %d", i, v.Len()))
		}
		return operand{v: v.Index(int(i))}, nil
	case reflect.Map:
		k, err := convertTo(idx, v.Type().Key())
		if err != nil {
			return operand{}, err
		}
		e := v.MapIndex(k)
		if !e.IsValid() {
			e = reflect.Zero(v.Type().Elem()) // a missing key reads the zero value, as in Go
		}
		return operand{v: e}, nil
	}
	return operand{}, evalError(fmt.Sprintf("cannot index %s", v.Type()))
}

func (d *debugState) evalBuiltin(x *ast.CallExpr, frameID int) (operand, error) {
	fn, ok := x.Fun.(*ast.Ident)
	if !ok || (fn.Name != "len" && fn.Name != "cap") || len(x.Args) != 1 {
		return operand{}, evalError("the debugger does not call functions (only len and cap): it would run code while the cell is stopped")
	}
	op, err := d.eval(x.Args[0], frameID)
	if err != nil {
		return op, err
	}
	if !op.v.IsValid() {
		if op.val.Kind() == constant.String && fn.Name == "len" {
			return operand{val: constant.MakeInt64(int64(len(constant.StringVal(op.val))))}, nil
		}
		return operand{}, evalError(fmt.Sprintf("invalid argument for %s", fn.Name))
	}
	v := op.v
	if v.Kind() == reflect.Pointer && v.Type().Elem().Kind() == reflect.Array {
		v = v.Elem()
	}
	switch {
	case fn.Name == "len" && (v.Kind() == reflect.Map || v.Kind() == reflect.String),
		v.Kind() == reflect.Slice || v.Kind() == reflect.Array || v.Kind() == reflect.Chan:
		if fn.Name == "cap" {
			return operand{v: reflect.ValueOf(v.Cap())}, nil
		}
		return operand{v: reflect.ValueOf(v.Len())}, nil
	}
	return operand{}, evalError(fmt.Sprintf("invalid argument: %s (%s) for %s", typeText(v), v.Kind(), fn.Name))
}

// intIndex is an index operand as an int64.
func intIndex(op operand) (int64, error) {
	if !op.v.IsValid() {
		i, ok := constant.Int64Val(constant.ToInt(op.val))
		if !ok || op.val.Kind() == constant.String || op.val.Kind() == constant.Bool {
			return 0, evalError("index must be an integer")
		}
		return i, nil
	}
	switch op.v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return op.v.Int(), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u := op.v.Uint()
		if u > math.MaxInt64 {
			return 0, evalError("index out of range")
		}
		return int64(u), nil
	}
	return 0, evalError(fmt.Sprintf("index must be an integer, not %s", op.v.Type()))
}

// basic reports whether t is a number, string or boolean type.
func basic(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.String, reflect.Bool:
		return true
	}
	return false
}

// toConst is a value of a basic type as an exact constant.
func toConst(v reflect.Value) constant.Value {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return constant.MakeInt64(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return constant.MakeUint64(v.Uint())
	case reflect.Float32, reflect.Float64:
		return constant.MakeFloat64(v.Float())
	case reflect.String:
		return constant.MakeString(v.String())
	case reflect.Bool:
		return constant.MakeBool(v.Bool())
	}
	return constant.MakeUnknown()
}

// convertTo makes an operand a value of type t: a value of that very type,
// or an untyped constant that fits it.
func convertTo(op operand, t reflect.Type) (reflect.Value, error) {
	if op.v.IsValid() {
		if op.v.Type() != t {
			return reflect.Value{}, evalError(fmt.Sprintf("mismatched types %s and %s", op.v.Type(), t))
		}
		return op.v, nil
	}
	if !basic(t) {
		return reflect.Value{}, evalError(fmt.Sprintf("cannot use a constant as %s", t))
	}
	return fromConst(op.val, t, false)
}

// fromConst is the value of type t that c is. wrap says c is the exact
// result of integer arithmetic on values of type t, which Go wraps modulo
// the type's size; otherwise c must fit.
func fromConst(c constant.Value, t reflect.Type, wrap bool) (reflect.Value, error) {
	out := reflect.New(t).Elem()
	bad := evalError(fmt.Sprintf("%s does not fit in %s", c.ExactString(), t))
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		c = constant.ToInt(c)
		if c.Kind() != constant.Int {
			return out, evalError(fmt.Sprintf("%s is not an integer", c.ExactString()))
		}
		bits := uint(t.Bits())
		if wrap {
			mod := constant.Shift(constant.MakeInt64(1), token.SHL, bits)
			c = constant.BinaryOp(c, token.REM, mod)
			if constant.Sign(c) < 0 {
				c = constant.BinaryOp(c, token.ADD, mod)
			}
			if t.Kind() >= reflect.Int && t.Kind() <= reflect.Int64 {
				half := constant.Shift(constant.MakeInt64(1), token.SHL, bits-1)
				if constant.Compare(c, token.GEQ, half) {
					c = constant.BinaryOp(c, token.SUB, mod)
				}
			}
		}
		if t.Kind() >= reflect.Int && t.Kind() <= reflect.Int64 {
			i, ok := constant.Int64Val(c)
			if !ok || out.OverflowInt(i) {
				return out, bad
			}
			out.SetInt(i)
		} else {
			u, ok := constant.Uint64Val(c)
			if !ok || constant.Sign(c) < 0 || out.OverflowUint(u) {
				return out, bad
			}
			out.SetUint(u)
		}
	case reflect.Float32, reflect.Float64:
		c = constant.ToFloat(c)
		if c.Kind() != constant.Float && c.Kind() != constant.Int {
			return out, bad
		}
		f, _ := constant.Float64Val(c)
		if t.Kind() == reflect.Float32 {
			f32, _ := constant.Float32Val(c)
			f = float64(f32)
		}
		if math.IsInf(f, 0) {
			return out, bad
		}
		out.SetFloat(f)
	case reflect.String:
		if c.Kind() != constant.String {
			return out, bad
		}
		out.SetString(constant.StringVal(c))
	case reflect.Bool:
		if c.Kind() != constant.Bool {
			return out, bad
		}
		out.SetBool(constant.BoolVal(c))
	default:
		return out, bad
	}
	return out, nil
}

// defaultValue is an untyped constant result as Go's default type holds it.
func defaultValue(c constant.Value) (reflect.Value, error) {
	switch c.Kind() {
	case constant.Bool:
		return reflect.ValueOf(constant.BoolVal(c)), nil
	case constant.String:
		return reflect.ValueOf(constant.StringVal(c)), nil
	case constant.Int:
		return fromConst(c, reflect.TypeOf(0), false)
	case constant.Float:
		return fromConst(c, reflect.TypeOf(0.0), false)
	}
	return reflect.Value{}, evalError("cannot show " + c.ExactString())
}

func unaryOp(op token.Token, x operand) (operand, error) {
	if op != token.SUB && op != token.ADD && op != token.NOT {
		return operand{}, evalError("unsupported operator " + op.String())
	}
	if !x.v.IsValid() {
		if (op == token.NOT) != (x.val.Kind() == constant.Bool) || x.val.Kind() == constant.String {
			return operand{}, evalError(fmt.Sprintf("invalid operation: %s%s", op, x.val.ExactString()))
		}
		return operand{val: constant.UnaryOp(op, x.val, 0)}, nil
	}
	t := x.v.Type()
	if !basic(t) || (op == token.NOT) != (t.Kind() == reflect.Bool) || t.Kind() == reflect.String {
		return operand{}, evalError(fmt.Sprintf("invalid operation: %s on %s", op, t))
	}
	v, err := fromConst(constant.UnaryOp(op, toConst(x.v), 0), t, true)
	return operand{v: v}, err
}

func binaryOp(op token.Token, l, r operand) (operand, error) {
	switch op {
	case token.ADD, token.SUB, token.MUL, token.QUO, token.REM,
		token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ, token.LAND, token.LOR:
	default:
		return operand{}, evalError(fmt.Sprintf("the debugger does not evaluate the operator %s", op))
	}
	// The operands' type: a typed operand's; an untyped constant takes it.
	var t reflect.Type
	switch {
	case l.v.IsValid() && r.v.IsValid():
		if l.v.Type() != r.v.Type() {
			return operand{}, evalError(fmt.Sprintf("invalid operation: mismatched types %s and %s", l.v.Type(), r.v.Type()))
		}
		t = l.v.Type()
	case l.v.IsValid():
		t = l.v.Type()
	case r.v.IsValid():
		t = r.v.Type()
	}
	var a, b constant.Value
	if t == nil {
		a, b = l.val, r.val
	} else {
		if !basic(t) {
			return operand{}, evalError(fmt.Sprintf("the debugger evaluates operators on numbers, strings and booleans, not %s", t))
		}
		lv, err := convertTo(l, t)
		if err != nil {
			return operand{}, err
		}
		rv, err := convertTo(r, t)
		if err != nil {
			return operand{}, err
		}
		a, b = toConst(lv), toConst(rv)
	}
	if a.Kind() == constant.Unknown || b.Kind() == constant.Unknown {
		return operand{}, evalError("invalid operands")
	}
	if category(a) != category(b) {
		return operand{}, evalError(fmt.Sprintf("invalid operation: mismatched constants %s and %s", a.ExactString(), b.ExactString()))
	}
	var allowed bool
	switch category(a) {
	case constant.Bool:
		allowed = op == token.LAND || op == token.LOR || op == token.EQL || op == token.NEQ
	case constant.String:
		allowed = op == token.ADD || isComparison(op)
	default:
		allowed = op != token.LAND && op != token.LOR
	}
	if !allowed {
		return operand{}, evalError(fmt.Sprintf("invalid operation: operator %s not defined on %s", op, kindName(t, a)))
	}
	if isComparison(op) {
		return operand{v: reflect.ValueOf(constant.Compare(a, op, b))}, nil
	}
	if op == token.QUO || op == token.REM {
		if constant.Sign(b) == 0 {
			return operand{}, evalError("integer divide by zero (or a float division by zero, whose infinity the debugger does not compute)")
		}
		integer := a.Kind() == constant.Int && b.Kind() == constant.Int
		if t != nil {
			integer = t.Kind() != reflect.Float32 && t.Kind() != reflect.Float64
		}
		if op == token.REM && !integer {
			return operand{}, evalError("invalid operation: operator % not defined on floats")
		}
		if integer && op == token.QUO {
			op = token.QUO_ASSIGN // constant's truncated integer division
		}
	}
	res := constant.BinaryOp(a, op, b)
	if t == nil {
		return operand{val: res}, nil
	}
	v, err := fromConst(res, t, true)
	return operand{v: v}, err
}

// category is a constant's kind, numbers as one.
func category(c constant.Value) constant.Kind {
	if k := c.Kind(); k == constant.Bool || k == constant.String || k == constant.Unknown {
		return k
	}
	return constant.Int
}

func isComparison(op token.Token) bool {
	switch op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return true
	}
	return false
}

func kindName(t reflect.Type, c constant.Value) string {
	if t != nil {
		return t.String()
	}
	return "untyped " + strings.ToLower(c.Kind().String())
}
