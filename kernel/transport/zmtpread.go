package transport

import (
	"bufio"
	"encoding/binary"
	"fmt"
)

// A zmq4 workaround (zmq4 v0.17.0, conn.go, (*Conn).read): zmq4 allocates
// each frame at the size its header declares before reading a byte of it, so
// one 9-byte header declaring 2^62 bytes ends the process ("makeslice: len
// out of range"), and 1 TiB ends it with "out of memory". frameReader sits
// between the socket and zmq4 and hands zmq4 a frame header only once it has
// checked it against the limits; a peer that exceeds them gets an error, and
// zmq4 closes its connection. When zmq4 checks sizes itself, this file can go.

// ZMTP 3.0 frame flags.
const (
	flagMore    = 0x01
	flagLong    = 0x02
	flagCommand = 0x04
)

// frameLimits are the limits one connection's frames are held to.
type frameLimits struct {
	frame, message uint64
}

// violation is the error of a peer that broke a limit or the framing. It is
// a net.Error that is not a timeout, so that zmq4 marks the connection closed
// at once.
type violation struct {
	reason string
	held   uint64 // bytes of the refused message already handed to zmq4
}

func (v *violation) Error() string   { return "transport: peer dropped: " + v.reason }
func (v *violation) Timeout() bool   { return false }
func (v *violation) Temporary() bool { return false }

func violatef(format string, args ...any) error {
	return &violation{reason: fmt.Sprintf(format, args...)}
}

// frameReader reads a ZMTP 3.0 stream (after the greeting, which passes
// unparsed) frame by frame for zmq4, checking each header before zmq4 sees
// it and, when check is set, each Jupyter message's signature as it streams
// past (see sigCheck).
type frameReader struct {
	r     *bufio.Reader
	lim   frameLimits
	check *sigCheck // nil: signatures are not followed
	raw   int       // greeting bytes still to pass unparsed

	hdr      [9]byte // the header being handed out
	hdrLen   int
	hdrOut   int    // bytes of hdr handed out
	body     uint64 // body bytes of the current frame still to hand out
	cmd      bool   // the current frame is a command
	more     bool   // the current frame has the MORE flag
	midMsg   bool   // a message has begun and not ended
	msgBytes uint64 // bytes of the current message so far
	err      error  // sticky: once broken, the stream stays broken
}

func (f *frameReader) Read(p []byte) (n int, err error) {
	if f.err != nil {
		return 0, f.err
	}
	if f.check != nil {
		defer func() {
			if err != nil { // the stream ends here: give back the budget
				f.check.settle()
			}
		}()
	}
	if len(p) == 0 {
		return 0, nil
	}
	if f.raw > 0 {
		n, err := f.r.Read(p[:min(len(p), f.raw)])
		f.raw -= n
		return n, err
	}
	if f.hdrOut == f.hdrLen && f.body == 0 {
		if err := f.nextHeader(); err != nil {
			f.err = err
			return 0, err
		}
	}
	if f.hdrOut < f.hdrLen {
		n := copy(p, f.hdr[f.hdrOut:f.hdrLen])
		f.hdrOut += n
		return n, nil
	}
	n, err = f.r.Read(p[:min(uint64(len(p)), f.body)])
	f.body -= uint64(n)
	if f.check != nil && !f.cmd && n > 0 {
		if cerr := f.check.data(p[:n], f.body == 0, f.more); cerr != nil {
			f.err = cerr
			return 0, cerr
		}
	}
	return n, err
}

// nextHeader reads and checks the next frame header.
func (f *frameReader) nextHeader() error {
	b, err := f.r.Peek(2)
	if err != nil {
		return err
	}
	flags := b[0]
	if flags&^(flagMore|flagLong|flagCommand) != 0 {
		return violatef("frame flags %#02x have reserved bits set: the peer does not speak ZMTP 3", flags)
	}
	n := 2
	if flags&flagLong != 0 {
		n = 9
	}
	if b, err = f.r.Peek(n); err != nil {
		return err
	}
	size := uint64(b[1])
	if n == 9 {
		size = binary.BigEndian.Uint64(b[1:9])
	}
	cmd, more := flags&flagCommand != 0, flags&flagMore != 0
	switch {
	case cmd && (more || f.midMsg):
		return violatef("a ZMTP command inside a message")
	case cmd && size > maxCommand:
		return violatef("a ZMTP command of %d bytes, above the limit of %d", size, maxCommand)
	case !cmd && size > f.lim.frame:
		return violatef("a frame of %d bytes, above the limit of %d (GOCL_MAX_FRAME sets it)", size, f.lim.frame)
	case !cmd && f.msgBytes+size > f.lim.message:
		return violatef("a message of more than %d bytes, above the limit of %d (GOCL_MAX_MESSAGE sets it)", f.msgBytes+size, f.lim.message)
	}
	if f.check != nil && !cmd {
		if err := f.check.frame(size, more); err != nil {
			return err
		}
	}
	copy(f.hdr[:], b)
	f.hdrLen, f.hdrOut = n, 0
	f.body, f.cmd, f.more = size, cmd, more
	f.r.Discard(n)
	if !cmd {
		f.msgBytes += size
		f.midMsg = more
		if !more {
			f.msgBytes = 0
		}
		if size == 0 && f.check != nil {
			return f.check.data(nil, true, more)
		}
	}
	return nil
}
