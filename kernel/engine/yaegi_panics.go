package engine

import (
	"regexp"
	"strings"
)

// yaegi runs a cell's indexing, slicing and calls through package reflect,
// so a run-time error that Go words as "runtime error: index out of range
// [3] with length 0" reaches the cell as reflect's "reflect: slice index out
// of range". goRuntimeText gives such messages Go's words (yaegi does not
// say which index or length, so Go's numbers are missing), and strips the
// position yaegi puts before an interface conversion's message. Other texts
// come back unchanged.
func goRuntimeText(text string) (string, bool) {
	text = convPosRE.ReplaceAllString(text, "")
	for _, m := range runtimeWords {
		if strings.HasPrefix(text, m.reflect) {
			return m.goText, true
		}
	}
	return text, false
}

// convPosRE matches the position yaegi puts before an interface conversion
// panic: "cell9/_.go:1:23: interface conversion: ...".
var convPosRE = regexp.MustCompile(`^(?:[A-Za-z0-9]+/_\.go:)?\d+:\d+: `)

var runtimeWords = []struct{ reflect, goText string }{
	{"reflect: slice index out of range", "runtime error: index out of range"},
	{"reflect: string index out of range", "runtime error: index out of range"},
	{"reflect: array index out of range", "runtime error: index out of range"},
	{"reflect.Value.Slice: slice index out of bounds", "runtime error: slice bounds out of range"},
	{"reflect.Value.Slice3: slice index out of bounds", "runtime error: slice bounds out of range"},
	{"reflect.Value.Slice: string slice index out of bounds", "runtime error: slice bounds out of range"},
	{"reflect: call of reflect.Value.Field on zero Value", "runtime error: invalid memory address or nil pointer dereference"},
	{"reflect: call of reflect.Value.Elem on zero Value", "runtime error: invalid memory address or nil pointer dereference"},
	{"reflect: Method on nil interface value", "runtime error: invalid memory address or nil pointer dereference"},
	{"reflect.Value.Call: call of nil function", "runtime error: invalid memory address or nil pointer dereference"},
}
