package cellio

// Message types of the comm protocol.
const (
	CommOpen  = "comm_open"
	CommMsg   = "comm_msg"
	CommClose = "comm_close"
)

// CommMessage is one Jupyter comm message, in either direction (kernel/comm
// calls it comm.Message). Data and Metadata hold JSON values (maps, slices,
// strings, float64, bool, nil); Buffers are the message's binary frames.
// It holds plain data only, so it crosses a process boundary unchanged.
type CommMessage struct {
	Type         string // CommOpen, CommMsg or CommClose
	CommID       string
	TargetName   string // comm_open only
	TargetModule string // comm_open only, optional
	Data         map[string]any
	Metadata     map[string]any
	Buffers      [][]byte
}

// Content returns the message's content as the messaging spec shapes it
// (without metadata and buffers, which travel beside it).
func (m CommMessage) Content() map[string]any {
	data := m.Data
	if data == nil {
		data = map[string]any{}
	}
	c := map[string]any{"comm_id": m.CommID, "data": data}
	if m.Type == CommOpen {
		c["target_name"] = m.TargetName
		if m.TargetModule != "" {
			c["target_module"] = m.TargetModule
		}
	}
	return c
}

// CommSink is the optional part of a Sink that carries comm messages from
// the kernel side out to the front end (comm_open, comm_msg, comm_close on
// IOPub). Comm may be called from any goroutine, also while another call of
// the same sink is in progress, and also after the request the sink belongs
// to was answered. A Sink without it drops comm messages.
type CommSink interface {
	Comm(m CommMessage)
}

// CommRefused is the CellError name of a comm_open that was answered with
// comm_close (see comm.RefusedError): something to log, not to show.
const CommRefused = "CommRefused"
