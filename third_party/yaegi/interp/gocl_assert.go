// gocl patch: this file is gocl's own (see PATCHES.md, "Type assertions to interfaces").

package interp

import (
	"reflect"
	"sync"
)

// goclAssertBare answers x.(I), I an interface the program declares (or an
// interface literal), where x holds a value of a compiled type bare, not in
// yaegi's valueInterface: errors.New's result in an error, errors.Join's.
// yaegi answered false for every such value (`e.(interface{ Error() string
// })` was false), a silent wrong answer. The value implements I when each
// of I's methods is one of its methods with the same signature. On success
// the result (when wanted) is stored wrapped, as yaegi stores a value in
// an interface the program declares, and it reports true.
func goclAssertBare(v reflect.Value, typ *itype, withResult bool, value0 func(*frame) reflect.Value, f *frame) bool {
	for v.IsValid() && v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	if !goclBareHas(v, typ) {
		return false
	}
	if withResult {
		value0(f).Set(reflect.ValueOf(valueInterface{&node{kind: basicLit, typ: valueTOf(v.Type())}, v}))
	}
	return true
}

// goclZeroOnFail makes the comma-ok assertion n (v, ok := x.(T)) store T's
// zero value in v when it fails, as Go does; yaegi left v as it was, so
// `s, ok = y.(fmt.Stringer)` after an earlier success kept the old s.
// Only where the status is assigned (not to _), which is how it knows.
func goclZeroOnFail(n *node, on bool, value0, value1 func(*frame) reflect.Value) {
	if !on || value0 == nil || value1 == nil {
		return
	}
	exec := n.exec
	n.exec = func(f *frame) bltn {
		next := exec(f)
		if !value1(f).Bool() {
			d := value0(f)
			d.Set(reflect.Zero(d.Type()))
		}
		return next
	}
}

// goclOpenIValue returns the value inside v, with its type, when v holds
// the wrapper yaegi makes of a value of the program's types for a compiled
// interface (a struct whose first field is IValue): `var s fmt.Stringer =
// T{}` and `var e error = MyErr{}` hold one, and s.(Namer) or
// e.(interface{ Unwrap() error }) must see T's and MyErr's methods, not
// the wrapper's. The wrapper keeps the value bare, so its type is found
// by its reflect type among the types wrapped so far (goclWrapped). It
// returns v when v is no wrapper; it panics, naming the assertion, when
// the type cannot be told (two of the program's types of one shape).
func goclOpenIValue(n *node, v reflect.Value) reflect.Value {
	c := v
	for c.IsValid() && c.Kind() == reflect.Interface && !c.IsNil() {
		c = c.Elem()
	}
	if !c.IsValid() || c.Kind() != reflect.Struct || c.NumField() == 0 || c.Type().Field(0).Name != "IValue" {
		return v
	}
	in := c.Field(0)
	for in.Kind() == reflect.Interface && !in.IsNil() {
		in = in.Elem()
	}
	if !in.IsValid() || in.Kind() == reflect.Interface {
		return v
	}
	if vi, ok := in.Interface().(valueInterface); ok {
		return reflect.ValueOf(vi)
	}
	t, known := goclWrappedType(n.interp, in.Type())
	if !known {
		panic(n.cfgErrorf("gocl: cannot tell which of the program's types the value asserted here has (yaegi keeps it as its shape, %s, which two of its types share): assert to the concrete type first, or keep the value in an any", in.Type()))
	}
	if t == nil {
		return v
	}
	nod := &node{kind: basicLit, typ: t, rval: in, interp: n.interp}
	return reflect.ValueOf(valueInterface{nod, in})
}

// goclWrapped maps, per interpreter, the reflect type of each value of the
// program's types that yaegi wrapped for a compiled interface to its type
// (nil where two types share the reflect type).
var goclWrapped sync.Map // goclWrapKey -> *itype

type goclWrapKey struct {
	interp *Interpreter
	rt     reflect.Type
}

// goclNoteWrapped records that values of t are wrapped for compiled
// interfaces (genInterfaceWrapper, when the wrapper is made).
func goclNoteWrapped(t *itype) {
	if t == nil || t.node == nil && t.cat == valueT || t.cat == nilT {
		return
	}
	rt := t.frameType()
	if rt == nil {
		return
	}
	var in *Interpreter
	if t.node != nil {
		in = t.node.interp
	}
	if in == nil {
		return
	}
	k := goclWrapKey{in, rt}
	if old, loaded := goclWrapped.LoadOrStore(k, t); loaded {
		if ot, _ := old.(*itype); ot != nil && ot.id() != t.id() {
			goclWrapped.Store(k, (*itype)(nil))
		}
	}
}

// goclWrappedType returns the type recorded for rt: known is false when
// two types share it, t is nil when none was recorded.
func goclWrappedType(in *Interpreter, rt reflect.Type) (t *itype, known bool) {
	v, ok := goclWrapped.Load(goclWrapKey{in, rt})
	if !ok {
		return nil, true
	}
	t, _ = v.(*itype)
	return t, t != nil
}

// goclHasMethods reports whether a value of type t must keep its type when
// stored in an empty interface (yaegi's valueInterface): t has methods, or
// t is a pointer to a type with value-receiver methods. yaegi asked only
// the first, so `var y any = &T{1}` (T with value methods) was stored bare
// and y.(fmt.Stringer) was false.
func goclHasMethods(t *itype) bool {
	if t == nil {
		return false
	}
	if len(t.method) > 0 {
		return true
	}
	return t.cat == ptrT && t.val != nil && len(t.val.method) > 0
}

// goclValueNode returns a node that evaluates to the value vi holds, with
// the type of the node that stored it. yaegi wrapped the result of
// x.(fmt.Stringer) by evaluating vi.node in the asserting frame: when the
// value was stored in another function (returned in an any), that read an
// unrelated slot of this frame, so s, ok = z.(fmt.Stringer) gave ok with
// the old s.
func goclValueNode(vi valueInterface) *node {
	if vi.node == nil {
		return vi.node
	}
	nod := *vi.node
	nod.rval = vi.value
	if nod.kind == funcDecl {
		nod.kind = basicLit
	}
	return &nod
}

// goclCaseIface reports whether x, the value a type switch without a bound
// name switches on, matches the case of interface type typ. yaegi's switch
// matched such a case only when the value's type was typ itself, so
// `switch x.(type) { case Namer: }` took the default for every value of a
// type with a Name method. A value the interpreter typed matches when its
// method set (pointer-receiver methods left out for a value) has typ's
// methods, by name as yaegi's own implements check does; a compiled value
// held bare when it has each method with the same signature.
func goclCaseIface(x any, typ *itype) bool {
	if x == nil || typ == nil || typ.cat == nilT || !isInterface(typ) {
		return false
	}
	vi, ok := x.(valueInterface)
	if !ok {
		return goclBareHas(reflect.ValueOf(x), typ)
	}
	if vi.node == nil || vi.node.typ == nil || vi.node.typ.cat == nilT || !vi.value.IsValid() {
		return false
	}
	if vi.node.typ.cat == valueT {
		return goclBareHas(vi.value, typ)
	}
	return vi.node.typ.methods().contains(typ.methods()) && ptrRecvMethod(vi.node.typ, typ) == ""
}

// goclBareHas reports whether the compiled value v has each of typ's
// methods with the same signature.
func goclBareHas(v reflect.Value, typ *itype) bool {
	for v.IsValid() && v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	if !v.IsValid() || v.Kind() == reflect.Interface { // nil
		return false
	}
	if _, ok := v.Interface().(valueInterface); ok {
		return false
	}
	for name, sig := range typ.methods() {
		m := v.MethodByName(name)
		if !m.IsValid() || m.Type().String() != sig {
			return false
		}
	}
	return true
}

// goclOtherType reports whether vi, a value an any holds with its type,
// is of a type other than typ, a non-interface type the program declares.
// yaegi compared the two types' reflect types, which are the same for two
// types of one shape, so `any(A{1}).(B)` was true when A has methods.
// (A value of a type without methods is held bare, without its type: that
// case is still answered by shape.)
func goclOtherType(vi valueInterface, typ *itype) bool {
	if vi.node == nil || vi.node.typ == nil || typ == nil || isInterface(typ) || typ.cat == valueT {
		return false
	}
	vt := vi.node.typ
	if vt.cat == valueT || vt.cat == nilT {
		return false
	}
	return vt.id() != typ.id()
}

// goclConcreteValue is getConcreteValue for genInterfaceWrapper: for a
// value of a concrete type the program declares (iface false) it only
// opens valueInterface layers. getConcreteValue also takes a method-less
// struct for an emulated interface and returns its last set field, so a
// wrapper of `var e error = MyErr{inner}` held inner, not the MyErr:
// e.(MyErr) and e.(interface{ Unwrap() error }) failed.
func goclConcreteValue(v reflect.Value, iface bool) reflect.Value {
	if iface {
		return getConcreteValue(v)
	}
	for {
		vi, ok := v.Interface().(valueInterface)
		if !ok {
			return v
		}
		v = vi.value
	}
}
