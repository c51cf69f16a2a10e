package engine

import "github.com/seed43a1e1ab/gocl/kernel/cellio"

// ErrNoStdin is what a Sink's Input returns when nobody can answer an input
// request (cellio.ErrNoStdin).
var ErrNoStdin = cellio.ErrNoStdin

// Sink receives everything a running cell emits, as plain data
// (cellio.Sink). The engine never sees a socket.
type Sink = cellio.Sink

// CellError is a failed cell, shaped like Jupyter's error content
// (cellio.CellError).
type CellError = cellio.CellError

// Result is the outcome of one cell (cellio.Result).
type Result = cellio.Result

// CommSink is the optional part of a Sink that carries kernel-side comm
// messages out to the front end (cellio.CommSink).
type CommSink = cellio.CommSink

// CommRefused is the CellError name of a refused comm_open
// (cellio.CommRefused).
const CommRefused = cellio.CommRefused
