// gocl patch: this file is gocl's own (see PATCHES.md, "Constants that do not fit their type").

package interp

import (
	"go/constant"
	"go/token"
	"reflect"
	"strings"
)

// Go refuses, at compile time, a constant that its type cannot represent:
// `var x int8 = 200`, `i8 + 200`, `int8(1) << 8`. yaegi wrapped such
// constants silently (x printed -56): its representability check let
// through every signed value of the type's bit length (128..255 for an
// int8), a constant operand of a binary operation, a return value or a
// sent value was not checked at all, and a constant expression of a typed
// constant was folded in int64 and truncated. The functions here make
// those checks, with go/types' words.

// goclFitError is the error of a constant that does not fit its type,
// inside the *cfgError that says where (a compile error, as yaegi's own).
type goclFitError struct{ error }

// goclFitErrorf is n.cfgErrorf for a constant that does not fit.
func goclFitErrorf(n *node, format string, a ...interface{}) error {
	e := n.cfgErrorf(format, a...)
	e.error = goclFitError{e.error}
	return e
}

// goclKeepConstErr keeps, on the global constant declaration n, the error
// that stopped its compilation when a constant does not fit its type: yaegi
// retries such a declaration later (its constants may depend on others)
// and, when it never compiles, reports the error kept, or else "constant
// definition loop", which is wrong for `const c int8 = 200`.
func goclKeepConstErr(n *node, err error) {
	if ce, ok := err.(*cfgError); ok {
		if _, ok := ce.error.(goclFitError); ok {
			n.meta = err
		}
	}
}

// goclIntFits reports whether the integer constant x is a value of an
// integer type of kind k.
func goclIntFits(x constant.Value, k reflect.Kind) bool {
	var bits int
	switch k {
	case reflect.Int8, reflect.Uint8:
		bits = 8
	case reflect.Int16, reflect.Uint16:
		bits = 16
	case reflect.Int32, reflect.Uint32:
		bits = 32
	default:
		bits = 64
	}
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i, ok := constant.Int64Val(x)
		return ok && i >= -1<<(bits-1) && i <= 1<<(bits-1)-1
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u, ok := constant.Uint64Val(x)
		return ok && (bits == 64 || u < 1<<bits)
	}
	return false
}

// goclUntypedConst returns n's value when n is an untyped numeric
// constant: yaegi holds it as a go/constant value, exact. Its type may say
// otherwise: the type of an assignment's destination is propagated to the
// operators of the source (in `var x int8 = 100 + 100` the + is an int8),
// but their fold stays exact, and the value is converted at the end.
func goclUntypedConst(n *node) (constant.Value, bool) {
	if n == nil || n.typ == nil || !n.rval.IsValid() || !n.rval.CanInterface() {
		return nil, false
	}
	c, ok := n.rval.Interface().(constant.Value)
	if !ok || c == nil {
		return nil, false
	}
	switch c.Kind() {
	case constant.Int, constant.Float, constant.Complex:
		return c, true
	}
	return nil, false
}

// goclTypedConst returns the exact value of n when n is a constant of a
// typed integer or float type: a literal converted (int8(1)), a typed
// constant, or yaegi's fold of an expression of those. A package's
// variable (bin symbols hold its address) is not one.
func goclTypedConst(n *node) (constant.Value, bool) {
	if n == nil || n.typ == nil || n.typ.untyped || !n.rval.IsValid() || n.rval.CanAddr() {
		return nil, false
	}
	if n.kind == identExpr && n.sym != nil && n.sym.kind != constSym {
		return nil, false
	}
	v := n.rval
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return constant.MakeInt64(v.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return constant.MakeUint64(v.Uint()), true
	case reflect.Float32, reflect.Float64:
		return constant.MakeFloat64(v.Float()), true
	}
	return nil, false
}

// goclNumericType reports whether t is a typed integer or float type (a
// type whose constants can overflow or be truncated).
func goclNumericType(t *itype) bool {
	if t == nil || t.untyped || isInterface(t) {
		return false
	}
	rt := t.TypeOf()
	return isInt(rt) || isFloat(rt) || isComplex(rt)
}

// goclTypeName is t's name as go/types prints it in the program's own
// package: "int8", "Small", not "main.Small".
func goclTypeName(t *itype) string {
	s := t.id()
	if t.path == "main" || strings.HasPrefix(s, "main.") {
		s = strings.TrimPrefix(s, "main.")
	}
	return s
}

// goclExprString is n's source text for the expressions a constant is
// made of (literals, names, operators, parentheses, conversions and
// selectors), or "" for anything else.
func goclExprString(n *node) string {
	switch n.kind {
	case basicLit, identExpr:
		return n.ident
	case parenExpr:
		if len(n.child) == 1 {
			if s := goclExprString(n.child[0]); s != "" {
				return "(" + s + ")"
			}
		}
	case unaryExpr:
		if len(n.child) == 1 {
			if s := goclExprString(n.child[0]); s != "" {
				return n.action.String() + s
			}
		}
	case binaryExpr:
		if len(n.child) == 2 {
			l, r := goclExprString(n.child[0]), goclExprString(n.child[1])
			if l != "" && r != "" {
				return l + " " + n.action.String() + " " + r
			}
		}
	case selectorExpr:
		if len(n.child) == 2 {
			if l := goclExprString(n.child[0]); l != "" && n.child[1].ident != "" {
				return l + "." + n.child[1].ident
			}
		}
	case callExpr:
		if len(n.child) == 2 {
			f, a := goclExprString(n.child[0]), goclExprString(n.child[1])
			if f != "" && a != "" {
				return f + "(" + a + ")"
			}
		}
	}
	return ""
}

// goclUntypedDesc describes the untyped constant n of value c as go/types
// does: "200 (untyped int constant)", "big (untyped int constant 300)".
func goclUntypedDesc(n *node, c constant.Value) string {
	val := c.String()
	expr := goclExprString(n)
	if expr == "" {
		expr = val
	}
	var kind string
	switch {
	case n.typ != nil && strings.HasPrefix(n.typ.str, "untyped "):
		kind = n.typ.str + " constant"
	case c.Kind() == constant.Float:
		kind = "untyped float constant"
	case c.Kind() == constant.Complex:
		kind = "untyped complex constant"
	default:
		kind = "untyped int constant"
	}
	if expr == val {
		return expr + " (" + kind + ")"
	}
	return expr + " (" + kind + " " + val + ")"
}

// goclTypedDesc describes the typed constant expression n of exact value c
// and type t as go/types does: "int8(1) << 8 (constant 256 of type int8)",
// or "constant 256" when the expression's text is not known.
func goclTypedDesc(n *node, c constant.Value, t *itype) string {
	if expr := goclExprString(n); expr != "" {
		return expr + " (constant " + c.String() + " of type " + goclTypeName(t) + ")"
	}
	return "constant " + c.String()
}

// goclNotRepresentable says why c is not a value of t, "overflows" or
// "truncated", or "" when it is one (or when t is not a numeric type).
func goclNotRepresentable(c constant.Value, t *itype) string {
	if !goclNumericType(t) {
		return ""
	}
	rt := t.TypeOf()
	if representableConst(c, rt) {
		return ""
	}
	if isInt(rt) && constant.ToInt(c).Kind() != constant.Int {
		return "truncated"
	}
	if (isInt(rt) || isFloat(rt)) && constant.ToFloat(c).Kind() != constant.Float {
		return "" // a complex constant: yaegi's own message says it
	}
	return "overflows"
}

// goclAssignContext is go/types' name for where n, an untyped constant
// checked by typecheck.assignment with yaegi's context, is assigned.
func goclAssignContext(n *node, context string) string {
	a := n.anc
	switch {
	case context == "assignment" && a != nil && a.kind == defineStmt && a.anc != nil && a.anc.kind == varDecl:
		return "variable declaration"
	case context == "assignment" && a != nil && a.kind == defineStmt && a.anc != nil && a.anc.kind == constDecl:
		return "constant declaration"
	case context == "" && a != nil && a.kind == callExpr && len(a.child) > 0:
		if f := goclExprString(a.child[0]); f != "" {
			return "argument to " + f
		}
		return "argument"
	}
	return context
}

// goclAssignFits checks that the untyped constant n, assigned to a value of
// type typ (a variable, a field, an argument, a return value, a sent
// value), is a value of typ: "cannot use 200 (untyped int constant) as
// int8 value in variable declaration (overflows)".
func goclAssignFits(n *node, typ *itype, context string) error {
	c, ok := goclUntypedConst(n)
	if !ok {
		return nil
	}
	why := goclNotRepresentable(c, typ)
	if why == "" {
		return nil
	}
	return goclFitErrorf(n, "cannot use %s as %s value in %s (%s)", goclUntypedDesc(n, c), goclTypeName(typ), goclAssignContext(n, context), why)
}

// goclOperandFits checks the constant operands of the binary operation n:
// an untyped constant beside a typed operand must be a value of its type
// ("200 (untyped int constant) overflows int8"). yaegi converted it and
// ignored the error, then said "mismatched types" or wrapped the value.
func goclOperandFits(n *node) error {
	if len(n.child) != 2 {
		return nil
	}
	for i, c := range n.child {
		other := n.child[1-i]
		v, ok := goclUntypedConst(c)
		if !ok || !goclNumericType(other.typ) {
			continue
		}
		if _, exact := goclUntypedConst(other); exact {
			continue // two untyped constants: exact arithmetic, checked where the result is used
		}
		switch goclNotRepresentable(v, other.typ) {
		case "overflows":
			return goclFitErrorf(c, "%s overflows %s", goclUntypedDesc(c, v), goclTypeName(other.typ))
		case "truncated":
			return goclFitErrorf(c, "%s truncated to %s", goclUntypedDesc(c, v), goclTypeName(other.typ))
		}
	}
	return nil
}

// goclConversionFits checks the conversion of the constant n to typ:
// "constant 200 overflows int8" for int8(200) and int8(int16(200)),
// "cannot convert 1.5 (untyped float constant) to type int",
// as Go refuses them at compile time (yaegi wrapped the typed one
// silently, and said "cannot convert expression of type untyped int" for
// the other).
func goclConversionFits(n *node, typ *itype) error {
	if !goclNumericType(typ) {
		return nil
	}
	c, ok := goclUntypedConst(n)
	if !ok {
		if c, ok = goclTypedConst(n); !ok {
			return nil
		}
	}
	switch {
	case goclNotRepresentable(c, typ) == "":
		return nil
	case c.Kind() == constant.Int && isInt(typ.TypeOf()):
		return goclFitErrorf(n, "constant %s overflows %s", c.String(), goclTypeName(typ))
	}
	return goclFitErrorf(n, "cannot convert %s to type %s", goclConstDesc(n, c), goclTypeName(typ))
}

// goclConstDesc describes the constant n, untyped or typed.
func goclConstDesc(n *node, c constant.Value) string {
	if _, exact := goclUntypedConst(n); exact {
		return goclUntypedDesc(n, c)
	}
	return goclTypedDesc(n, c, n.typ)
}

// goclFoldTokens maps yaegi's binary actions to go/constant's operators.
var goclFoldTokens = map[action]token.Token{
	aAdd: token.ADD, aSub: token.SUB, aMul: token.MUL, aQuo: token.QUO, aRem: token.REM,
	aAnd: token.AND, aOr: token.OR, aXor: token.XOR, aAndNot: token.AND_NOT,
	aShl: token.SHL, aShr: token.SHR,
}

// goclFoldFits checks a constant expression of a typed constant that yaegi
// folded (n.rval) in its type's machine arithmetic, which wraps: the exact
// value must be a value of the type, or Go refuses the program
// ("int8(1) << 8 (constant 256 of type int8) overflows int8").
func goclFoldFits(n *node) error {
	if !n.rval.IsValid() || !goclNumericType(n.typ) || isComplex(n.typ.TypeOf()) {
		return nil
	}
	if _, exact := goclUntypedConst(n); exact {
		return goclExactFoldFits(n)
	}
	var exact constant.Value
	switch len(n.child) {
	case 1:
		if n.action != aNeg {
			return nil
		}
		x, ok := goclTypedConst(n.child[0])
		if !ok {
			return nil
		}
		exact = constant.UnaryOp(token.SUB, x, 0)
	case 2:
		tok, ok := goclFoldTokens[n.action]
		if !ok {
			return nil
		}
		x, ok := goclAnyConst(n.child[0])
		if !ok {
			return nil
		}
		y, ok := goclAnyConst(n.child[1])
		if !ok {
			return nil
		}
		switch {
		case tok == token.SHL || tok == token.SHR:
			s, ok := constant.Uint64Val(constant.ToInt(y))
			if !ok || s > 1<<16 || x.Kind() != constant.Int {
				return nil // yaegi's shift check says what is wrong
			}
			exact = constant.Shift(x, tok, uint(s))
		case constant.Sign(y) == 0 && (tok == token.QUO || tok == token.REM):
			return nil // division by zero: refused elsewhere
		case tok == token.QUO && x.Kind() == constant.Int && y.Kind() == constant.Int:
			exact = constant.BinaryOp(x, token.QUO_ASSIGN, y) // integer division
		case tok == token.REM || tok == token.AND || tok == token.OR || tok == token.XOR || tok == token.AND_NOT:
			if x.Kind() != constant.Int || y.Kind() != constant.Int {
				return nil
			}
			exact = constant.BinaryOp(x, tok, y)
		default:
			exact = constant.BinaryOp(x, tok, y)
		}
	default:
		return nil
	}
	if exact == nil || exact.Kind() == constant.Unknown {
		return nil
	}
	if goclNotRepresentable(exact, n.typ) == "" {
		return nil
	}
	return goclFitErrorf(n, "%s overflows %s", goclTypedDesc(n, exact, n.typ), goclTypeName(n.typ))
}

// goclAnyConst returns the exact value of the constant n, typed or not.
func goclAnyConst(n *node) (constant.Value, bool) {
	if c, ok := goclUntypedConst(n); ok {
		return c, true
	}
	return goclTypedConst(n)
}

// goclExactFoldFits checks the untyped constant expression n (an exact
// fold) that yaegi typed with the type of the destination it is assigned
// to, where that assignment converts it: `var x int8 = 100 + 100`. Inside
// a larger expression of constants it is not converted
// (`var x int8 = (100 + 100) / 2` is 100); beside a typed operand,
// goclOperandFits checks it.
func goclExactFoldFits(n *node) error {
	top := n
	for top.anc != nil && top.anc.kind == parenExpr {
		top = top.anc
	}
	a := top.anc
	if a == nil || (a.kind != assignStmt && a.kind != defineStmt) || a.action != aAssign || childPos(top) < len(a.child)-a.nright {
		return nil
	}
	c, _ := goclUntypedConst(n)
	why := goclNotRepresentable(c, n.typ)
	if why == "" {
		return nil
	}
	return goclFitErrorf(top, "cannot use %s as %s value in %s (%s)", goclUntypedDesc(top, c), goclTypeName(n.typ), goclAssignContext(top, "assignment"), why)
}

// goclIntQuo reports whether the division of the constants v0 by v1 is an
// integer division: both are integer constants (untyped, exact). yaegi
// chose by the type of the division's node, which the destination of an
// assignment sets (`var x float64 = 3 / 2` made 1.5; Go's answer is 1).
func goclIntQuo(v0, v1 reflect.Value) bool {
	c0, ok0 := v0.Interface().(constant.Value)
	c1, ok1 := v1.Interface().(constant.Value)
	return ok0 && ok1 && c0.Kind() == constant.Int && c1.Kind() == constant.Int
}

// goclChanElem is the element type of the channel type t, or nil.
func goclChanElem(t *itype) *itype {
	for t != nil && t.cat == linkedT {
		t = t.val
	}
	switch {
	case t == nil:
		return nil
	case t.cat == chanT || t.cat == chanSendT || t.cat == chanRecvT:
		return t.val
	case t.cat == valueT && t.rtype != nil && t.rtype.Kind() == reflect.Chan:
		return valueTOf(t.rtype.Elem())
	}
	return nil
}
