package cellio

import "github.com/seed43a1e1ab/gocl/kernel/comm"

// CommSink is the optional part of a Sink that carries comm messages from
// the kernel side out to the front end (comm_open, comm_msg, comm_close on
// IOPub). Comm may be called from any goroutine, also while another call of
// the same sink is in progress, and also after the request the sink belongs
// to was answered. A Sink without it drops comm messages.
type CommSink interface {
	Comm(m comm.Message)
}

// CommRefused is the CellError name of a comm_open that was answered with
// comm_close (see comm.RefusedError): something to log, not to show.
const CommRefused = "CommRefused"
