package display

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
)

// Show displays v with the MIME bundle BundleOf makes of it: a plot, a
// table, any value with HTML(), SVG(), PNG()... methods.
func Show(v any) { show(BundleOf(v), "") }

// HTML displays s as HTML.
func HTML(s string) { show(Bundle{MIMEHTML: s, MIMEText: textFallback("HTML", s)}, "") }

// Markdown displays s as Markdown.
func Markdown(s string) { show(Bundle{MIMEMarkdown: s, MIMEText: s}, "") }

// SVG displays s, an SVG document, as an image.
func SVG(s string) { show(Bundle{MIMESVG: s, MIMEText: textFallback("SVG", s)}, "") }

// PNG displays b, the bytes of a PNG file, as an image.
func PNG(b []byte) { show(BundleOf(pngBytes(b)), "") }

// JPEG displays b, the bytes of a JPEG file, as an image.
func JPEG(b []byte) { show(BundleOf(jpegBytes(b)), "") }

// Text displays s as plain text, as a separate output (unlike printing,
// which appends to the cell's stdout stream).
func Text(s string) { show(Bundle{MIMEText: s}, "") }

// JSON displays v, marshaled with encoding/json, as a JSON tree, with its
// indented text as the text/plain fallback. A value that cannot be
// marshaled is displayed as the error instead.
func JSON(v any) { show(jsonBundle(v), "") }

// Clear clears the cell's outputs (clear_output). With wait set, the
// outputs stay until the next output arrives, which avoids flicker in a loop
// that clears and redraws.
func Clear(wait bool) { Publish(Message{Kind: KindClear, Wait: wait}) }

// Handle is a display that can be replaced in place later.
type Handle struct {
	id string
}

// New displays v like Value and returns a Handle to update it.
func New(v any) *Handle {
	h := &Handle{id: newID()}
	show(BundleOf(v), h.id)
	return h
}

// NewHTML displays s as HTML and returns a Handle to update it.
func NewHTML(s string) *Handle {
	h := &Handle{id: newID()}
	show(Bundle{MIMEHTML: s, MIMEText: textFallback("HTML", s)}, h.id)
	return h
}

// ID returns the handle's display_id.
func (h *Handle) ID() string { return h.id }

// Update replaces the display with v, rendered by BundleOf.
func (h *Handle) Update(v any) { update(BundleOf(v), h.id) }

// UpdateHTML replaces the display with the HTML s.
func (h *Handle) UpdateHTML(s string) {
	update(Bundle{MIMEHTML: s, MIMEText: textFallback("HTML", s)}, h.id)
}

// UpdateText replaces the display with the plain text s.
func (h *Handle) UpdateText(s string) { update(Bundle{MIMEText: s}, h.id) }

func show(b Bundle, id string) {
	Publish(Message{Kind: KindShow, Data: b, Metadata: map[string]any{}, DisplayID: id})
}

func update(b Bundle, id string) {
	Publish(Message{Kind: KindUpdate, Data: b, Metadata: map[string]any{}, DisplayID: id})
}

// textFallback is the text/plain of a rich display: short markup is shown
// as is, long markup is summarized.
func textFallback(kind, s string) string {
	const max = 200
	if len(s) <= max {
		return s
	}
	return fmt.Sprintf("<%s, %d bytes>", kind, len(s))
}

type pngBytes []byte

func (b pngBytes) PNG() []byte    { return b }
func (b pngBytes) String() string { return fmt.Sprintf("<PNG image, %d bytes>", len(b)) }

type jpegBytes []byte

func (b jpegBytes) JPEG() []byte   { return b }
func (b jpegBytes) String() string { return fmt.Sprintf("<JPEG image, %d bytes>", len(b)) }

// jsonBundle marshals v and unmarshals it again so that the bundle holds
// plain JSON values only (maps, slices, strings, float64, bool, nil).
func jsonBundle(v any) Bundle {
	raw, err := json.Marshal(v)
	if err != nil {
		msg := fmt.Sprintf("display.JSON: cannot marshal a %T: %v", v, err)
		return Bundle{MIMEText: msg, MIMEHTML: "<pre>" + html.EscapeString(msg) + "</pre>"}
	}
	var plain any
	if err := json.Unmarshal(raw, &plain); err != nil {
		return Bundle{MIMEText: fmt.Sprintf("display.JSON: %v", err)}
	}
	indented, err := json.MarshalIndent(plain, "", "  ")
	if err != nil {
		indented = raw
	}
	return Bundle{MIMEJSON: plain, MIMEText: string(indented)}
}

// newID returns a random display_id.
func newID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("display: no randomness for a display id: " + err.Error())
	}
	return hex.EncodeToString(b[:])
}
