package supervisor

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/cellio"
	"github.com/seed43a1e1ab/gocl/kernel/enginewire"
)

// The life-cycle tests (lifecycle_test.go) run the supervisor over a fake
// engine: this test binary itself, started as `TESTBINARY engine ...` the
// way the supervisor starts `gocl engine`. It speaks kernel/enginewire and
// runs "cells" that are commands, one per line:
//
//	print TEXT    writes TEXT and a newline to the cell's stdout
//	exit N        the process exits with status N (a crash)
//	panic         the process panics (a Go crash report on stderr)
//	exitafter     the cell ends, then the process exits (between cells)
//	wait          runs until interrupted
//	pid           prints the process id
//
// What it does at its start is set by the environment (which the engine
// inherits):
//
//	GOCL_FAKE_GATE=FILE      wait until FILE exists before saying ready
//	GOCL_FAKE_PIDS=FILE      append the process id to FILE at start
//	GOCL_FAKE_FAIL=FILE      say "cannot start" unless FILE exists, then create it
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "engine" {
		os.Exit(fakeEngine())
	}
	os.Exit(m.Run())
}

func fakeEngine() int {
	if f := os.Getenv("GOCL_FAKE_PIDS"); f != "" {
		w, err := os.OpenFile(f, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err == nil {
			fmt.Fprintln(w, os.Getpid())
			w.Close()
		}
	}
	fc, err := net.FileConn(os.NewFile(3, "supervisor"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake engine: no socket on fd 3:", err)
		return 2
	}
	uc := fc.(*net.UnixConn)
	if gate := os.Getenv("GOCL_FAKE_GATE"); gate != "" {
		for {
			if _, err := os.Stat(gate); err == nil {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	ready := enginewire.ReadyBody{PID: os.Getpid()}
	if f := os.Getenv("GOCL_FAKE_FAIL"); f != "" {
		if _, err := os.Stat(f); err != nil {
			_ = os.WriteFile(f, nil, 0o600)
			ready.Error = "the fake engine fails its first start"
		}
	}
	line, _ := json.Marshal(enginewire.Event{Kind: enginewire.EvReady, Body: enginewire.Body(ready)})
	if _, _, err := uc.WriteMsgUnix(append(line, '\n'), nil, nil); err != nil || ready.Error != "" {
		return 1
	}
	conn := enginewire.NewConn(uc, uc)
	var mu sync.Mutex
	interrupts := map[uint64]chan struct{}{}
	for {
		var req enginewire.Request
		if err := conn.Receive(&req); err != nil {
			return 0
		}
		done := func(body any) {
			_ = conn.Send(enginewire.Event{ID: req.ID, Kind: enginewire.EvDone, Body: enginewire.Body(body)})
		}
		switch req.Op {
		case enginewire.OpPing:
			_ = conn.Send(enginewire.Event{ID: req.ID, Kind: enginewire.EvPong})
		case enginewire.OpShutdown:
			done(nil)
			return 0
		case enginewire.OpInterrupt:
			var b enginewire.TargetBody
			_ = json.Unmarshal(req.Body, &b)
			mu.Lock()
			if ch := interrupts[b.Target]; ch != nil {
				close(ch)
				delete(interrupts, b.Target)
			}
			mu.Unlock()
		case enginewire.OpExecute:
			var b enginewire.ExecuteBody
			_ = json.Unmarshal(req.Body, &b)
			stop := make(chan struct{})
			mu.Lock()
			interrupts[req.ID] = stop
			mu.Unlock()
			go func(id uint64) {
				res := fakeCell(b.Code, stop, func(text string) {
					_ = conn.Send(enginewire.Event{ID: id, Kind: enginewire.EvStream,
						Body: enginewire.Body(enginewire.StreamBody{Name: "stdout", Text: text})})
				})
				_ = conn.Send(enginewire.Event{ID: id, Kind: enginewire.EvDone, Body: enginewire.Body(enginewire.ExecuteReply{Result: res})})
			}(req.ID)
		default:
			done(struct{}{})
		}
	}
}

// fakeCell runs one cell of fakeEngine's commands.
func fakeCell(code string, stop <-chan struct{}, out func(string)) cellio.Result {
	for _, line := range strings.Split(code, "\n") {
		cmd, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
		switch cmd {
		case "print":
			out(arg + "\n")
		case "pid":
			out(strconv.Itoa(os.Getpid()) + "\n")
		case "exit":
			n, _ := strconv.Atoi(arg)
			os.Exit(n)
		case "panic":
			panic("the fake engine panics")
		case "exitafter":
			go func() { time.Sleep(50 * time.Millisecond); os.Exit(3) }()
		case "wait":
			<-stop
			return cellio.Result{Err: &cellio.CellError{Name: "Interrupted", Value: "the cell was interrupted"}}
		}
	}
	return cellio.Result{}
}
