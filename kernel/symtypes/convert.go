package symtypes

import (
	"go/token"
	"go/types"
	"reflect"
	"strings"
)

const nopos = token.NoPos

// typ returns the go/types type of a reflect type, with im.mu held. Named
// types are made once and cached before their underlying type is filled,
// so recursive types end.
func (im *Importer) typ(t reflect.Type) types.Type {
	if tt, ok := im.typs[t]; ok {
		return tt
	}
	if t.Name() != "" {
		return im.named(t)
	}
	tt := im.literal(t, nil)
	im.typs[t] = tt
	return tt
}

// named returns the type of a reflect type that has a name.
func (im *Importer) named(t reflect.Type) types.Type {
	if t.PkgPath() == "" {
		tt := predeclared(t)
		im.typs[t] = tt
		return tt
	}
	pkg, name := im.pkg(t.PkgPath()), t.Name()
	if a, ok := im.adopted[t]; ok {
		pkg, name = im.pkg(a.path), a.name
	}
	if tt, ok := im.typs[t]; ok {
		return tt // made while im.pkg checked a source
	}
	if i := strings.IndexByte(name, '['); i > 0 {
		// An instance of a generic type (iter.Seq[string]). When the
		// generic type is known (a source declares it), instantiate it;
		// otherwise keep reflect's name, a type of its own.
		if tt := im.instance(pkg, name[:i], t); tt != nil {
			im.typs[t] = tt
			return tt
		}
	} else if len(im.sources[t.PkgPath()]) > 0 {
		if obj, ok := pkg.Scope().Lookup(name).(*types.TypeName); ok {
			im.typs[t] = obj.Type()
			return obj.Type()
		}
	}
	n := types.NewNamed(types.NewTypeName(nopos, pkg, name, nil), nil, nil)
	im.typs[t] = n
	n.SetUnderlying(im.literal(t, n))
	if t.Kind() != reflect.Interface {
		im.methods(n, t)
	}
	return n
}

// predeclared returns the universe type of a named reflect type with no
// package. A uint8 is written byte, as nearly every API spells it.
func predeclared(t reflect.Type) types.Type {
	switch t.Kind() {
	case reflect.Interface:
		if t.Name() == "error" {
			return types.Universe.Lookup("error").Type()
		}
	case reflect.Uint8:
		return byteType
	}
	return basic(t.Kind())
}

// byteType is the universe's byte (types.Typ[types.Byte] is uint8's).
var byteType = types.Universe.Lookup("byte").Type()

var basics = map[reflect.Kind]types.BasicKind{
	reflect.Bool: types.Bool, reflect.String: types.String,
	reflect.Int: types.Int, reflect.Int8: types.Int8, reflect.Int16: types.Int16,
	reflect.Int32: types.Int32, reflect.Int64: types.Int64,
	reflect.Uint: types.Uint, reflect.Uint8: types.Uint8, reflect.Uint16: types.Uint16,
	reflect.Uint32: types.Uint32, reflect.Uint64: types.Uint64, reflect.Uintptr: types.Uintptr,
	reflect.Float32: types.Float32, reflect.Float64: types.Float64,
	reflect.Complex64: types.Complex64, reflect.Complex128: types.Complex128,
	reflect.UnsafePointer: types.UnsafePointer,
}

// basic returns the basic type of a kind, or Invalid for a kind that is not
// basic.
func basic(k reflect.Kind) types.Type {
	if b, ok := basics[k]; ok {
		return types.Typ[b]
	}
	return types.Typ[types.Invalid]
}

// literal returns the structure of t as a type literal: the underlying type
// of t when t is named (then owner is t's Named, whose package the exported
// fields and methods get).
func (im *Importer) literal(t reflect.Type, owner *types.Named) types.Type {
	var pkg *types.Package
	if owner != nil {
		pkg = owner.Obj().Pkg()
	}
	switch t.Kind() {
	case reflect.Array:
		return types.NewArray(im.typ(t.Elem()), int64(t.Len()))
	case reflect.Slice:
		return types.NewSlice(im.typ(t.Elem()))
	case reflect.Map:
		return types.NewMap(im.typ(t.Key()), im.typ(t.Elem()))
	case reflect.Chan:
		dir := types.SendRecv
		switch t.ChanDir() {
		case reflect.SendDir:
			dir = types.SendOnly
		case reflect.RecvDir:
			dir = types.RecvOnly
		}
		return types.NewChan(dir, im.typ(t.Elem()))
	case reflect.Pointer:
		return types.NewPointer(im.typ(t.Elem()))
	case reflect.Func:
		return im.signature(t, nil, 0)
	case reflect.Interface:
		return im.iface(t, pkg)
	case reflect.Struct:
		return im.strct(t, pkg)
	}
	return basic(t.Kind())
}

// signature returns the signature of the func type t, leaving out its first
// skip parameters (a method's receiver).
func (im *Importer) signature(t reflect.Type, recv *types.Var, skip int) *types.Signature {
	params := make([]*types.Var, 0, t.NumIn()-skip)
	for i := skip; i < t.NumIn(); i++ {
		params = append(params, types.NewParam(nopos, nil, "", im.typ(t.In(i))))
	}
	results := make([]*types.Var, 0, t.NumOut())
	for i := 0; i < t.NumOut(); i++ {
		results = append(results, types.NewParam(nopos, nil, "", im.typ(t.Out(i))))
	}
	return types.NewSignatureType(recv, nil, nil, types.NewTuple(params...), types.NewTuple(results...), t.IsVariadic())
}

// iface returns the interface literal of t: all its methods, embedded
// interfaces flattened (reflect keeps no embedding), unexported ones with
// their package.
func (im *Importer) iface(t reflect.Type, pkg *types.Package) types.Type {
	if t.NumMethod() == 0 && t.Name() == "" {
		return types.Universe.Lookup("any").Type()
	}
	methods := make([]*types.Func, 0, t.NumMethod())
	for i := 0; i < t.NumMethod(); i++ {
		m := t.Method(i)
		mpkg := pkg
		if m.PkgPath != "" {
			mpkg = im.pkg(m.PkgPath)
		}
		methods = append(methods, types.NewFunc(nopos, mpkg, m.Name, im.signature(m.Type, nil, 0)))
	}
	it := types.NewInterfaceType(methods, nil)
	it.Complete()
	return it
}

// strct returns the struct literal of t, unexported fields with their
// package.
func (im *Importer) strct(t reflect.Type, pkg *types.Package) types.Type {
	fields := make([]*types.Var, t.NumField())
	tags := make([]string, t.NumField())
	hasTags := false
	for i := range fields {
		f := t.Field(i)
		fpkg := pkg
		if f.PkgPath != "" {
			fpkg = im.pkg(f.PkgPath)
		}
		fields[i] = types.NewField(nopos, fpkg, f.Name, im.typ(f.Type), f.Anonymous)
		tags[i] = string(f.Tag)
		hasTags = hasTags || f.Tag != ""
	}
	if !hasTags {
		tags = nil
	}
	return types.NewStruct(fields, tags)
}

// methods adds the exported methods of the named non-interface type t to
// n: those of t's method set with receiver t, the others of *t's with
// receiver *t. Promoted methods are added too: the method sets are the
// same.
func (im *Importer) methods(n *types.Named, t reflect.Type) {
	pkg := n.Obj().Pkg()
	add := func(m reflect.Method, recv types.Type) {
		sig := im.signature(m.Type, types.NewVar(nopos, pkg, "", recv), 1)
		n.AddMethod(types.NewFunc(nopos, pkg, m.Name, sig))
	}
	for i := 0; i < t.NumMethod(); i++ {
		add(t.Method(i), n)
	}
	if t.Kind() == reflect.Pointer {
		return
	}
	pt := reflect.PointerTo(t)
	for i := 0; i < pt.NumMethod(); i++ {
		if m := pt.Method(i); !hasMethod(t, m.Name) {
			add(m, types.NewPointer(n))
		}
	}
	im.addUnexported(n, t)
}

func hasMethod(t reflect.Type, name string) bool {
	_, ok := t.MethodByName(name)
	return ok
}

// instance returns the instance of the generic type base of pkg that has
// the structure of t, or nil when there is no such generic type. The type
// arguments are found by matching the generic type's underlying type with
// t's structure.
func (im *Importer) instance(pkg *types.Package, base string, t reflect.Type) types.Type {
	obj, _ := pkg.Scope().Lookup(base).(*types.TypeName)
	if obj == nil {
		return nil
	}
	gen, _ := obj.Type().(*types.Named)
	if gen == nil || gen.TypeParams().Len() == 0 || im.instantiating[t] {
		return nil // not generic, or t refers to itself: keep reflect's name
	}
	im.instantiating[t] = true
	defer delete(im.instantiating, t)
	args := make([]types.Type, gen.TypeParams().Len())
	if !bind(gen.Underlying(), im.literal(t, nil), args) {
		return nil
	}
	for _, a := range args {
		if a == nil {
			return nil
		}
	}
	inst, err := types.Instantiate(nil, gen, args, true)
	if err != nil {
		return nil
	}
	return inst
}

// bind matches the generic type g with the type c, recording in args what
// each type parameter of g stands for. It reports whether they match.
func bind(g, c types.Type, args []types.Type) bool {
	switch g := g.(type) {
	case *types.TypeParam:
		i := g.Index()
		if args[i] == nil {
			args[i] = c
		}
		return types.Identical(args[i], c)
	case *types.Pointer:
		c, ok := c.(*types.Pointer)
		return ok && bind(g.Elem(), c.Elem(), args)
	case *types.Slice:
		c, ok := c.(*types.Slice)
		return ok && bind(g.Elem(), c.Elem(), args)
	case *types.Array:
		c, ok := c.(*types.Array)
		return ok && g.Len() == c.Len() && bind(g.Elem(), c.Elem(), args)
	case *types.Chan:
		c, ok := c.(*types.Chan)
		return ok && bind(g.Elem(), c.Elem(), args)
	case *types.Map:
		c, ok := c.(*types.Map)
		return ok && bind(g.Key(), c.Key(), args) && bind(g.Elem(), c.Elem(), args)
	case *types.Signature:
		c, ok := c.(*types.Signature)
		return ok && bindTuple(g.Params(), c.Params(), args) && bindTuple(g.Results(), c.Results(), args)
	case *types.Struct:
		c, ok := c.(*types.Struct)
		if !ok || g.NumFields() != c.NumFields() {
			return false
		}
		for i := 0; i < g.NumFields(); i++ {
			if !bind(g.Field(i).Type(), c.Field(i).Type(), args) {
				return false
			}
		}
	}
	return true
}

func bindTuple(g, c *types.Tuple, args []types.Type) bool {
	if g.Len() != c.Len() {
		return false
	}
	for i := 0; i < g.Len(); i++ {
		if !bind(g.At(i).Type(), c.At(i).Type(), args) {
			return false
		}
	}
	return true
}
