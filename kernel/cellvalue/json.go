package cellvalue

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
)

// Marshal is json.Marshal for a value that may be a box or a cell value: it
// encodes the real value's JSON (real field names and tags, unexported
// fields skipped, embedded structs promoted, MarshalJSON and MarshalText
// methods of cell types called).
func Marshal(v any) ([]byte, error) { return marshalAny(v, "", "", false) }

// MarshalIndent is json.MarshalIndent for a value that may be a box or a cell value.
func MarshalIndent(v any, prefix, indent string) ([]byte, error) {
	return marshalAny(v, prefix, indent, true)
}

// EncodeJSON is (*json.Encoder).Encode for a value that may be a box or a
// cell value; the encoder's own settings (indent, HTML escaping) apply.
func EncodeJSON(enc *json.Encoder, v any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if re, ok := r.(rethrow); ok {
				panic(re.v)
			}
			err = fmt.Errorf("cellvalue: cannot encode %s as JSON: %v", typeName(v), r)
		}
	}()
	m := &mirrorer{mode: forJSON, onPath: map[uintptr]bool{}}
	mv, err := m.value(argVal(v))
	if err != nil {
		return err
	}
	var a any
	if mv.IsValid() {
		a = mv.Interface()
	}
	return m.fixError(enc.Encode(a))
}

func marshalAny(v any, prefix, indent string, indented bool) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			if re, ok := r.(rethrow); ok {
				panic(re.v)
			}
			out, err = nil, fmt.Errorf("cellvalue: cannot encode %s as JSON: %v", typeName(v), r)
		}
	}()
	m := &mirrorer{mode: forJSON, onPath: map[uintptr]bool{}}
	mv, err := m.value(argVal(v))
	if err != nil {
		return nil, err
	}
	var a any
	if mv.IsValid() {
		a = mv.Interface()
	}
	var b []byte
	if indented {
		b, err = json.MarshalIndent(a, prefix, indent)
	} else {
		b, err = json.Marshal(a)
	}
	if err != nil {
		return nil, m.fixError(err)
	}
	return b, nil
}

func typeName(v any) string { return typeString(argVal(v)) }

// marshal is the JSON of a box (its MarshalJSON).
func marshal(raw reflect.Value, t *Type, prefix, indent string) ([]byte, error) {
	return marshalAny(&box{raw: raw, t: t}, prefix, indent, false)
}

// jsonWrap carries a cell type's MarshalJSON into a mirror.
type jsonWrap struct {
	fn func() ([]byte, error)
	t  *Type
	m  *mirrorer
}

// MarshalJSON calls the cell method.
func (w *jsonWrap) MarshalJSON() ([]byte, error) {
	w.m.failed = &wrapFailure{t: w.t, method: "MarshalJSON"}
	return callMethod(w.fn)
}

// textWrap carries a cell type's MarshalText into a mirror.
type textWrap struct {
	fn func() ([]byte, error)
	t  *Type
	m  *mirrorer
}

// MarshalText calls the cell method.
func (w *textWrap) MarshalText() ([]byte, error) {
	w.m.failed = &wrapFailure{t: w.t, method: "MarshalText"}
	return callMethod(w.fn)
}

// marshalerError is json.MarshalerError naming the cell type (a
// json.MarshalerError can only name a reflect type).
type marshalerError struct {
	typ, fn string
	err     error
}

func (e *marshalerError) Error() string {
	return "json: error calling " + e.fn + " for type " + e.typ + ": " + e.err.Error()
}

// Unwrap returns the method's error.
func (e *marshalerError) Unwrap() error { return e.err }

// fixError renames the wrapper type in a json.MarshalerError to the cell type.
func (m *mirrorer) fixError(err error) error {
	var me *json.MarshalerError
	if err == nil || m.failed == nil || !errors.As(err, &me) {
		return err
	}
	if me.Type != reflect.TypeOf(&jsonWrap{}) && me.Type != reflect.TypeOf(&textWrap{}) {
		return err
	}
	return &marshalerError{typ: typeString(val{t: m.failed.t}), fn: m.failed.method, err: me.Err}
}

// callMethod calls a cell method; its panic goes on to the caller as
// encoding/json lets a Marshaler's panic through.
func callMethod(fn func() ([]byte, error)) ([]byte, error) {
	ok := false
	defer func() {
		if !ok {
			panic(rethrow{recover()})
		}
	}()
	b, err := fn()
	ok = true
	return b, err
}
