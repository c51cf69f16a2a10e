package cellvalue

import (
	"errors"
	"fmt"
	"reflect"
	"unsafe"
)

// Errorf must return fmt's own error types, so that %T, type switches and
// errors.Is/As see what fmt.Errorf would give. Their fields are unexported:
// a value made by fmt.Errorf is filled in place, after checking at start-up
// that the layout is still {msg string; err error} and {msg string; errs
// []error}. If a future Go changes it, Errorf falls back to types of this
// package with the same behaviour (only %T differs).

var (
	wrapErrorOK  = layoutIs(fmt.Errorf("%w", errors.New("")), "err", reflect.TypeOf((*error)(nil)).Elem())
	wrapErrorsOK = layoutIs(fmt.Errorf("%w%w", errors.New(""), errors.New("")), "errs", reflect.TypeOf([]error(nil)))
)

func layoutIs(e error, second string, t reflect.Type) bool {
	rt := reflect.TypeOf(e)
	if rt.Kind() != reflect.Pointer || rt.Elem().Kind() != reflect.Struct {
		return false
	}
	s := rt.Elem()
	return s.NumField() == 2 && s.Field(0).Name == "msg" && s.Field(0).Type == reflect.TypeOf("") &&
		s.Field(1).Name == second && s.Field(1).Type == t
}

func newWrapError(msg string, err error) error {
	if !wrapErrorOK {
		return &wrapError{msg, err}
	}
	e := fmt.Errorf("%w", errors.New(""))
	v := reflect.ValueOf(e).Elem()
	*(*string)(unsafe.Pointer(v.Field(0).UnsafeAddr())) = msg
	*(*error)(unsafe.Pointer(v.Field(1).UnsafeAddr())) = err
	return e
}

func newWrapErrors(msg string, errs []error) error {
	if !wrapErrorsOK {
		return &wrapErrors{msg, errs}
	}
	e := fmt.Errorf("%w%w", errors.New(""), errors.New(""))
	v := reflect.ValueOf(e).Elem()
	*(*string)(unsafe.Pointer(v.Field(0).UnsafeAddr())) = msg
	*(*[]error)(unsafe.Pointer(v.Field(1).UnsafeAddr())) = errs
	return e
}

type wrapError struct {
	msg string
	err error
}

func (e *wrapError) Error() string { return e.msg }
func (e *wrapError) Unwrap() error { return e.err }

type wrapErrors struct {
	msg  string
	errs []error
}

func (e *wrapErrors) Error() string   { return e.msg }
func (e *wrapErrors) Unwrap() []error { return e.errs }
