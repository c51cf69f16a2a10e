package transport

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Limits bounds what one peer may send. They are enforced by gocl's own
// reader under zmq4, on each frame header, before zmq4 allocates anything:
// a connection that declares more is closed and logged.
type Limits struct {
	// MaxFrame is the largest frame a peer may send on shell, control or
	// stdin, in bytes.
	MaxFrame uint64
	// MaxMessage is the largest message (all its frames) a peer may send on
	// shell, control or stdin, in bytes.
	MaxMessage uint64
}

// Defaults of Limits, well above any real Jupyter message.
const (
	DefaultMaxFrame   = 256 << 20
	DefaultMaxMessage = 1 << 30
)

// Fixed limits of the sockets whose traffic is small by nature.
const (
	// maxCommand caps a ZMTP command frame (READY with its metadata, PING).
	maxCommand = 16 << 10
	// maxIdentity caps a frame before "<IDS|MSG>": a routing identity, which
	// libzmq caps at 255 bytes.
	maxIdentity = 255
	// maxRoutingFrames caps how many frames may come before "<IDS|MSG>".
	maxRoutingFrames = 16
	// maxHeaderFrame caps the header and parent_header frames of a signed
	// message (a real one is about 300 bytes).
	maxHeaderFrame = 1 << 20
	// smallLimits applies to heartbeat pings and IOPub subscriptions.
	smallFrame   = 64 << 10
	smallMessage = 1 << 20
)

// DefaultLimits returns the default limits, overridden by the environment
// variables GOCL_MAX_FRAME and GOCL_MAX_MESSAGE when they are set (a number of
// bytes, with an optional suffix K, M or G for KiB, MiB or GiB: "512M").
func DefaultLimits() (Limits, error) {
	l := Limits{MaxFrame: DefaultMaxFrame, MaxMessage: DefaultMaxMessage}
	for _, v := range []struct {
		name string
		dst  *uint64
	}{{"GOCL_MAX_FRAME", &l.MaxFrame}, {"GOCL_MAX_MESSAGE", &l.MaxMessage}} {
		s := os.Getenv(v.name)
		if s == "" {
			continue
		}
		n, err := parseSize(s)
		if err != nil {
			return l, fmt.Errorf("%s=%q: %w (write a number of bytes such as 268435456 or 256M)", v.name, s, err)
		}
		*v.dst = n
	}
	return l, l.validate()
}

func (l Limits) validate() error {
	if l.MaxFrame < smallFrame {
		return fmt.Errorf("the maximum frame size %d is below %d bytes: real messages would be refused", l.MaxFrame, smallFrame)
	}
	if l.MaxMessage < l.MaxFrame {
		return fmt.Errorf("the maximum message size %d is below the maximum frame size %d", l.MaxMessage, l.MaxFrame)
	}
	return nil
}

func parseSize(s string) (uint64, error) {
	mult := uint64(1)
	switch strings.ToUpper(s[len(s)-1:]) {
	case "K":
		mult = 1 << 10
	case "M":
		mult = 1 << 20
	case "G":
		mult = 1 << 30
	}
	if mult > 1 {
		s = s[:len(s)-1]
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, err
	}
	if n > (1<<62)/mult {
		return 0, fmt.Errorf("too large")
	}
	return n * mult, nil
}
