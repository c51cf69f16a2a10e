package cellvalue_test

import (
	"reflect"
	"testing"

	"github.com/seed43a1e1ab/gocl/kernel/cellvalue"
)

// TestUnmarshalIntoEmptyInterface decodes into map[string]interface{} and
// into interface{} as go/types spells them today ("interface{}", no space),
// as "interface {}" (reflect's spelling) and as "any": each is Go's empty
// interface, which encoding/json fills with its own types (issue 24: only
// "interface {}" and "any" were taken, so a session that declared a type
// printed an error where Go decodes).
func TestUnmarshalIntoEmptyInterface(t *testing.T) {
	for _, spelling := range []string{"interface{}", "interface {}", "any"} {
		iface := &cellvalue.Type{Kind: cellvalue.Interface, String: spelling}
		str := &cellvalue.Type{Kind: cellvalue.Basic, String: "string"}
		mapT := &cellvalue.Type{Kind: cellvalue.Map, Key: str, Elem: iface, String: "map[string]" + spelling}
		var m map[string]any
		if err := cellvalue.Unmarshal([]byte(`{"a":1,"b":[1,"x"]}`), &m,
			&cellvalue.Type{Kind: cellvalue.Pointer, Elem: mapT, String: "*" + mapT.String}); err != nil {
			t.Errorf("%s: map: %v", spelling, err)
		} else if want := map[string]any{"a": 1.0, "b": []any{1.0, "x"}}; !reflect.DeepEqual(m, want) {
			t.Errorf("%s: map: got %v, want %v", spelling, m, want)
		}
		var v any
		if err := cellvalue.Unmarshal([]byte(`[1,2]`), &v,
			&cellvalue.Type{Kind: cellvalue.Pointer, Elem: iface, String: "*" + spelling}); err != nil {
			t.Errorf("%s: %v", spelling, err)
		} else if want := []any{1.0, 2.0}; !reflect.DeepEqual(v, want) {
			t.Errorf("%s: got %v, want %v", spelling, v, want)
		}
	}
}
