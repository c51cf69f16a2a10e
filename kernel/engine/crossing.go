package engine

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/seed43a1e1ab/gocl/kernel/celltypes"
	"github.com/seed43a1e1ab/gocl/kernel/cellvalue"
	"github.com/seed43a1e1ab/gocl/kernel/internal/yaegiaccess"
)

// Values of the cells' own types handed to compiled fmt, errors and
// encoding/json.
//
// yaegi gives compiled code a cell type's value bare: a struct without its
// name, with "X" before its unexported fields, a `type Level int` as a plain
// int, no methods (see kernel/cellvalue). So before a cell runs that calls
// one of crossTargets with such a value, the engine type-checks it
// (kernel/celltypes) to learn each argument's static type, and rewrites the
// call:
//
//	fmt.Printf("%v %T\n", t, t)
//	__gocl_hook.FmtPrintf("%v %T\n", __gocl_hook.Box(t, 3), __gocl_hook.Box(t, 3))
//
// where 3 numbers the descriptor of t's static type (a cellvalue.Type) and
// FmtPrintf is cellvalue.Printf, which prints a box as fmt prints the real
// value. Methods of the cells' types reach the descriptors through small
// interpreted helpers compiled with the cell, such as
//
//	func __gocl_cv7(v T) string { return v.String() }
//
// A cell that calls none of crossTargets, or in a session that declared no
// type, is not checked: it costs only the parse of its declarations, which
// the session keeps for later checks.

// crossTargets maps the compiled functions whose arguments are handed over,
// by package path and name, to their replacements in the engine's hook
// package.
var crossTargets = map[string]map[string]string{
	"fmt": {"Print": "FmtPrint", "Println": "FmtPrintln", "Printf": "FmtPrintf", "Sprint": "FmtSprint",
		"Sprintln": "FmtSprintln", "Sprintf": "FmtSprintf", "Fprint": "FmtFprint", "Fprintln": "FmtFprintln",
		"Fprintf": "FmtFprintf", "Errorf": "FmtErrorf", "Append": "FmtAppend", "Appendln": "FmtAppendln",
		"Appendf": "FmtAppendf"},
	"errors":        {"Is": "ErrorsIs", "As": "ErrorsAs", "Unwrap": "ErrorsUnwrap", "Join": "ErrorsJoin"},
	"encoding/json": {"Marshal": "JSONMarshal", "MarshalIndent": "JSONMarshalIndent", "Unmarshal": "JSONUnmarshal"},
	"io":            {"Copy": "-"}, // rewritten in place (rewriteCopy)
	// log's printing functions keep their callee ("="): their arguments
	// are boxed in place, and log's own fmt prints the boxes (each is a
	// fmt.Formatter); *log.Logger's methods likewise (logMethods).
	"log": {"Print": "=", "Printf": "=", "Println": "=", "Fatal": "=", "Fatalf": "=", "Fatalln": "=",
		"Panic": "=", "Panicf": "=", "Panicln": "="},
}

// logMethods are *log.Logger's methods whose variadic arguments are boxed
// in place, as log's functions' are.
var logMethods = map[string]bool{"Print": true, "Printf": true, "Println": true, "Fatal": true, "Fatalf": true,
	"Fatalln": true, "Panic": true, "Panicf": true, "Panicln": true}

// crossHooks are the replacements, as the hook package exports them, and
// yaegi's MapTypes for BoxIface: like yaegi's own fmt.Println, it is given
// a value of a cell type with a String method that an interface holds
// wrapped as a fmt.Stringer, whose method compiled code calls.
func crossHooks(x *crossing) (map[string]reflect.Value, map[reflect.Value][]reflect.Type) {
	boxIface := reflect.ValueOf(func(v any, id int) any { return x.box(v, id) })
	printers := []reflect.Type{reflect.TypeOf((*fmt.Formatter)(nil)).Elem(), reflect.TypeOf((*fmt.Stringer)(nil)).Elem()}
	return map[string]reflect.Value{
		"Box":   reflect.ValueOf(x.box),
		"Equal": reflect.ValueOf(x.equal),
		// yaegi_namedvalue.go
		"Named":     reflect.ValueOf(x.named),
		"NamedAs":   reflect.ValueOf(x.namedAs),
		"NamedMust": reflect.ValueOf(x.namedMust),
		"TypedAs":   reflect.ValueOf(x.typedAs),
		"TypedMust": reflect.ValueOf(x.typedMust),
		"BoxIface":  boxIface,
		"BoxAs":     reflect.ValueOf(x.boxAs),
		"AsIface":   reflect.ValueOf(x.asIface),
		"Mirror":    reflect.ValueOf(x.mirror),
		"BoxText":   reflect.ValueOf(x.boxText),
		// (Print, Println and Printf write where yaegi's own fmt does: to
		// the interpreter's standard output.)
		"FmtPrint":          reflect.ValueOf(func(a ...any) (int, error) { return cellvalue.Fprint(cellWriter{}, a...) }),
		"FmtPrintln":        reflect.ValueOf(func(a ...any) (int, error) { return cellvalue.Fprintln(cellWriter{}, a...) }),
		"FmtPrintf":         reflect.ValueOf(func(f string, a ...any) (int, error) { return cellvalue.Fprintf(cellWriter{}, f, a...) }),
		"FmtSprint":         reflect.ValueOf(cellvalue.Sprint),
		"FmtSprintln":       reflect.ValueOf(cellvalue.Sprintln),
		"FmtSprintf":        reflect.ValueOf(cellvalue.Sprintf),
		"FmtFprint":         reflect.ValueOf(cellvalue.Fprint),
		"FmtFprintln":       reflect.ValueOf(cellvalue.Fprintln),
		"FmtFprintf":        reflect.ValueOf(cellvalue.Fprintf),
		"FmtErrorf":         reflect.ValueOf(cellvalue.Errorf),
		"FmtAppend":         reflect.ValueOf(cellvalue.Append),
		"FmtAppendln":       reflect.ValueOf(cellvalue.Appendln),
		"FmtAppendf":        reflect.ValueOf(cellvalue.Appendf),
		"ErrorsIs":          reflect.ValueOf(cellvalue.Is),
		"ErrorsAs":          reflect.ValueOf(x.errorsAs),
		"ErrorsUnwrap":      reflect.ValueOf(cellvalue.Unwrap),
		"ErrorsJoin":        reflect.ValueOf(cellvalue.Join),
		"JSONMarshal":       reflect.ValueOf(cellvalue.Marshal),
		"JSONMarshalIndent": reflect.ValueOf(cellvalue.MarshalIndent),
		"JSONUnmarshal":     reflect.ValueOf(func(data []byte, v any, id int) error { return cellvalue.Unmarshal(data, v, x.desc(id)) }),
		// JSONUnmarshalBoxed decodes into an interface's dynamic value,
		// boxed with its cell type where there is one.
		"JSONUnmarshalBoxed": reflect.ValueOf(func(data []byte, v any) error {
			if raw, t, ok := cellvalue.Unbox(v); ok {
				return cellvalue.Unmarshal(data, raw, t)
			}
			return json.Unmarshal(data, v)
		}),
		"JSONDecode": reflect.ValueOf(func(dec *json.Decoder, v any, id int) error { return cellvalue.DecodeJSON(dec, v, x.desc(id)) }),
	}, map[reflect.Value][]reflect.Type{boxIface: printers}
}

// crossing is the engine's state for handing values over: the session's
// type checker and the descriptors the rewritten cells number.
type crossing struct {
	mu       sync.Mutex
	session  *celltypes.Session
	descs    []*cellvalue.Type
	helpers  map[string]reflect.Value         // helper name -> the compiled-callable func
	rawTypes map[reflect.Type]*cellvalue.Type // for the resolver: the bare type of a cell's struct type (nil: two alike)
	pending  []*descBuilder                   // cells whose helpers are not picked up yet
	probed   map[string]bool                  // names of the struct types whose bare type is learnt
	dynKnown map[string]bool                  // names of the types in the resolver's type switch
	dynAll   []dynCase                        // its cases
	dynFn    reflect.Value                    // the compiled type switch: func(any) int
	seq      int                              // numbers the helpers, so that no two cells' share a name
	// methodNames is the method set of each cell type ("main.T", "*main.T")
	// the descriptors met, by name: what a type switch's interface case
	// asks of a value yaegi holds bare (yaegi_typeswitch.go).
	methodNames map[string]map[string]bool
	helperByKey map[string]string          // a method's identity -> its compiled helper
	probeRaw    map[string]reflect.Type    // a probed type's declaration (probeKey) -> the bare type it told
	rawPrints   map[reflect.Type]string    // the fingerprint of each descriptor in rawTypes (crossing_reuse.go)
	namedDescs  map[string]*cellvalue.Type // the types of namedValues, by name (yaegi_namedvalue.go)
	shown       shownExpr                  // the type check of the final expression of the cell last rewritten
	kept        keptDescs                  // the descriptors earlier cells made, for the cells checked against the same package
}

// next numbers a new helper.
func (x *crossing) next() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.seq++
	return x.seq
}

func newCrossing() *crossing {
	x := &crossing{helpers: map[string]reflect.Value{}, rawTypes: map[reflect.Type]*cellvalue.Type{}, probed: map[string]bool{}, dynKnown: map[string]bool{},
		methodNames: map[string]map[string]bool{}, helperByKey: map[string]string{},
		probeRaw: map[string]reflect.Type{}, rawPrints: map[reflect.Type]string{}}
	cellvalue.SetResolver(x.resolve)
	return x
}

// box is __gocl_hook.Box.
func (x *crossing) box(v any, id int) any {
	d := x.desc(id)
	if d != nil && d.Kind != cellvalue.Interface {
		// A value of a concrete type that went through an interface on
		// its way here (the show helper's any) may still be in yaegi's
		// valueInterface.
		if inner, ok := valueInterfaceValue(v); ok {
			v = inner
		}
	}
	return cellvalue.Box(v, d)
}

// boxAs is __gocl_hook.BoxAs: v of interface type id, whose dynamic type
// the interpreted type switch named dyn (-1: none, or not a cell type).
func (x *crossing) boxAs(v any, dyn, id int) any {
	if d := x.desc(dyn); d != nil {
		raw := v
		if isYaegiWrapper(raw) {
			raw = unwrapYaegi(raw)
		}
		if inner, ok := valueInterfaceValue(raw); ok {
			raw = inner
		}
		if hasShape(raw, d) {
			return cellvalue.Box(raw, d)
		}
	}
	return x.box(v, id)
}

// boxText is __gocl_hook.BoxText: how fmt prints v as the static type id.
func (x *crossing) boxText(v any, id int) string {
	return cellvalue.Sprint(x.box(v, id))
}

// mirror is __gocl_hook.Mirror.
func (x *crossing) mirror(v any, id int) any {
	return cellvalue.Mirror(v, x.desc(id))
}

// errorsAs is __gocl_hook.ErrorsAs: errors.As with the static type of
// *target's element.
func (x *crossing) errorsAs(err error, target any, id int) bool {
	return cellvalue.As(err, target, x.desc(id))
}

func (x *crossing) desc(id int) *cellvalue.Type {
	x.mu.Lock()
	defer x.mu.Unlock()
	if id < 0 || id >= len(x.descs) {
		return nil
	}
	return x.descs[id]
}

// resolve is the dynamic type of a value held in an interface: a cell's
// struct type, or a pointer to one, known by its bare reflect type.
//
// A yaegi wrapper whose value is of no known type is kept as it is: its
// methods are the cell type's own, which compiled code calls right (a
// `type T int` with an Error method in an error), and what it holds may not
// be the value at all (yaegi v0.16.1 keeps a field of a one-field struct
// returned as an error).
func (x *crossing) resolve(v any) (any, *cellvalue.Type, bool) {
	if nv, ok := v.(namedValue); ok { // yaegi_namedvalue.go
		if d := x.namedDesc(nv); d != nil {
			return nv.v, d, true
		}
		return nv.v, nil, false
	}
	orig, raw := v, v
	wrapped := isYaegiWrapper(v)
	if wrapped {
		raw = unwrapYaegi(v)
	}
	if inner, ok := valueInterfaceValue(raw); ok {
		// yaegi keeps the cell type beside the value: its own type switch
		// tells which it is.
		if d := x.dynamic(raw); d != nil {
			return inner, d, true
		}
		raw = inner
	}
	t := reflect.TypeOf(raw)
	if t == nil {
		return v, nil, false
	}
	x.mu.Lock()
	d := x.rawTypes[t]
	x.mu.Unlock()
	if d == nil && wrapped {
		// yaegi's type switch knows the wrapper's type; its value is
		// trusted only when it has that type's shape.
		if v, d := x.wrapped(orig, raw); d != nil {
			return v, d, true
		}
		return orig, &cellvalue.Type{Kind: cellvalue.Basic, String: reflect.TypeOf(orig).String()}, true
	}
	return raw, d, d != nil
}

// wrapped names the cell type of a yaegi wrapper (such as
// stdlib._fmt_Stringer{IValue, WString}) when exactly one of the cells'
// types has the shape of the value it holds and the methods it wraps
// (its W fields); yaegi's own type switch does not see through wrappers.
// It returns the value too: yaegi v0.16.1 wraps a struct value returned as
// an interface with only its last field, from which a one-field struct is
// made again (the common `type ValErr struct{ msg string }`).
func (x *crossing) wrapped(w, raw any) (any, *cellvalue.Type) {
	wt := reflect.TypeOf(w)
	x.mu.Lock()
	cases := x.dynAll
	x.mu.Unlock()
	var found *cellvalue.Type
	var value any
	for _, c := range cases {
		d := x.desc(c.id)
		if d == nil || !hasWrapped(wt, d.Methods) {
			continue
		}
		v := raw
		if !hasShape(raw, d) {
			if v = x.oneField(raw, d); v == nil {
				continue
			}
		}
		if found != nil {
			return nil, nil // two candidates: not known
		}
		found, value = d, v
	}
	return value, found
}

// oneField makes the bare value of a one-field cell struct type d from the
// value of its field, or returns nil.
func (x *crossing) oneField(field any, d *cellvalue.Type) any {
	if d.Kind != cellvalue.Named || d.Under == nil || d.Under.Kind != cellvalue.Struct || len(d.Under.Fields) != 1 {
		return nil
	}
	x.mu.Lock()
	var rt reflect.Type
	for t, known := range x.rawTypes {
		if known == d || known != nil && known.String == d.String && t.Kind() == reflect.Struct {
			rt = t
		}
	}
	x.mu.Unlock()
	fv := reflect.ValueOf(field)
	if rt == nil || rt.NumField() != 1 || !fv.IsValid() || fv.Type() != rt.Field(0).Type {
		return nil
	}
	v := reflect.New(rt).Elem()
	v.Field(0).Set(fv)
	return v.Interface()
}

// hasWrapped reports whether methods has every method a yaegi wrapper
// type wraps (a func field named W<Method>) that cellvalue knows of.
func hasWrapped(wt reflect.Type, m *cellvalue.Methods) bool {
	for i := 0; i < wt.NumField(); i++ {
		name, ok := strings.CutPrefix(wt.Field(i).Name, "W")
		if !ok {
			continue
		}
		if m == nil {
			return false
		}
		switch {
		case name == "String" && m.String == nil, name == "Error" && m.Error == nil, name == "GoString" && m.GoString == nil:
			return false
		}
	}
	return true
}

// hasShape reports whether a bare value can be one of type d: a struct of
// as many fields, a pointer, or the very type of a named basic type.
func hasShape(raw any, d *cellvalue.Type) bool {
	rt := reflect.TypeOf(raw)
	if rt == nil {
		return false
	}
	u := d
	if d.Kind == cellvalue.Named {
		u = d.Under
	}
	switch u.Kind {
	case cellvalue.Struct:
		return rt.Kind() == reflect.Struct && rt.NumField() == len(u.Fields)
	case cellvalue.Pointer:
		return rt.Kind() == reflect.Pointer
	case cellvalue.Slice:
		return rt.Kind() == reflect.Slice
	case cellvalue.Map:
		return rt.Kind() == reflect.Map
	case cellvalue.Array:
		return rt.Kind() == reflect.Array && rt.Len() == u.Len
	case cellvalue.Basic:
		return rt.String() == u.String
	}
	return false
}

// dynamic asks the interpreted type switch which cell type v (a yaegi
// valueInterface) holds; nil when none.
func (x *crossing) dynamic(v any) (d *cellvalue.Type) {
	x.mu.Lock()
	fn := x.dynFn
	x.mu.Unlock()
	if !fn.IsValid() {
		return nil
	}
	defer func() {
		if recover() != nil {
			d = nil
		}
	}()
	arg := reflect.New(fn.Type().In(0)).Elem()
	arg.Set(reflect.ValueOf(v))
	id := fn.Call([]reflect.Value{arg})[0].Int()
	return x.desc(int(id))
}

// valueInterfaceValue returns the value inside yaegi's interp.valueInterface
// (a struct of a node and a reflect.Value, both unexported), which yaegi
// hands compiled code for some interface values of cell types; ok is false
// when v is not one or holds nothing that can be handed on.
func valueInterfaceValue(v any) (any, bool) {
	return yaegiaccess.Unwrap(v)
}

// implements reports whether v, a value of a cell's type (bare, or in
// yaegi's valueInterface), implements the compiled interface want, by its method set; known is
// false when v's type is not known.
func (x *crossing) implements(v any, want reflect.Type) (matched, known bool, raw any, d *cellvalue.Type) {
	raw, d, ok := x.resolve(v)
	if !ok || d == nil || d.Kind == cellvalue.Basic {
		return false, false, nil, nil
	}
	x.mu.Lock()
	names := x.methodNames[d.String]
	x.mu.Unlock()
	if names == nil {
		return false, false, nil, nil
	}
	for i := 0; i < want.NumMethod(); i++ {
		if !names[want.Method(i).Name] {
			return false, true, raw, d
		}
	}
	return true, true, raw, d
}

// asIface is __gocl_hook.AsIface: v as a value of the compiled interface
// *typ's element, for a type switch case that matched it. A cell's value
// that yaegi holds bare becomes its box, which has the methods fmt and
// errors call (Error, String); anything else is v.
func (x *crossing) asIface(v any, typ any) any {
	pt := reflect.TypeOf(typ)
	if pt == nil || pt.Kind() != reflect.Pointer || pt.Elem().Kind() != reflect.Interface {
		return v
	}
	matched, known, raw, d := x.implements(v, pt.Elem())
	if !known || !matched {
		return v
	}
	b := cellvalue.Box(raw, d)
	if bt := reflect.TypeOf(b); bt != nil && bt.Implements(pt.Elem()) {
		return b
	}
	return v
}
