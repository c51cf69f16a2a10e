package widgets

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/seed43a1e1ab/gocl/kernel/cellctx"
	"github.com/seed43a1e1ab/gocl/kernel/display"
)

// Where callbacks' output goes.
//
// A callback (OnChange, OnClick, Observe, Interact) runs when the page sends
// an update or a click, long after its cell finished, in the engine as a cell
// runs: interruptible, its prints captured. What it prints and displays, and
// the error if it panics, goes to the Output its widget was given with
// OutputTo; without one, to an output area (an Output widget) that gocl adds
// to the cell that registered the callback, where it appears at the point of
// the registration. A callback registered by another callback writes where
// that one writes. Front ends route a comm message's own output differently
// (JupyterLab sends it to its log console), so gocl never relies on that.

var (
	areaMu   sync.Mutex
	areaCtx  context.Context // the cell the area belongs to
	area     *Output
	runningM sync.Mutex
	current  []*Output // targets of the callbacks running now, innermost last
)

func resetAreas() {
	areaMu.Lock()
	areaCtx, area = nil, nil
	areaMu.Unlock()
	runningM.Lock()
	current = nil
	runningM.Unlock()
}

// ownerArea returns where a callback registered now should write: the
// target of the running callback, else the running cell's area (made and
// displayed on first use), else nil outside any cell.
func ownerArea() *Output {
	runningM.Lock()
	if n := len(current); n > 0 {
		t := current[n-1]
		runningM.Unlock()
		return t
	}
	runningM.Unlock()
	ctx := cellctx.Current()
	if ctx == context.Background() {
		return nil
	}
	areaMu.Lock()
	if areaCtx == ctx && area != nil && !area.Closed() {
		a := area
		areaMu.Unlock()
		return a
	}
	areaMu.Unlock()
	a := NewOutput()
	a.area = true
	areaMu.Lock()
	areaCtx, area = ctx, a
	areaMu.Unlock()
	display.Show(a)
	return a
}

// callback is a registered callback: f and where it writes.
type callback struct {
	owner *Model  // whose OutputTo wins
	area  *Output // the owner cell's area, when there is no OutputTo
	what  string  // for error messages: `OnChange of IntSlider "size"`
}

// newCallback records where a callback registered now on m writes.
func newCallback(m *Model, what string) *callback {
	c := &callback{owner: m, what: what}
	m.mu.Lock()
	explicit := m.out != nil
	m.mu.Unlock()
	if !explicit {
		c.area = ownerArea()
	}
	return c
}

func (c *callback) target() *Output {
	if c.owner != nil {
		c.owner.mu.Lock()
		out := c.owner.out
		c.owner.mu.Unlock()
		if out != nil {
			return out
		}
	}
	return c.area
}

// run calls f with its output captured by the callback's target, and turns
// a panic into an error output there (or, with no target, on stderr).
func (c *callback) run(f func()) {
	t := c.target()
	if t != nil {
		runningM.Lock()
		current = append(current, t)
		runningM.Unlock()
		end := cellctx.Running().Capture(t)
		defer func() {
			end()
			t.updateStatic()
			runningM.Lock()
			if n := len(current); n > 0 {
				current = current[:n-1]
			}
			runningM.Unlock()
		}()
	}
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		msg := fmt.Sprintf("%v", r)
		tb := []string{fmt.Sprintf("panic in the %s callback: %s", c.what, msg)}
		tb = append(tb, callerLines(debug.Stack())...)
		if t != nil {
			t.appendError("panic", fmt.Sprintf("%s callback: %s", c.what, msg), tb)
			return
		}
		fmt.Fprintln(os.Stderr, strings.Join(tb, "\n"))
	}()
	f()
}

// callerLines keeps the stack lines of the user's cells (yaegi names them
// cellN/_.go), which say where the callback failed.
func callerLines(stack []byte) []string {
	var out []string
	for _, l := range strings.Split(string(stack), "\n") {
		l = strings.TrimSpace(l)
		if strings.Contains(l, "/_.go:") {
			out = append(out, "  at "+l)
		}
	}
	return out
}

// callbackIn wraps an Observe function as a callback of m.
func callbackIn(m *Model, f func(old, new any)) func(old, new any) {
	c := newCallback(m, "Observe of "+m.describe())
	return func(old, n any) { c.run(func() { f(old, n) }) }
}

// describe names the widget for messages: IntSlider "size".
func (m *Model) describe() string {
	name := strings.TrimSuffix(m.spec.Model.Name, "Model")
	m.mu.Lock()
	d, _ := m.state["description"].(string)
	m.mu.Unlock()
	if d != "" {
		return fmt.Sprintf("%s %q", name, d)
	}
	return name
}
