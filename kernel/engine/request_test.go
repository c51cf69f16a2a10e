package engine

import (
	"context"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/comm"
)

// commRecorder is a recorder that also carries comm messages (CommSink).
type commRecorder struct {
	recorder
	cmu   sync.Mutex
	comms []comm.Message
}

func (r *commRecorder) Comm(m comm.Message) {
	r.cmu.Lock()
	defer r.cmu.Unlock()
	r.comms = append(r.comms, m)
}

// commText is everything r's comm messages carry, as JSON.
func (r *commRecorder) commText() string {
	r.cmu.Lock()
	defer r.cmu.Unlock()
	b, _ := json.Marshal(r.comms)
	return string(b)
}

func (r *commRecorder) displays() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.events {
		if e.kind == "display" {
			t, _ := e.msg.Data.Text("text/plain")
			out = append(out, t)
		}
	}
	return out
}

// TestRequestsReachTheirOwnSinks drives cells and a comm message, each with
// a sink of its own, through the engine: what each prints, displays, reads
// and sends as comm messages reaches its own sink only, and what a widget
// callback prints is captured into its output area for that request only.
func TestRequestsReachTheirOwnSinks(t *testing.T) {
	e := newEngine(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	one := &commRecorder{}
	r := e.Execute(ctx, `import "github.com/seed43a1e1ab/gocl/kernel/widgets"
fmt.Println("one")
display.Text("shown by one")
b := widgets.NewButton("go")
b.OnClick(func() { fmt.Println("clicked"); display.Text("shown by the click") })
widgets.Show(b)
b.ID()`, one)
	if r.Err != nil {
		t.Fatalf("cell one: %v", strings.Join(r.Err.Traceback, "\n"))
	}
	text, _ := r.Data.Text("text/plain")
	id, err := strconv.Unquote(text)
	if err != nil {
		t.Fatalf("cell one's result %q is not the button's id: %v", text, err)
	}
	if got := one.text("stdout"); got != "one\n" {
		t.Errorf("cell one's stdout %q, want %q", got, "one\n")
	}
	if d := one.displays(); len(d) == 0 || d[0] != "shown by one" {
		t.Errorf("cell one's displays %q, want its display.Text first", d)
	}
	if !strings.Contains(one.commText(), id) {
		t.Errorf("cell one's sink did not get the comm_open of its button %s", id)
	}
	oneDisplays, oneComms := len(one.displays()), one.commText()

	two := &commRecorder{}
	two.replies = []string{"typed"}
	r = e.Execute(ctx, `var s string
fmt.Scanln(&s)
fmt.Println("two read", s)
display.Text("shown by two")`, two)
	if r.Err != nil {
		t.Fatalf("cell two: %v", strings.Join(r.Err.Traceback, "\n"))
	}
	if got := two.text("stdout"); got != "two read typed\n" {
		t.Errorf("cell two's stdout %q, want %q", got, "two read typed\n")
	}
	if d := two.displays(); len(d) != 1 || d[0] != "shown by two" {
		t.Errorf("cell two's displays %q, want only its own", d)
	}

	click := &commRecorder{}
	r = e.Comm(ctx, comm.Message{Type: comm.TypeMsg, CommID: id,
		Data: map[string]any{"method": "custom", "content": map[string]any{"event": "click"}}}, click)
	if r.Err != nil {
		t.Fatalf("click: %v", strings.Join(r.Err.Traceback, "\n"))
	}
	if got := click.text("stdout"); got != "" {
		t.Errorf("the click's print reached its request's stdout (%q); it belongs in the button's output area", got)
	}
	if d := click.displays(); len(d) != 0 {
		t.Errorf("the click's display reached its request's sink (%q); it belongs in the button's output area", d)
	}
	if c := click.commText(); !strings.Contains(c, "clicked") || !strings.Contains(c, "shown by the click") {
		t.Errorf("the output area's update did not reach the click's sink: %s", c)
	}

	three := &commRecorder{}
	if r = e.Execute(ctx, `fmt.Println("three")`, three); r.Err != nil {
		t.Fatalf("cell three: %v", strings.Join(r.Err.Traceback, "\n"))
	}
	if got := three.text("stdout"); got != "three\n" {
		t.Errorf("cell three's stdout %q, want %q: a capture of the click outlived its request?", got, "three\n")
	}
	if len(one.displays()) != oneDisplays || one.commText() != oneComms || one.text("stdout") != "one\n" ||
		two.text("stdout") != "two read typed\n" || len(two.displays()) != 1 {
		t.Error("a later request's output reached an earlier request's sink")
	}
}

// gatedSink is a recorder whose Input waits until the test answers.
type gatedSink struct {
	recorder
	asked  chan struct{}
	answer chan string
}

func (g *gatedSink) Input(prompt string, password bool) (string, error) {
	close(g.asked)
	return <-g.answer, nil
}

// TestEnginesTakeTurns: two Engines in one process share fds 1 and 2 and the
// running request, so a cell of one waits for the running cell of the other
// to end, and each one's output reaches its own sink.
func TestEnginesTakeTurns(t *testing.T) {
	a, b := newEngine(t), newEngine(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sa := &gatedSink{asked: make(chan struct{}), answer: make(chan string, 1)}
	defer close(sa.answer) // a's read ends (io.EOF) even when the test fails before it answers
	aDone := make(chan Result, 1)
	go func() {
		aDone <- a.Execute(ctx, "var s string\nfmt.Scanln(&s)\nfmt.Println(\"a read\", s)", sa)
	}()
	select {
	case <-sa.asked:
	case <-ctx.Done():
		t.Fatal("a's cell never asked for input")
	}
	sb := &recorder{}
	bDone := make(chan Result, 1)
	go func() { bDone <- b.Execute(ctx, `fmt.Println("b ran")`, sb) }()
	select {
	case <-bDone:
		t.Fatal("b's cell ran while a's cell was running")
	case <-time.After(300 * time.Millisecond):
	}
	sa.answer <- "x"
	for _, ch := range []chan Result{aDone, bDone} {
		select {
		case r := <-ch:
			if r.Err != nil {
				t.Fatalf("cell failed: %s", strings.Join(r.Err.Traceback, "\n"))
			}
		case <-ctx.Done():
			t.Fatal("a cell hung (hang guard)")
		}
	}
	if got := sa.text("stdout"); got != "a read x\n" {
		t.Errorf("a's stdout %q, want %q", got, "a read x\n")
	}
	if got := sb.text("stdout"); got != "b ran\n" {
		t.Errorf("b's stdout %q, want %q", got, "b ran\n")
	}
}

// TestOneBeginPerRequest: the engine installs nothing per request but the
// running request of kernel/cellctx, in one place (beginRequest), and calls
// no Set function of the packages that reach it.
func TestOneBeginPerRequest(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	var begins []string
	for _, f := range pkgs["engine"].Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				x, ok := sel.X.(*ast.Ident)
				if !ok {
					return true
				}
				switch {
				case x.Name == "cellctx" && sel.Sel.Name == "Begin":
					begins = append(begins, fd.Name.Name)
				case (x.Name == "cellctx" || x.Name == "display" || x.Name == "comm" || x.Name == "widgets") &&
					strings.HasPrefix(sel.Sel.Name, "Set"):
					t.Errorf("%s: %s calls %s.%s: a per-request hook? Route through the running request (cellctx)",
						fset.Position(sel.Pos()), fd.Name.Name, x.Name, sel.Sel.Name)
				}
				return true
			})
		}
	}
	if len(begins) != 1 || begins[0] != "beginRequest" {
		t.Errorf("cellctx.Begin is called in %v; want once, in beginRequest, which every request goes through", begins)
	}
}
