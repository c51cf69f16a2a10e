package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"sync"
	"time"

	"github.com/go-zeromq/zmq4"

	"github.com/seed43a1e1ab/gocl/kernel/wire"
)

// Channel names a socket that requests arrive on and replies leave from.
type Channel int

const (
	Shell   Channel = iota // execute, complete, inspect, kernel_info, history...
	Control                // shutdown, interrupt, debug: served even while shell is busy
	Stdin                  // input_request out, input_reply in
)

func (c Channel) String() string {
	switch c {
	case Shell:
		return "shell"
	case Control:
		return "control"
	case Stdin:
		return "stdin"
	}
	return fmt.Sprintf("Channel(%d)", int(c))
}

// SendTimeout bounds how long Send waits for a peer to be connected at all on
// a socket that never had one.
const SendTimeout = 10 * time.Second

// stallTimeout is how long an IOPub subscriber may accept no bytes before it
// is disconnected. A variable so that tests can shorten it.
var stallTimeout = 10 * time.Second

// hbStall is how long a heartbeat peer may accept no echoed bytes.
const hbStall = 200 * time.Millisecond

// Server owns the kernel's five sockets. Create it with Listen.
type Server struct {
	info    ConnectionInfo
	log     *slog.Logger
	signer  *wire.Signer
	session string

	ctx    context.Context
	cancel context.CancelFunc

	routers [3]zmq4.Socket // by Channel
	inbox   [3]chan *wire.Message
	sendMu  [3]sync.Mutex
	hb      zmq4.Socket
	pub     *pubSocket
	iopub   *ioQueue
	replays *wire.SignatureHistory
	rlog    *rateLog
	budget  *unverifiedBudget

	wg        sync.WaitGroup
	closeOnce sync.Once
	closeErr  error
}

// Listen binds the sockets at the addresses info names: ROUTER sockets for
// shell, control and stdin, a PUB socket for iopub and a ROUTER that echoes
// heartbeats. Each socket is read on its own goroutine. log receives warnings
// about dropped messages and peers; nil means slog.Default(). Peers are held
// to DefaultLimits (GOCL_MAX_FRAME, GOCL_MAX_MESSAGE).
func Listen(info ConnectionInfo, log *slog.Logger) (*Server, error) {
	lim, err := DefaultLimits()
	if err != nil {
		return nil, fmt.Errorf("transport: %w", err)
	}
	return ListenLimits(info, log, lim)
}

// ListenLimits is Listen with the limits that peers on shell, control and
// stdin are held to.
func ListenLimits(info ConnectionInfo, log *slog.Logger, lim Limits) (*Server, error) {
	if err := info.Validate(); err != nil {
		return nil, fmt.Errorf("transport: %w", err)
	}
	if err := lim.validate(); err != nil {
		return nil, fmt.Errorf("transport: %w", err)
	}
	if log == nil {
		log = slog.Default()
	}
	signer, err := wire.NewSigner(info.SignatureScheme, info.Key)
	if err != nil {
		return nil, fmt.Errorf("transport: %w", err)
	}
	if !signer.Signs() {
		log.Warn("transport: the connection file has an empty key: messages are neither signed nor checked, " +
			"so anyone who can reach these ports can run code as you; let Jupyter write the connection file, or set a \"key\"")
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{info: info, log: log, signer: signer, session: wire.NewID(), ctx: ctx, cancel: cancel,
		replays: wire.NewSignatureHistory(0), rlog: newRateLog(log)}
	zlog := slog.NewLogLogger(log.Handler(), slog.LevelWarn)

	fail := func(what string, port int, err error) (*Server, error) {
		s.Close()
		return nil, fmt.Errorf("transport: bind %s socket at %s: %w (is another kernel using this connection file?)", what, info.endpoint(port), err)
	}
	bind := func(sock zmq4.Socket, port int, cfg *guardConfig) error {
		ep, err := guardedEndpoint(info.endpoint(port), cfg)
		if err != nil {
			return err
		}
		return sock.Listen(ep)
	}
	ports := [3]*int{&s.info.ShellPort, &s.info.ControlPort, &s.info.StdinPort}
	budget := newUnverifiedBudget(min(defaultBudget, lim.MaxFrame))
	s.budget = budget
	for ch := Shell; ch <= Stdin; ch++ {
		r := zmq4.NewRouter(ctx, zmq4.WithLogger(zlog), zmq4.WithTimeout(SendTimeout))
		s.routers[ch] = r
		cfg := &guardConfig{name: ch.String(), lim: frameLimits{lim.MaxFrame, lim.MaxMessage}, key: info.Key,
			log: s.rlog, stall: stallTimeout, budget: budget}
		if err := bind(r, *ports[ch], cfg); err != nil {
			return fail(ch.String(), *ports[ch], err)
		}
		*ports[ch] = portOf(r.Addr())
		s.inbox[ch] = make(chan *wire.Message, 256)
	}
	s.hb = zmq4.NewRouter(ctx, zmq4.WithLogger(zlog), zmq4.WithTimeout(SendTimeout))
	// zmq4's ROUTER holds every send while one peer's write blocks, so a
	// peer that pings and never reads would hold up everyone's echo: a
	// heartbeat peer whose socket stays full for hbStall is let go (a real
	// one has a few bytes in flight every few seconds).
	hbCfg := &guardConfig{name: "heartbeat", lim: frameLimits{smallFrame, smallMessage}, log: s.rlog, stall: hbStall}
	if err := bind(s.hb, info.HBPort, hbCfg); err != nil {
		return fail("heartbeat", info.HBPort, err)
	}
	s.info.HBPort = portOf(s.hb.Addr())
	network, addr := info.netAddr(info.IOPubPort)
	if s.pub, err = listenPub(network, addr, stallTimeout, log); err != nil {
		return fail("iopub", info.IOPubPort, err)
	}
	s.info.IOPubPort = portOf(s.pub.addr())
	if info.Transport == "ipc" {
		s.info = info // ports are file names, already known
	}
	s.iopub = newIOQueue(s.sendIOPub)

	for ch := Shell; ch <= Stdin; ch++ {
		s.wg.Add(1)
		go s.serve(ch)
	}
	s.wg.Add(1)
	go s.heartbeat()
	return s, nil
}

// Info returns the connection info the server listens on, with any port that
// was 0 replaced by the port picked.
func (s *Server) Info() ConnectionInfo { return s.info }

// Session returns this kernel's session id, used in every header it sends.
func (s *Server) Session() string { return s.session }

// Shell returns the verified requests arriving on shell, identities kept. The
// channel is closed by Close.
func (s *Server) Shell() <-chan *wire.Message { return s.inbox[Shell] }

// Control returns the verified requests arriving on control.
func (s *Server) Control() <-chan *wire.Message { return s.inbox[Control] }

// Stdin returns the messages arriving on stdin (input_reply).
func (s *Server) Stdin() <-chan *wire.Message { return s.inbox[Stdin] }

// serve reads ch's socket: a message that does not decode or verify is logged
// and dropped; the others go to ch's inbox in arrival order.
func (s *Server) serve(ch Channel) {
	defer s.wg.Done()
	defer close(s.inbox[ch])
	r := s.routers[ch]
	for {
		zm, err := r.Recv()
		if err != nil {
			if s.ctx.Err() != nil {
				return
			}
			s.log.Warn("transport: receive failed", "channel", ch.String(), "err", err)
			time.Sleep(10 * time.Millisecond)
			continue
		}
		m, err := s.signer.Decode(zm.Frames)
		if err != nil {
			s.rlog.warn("dropped "+ch.String(), "transport: message dropped", "channel", ch.String(), "frames", len(zm.Frames), "err", err)
			continue
		}
		if s.signer.Signs() && s.replays.Seen(wire.SignatureOf(zm.Frames)) {
			s.rlog.warn("replay "+ch.String(), "transport: message dropped: its signature was seen before (a replay)",
				"channel", ch.String(), "msg_type", m.Header.MsgType, "msg_id", m.Header.MsgID)
			continue
		}
		select {
		case s.inbox[ch] <- m:
		case <-s.ctx.Done():
			return
		}
	}
}

// heartbeat echoes every message back to its sender, whatever else happens.
// A ROUTER echo answers both jupyter_client's REQ (its empty delimiter frame
// comes back with it) and DEALER pingers.
func (s *Server) heartbeat() {
	defer s.wg.Done()
	for {
		zm, err := s.hb.Recv()
		if err != nil {
			if s.ctx.Err() != nil {
				return
			}
			time.Sleep(10 * time.Millisecond)
			continue
		}
		if len(zm.Frames) < 2 {
			continue
		}
		if err := s.hb.Send(zm); err != nil && s.ctx.Err() == nil {
			s.log.Warn("transport: heartbeat echo failed", "err", err)
		}
	}
}

// Send sends msgType with content on ch's socket (ROUTER), addressed to
// parent's identities, with parent's header as parent_header. Used for
// replies (shell/control) and for input_request (stdin). metadata nil is sent
// as {}.
func (s *Server) Send(ch Channel, parent *wire.Message, msgType string, content any, metadata map[string]any) error {
	if ch < Shell || ch > Stdin {
		return fmt.Errorf("transport: send %s: no such channel %v", msgType, ch)
	}
	if parent == nil || len(parent.Identities) == 0 {
		return fmt.Errorf("transport: send %s on %v: the parent request has no routing identity to reply to", msgType, ch)
	}
	m, err := wire.NewMessage(msgType, s.session, &parent.Header, content)
	if err != nil {
		return fmt.Errorf("transport: send on %v: %w", ch, err)
	}
	m.Identities = parent.Identities
	m.Metadata = metadata
	frames, err := s.signer.Encode(m)
	if err != nil {
		return fmt.Errorf("transport: send on %v: %w", ch, err)
	}
	s.sendMu[ch].Lock()
	defer s.sendMu[ch].Unlock()
	if s.ctx.Err() != nil {
		return fmt.Errorf("transport: send %s on %v: the server is closed", msgType, ch)
	}
	if err := s.routers[ch].SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
		return fmt.Errorf("transport: send %s on %v: %w", msgType, ch, err)
	}
	return nil
}

// Publish queues msgType on IOPub with parent's header as parent_header (nil
// parent: {}). It is for every message but stream text, which goes through
// PublishStream: Publish never merges nor drops a message, whatever its type
// or the shape of its content. Messages are never reordered here; while more
// than maxHeld bytes of them wait, Publish waits too (back-pressure on the
// cell). A subscriber that stops reading loses its own messages and holds up
// nobody (see pubSocket). content is marshaled before Publish returns; a
// json.RawMessage is sent as it is.
func (s *Server) Publish(parent *wire.Message, msgType string, content any) {
	raw, err := json.Marshal(content)
	if content == nil {
		raw, err = []byte("{}"), nil
	}
	if err != nil {
		s.log.Warn("transport: iopub message dropped: content does not marshal to JSON", "msg_type", msgType, "err", err)
		return
	}
	s.iopub.publish(msgType, parentHeader(parent), json.RawMessage(raw))
}

// PublishStream queues text written to the stream name ("stdout" or
// "stderr") on IOPub as a "stream" message with parent's header as
// parent_header. Whatever the cell prints, it does not block on output:
// stream text is merged with the text queued before it for the same parent
// and stream, paced, and, when too much waits, dropped with a notice.
func (s *Server) PublishStream(parent *wire.Message, name, text string) {
	s.iopub.publishStream(parentHeader(parent), name, []byte(text))
}

// parentHeader is a copy of parent's header, nil for no parent.
func parentHeader(parent *wire.Message) *wire.Header {
	if parent == nil {
		return nil
	}
	h := parent.Header
	return &h
}

// Flush waits (at most timeout) until everything queued on IOPub so far has
// been handed to the PUB socket. It reports whether it all was.
func (s *Server) Flush(timeout time.Duration) bool {
	return s.iopub.flush(timeout)
}

// sendIOPub encodes one queued message and writes it to the subscribers.
func (s *Server) sendIOPub(it *outItem, text []byte) {
	content := it.content
	if it.stream {
		content = StreamContent{Name: it.name, Text: string(text)}
	}
	x, extras := content.(withExtras) // PublishWith (publishwith.go)
	if extras {
		content = x.content
	}
	m, err := wire.NewMessage(it.msgType, s.session, it.parent, content)
	if err != nil {
		s.log.Warn("transport: iopub message dropped", "msg_type", it.msgType, "err", err)
		return
	}
	if extras {
		m.Metadata, m.Buffers = x.metadata, x.buffers
	}
	m.Identities = [][]byte{[]byte("kernel." + s.session + "." + it.msgType)}
	frames, err := s.signer.Encode(m)
	if err != nil {
		s.log.Warn("transport: iopub message dropped", "msg_type", it.msgType, "err", err)
		return
	}
	s.pub.send(frames)
}

// Close sends what IOPub still holds (for at most a second), then closes the
// sockets and the Shell, Control and Stdin channels.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		if s.iopub != nil {
			s.iopub.close(time.Second)
		}
		s.cancel()
		var errs []error
		for ch, r := range s.routers {
			if r == nil {
				continue
			}
			s.sendMu[ch].Lock()
			errs = append(errs, ignoreClosed(r.Close()))
			s.sendMu[ch].Unlock()
		}
		if s.hb != nil {
			errs = append(errs, ignoreClosed(s.hb.Close()))
		}
		if s.pub != nil {
			errs = append(errs, ignoreClosed(s.pub.close()))
		}
		s.wg.Wait()
		s.closeErr = errors.Join(errs...)
	})
	return s.closeErr
}

func ignoreClosed(err error) error {
	if errors.Is(err, net.ErrClosed) || errors.Is(err, os.ErrClosed) {
		return nil
	}
	return err
}
