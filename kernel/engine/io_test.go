package engine

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"
)

func TestStreams(t *testing.T) {
	e := newEngine(t)
	_, r := ok(t, e, `import (
	"log"
	ctest "gocl.test/ctest"
)
log.SetFlags(0)
fmt.Print("a")
fmt.Println("b")
print("c")
println("d")
os.Stdout.WriteString("e\n")
fmt.Fprintln(os.Stderr, "E1")
log.Println("E2")
ctest.Print("from C, unflushed\n")
ctest.Eprint("C err\n")
ctest.WriteFD(1, "raw fd 1\n")
ctest.WriteFD(2, "raw fd 2\n")
`)
	// yaegi's print and println builtins write to stdout.
	expect(t, "stdout", r.text("stdout"), "ab\ncd\ne\nraw fd 1\nfrom C, unflushed\n")
	expect(t, "stderr", r.text("stderr"), "E1\nE2\nC err\nraw fd 2\n")
}

func TestStreamOrderWithinStream(t *testing.T) {
	e := newEngine(t)
	_, r := ok(t, e, `for i := 0; i < 2000; i++ { fmt.Println(i) }`)
	var want strings.Builder
	for i := 0; i < 2000; i++ {
		want.WriteString(itoa(i) + "\n")
	}
	expect(t, "stdout", r.text("stdout"), want.String())
}

func TestLateGoroutineOutputGoesToNextCell(t *testing.T) {
	e := newEngine(t)
	ok(t, e, `ready := make(chan bool)
done := make(chan bool)
go func() { <-ready; fmt.Println("late"); done <- true }()`)
	_, r := ok(t, e, `fmt.Println("second"); ready <- true; <-done; fmt.Println("end")`)
	expect(t, "second cell stdout", r.text("stdout"), "second\nlate\nend\n")
	// Output written between cells waits for the next cell.
	ok(t, e, `go func() { <-ready; fmt.Println("between"); done <- true }()`)
	ready2 := make(chan struct{})
	go func() {
		defer close(ready2)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		e.Execute(ctx, "ready <- true; <-done", &recorder{})
	}()
	<-ready2
	_, r = ok(t, e, `fmt.Println("third")`)
	if got := r.text("stdout"); !strings.HasSuffix(got, "third\n") {
		t.Errorf("third cell stdout = %q", got)
	}
}

func TestStdin(t *testing.T) {
	e := newEngine(t)
	cases := []struct {
		code    string
		replies []string
		want    string
		prompts []string
	}{
		{`var name string
fmt.Print("Name: ")
fmt.Scanln(&name)
"hi " + name`, []string{"Ada"}, `"hi Ada"`, []string{"Name: "}},
		{`var a, b int
fmt.Scan(&a)
fmt.Scan(&b)
a + b`, []string{"2", "40"}, "42", []string{"", ""}},
		{`import "bufio"
fmt.Println("first line")
fmt.Print("say: ")
line, err := bufio.NewReader(os.Stdin).ReadString('\n')
line + fmt.Sprint(err)`, []string{"hello"}, `"hello\n<nil>"`, []string{"say: "}},
		{`import "bufio"
sc := bufio.NewScanner(os.Stdin)
var lines []string
for sc.Scan() { lines = append(lines, sc.Text()) }
lines`, []string{"x", "y", ""}, "[x y]", []string{"", "", ""}},
		{`import "io"
all, _ := io.ReadAll(os.Stdin)
string(all)`, []string{"p", "q", ""}, `"p\nq\n"`, []string{"", "", ""}},
	}
	for _, c := range cases {
		r := &recorder{replies: append([]string(nil), c.replies...)}
		res := runWith(t, e, c.code, r)
		if res.Err != nil {
			t.Errorf("%q: %s", c.code, tb(res.Err))
			continue
		}
		expect(t, "result of "+c.code, res.Data["text/plain"].(string), c.want)
		expect(t, "prompts of "+c.code, strings.Join(r.prompts, "|"), strings.Join(c.prompts, "|"))
	}
}

func TestStdinRefused(t *testing.T) {
	e := newEngine(t)
	for _, code := range []string{
		`var s string; _, err := fmt.Scanln(&s); err`,
		`import "bufio"; _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err`,
		`import "io"; _, err := io.ReadAll(os.Stdin); err`,
	} {
		r := &recorder{refuse: errors.New("stdin not allowed")}
		res := runWith(t, e, code, r)
		if res.Err != nil {
			t.Fatalf("%q: %s", code, tb(res.Err))
		}
		got, _ := res.Data["text/plain"].(string)
		if !strings.Contains(got, "stdin not allowed") {
			t.Errorf("%q: result %q, want the refusal", code, got)
		}
		if len(r.prompts) != 1 {
			t.Errorf("%q: %d input requests, want 1", code, len(r.prompts))
		}
	}
}

func TestInterrupt(t *testing.T) {
	e := newEngine(t)
	ok(t, e, "kept := 7")
	for _, code := range []string{"for {}", "x := 0\nfor { x++ }", "ch := make(chan int)\n<-ch", "time.Sleep(time.Hour)"} {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan Result)
		go func() { done <- e.Execute(ctx, code, &recorder{}) }()
		time.Sleep(50 * time.Millisecond)
		cancel()
		select {
		case res := <-done:
			if res.Err == nil || res.Err.Name != "Interrupted" {
				t.Errorf("%q: got %+v, want Interrupted", code, res.Err)
			}
			if len(res.Err.Traceback) > 1 {
				t.Errorf("%q: interrupted cell reported still running: %q", code, res.Err.Traceback)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%q: interrupt did not stop the cell (hang guard)", code)
		}
	}
	got, _ := ok(t, e, "kept * 6")
	expect(t, "state after interrupts", got, "42")
}

// unansweredSink is a recorder whose input requests are never answered: it
// says on asked when one is made, and blocks until release is closed.
type unansweredSink struct {
	recorder
	asked   chan struct{}
	release chan struct{}
}

func (s *unansweredSink) Input(prompt string, password bool) (string, error) {
	s.asked <- struct{}{}
	<-s.release
	return "", errors.New("released")
}

// TestInterruptWhileWaitingForInput checks that a cell interrupted while it
// waits for input stops there: the failed read must not let the next
// statement run before the engine has stopped the interpreted code. The
// two wake up on the same cancellation; the hook makes the engine slow to
// react, so that the race is lost every time the read does not wait.
func TestInterruptWhileWaitingForInput(t *testing.T) {
	e := newEngine(t)
	testHookBeforeWait = func() { time.Sleep(20 * time.Millisecond) }
	defer func() { testHookBeforeWait = nil }()
	release := make(chan struct{})
	defer close(release)
	for i := 0; i < 5; i++ {
		sink := &unansweredSink{asked: make(chan struct{}, 1), release: release}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan Result, 1)
		go func() {
			done <- e.Execute(ctx, "func() {\n\tvar s string\n\tfmt.Scanln(&s)\n\tfmt.Println(\"not reached\")\n}()", sink)
		}()
		select {
		case <-sink.asked:
		case <-time.After(20 * time.Second):
			t.Fatal("no input request (hang guard)")
		}
		cancel()
		var res Result
		select {
		case res = <-done:
		case <-time.After(20 * time.Second):
			t.Fatal("the interrupt did not stop the cell (hang guard)")
		}
		if res.Err == nil || res.Err.Name != "Interrupted" {
			t.Fatalf("try %d: got %+v, want Interrupted", i, res.Err)
		}
		if out := sink.text("stdout"); strings.Contains(out, "not reached") {
			t.Fatalf("try %d: the cell went on after the interrupt: %q", i, out)
		}
	}
}

// cancelNow cancels the cell of TestInterruptBetweenStatements from inside it.
var cancelNow atomic.Pointer[context.CancelFunc]

// TestInterruptBetweenStatements checks that an interrupt arriving as a
// statement ends stops the cell there: the statement returns normally and
// the interrupt is seen at the same moment, and the next one must not run.
func TestInterruptBetweenStatements(t *testing.T) {
	e := newEngine(t, interp.Exports{"gocl.test/cancel/cancel": {
		"Now": reflect.ValueOf(func() { (*cancelNow.Load())() }),
	}})
	ok(t, e, `import "gocl.test/cancel"`)
	// A slow engine sees the statement's end and the interrupt both ready.
	testHookBeforeWait = func() { time.Sleep(10 * time.Millisecond) }
	defer func() { testHookBeforeWait = nil }()
	for i := 0; i < 20; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second) // also the hang guard
		cancelNow.Store(&cancel)
		r := &recorder{}
		res := e.Execute(ctx, "cancel.Now()\nfmt.Println(\"not reached\")", r)
		cancel()
		if res.Err == nil || res.Err.Name != "Interrupted" {
			t.Fatalf("try %d: got %+v, want Interrupted", i, res.Err)
		}
		if out := r.text("stdout"); strings.Contains(out, "not reached") {
			t.Fatalf("try %d: the statement after the interrupt ran: %q", i, out)
		}
	}
}

// TestPromptShownOnce checks that the end of an unfinished line becomes the
// input prompt instead of also appearing as output (the front end shows it
// beside the input box), and that it stays output when no input request
// could be answered.
func TestPromptShownOnce(t *testing.T) {
	e := newEngine(t)
	code := "fmt.Println(\"before\")\nfmt.Print(\"Your name: \")\nvar n string\nfmt.Scanln(&n)\nfmt.Println(\"hi\", n)\nfmt.Print(\"no newline at the end\")"
	r := &recorder{replies: []string{"Ada"}}
	if res := runWith(t, e, code, r); res.Err != nil {
		t.Fatal(tb(res.Err))
	}
	expect(t, "prompts", strings.Join(r.prompts, "|"), "Your name: ")
	expect(t, "stdout after an answered prompt", r.text("stdout"), "before\nhi Ada\nno newline at the end")

	r = &recorder{refuse: errors.New("stdin not allowed")}
	if res := runWith(t, e, code, r); res.Err != nil {
		t.Fatal(tb(res.Err))
	}
	expect(t, "stdout after a refused prompt", r.text("stdout"), "before\nYour name: hi \nno newline at the end")
}

// TestUnfinishedLineIsNotDelayedForever checks that a partial line is shown
// while the cell still runs (after holdDelay), not only when it ends.
func TestUnfinishedLineIsNotDelayedForever(t *testing.T) {
	e := newEngine(t)
	r := &recorder{}
	done := make(chan Result, 1)
	go func() {
		done <- runWith(t, e, "fmt.Print(\"working...\")\ntime.Sleep(2 * time.Second)\nfmt.Println(\" done\")", r)
	}()
	deadline := time.Now().Add(1500 * time.Millisecond) // generous: holdDelay is 50 ms
	for r.text("stdout") == "" && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	select {
	case <-done:
		t.Fatal("the cell ended before its partial line was seen (hang guard too short?)")
	default:
	}
	expect(t, "stdout while the cell runs", r.text("stdout"), "working...")
	if res := <-done; res.Err != nil {
		t.Fatal(tb(res.Err))
	}
	expect(t, "stdout", r.text("stdout"), "working... done\n")
}
