package symtypes

import (
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
)

var constantValue = reflect.TypeOf((*constant.Value)(nil)).Elem()

// object returns the object that the table symbol name of pkg stands for,
// decoded as yaegi's extract writes it: a type is a nil pointer to it, a var
// an addressable value, a func a func value, an untyped constant a
// go/constant value and a typed constant a plain value (of a basic kind;
// any other plain value is taken as a var).
func (im *Importer) object(pkg *types.Package, name string, v reflect.Value) types.Object {
	t := v.Type()
	switch {
	case v.CanAddr():
		return types.NewVar(nopos, pkg, name, im.typ(t))
	case t.Kind() == reflect.Pointer && v.IsNil():
		return im.typeName(pkg, name, t.Elem())
	case t.Kind() == reflect.Func:
		return types.NewFunc(nopos, pkg, name, im.signature(t, nil, 0))
	}
	var val constant.Value
	var kind types.BasicKind
	if t.Implements(constantValue) && t.Kind() != reflect.Interface {
		val = v.Interface().(constant.Value)
		kind = untypedKind[val.Kind()]
	} else {
		val = constValue(v)
	}
	if val == nil || val.Kind() == constant.Unknown {
		// A plain value of no constant's kind (a struct, a map): yaegi
		// reads it as a value of its type, as it does a var.
		return types.NewVar(nopos, pkg, name, im.typ(t))
	}
	if k, ok := untypedConsts[pkg.Path()+"."+name]; ok {
		// extract lost this constant's kind (see constants.go).
		kind = k
	}
	if kind == 0 {
		return types.NewConst(nopos, pkg, name, im.typ(t), val)
	}
	return types.NewConst(nopos, pkg, name, types.Typ[kind], val)
}

var untypedKind = map[constant.Kind]types.BasicKind{
	constant.Bool:    types.UntypedBool,
	constant.String:  types.UntypedString,
	constant.Int:     types.UntypedInt,
	constant.Float:   types.UntypedFloat,
	constant.Complex: types.UntypedComplex,
}

// typeName returns the type name that the table symbol name of pkg gives
// the reflect type t: t's own when t is pkg's type of that name, else an
// alias (os.FileInfo is io/fs.FileInfo).
func (im *Importer) typeName(pkg *types.Package, name string, t reflect.Type) types.Object {
	tt := im.typ(t)
	if n, ok := tt.(*types.Named); ok && n.Obj().Pkg() == pkg && n.Obj().Name() == name {
		return n.Obj()
	}
	obj := types.NewTypeName(nopos, pkg, name, nil)
	types.NewAlias(obj, tt)
	return obj
}

// constValue returns the go/constant value of a typed constant's value, or
// nil when v is of no kind a constant can have.
func constValue(v reflect.Value) constant.Value {
	switch v.Kind() {
	case reflect.Bool:
		return constant.MakeBool(v.Bool())
	case reflect.String:
		return constant.MakeString(v.String())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return constant.MakeInt64(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return constant.MakeUint64(v.Uint())
	case reflect.Float32, reflect.Float64:
		return constant.MakeFloat64(v.Float())
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		return constant.BinaryOp(constant.MakeFloat64(real(c)), token.ADD, constant.MakeImag(constant.MakeFloat64(imag(c))))
	}
	return nil
}
