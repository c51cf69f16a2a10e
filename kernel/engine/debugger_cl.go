package engine

import (
	"reflect"
	"strconv"

	"github.com/seed43a1e1ab/gocl/clapi"
)

// clSummary is what the variables panel lists under a cl object: what
// matters of it, never a call that waits for a device (a stopped cell must
// not hang the panel on a command that has not finished).
func clSummary(v reflect.Value) (kids []dapVar, ok bool) {
	if !v.IsValid() || !v.CanInterface() || (v.Kind() == reflect.Pointer && v.IsNil()) {
		return nil, false
	}
	defer func() {
		if r := recover(); r != nil {
			kids = append(kids, text("error", "cannot read this object: "+valueText(reflect.ValueOf(r))))
		}
	}()
	switch x := v.Interface().(type) {
	case *clapi.Buffer:
		kids = append(kids, text("size", strconv.Itoa(x.Size())+" bytes"), text("flags", x.Flags().String()))
		if c := x.Context(); c != nil {
			kids = append(kids, text("device", c.Device().Name))
		}
		if p := x.Parent(); p != nil {
			kids = append(kids, dapVar{name: "parent", v: reflect.ValueOf(p)})
		}
		return kids, true
	case *clapi.Event:
		status := x.Status()
		kids = append(kids, text("command", x.Command()), text("status", status))
		if d := x.Direction(); d != "" {
			kids = append(kids, text("direction", d), text("bytes", strconv.FormatInt(x.Bytes(), 10)))
		}
		kids = append(kids, text("host blocked", x.HostBlocked().String()))
		switch q := x.Queue(); {
		case status != "complete":
			kids = append(kids, text("device time", "not known until the command completes"))
		case q == nil || !q.Profiling():
			kids = append(kids, text("device time", "not measured: the queue was created without cl.Profiling"))
		default:
			kids = append(kids, text("device time", x.DeviceTime().String()))
		}
		return kids, true
	case *clapi.PinnedHost:
		state := "open"
		if str := x.String(); len(str) > 9 && str[len(str)-9:] == " (closed)" {
			state = "closed"
		}
		kids = append(kids, text("size", strconv.Itoa(x.Size())+" bytes"), text("state", state))
		return kids, true
	}
	return nil, false
}

// text is a line of a cl object's summary.
func text(name, value string) dapVar { return dapVar{name: name, text: value, typ: "string"} }

// richSafe reports whether showing x's display bundle cannot wait: an
// event's card waits for its command.
func richSafe(x any) bool {
	if e, ok := x.(*clapi.Event); ok {
		return e.Status() == "complete"
	}
	return true
}
