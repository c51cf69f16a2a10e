package cellvalue_test

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"reflect"
	"strings"
	"testing"

	"github.com/seed43a1e1ab/gocl/kernel/cellvalue"
)

func TestErrorfWrapsABox(t *testing.T) {
	realQE := &QueryError{Query: "q1", Err: io.EOF}
	b := box(realQE)
	want := fmt.Errorf("run: %w", realQE)
	got := cellvalue.Errorf("run: %w", b)
	if got.Error() != want.Error() || got.Error() != "run: query q1: EOF" {
		t.Fatalf("Errorf message %q, want %q", got.Error(), want.Error())
	}
	if gt, wt := fmt.Sprintf("%T", got), fmt.Sprintf("%T", want); gt != wt {
		t.Errorf("Errorf type %s, want %s", gt, wt)
	}
	// Without the box, fmt cannot wrap: the test must see the difference.
	wf := "run: %w"
	if bypass := fmt.Errorf(wf, rawOf(realQE)); !strings.Contains(bypass.Error(), "%!w(") {
		t.Fatalf("bypassing the box did not fail: %q", bypass)
	}
	if u := cellvalue.Unwrap(got); u != b {
		t.Errorf("Unwrap gave %#v, want the box", u)
	}
	if u := errors.Unwrap(got); u != b {
		t.Errorf("errors.Unwrap gave %#v, want the box", u)
	}
	if !cellvalue.Is(got, io.EOF) || !errors.Is(got, io.EOF) {
		t.Error("Is does not walk through the box's Unwrap to io.EOF")
	}
	// The same cell value, boxed again or in a yaegi-like wrapper, is the target.
	if !cellvalue.Is(got, box(realQE).(error)) {
		t.Error("Is(err, the same pointer boxed again) is false")
	}
	if !cellvalue.Is(got, theFake.cellErr(realQE)) {
		t.Error("Is(err, the value in a wrapper) is false")
	}
	if cellvalue.Is(got, box(&QueryError{Query: "q1", Err: io.EOF}).(error)) {
		t.Error("Is matched a different pointer")
	}
	var target *QueryError
	targetRaw := reflect.New(reflect.TypeOf(rawOf(target)))
	if !cellvalue.As(got, targetRaw.Interface(), theFake.typeOf(reflect.TypeOf(target))) {
		t.Fatal("As did not find the *QueryError")
	}
	if gotRaw := targetRaw.Elem().Interface(); gotRaw != rawOf(realQE) {
		t.Errorf("As set %v, want the raw pointer", gotRaw)
	}
	var asErr error
	if !cellvalue.As(got, &asErr, nil) || asErr != got {
		t.Errorf("As into *error: %v", asErr)
	}
	var pe *fs.PathError
	if cellvalue.As(got, &pe, nil) {
		t.Error("As matched *fs.PathError")
	}
	wrapped := cellvalue.Errorf("outer: %w", cellvalue.Errorf("mid: %w", fs.ErrNotExist))
	if !cellvalue.As(cellvalue.Errorf("x: %w", &fs.PathError{Op: "open", Err: wrapped}), &pe, nil) || pe.Op != "open" {
		t.Error("As of a compiled target type failed")
	}
}

func TestErrorfAgreesWithFmt(t *testing.T) {
	v1, v2 := ValErr{"one"}, ValErr{"two"}
	cases := []struct {
		format string
		real   []any
		boxed  []any
	}{
		{"%w", []any{v1}, []any{box(v1)}},
		{"a %w b %w", []any{v1, v2}, []any{box(v1), box(v2)}},
		{"%[2]w %[1]w %[2]w", []any{v1, v2}, []any{box(v1), box(v2)}},
		{"%w", []any{Level(1)}, []any{box(Level(1))}},
		{"%v %d", []any{v1, 3}, []any{box(v1), 3}},
		{"%w %w", []any{v1, io.EOF}, []any{box(v1), io.EOF}},
		{"%+w|%10w|", []any{v1, v2}, []any{box(v1), box(v2)}},
		{"plain", nil, nil},
		{"%w", []any{nil}, []any{nil}},
		{"%w", []any{Multi{[]error{io.EOF}}}, []any{box(Multi{[]error{io.EOF}})}},
	}
	for _, tc := range cases {
		want := fmt.Errorf(tc.format, tc.real...)
		got := cellvalue.Errorf(tc.format, tc.boxed...)
		if got.Error() != want.Error() {
			t.Errorf("Errorf(%q) = %q, want %q", tc.format, got.Error(), want.Error())
		}
		if gt, wt := reflect.TypeOf(got), reflect.TypeOf(want); gt != wt {
			t.Errorf("Errorf(%q) type %v, want %v", tc.format, gt, wt)
		}
		wantN := unwrapCount(want)
		if gotN := unwrapCount(got); gotN != wantN {
			t.Errorf("Errorf(%q) wraps %d errors, want %d", tc.format, gotN, wantN)
		}
		for i, r := range tc.real {
			e, ok := r.(error)
			if !ok {
				continue
			}
			be, _ := tc.boxed[i].(error)
			if w, g := errors.Is(want, e), cellvalue.Is(got, be); w != g {
				t.Errorf("Errorf(%q): Is(arg %d) = %v, want %v", tc.format, i, g, w)
			}
		}
	}
}

func unwrapCount(err error) int {
	switch x := err.(type) {
	case interface{ Unwrap() error }:
		if x.Unwrap() == nil {
			return 0
		}
		return 1
	case interface{ Unwrap() []error }:
		return len(x.Unwrap())
	}
	return 0
}

func TestIsAgreesWithErrors(t *testing.T) {
	code7 := CodeErr{7}
	multi := Multi{[]error{io.EOF, ValErr{"m"}}}
	qe := &QueryError{Query: "q", Err: code7}
	cases := []struct {
		name         string
		err, target  error
		berr, btgt   error
		wantBypassOK bool
	}{
		{"same value", ValErr{"a"}, ValErr{"a"}, box(ValErr{"a"}).(error), box(ValErr{"a"}).(error), false},
		{"other value", ValErr{"a"}, ValErr{"b"}, box(ValErr{"a"}).(error), box(ValErr{"b"}).(error), false},
		{"Is method", code7, CodeErr{0}, box(code7).(error), box(CodeErr{0}).(error), false},
		{"Is method no", code7, CodeErr{8}, box(code7).(error), box(CodeErr{8}).(error), false},
		{"through Unwrap", qe, CodeErr{7}, box(qe).(error), box(CodeErr{7}).(error), false},
		{"through Unwrap to compiled", &QueryError{"q", io.EOF}, io.EOF, box(&QueryError{"q", io.EOF}).(error), io.EOF, false},
		{"multi", multi, ValErr{"m"}, box(multi).(error), box(ValErr{"m"}).(error), false},
		{"multi compiled", multi, io.EOF, box(multi).(error), io.EOF, false},
		{"joined", errors.Join(io.EOF, code7), CodeErr{7}, cellvalue.Join(io.EOF, box(code7).(error)), box(CodeErr{7}).(error), false},
		{"promoted Error", embedsErr{ValErr{"e"}, 1}, embedsErr{ValErr{"e"}, 1}, box(embedsErr{ValErr{"e"}, 1}).(error), box(embedsErr{ValErr{"e"}, 1}).(error), false},
	}
	for _, tc := range cases {
		want := errors.Is(tc.err, tc.target)
		if got := cellvalue.Is(tc.berr, tc.btgt); got != want {
			t.Errorf("%s: Is = %v, want %v", tc.name, got, want)
		}
	}
	if cellvalue.Is(nil, io.EOF) || !cellvalue.Is(nil, nil) {
		t.Error("Is with nil")
	}
	if got, want := cellvalue.Join(box(ValErr{"a"}).(error), io.EOF).Error(), errors.Join(ValErr{"a"}, io.EOF).Error(); got != want {
		t.Errorf("Join message %q, want %q", got, want)
	}
}

func TestAsValueAndInterfaceTargets(t *testing.T) {
	err := cellvalue.Errorf("w: %w", box(ValErr{"deep"}))
	rawT := reflect.TypeOf(rawOf(ValErr{}))
	target := reflect.New(rawT)
	if !cellvalue.As(err, target.Interface(), theFake.typeOf(reflect.TypeOf(ValErr{}))) {
		t.Fatal("As of a value type failed")
	}
	if got := target.Elem().Interface(); got != rawOf(ValErr{"deep"}) {
		t.Errorf("As set %v", got)
	}
	if cellvalue.As(err, reflect.New(reflect.TypeOf(rawOf(CodeErr{}))).Interface(), theFake.typeOf(reflect.TypeOf(CodeErr{}))) {
		t.Error("As matched another cell type with a different raw type")
	}
	type temporary interface{ Error() string }
	ifaceT := reflect.TypeOf((*temporary)(nil)).Elem()
	var ti any
	if !cellvalue.As(err, &ti, theFake.typeOf(ifaceT)) {
		t.Error("As into a cell interface that the value satisfies failed")
	}
	var st fmt.Stringer
	if cellvalue.As(err, &st, nil) {
		t.Error("As into fmt.Stringer matched a type without String")
	}
	for _, bad := range []struct {
		name   string
		target any
		elem   *cellvalue.Type
		msg    string
	}{
		{"nil", nil, nil, "errors: target cannot be nil"},
		{"not pointer", 3, nil, "errors: target must be a non-nil pointer"},
		{"not error", new(int), nil, "errors: *target must be interface or implement error"},
		{"cell not error", reflect.New(reflect.TypeOf(rawOf(T{}))).Interface(), theFake.typeOf(reflect.TypeOf(T{})), "errors: *target must be interface or implement error"},
	} {
		func() {
			defer func() {
				if r := recover(); r != bad.msg {
					t.Errorf("As(%s) panicked %v, want %q", bad.name, r, bad.msg)
				}
			}()
			cellvalue.As(err, bad.target, bad.elem)
		}()
	}
}

func TestBoxIsAnErrorOnlyWhenTheTypeIs(t *testing.T) {
	if _, ok := box(T{}).(error); ok {
		t.Error("a box of a type without Error implements error")
	}
	if _, ok := box(&QueryError{}).(error); !ok {
		t.Error("a box of *QueryError does not implement error")
	}
	if _, ok := box(QueryError{}).(error); ok {
		t.Error("a box of QueryError (pointer-receiver Error) implements error")
	}
	if _, ok := box(Multi{}).(interface{ Unwrap() []error }); !ok {
		t.Error("a box of Multi lacks Unwrap() []error")
	}
	if _, ok := box(Multi{}).(interface{ Unwrap() error }); ok {
		t.Error("a box of Multi has Unwrap() error")
	}
}
