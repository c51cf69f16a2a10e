// The descriptors of static types, and the interpreted helpers they call
// (see crossing.go).

package engine

import (
	"fmt"
	"go/types"
	"reflect"
	"regexp"
	"sort"
	"strings"

	"github.com/seed43a1e1ab/gocl/kernel/cellvalue"
)

// helperReq is one interpreted helper a cell's descriptors call: a method
// of a cell type, or (method "") the probe that tells its bare type.
type helperReq struct {
	name, recv, method string
	key                string // the method's identity, for reuse (methods)
	sig                string // the helper's parameters and results after the receiver
	call               string // the method call's arguments
	results            bool
}

// descBuilder makes the descriptors of one cell's rewrite.
type descBuilder struct {
	x         *crossing
	pkg       *types.Package
	memo      map[types.Type]*cellvalue.Type
	helpers   map[string]*helperReq // by name
	probes    []probe               // struct types whose bare type the resolver learns
	probedAll bool
	dyn       []dynCase // the cell types new to the resolver's type switch
	dynName   string    // the new type switch helper, when dyn is not empty
	// calls names the helper each method of a Methods calls, for the
	// descriptors' fingerprints (crossing_reuse.go).
	calls map[*cellvalue.Methods]string
}

type probe struct {
	helper string
	named  *cellvalue.Type
	key    string // the type's declaration (probeKey)
}

// register numbers a descriptor for the rewritten cell.
func (b *descBuilder) register(d *cellvalue.Type) int {
	b.x.mu.Lock()
	defer b.x.mu.Unlock()
	b.x.descs = append(b.x.descs, d)
	return len(b.x.descs) - 1
}

// isCell reports whether t is a named type declared in a cell.
func isCell(t types.Type) (*types.Named, bool) {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "main" || n.TypeArgs().Len() > 0 {
		return nil, false
	}
	return n, true
}

// involvesCell reports whether a value of type t can hold a value of a
// cell's type: t names one, is built of one, or has an interface inside.
func (b *descBuilder) involvesCell(t types.Type) bool {
	seen := map[types.Type]bool{}
	var walk func(types.Type) bool
	walk = func(t types.Type) bool {
		t = types.Unalias(t)
		if seen[t] {
			return false
		}
		seen[t] = true
		if _, ok := isCell(t); ok {
			return true
		}
		switch t := t.(type) {
		case *types.Named:
			// A compiled package's type: its values are real Go values,
			// unless it is an interface (error, fmt.Stringer, io.Reader).
			_, iface := t.Underlying().(*types.Interface)
			return iface
		case *types.Pointer:
			return walk(t.Elem())
		case *types.Slice:
			return walk(t.Elem())
		case *types.Array:
			return walk(t.Elem())
		case *types.Map:
			return walk(t.Key()) || walk(t.Elem())
		case *types.Struct:
			for i := 0; i < t.NumFields(); i++ {
				if walk(t.Field(i).Type()) {
					return true
				}
			}
		case *types.Interface:
			return true
		case *types.Signature:
			// Only its %T shows: func(main.Dog) string.
			for _, tup := range []*types.Tuple{t.Params(), t.Results()} {
				for i := 0; i < tup.Len(); i++ {
					if _, ok := isCell(tup.At(i).Type()); ok {
						return true
					}
				}
			}
		}
		return false
	}
	return walk(t)
}

// recursive reports whether t involves a cell's type that refers to itself
// (type T struct{ next *T }): yaegi builds such types with stand-in fields
// that it patches in place, which reflection cannot follow, so their values
// are left to yaegi's own printing.
func (b *descBuilder) recursive(t types.Type) bool {
	var onPath []*types.Named
	seen := map[types.Type]bool{}
	var walk func(types.Type) bool
	walk = func(t types.Type) bool {
		t = types.Unalias(t)
		if n, ok := isCell(t); ok {
			for _, p := range onPath {
				if p == n {
					return true
				}
			}
			if seen[n] {
				return false
			}
			seen[n] = true
			onPath = append(onPath, n)
			defer func() { onPath = onPath[:len(onPath)-1] }()
			return walk(n.Underlying())
		}
		switch t := t.(type) {
		case *types.Pointer:
			return walk(t.Elem())
		case *types.Slice:
			return walk(t.Elem())
		case *types.Array:
			return walk(t.Elem())
		case *types.Chan:
			return walk(t.Elem())
		case *types.Map:
			return walk(t.Key()) || walk(t.Elem())
		case *types.Signature:
			for _, tup := range []*types.Tuple{t.Params(), t.Results()} {
				for i := 0; i < tup.Len(); i++ {
					if walk(tup.At(i).Type()) {
						return true
					}
				}
			}
		case *types.Struct:
			for i := 0; i < t.NumFields(); i++ {
				if walk(t.Field(i).Type()) {
					return true
				}
			}
		}
		return false
	}
	return walk(t)
}

// qualifier writes a package as %T does: by its name.
func qualifier(p *types.Package) string { return p.Name() }

// emptyIface matches the empty interface as go/types writes it inside a
// type: the alias any, or interface{}.
var emptyIface = regexp.MustCompile(`\bany\b|\binterface\{\}`)

// reflectString writes t as reflect's Type.String (and so %T and
// encoding/json's errors) does: the empty interface is "interface {}",
// never any (map[string]any printed "map[string]any" in a json error, Go
// prints "map[string]interface {}").
func reflectString(t types.Type) string {
	return emptyIface.ReplaceAllString(types.TypeString(t, qualifier), "interface {}")
}

// desc returns the descriptor of static type t.
func (b *descBuilder) desc(t types.Type) *cellvalue.Type {
	t = types.Unalias(t)
	if d, ok := b.memo[t]; ok {
		return d
	}
	if d, ok := b.x.keptDesc(b.pkg, t); ok { // crossing_reuse.go
		return d
	}
	if !b.involvesCell(t) || b.recursive(t) {
		d := &cellvalue.Type{Kind: cellvalue.Basic, String: reflectString(t)}
		b.memo[t] = d
		return d
	}
	d := &cellvalue.Type{String: reflectString(t)}
	b.memo[t] = d
	b.fill(d, t)
	return d
}

// fill describes t in d: a cell's named type, or the structure of any
// other type (a cell type's underlying struct keeps its fields' Go names
// even when no field involves a cell type).
func (b *descBuilder) fill(d *cellvalue.Type, t types.Type) {
	if n, ok := isCell(t); ok {
		d.Kind, d.Name = cellvalue.Named, d.String
		d.Under = &cellvalue.Type{String: reflectString(n.Underlying())}
		b.fill(d.Under, n.Underlying()) // (an interface's calls probeAll)
		if obj := n.Obj(); obj.Parent() != obj.Pkg().Scope() {
			return // a type declared in a function: no methods, and no helper can name it
		}
		d.Methods = b.methods(n, false)
		d.PtrMethods = b.methods(n, true)
		if d.Under.Kind == cellvalue.Struct && len(d.Under.Fields) > 0 {
			// (An empty struct's bare type, struct{}, would name no type;
			// and yaegi mistypes a function of one compiled with main.)
			name := fmt.Sprintf("%scvt%d", helperPrefix, b.x.next())
			b.helpers[name] = &helperReq{name: name, recv: n.Obj().Name()}
			b.probes = append(b.probes, probe{helper: name, named: d, key: probeKey(n)})
		}
		return
	}
	if _, iface := t.Underlying().(*types.Interface); iface {
		d.Kind = cellvalue.Interface
		b.probeAll()
		return
	}
	if _, named := t.(*types.Named); named {
		d.Kind = cellvalue.Basic // a compiled package's type
		return
	}
	switch t := t.(type) {
	case *types.Pointer:
		d.Kind, d.Elem = cellvalue.Pointer, b.desc(t.Elem())
		if n, ok := isCell(t.Elem()); ok {
			d.Methods = b.methods(n, true)
		}
	case *types.Slice:
		d.Kind, d.Elem = cellvalue.Slice, b.desc(t.Elem())
	case *types.Array:
		d.Kind, d.Elem, d.Len = cellvalue.Array, b.desc(t.Elem()), int(t.Len())
	case *types.Map:
		d.Kind, d.Key, d.Elem = cellvalue.Map, b.desc(t.Key()), b.desc(t.Elem())
	case *types.Struct:
		d.Kind = cellvalue.Struct
		for i := 0; i < t.NumFields(); i++ {
			f := t.Field(i)
			d.Fields = append(d.Fields, cellvalue.Field{Name: f.Name(), Exported: f.Exported(), Embedded: f.Embedded(),
				Tag: t.Tag(i), Type: b.desc(f.Type())})
		}
	case *types.Basic:
		d.Kind = cellvalue.Basic
	default:
		d.Kind = cellvalue.Other
	}
}

// probeAll makes descriptors (with the probes that tell their bare types)
// for every struct type the cells declared that the resolver does not know
// yet: a value held in an interface may be of any of them.
func (b *descBuilder) probeAll() {
	if b.probedAll {
		return
	}
	b.probedAll = true
	for _, name := range b.pkg.Scope().Names() {
		obj, ok := b.pkg.Scope().Lookup(name).(*types.TypeName)
		if !ok || obj.IsAlias() {
			continue
		}
		n, ok := isCell(obj.Type())
		if !ok || n.TypeParams().Len() > 0 {
			continue
		}
		if _, isIface := n.Underlying().(*types.Interface); isIface {
			continue
		}
		b.x.mu.Lock()
		known := b.x.dynKnown[name]
		b.x.mu.Unlock()
		if known {
			continue
		}
		d := b.desc(n)
		if d.Kind == cellvalue.Basic {
			continue // recursive: left to yaegi
		}
		pd := b.desc(types.NewPointer(n))
		b.dyn = append(b.dyn, dynCase{typ: name, id: b.register(d)}, dynCase{typ: "*" + name, id: b.register(pd)})
	}
}

// dynCase is one case of the interpreted type switch that tells the
// resolver a cell type held in yaegi's valueInterface.
type dynCase struct {
	typ string // the case's type, as the cell writes it
	id  int    // the descriptor's number
}

// methods returns the methods fmt, errors and encoding/json call that the
// method set of n (or *n) has, each calling an interpreted helper.
func (b *descBuilder) methods(n *types.Named, ptr bool) *cellvalue.Methods {
	var t types.Type = n
	if ptr {
		t = types.NewPointer(n)
	}
	ms := types.NewMethodSet(t)
	names := map[string]bool{}
	for i := 0; i < ms.Len(); i++ {
		names[ms.At(i).Obj().Name()] = true
	}
	b.x.mu.Lock()
	b.x.methodNames[types.TypeString(t, qualifier)] = names
	b.x.mu.Unlock()
	m := &cellvalue.Methods{}
	found := false
	var calls strings.Builder
	for i := 0; i < ms.Len(); i++ {
		f, ok := ms.At(i).Obj().(*types.Func)
		if !ok {
			continue
		}
		sig := f.Type().(*types.Signature)
		kind := methodKind(f.Name(), sig)
		if kind == "" {
			continue
		}
		found = true
		recv := n.Obj().Name()
		if ptr {
			recv = "*" + recv
		}
		// A helper compiled for this very method (same declarations, same
		// positions) is used again: re-running a cell that prints adds no
		// global to the interpreter.
		key := fmt.Sprintf("%s.%s@%d/%d", recv, f.Name(), n.Obj().Pos(), f.Pos())
		b.x.mu.Lock()
		name, cached := b.x.helperByKey[key]
		_, compiled := b.x.helpers[name]
		b.x.mu.Unlock()
		req := &helperReq{recv: recv, method: f.Name(), key: key}
		if !cached || !compiled {
			name = fmt.Sprintf("%scv%d_%s", helperPrefix, b.x.next(), f.Name())
			b.helpers[name] = req
		}
		req.name = name
		fmt.Fprintf(&calls, "%s=%s ", f.Name(), name)
		call := b.x.caller(name)
		switch kind {
		case "String":
			req.sig, req.call, req.results = "() string", "()", true
			s := func(raw reflect.Value) string { return call(raw)[0].String() }
			switch f.Name() {
			case "String":
				m.String = s
			case "Error":
				m.Error = s
			case "GoString":
				m.GoString = s
			}
		case "Format":
			req.sig, req.call = "(s fmt.State, verb rune)", "(s, verb)"
			m.Format = func(raw reflect.Value, s fmt.State, verb rune) {
				call(raw, reflect.ValueOf(&s).Elem(), reflect.ValueOf(verb))
			}
		case "Unwrap":
			req.sig, req.call, req.results = "() error", "()", true
			m.Unwrap = func(raw reflect.Value) error { e, _ := call(raw)[0].Interface().(error); return e }
		case "UnwrapMulti":
			req.sig, req.call, req.results = "() []error", "()", true
			m.UnwrapMulti = func(raw reflect.Value) []error { e, _ := call(raw)[0].Interface().([]error); return e }
		case "Is":
			req.sig, req.call, req.results = "(target error) bool", "(target)", true
			m.Is = func(raw reflect.Value, target error) bool {
				return call(raw, reflect.ValueOf(&target).Elem())[0].Bool()
			}
		case "As":
			req.sig, req.call, req.results = "(target any) bool", "(target)", true
			m.As = func(raw reflect.Value, target any) bool {
				return call(raw, reflect.ValueOf(&target).Elem())[0].Bool()
			}
		case "Marshal":
			req.sig, req.call, req.results = "() ([]byte, error)", "()", true
			fm := func(raw reflect.Value) ([]byte, error) {
				out := call(raw)
				bs, _ := out[0].Interface().([]byte)
				err, _ := out[1].Interface().(error)
				return bs, err
			}
			if f.Name() == "MarshalJSON" {
				m.MarshalJSON = fm
			} else {
				m.MarshalText = fm
			}
		}
	}
	if !found {
		return nil
	}
	if b.calls == nil {
		b.calls = map[*cellvalue.Methods]string{}
	}
	b.calls[m] = calls.String()
	return m
}

// methodKind says which of the methods fmt, errors and encoding/json call
// a method is, by name and signature, or "".
func methodKind(name string, sig *types.Signature) string {
	params, results := sig.Params(), sig.Results()
	is := func(t types.Type, s string) bool { return types.TypeString(t, nil) == s }
	switch {
	case (name == "String" || name == "Error" || name == "GoString") && params.Len() == 0 && results.Len() == 1 && is(results.At(0).Type(), "string"):
		return "String"
	case name == "Format" && params.Len() == 2 && results.Len() == 0 && is(params.At(0).Type(), "fmt.State") && is(params.At(1).Type(), "rune"):
		return "Format"
	case name == "Unwrap" && params.Len() == 0 && results.Len() == 1 && is(results.At(0).Type(), "error"):
		return "Unwrap"
	case name == "Unwrap" && params.Len() == 0 && results.Len() == 1 && is(results.At(0).Type(), "[]error"):
		return "UnwrapMulti"
	case name == "Is" && params.Len() == 1 && results.Len() == 1 && is(params.At(0).Type(), "error") && is(results.At(0).Type(), "bool"):
		return "Is"
	case name == "As" && params.Len() == 1 && results.Len() == 1 && is(params.At(0).Type(), "any") && is(results.At(0).Type(), "bool"):
		return "As"
	case (name == "MarshalJSON" || name == "MarshalText") && params.Len() == 0 && results.Len() == 2 &&
		is(results.At(0).Type(), "[]byte") && is(results.At(1).Type(), "error"):
		return "Marshal"
	}
	return ""
}

// caller returns a func that calls the interpreted helper name with the
// receiver's raw value and the method's arguments.
func (x *crossing) caller(name string) func(args ...reflect.Value) []reflect.Value {
	return func(args ...reflect.Value) []reflect.Value {
		x.mu.Lock()
		fn := x.helpers[name]
		x.mu.Unlock()
		if !fn.IsValid() {
			panic(fmt.Sprintf("gocl: the method helper %s is not compiled (the cell that declared it failed?)", name))
		}
		if len(args) > 0 && args[0].IsValid() && fn.Type().NumIn() > 0 {
			if want := fn.Type().In(0); args[0].Type() != want && args[0].Type().ConvertibleTo(want) {
				args[0] = args[0].Convert(want)
			}
		}
		return fn.Call(args)
	}
}

// source is the Go source of the helpers the cell's descriptors call.
func (b *descBuilder) source() string {
	b.dropKnownProbes() // crossing_reuse.go
	if len(b.helpers) == 0 && len(b.dyn) == 0 {
		b.keep() // they call only helpers compiled already
		return ""
	}
	names := make([]string, 0, len(b.helpers))
	for n := range b.helpers {
		names = append(names, n)
	}
	sort.Strings(names)
	var s strings.Builder
	for _, n := range names {
		h := b.helpers[n]
		if h.method == "" {
			fmt.Fprintf(&s, "func %s(v %s) {}\n", h.name, h.recv)
			continue
		}
		sig := strings.TrimPrefix(h.sig, "(")
		params := strings.SplitN(sig, ")", 2)
		ret := "return "
		if !h.results {
			ret = ""
		}
		sep := ", "
		if params[0] == "" {
			sep = ""
		}
		fmt.Fprintf(&s, "func %s(v %s%s%s)%s { %sv.%s%s }\n", h.name, h.recv, sep, params[0], params[1], ret, h.method, h.call)
	}
	if len(b.dyn) > 0 {
		b.x.mu.Lock()
		cases := append(append([]dynCase(nil), b.x.dynAll...), b.dyn...)
		b.x.mu.Unlock()
		b.dynName = fmt.Sprintf("%scvdyn%d", helperPrefix, b.x.next())
		fmt.Fprintf(&s, "func %s(v any) int {\n\tswitch v.(type) {\n", b.dynName)
		for _, c := range cases {
			fmt.Fprintf(&s, "\tcase %s:\n\t\treturn %d\n", c.typ, c.id)
		}
		s.WriteString("\t}\n\treturn -1\n}\n")
		fmt.Fprintf(&s, "func %sboxdyn(v any, id int) any { return __gocl_hook.BoxAs(v, %s(v), id) }\n", helperPrefix, b.dynName)
	}
	b.x.mu.Lock()
	b.x.pending = append(b.x.pending, b)
	b.x.mu.Unlock()
	return s.String()
}

// helpersCompiled picks up the compiled helpers of the cells' pending
// descriptors (eval evaluates a name in the interpreter), and learns the
// bare types of their struct types for the resolver.
func (x *crossing) helpersCompiled(eval func(string) (reflect.Value, error)) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, b := range x.pending {
		compiled := 0
		for name, h := range b.helpers {
			if fn, err := eval(name); err == nil && fn.IsValid() && fn.Kind() == reflect.Func {
				x.helpers[name] = fn
				if h.key != "" {
					x.helperByKey[h.key] = name
				}
				compiled++
			}
		}
		for _, p := range b.probes {
			fn, ok := x.helpers[p.helper]
			if !ok || fn.Type().NumIn() != 1 {
				continue
			}
			raw := fn.Type().In(0)
			x.probed[strings.TrimPrefix(p.named.Name, "main.")] = true
			fp := b.print(p.named)
			x.learn(raw, p.named, fp)
			x.learn(reflect.PointerTo(raw), &cellvalue.Type{Kind: cellvalue.Pointer, String: "*" + p.named.String,
				Elem: p.named, Methods: p.named.PtrMethods}, "*"+fp)
			x.probeRaw[p.key] = raw
		}
		if b.dynName != "" {
			if fn, err := eval(b.dynName); err == nil && fn.Kind() == reflect.Func && fn.Type().NumIn() == 1 {
				x.dynFn = fn
				x.dynAll = append(x.dynAll, b.dyn...)
				for _, c := range b.dyn {
					x.dynKnown[strings.TrimPrefix(c.typ, "*")] = true
				}
			} else {
				compiled = -1
			}
		}
		if compiled == len(b.helpers) {
			b.keep() // crossing_reuse.go
		}
	}
	x.pending = nil
}

// learn records the descriptor of a bare type, and its fingerprint
// (crossing_reuse.go); two cell types alike in shape share a bare type,
// and neither is then resolved.
func (x *crossing) learn(raw reflect.Type, d *cellvalue.Type, fp string) {
	if old, ok := x.rawTypes[raw]; ok && (old == nil || old.String != d.String) {
		x.rawTypes[raw] = nil
		return
	}
	x.rawTypes[raw] = d
	x.rawPrints[raw] = fp
}
