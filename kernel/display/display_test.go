package display

import (
	"bytes"
	"context"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed43a1e1ab/gocl/kernel/cellctx"
	"github.com/seed43a1e1ab/gocl/kernel/cellio"
)

// recorder is a cell's sink that keeps the display messages.
type recorder struct {
	mu  sync.Mutex
	got []Message
}

func (r *recorder) Stream(name, text string) {}
func (r *recorder) Display(m Message) {
	r.mu.Lock()
	r.got = append(r.got, m)
	r.mu.Unlock()
}
func (r *recorder) Input(string, bool) (string, error) { return "", cellio.ErrNoStdin }

// record begins a request (as the engine does for a cell) whose sink keeps
// what is displayed, and returns a function that reports the messages
// published so far.
func record(t *testing.T) func() []Message {
	t.Helper()
	r := &recorder{}
	_, end := cellctx.Begin(context.Background(), cellctx.IO{Sink: r})
	t.Cleanup(end)
	return func() []Message {
		r.mu.Lock()
		defer r.mu.Unlock()
		return append([]Message(nil), r.got...)
	}
}

type rich struct{ name string }

func (r rich) HTML() string   { return "<b>" + r.name + "</b>" }
func (r rich) SVG() string    { return "<svg>" + r.name + "</svg>" }
func (r rich) PNG() []byte    { return []byte{0x89, 'P', 'N', 'G', byte(len(r.name))} }
func (r rich) String() string { return "rich " + r.name }

type mdOnly struct{}

func (mdOnly) Markdown() string { return "# title" }

type panicky struct{}

func (panicky) HTML() string { panic("boom") }

func TestBundleOf(t *testing.T) {
	b := BundleOf(rich{"x"})
	want := map[string]any{
		MIMEText: "rich x",
		MIMEHTML: "<b>x</b>",
		MIMESVG:  "<svg>x</svg>",
		MIMEPNG:  base64.StdEncoding.EncodeToString([]byte{0x89, 'P', 'N', 'G', 1}),
	}
	if len(b) != len(want) {
		t.Fatalf("BundleOf(rich) = %v, want keys of %v", b, want)
	}
	for k, v := range want {
		if b[k] != v {
			t.Errorf("BundleOf(rich)[%q] = %v, want %v", k, b[k], v)
		}
	}

	if b := BundleOf(42); len(b) != 1 || b[MIMEText] != "42" {
		t.Errorf("BundleOf(42) = %v", b)
	}
	if b := BundleOf(mdOnly{}); b[MIMEMarkdown] != "# title" || b[MIMEText] != "{}" {
		t.Errorf("BundleOf(mdOnly) = %v", b)
	}
	if b := BundleOf(nil); b[MIMEText] != "<nil>" {
		t.Errorf("BundleOf(nil) = %v", b)
	}
	b = BundleOf(panicky{})
	if _, ok := b[MIMEHTML]; ok {
		t.Errorf("panicking HTML() made it into the bundle: %v", b)
	}
	if s, _ := b[MIMEText].(string); !strings.Contains(s, "boom") {
		t.Errorf("text/plain %q does not report the panic", s)
	}
	in := Bundle{"text/html": "<i>a</i>"}
	out := BundleOf(in)
	out["text/plain"] = "changed"
	if len(in) != 1 {
		t.Errorf("BundleOf(Bundle) returned the caller's map, not a copy")
	}
}

func TestShowFunctions(t *testing.T) {
	got := record(t)
	HTML("<p>hi</p>")
	Markdown("*m*")
	SVG("<svg/>")
	PNG([]byte("png"))
	JPEG([]byte("jpg"))
	Text("plain")
	JSON(map[string]int{"a": 1})
	Show(rich{"y"})
	Clear(true)

	msgs := got()
	checks := []struct {
		mime string
		want any
	}{
		{MIMEHTML, "<p>hi</p>"},
		{MIMEMarkdown, "*m*"},
		{MIMESVG, "<svg/>"},
		{MIMEPNG, base64.StdEncoding.EncodeToString([]byte("png"))},
		{MIMEJPEG, base64.StdEncoding.EncodeToString([]byte("jpg"))},
		{MIMEText, "plain"},
		{MIMEJSON, nil}, // checked below
		{MIMEHTML, "<b>y</b>"},
	}
	if len(msgs) != len(checks)+1 {
		t.Fatalf("got %d messages, want %d: %+v", len(msgs), len(checks)+1, msgs)
	}
	for i, c := range checks {
		m := msgs[i]
		if m.Kind != KindShow || m.DisplayID != "" {
			t.Errorf("message %d: kind %v id %q, want a Show without id", i, m.Kind, m.DisplayID)
		}
		if _, ok := m.Data[MIMEText]; !ok {
			t.Errorf("message %d has no text/plain fallback: %v", i, m.Data)
		}
		if c.want != nil && m.Data[c.mime] != c.want {
			t.Errorf("message %d: %s = %v, want %v", i, c.mime, m.Data[c.mime], c.want)
		}
	}
	j, ok := msgs[6].Data[MIMEJSON].(map[string]any)
	if !ok || j["a"] != float64(1) {
		t.Errorf("JSON data = %#v, want map a:1", msgs[6].Data[MIMEJSON])
	}
	if last := msgs[len(msgs)-1]; last.Kind != KindClear || !last.Wait {
		t.Errorf("Clear(true) published %+v", last)
	}
}

func TestJSONUnmarshalable(t *testing.T) {
	got := record(t)
	JSON(func() {})
	msgs := got()
	if len(msgs) != 1 {
		t.Fatalf("got %d messages", len(msgs))
	}
	if _, ok := msgs[0].Data[MIMEJSON]; ok {
		t.Errorf("an unmarshalable value produced JSON data: %v", msgs[0].Data)
	}
	if s, _ := msgs[0].Data[MIMEText].(string); !strings.Contains(s, "cannot marshal") {
		t.Errorf("text/plain = %q, want the marshal error", s)
	}
}

func TestHandleUpdate(t *testing.T) {
	got := record(t)
	h := NewHTML("<p>1</p>")
	h.Update(rich{"z"})
	h.UpdateText("t")
	h2 := New(42)
	msgs := got()
	if len(msgs) != 4 {
		t.Fatalf("got %d messages, want 4", len(msgs))
	}
	if h.ID() == "" || h.ID() == h2.ID() {
		t.Fatalf("display ids %q and %q must be set and distinct", h.ID(), h2.ID())
	}
	wantKinds := []Kind{KindShow, KindUpdate, KindUpdate, KindShow}
	wantIDs := []string{h.ID(), h.ID(), h.ID(), h2.ID()}
	for i, m := range msgs {
		if m.Kind != wantKinds[i] || m.DisplayID != wantIDs[i] {
			t.Errorf("message %d: kind %v id %q, want %v %q", i, m.Kind, m.DisplayID, wantKinds[i], wantIDs[i])
		}
	}
	if msgs[1].Data[MIMEHTML] != "<b>z</b>" || msgs[2].Data[MIMEText] != "t" || msgs[3].Data[MIMEText] != "42" {
		t.Errorf("update data wrong: %v / %v / %v", msgs[1].Data, msgs[2].Data, msgs[3].Data)
	}
}

func TestNoRequest(t *testing.T) {
	if cellctx.Running() != nil {
		t.Fatal("a request runs before the test began one")
	}
	HTML("dropped") // must not panic
	p := Progress(3)
	p.Add(3)
	p.Done()
}

// fakeClock replaces the progress clock for a test.
func fakeClock(t *testing.T) *time.Time {
	t.Helper()
	cur := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	now = func() time.Time { return cur }
	t.Cleanup(func() { now = time.Now })
	return &cur
}

func TestProgressThrottle(t *testing.T) {
	got := record(t)
	clock := fakeClock(t)
	p := Progress(10000)
	// 10000 steps in 2 s of fake time: 1 step every 200 µs.
	for i := 0; i < 10000; i++ {
		*clock = clock.Add(200 * time.Microsecond)
		p.Add(1)
	}
	p.Done()
	p.Add(5) // ignored after Done
	msgs := got()
	// One draw every 250 ms of the 2 s, plus the first and the final draw.
	if len(msgs) < 3 || len(msgs) > 2+int(2*time.Second/ProgressInterval) {
		t.Fatalf("%d draws for 10000 Adds over 2 s; want 3..%d", len(msgs), 2+int(2*time.Second/ProgressInterval))
	}
	id := msgs[0].DisplayID
	if msgs[0].Kind != KindShow || id == "" {
		t.Fatalf("first draw = %+v, want a Show with a display id", msgs[0])
	}
	for i, m := range msgs[1:] {
		if m.Kind != KindUpdate || m.DisplayID != id {
			t.Errorf("draw %d: kind %v id %q, want Update %q", i+1, m.Kind, m.DisplayID, id)
		}
	}
	final := msgs[len(msgs)-1].Data
	if txt := final[MIMEText]; txt != "[####################] 100% 10000/10000 2.0 s" {
		t.Errorf("final text = %q", txt)
	}
	if h, _ := final[MIMEHTML].(string); !strings.Contains(h, `value="10000" max="10000"`) {
		t.Errorf("final html = %q", h)
	}
	if p.Count() != 10000 {
		t.Errorf("Count() = %d after Done and a late Add, want 10000", p.Count())
	}
}

func TestProgressText(t *testing.T) {
	record(t)
	clock := fakeClock(t)
	p := Progress(10000)
	*clock = clock.Add(2100 * time.Millisecond)
	p.Add(5000)
	if s := p.String(); s != "[##########..........] 50% 5000/10000 2.1 s, ~2.1 s left" {
		t.Errorf("String() = %q", s)
	}
	u := Progress(0)
	u.Add(7)
	if s := u.String(); s != "7 0.0 s" {
		t.Errorf("unknown-total String() = %q", s)
	}
	if s := seconds(125 * time.Second); s != "2m05s" {
		t.Errorf("seconds(125s) = %q", s)
	}
}

func TestProgressConcurrent(t *testing.T) {
	record(t)
	p := Progress(800)
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				p.Add(1)
			}
		}()
	}
	wg.Wait()
	p.Done()
	if p.Count() != 800 {
		t.Errorf("Count() = %d, want 800", p.Count())
	}
}

func TestSave(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		file string
		want []byte
	}{
		{"a.svg", []byte("<svg>q</svg>")},
		{"a.PNG", []byte{0x89, 'P', 'N', 'G', 1}},
		{"a.html", []byte("<b>q</b>")},
		{"a.txt", []byte("rich q")},
	}
	for _, c := range cases {
		p := filepath.Join(dir, c.file)
		if err := Save(rich{"q"}, p); err != nil {
			t.Errorf("Save(%s): %v", c.file, err)
			continue
		}
		got, err := os.ReadFile(p)
		if err != nil || !bytes.Equal(got, c.want) {
			t.Errorf("%s holds %q (%v), want %q", c.file, got, err, c.want)
		}
	}
	if err := Save(Bundle{MIMEJPEG: base64.StdEncoding.EncodeToString([]byte("jj"))}, filepath.Join(dir, "b.jpg")); err != nil {
		t.Errorf("Save(Bundle, .jpg): %v", err)
	} else if got, _ := os.ReadFile(filepath.Join(dir, "b.jpg")); string(got) != "jj" {
		t.Errorf("b.jpg holds %q", got)
	}

	bad := []struct {
		v    any
		file string
		want string
	}{
		{rich{"q"}, "x.jpg", "no JPEG() []byte method"},
		{mdOnly{}, "x.svg", "no SVG() string method"},
		{rich{"q"}, "x.pdf", "unknown extension"},
		{nil, "x.svg", "nil"},
		{Bundle{MIMEHTML: "h"}, "x.png", "has no image/png"},
		{Bundle{MIMEPNG: "not base64!"}, "x.png", "base64"},
		{panicky{}, "x.html", "panicked"},
	}
	for _, c := range bad {
		p := filepath.Join(dir, c.file)
		err := Save(c.v, p)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Save(%T, %s) = %v, want an error containing %q", c.v, c.file, err, c.want)
		}
		if _, statErr := os.Stat(p); statErr == nil {
			t.Errorf("Save(%T, %s) failed but wrote the file", c.v, c.file)
		}
	}
}

type ownBundle struct{}

func (ownBundle) MIMEBundle() Bundle { return Bundle{"application/x-own": 1} }
func (ownBundle) String() string     { return "own" }

type badBundle struct{}

func (badBundle) MIMEBundle() Bundle { panic("no bundle today") }

func TestMIMEBundler(t *testing.T) {
	b := BundleOf(ownBundle{})
	if b["application/x-own"] != 1 || b[MIMEText] != "own" {
		t.Errorf("BundleOf a MIMEBundler: %v", b)
	}
	if s, _ := BundleOf(badBundle{})[MIMEText].(string); !strings.Contains(s, "no bundle today") {
		t.Errorf("a panicking MIMEBundle: %q", s)
	}
}
