package nbrun

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/cellio"
)

// fake is a Runner that interprets a tiny command language, one command a
// line, so the tests can drive every kind of output:
//
//	out "text"          stdout         err "text"        stderr
//	show ID "html"      display (ID - for none)
//	update ID "html"    update_display_data
//	clear / clearwait   clear_output
//	result "text"       execute_result text/plain
//	fail Name "value"   cell error
//	sleep               wait for the interrupt
//	hang                ignore the interrupt for 2 s
//	env NAME / pwd      print an env var / the working directory
//	input               ask for stdin, print the error
type fake struct{ closed bool }

func newFake() (Runner, error) { return &fake{}, nil }

func (f *fake) Close() error { f.closed = true; return nil }

func (f *fake) Execute(ctx context.Context, code string, sink cellio.Sink) cellio.Result {
	var res cellio.Result
	for _, line := range strings.Split(code, "\n") {
		words := strings.SplitN(strings.TrimSpace(line), " ", 3)
		arg := func(i int) string {
			if i >= len(words) {
				return ""
			}
			if s, err := strconv.Unquote(words[i]); err == nil {
				return s
			}
			return words[i]
		}
		rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), words[0]))
		if s, err := strconv.Unquote(rest); err == nil {
			rest = s
		}
		id := arg(1)
		if id == "-" {
			id = ""
		}
		switch words[0] {
		case "", "#":
		case "out":
			sink.Stream("stdout", rest)
		case "err":
			sink.Stream("stderr", rest)
		case "show":
			sink.Display(cellio.Message{Kind: cellio.KindShow, DisplayID: id,
				Data: cellio.Bundle{"text/html": arg(2), "text/plain": arg(2)}})
		case "update":
			sink.Display(cellio.Message{Kind: cellio.KindUpdate, DisplayID: id,
				Data: cellio.Bundle{"text/html": arg(2), "text/plain": arg(2)}, Metadata: map[string]any{"n": 1}})
		case "clear":
			sink.Display(cellio.Message{Kind: cellio.KindClear})
		case "clearwait":
			sink.Display(cellio.Message{Kind: cellio.KindClear, Wait: true})
		case "result":
			res.Data = cellio.Bundle{"text/plain": rest}
		case "fail":
			return cellio.Result{Err: &cellio.CellError{Name: arg(1), Value: arg(2),
				Traceback: []string{"cell line 1", "\x1b[31m" + arg(2) + "\x1b[0m"}}}
		case "sleep":
			<-ctx.Done()
			return cellio.Result{Err: &cellio.CellError{Name: "Interrupted", Value: "interrupted", Traceback: []string{"at sleep"}}}
		case "hang":
			time.Sleep(2 * time.Second)
		case "env":
			sink.Stream("stdout", os.Getenv(arg(1)))
		case "pwd":
			wd, _ := os.Getwd()
			sink.Stream("stdout", wd)
		case "input":
			_, err := sink.Input("name? ", false)
			sink.Stream("stderr", fmt.Sprint(err))
		default:
			return cellio.Result{Err: &cellio.CellError{Name: "SyntaxError", Value: "unknown command " + words[0]}}
		}
	}
	return res
}
