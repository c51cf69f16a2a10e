package display

import (
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// The interfaces below are the methods BundleOf looks for. A value may have
// any number of them; each adds one MIME type to its bundle.

// HTMLer is a value that renders as HTML (text/html).
type HTMLer interface{ HTML() string }

// Markdowner is a value that renders as Markdown (text/markdown).
type Markdowner interface{ Markdown() string }

// SVGer is a value that renders as an SVG document (image/svg+xml).
type SVGer interface{ SVG() string }

// PNGer is a value that renders as a PNG image (image/png).
type PNGer interface{ PNG() []byte }

// JPEGer is a value that renders as a JPEG image (image/jpeg).
type JPEGer interface{ JPEG() []byte }

// MIME types of the renderings BundleOf knows.
const (
	MIMEText     = "text/plain"
	MIMEHTML     = "text/html"
	MIMEMarkdown = "text/markdown"
	MIMESVG      = "image/svg+xml"
	MIMEPNG      = "image/png"
	MIMEJPEG     = "image/jpeg"
	MIMEJSON     = "application/json"
)

// renderer produces one MIME type of v, or ok=false when v lacks the method.
type renderer struct {
	mime   string
	method string // for error messages
	render func(v any) (data any, ok bool)
}

var renderers = []renderer{
	{MIMEHTML, "HTML() string", func(v any) (any, bool) {
		r, ok := v.(HTMLer)
		if !ok {
			return nil, false
		}
		return r.HTML(), true
	}},
	{MIMEMarkdown, "Markdown() string", func(v any) (any, bool) {
		r, ok := v.(Markdowner)
		if !ok {
			return nil, false
		}
		return r.Markdown(), true
	}},
	{MIMESVG, "SVG() string", func(v any) (any, bool) {
		r, ok := v.(SVGer)
		if !ok {
			return nil, false
		}
		return r.SVG(), true
	}},
	{MIMEPNG, "PNG() []byte", func(v any) (any, bool) {
		r, ok := v.(PNGer)
		if !ok {
			return nil, false
		}
		b := r.PNG()
		if b == nil {
			return nil, false
		}
		return base64.StdEncoding.EncodeToString(b), true
	}},
	{MIMEJPEG, "JPEG() []byte", func(v any) (any, bool) {
		r, ok := v.(JPEGer)
		if !ok {
			return nil, false
		}
		b := r.JPEG()
		if b == nil {
			return nil, false
		}
		return base64.StdEncoding.EncodeToString(b), true
	}},
}

// renderOne calls r on v, turning a panic in the user's method into an error.
func renderOne(r renderer, v any) (data any, ok bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			data, ok, err = nil, false, fmt.Errorf("%T.%s panicked: %v", v, r.method, p)
		}
	}()
	data, ok = r.render(v)
	return data, ok, nil
}

// BundleOf builds the MIME bundle of v from its methods: HTML() string gives
// text/html, Markdown() string text/markdown, SVG() string image/svg+xml,
// PNG() []byte image/png and JPEG() []byte image/jpeg (both base64-encoded).
// text/plain is always present: fmt's %v of v, which uses a String() or
// Error() method when v has one. A Bundle is returned as a copy. A method
// that panics is left out of the bundle and the panic is reported in its
// text/plain. This is the one place where the rule lives: the engine uses it
// for cell results and Value and New for displays.
func BundleOf(v any) Bundle {
	if b, ok := v.(Bundle); ok {
		out := make(Bundle, len(b))
		for k, x := range b {
			out[k] = x
		}
		return out
	}
	if mb, ok := v.(MIMEBundler); ok { // a widget, say
		return mimeBundleOf(mb)
	}
	b := Bundle{MIMEText: plainText(v)}
	if v == nil {
		return b
	}
	var problems []string
	for _, r := range renderers {
		data, ok, err := renderOne(r, v)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		if ok {
			b[r.mime] = data
		}
	}
	if len(problems) > 0 {
		b[MIMEText] = b[MIMEText].(string) + "\n(" + strings.Join(problems, "; ") + ")"
	}
	return b
}

// plainText is v as fmt's %v prints it; fmt itself recovers from a panicking
// String method.
func plainText(v any) string {
	return fmt.Sprintf("%v", v)
}

// saveKinds maps a file extension to the MIME type saved under it.
var saveKinds = map[string]string{
	".svg":      MIMESVG,
	".png":      MIMEPNG,
	".jpg":      MIMEJPEG,
	".jpeg":     MIMEJPEG,
	".html":     MIMEHTML,
	".htm":      MIMEHTML,
	".md":       MIMEMarkdown,
	".markdown": MIMEMarkdown,
	".txt":      MIMEText,
}

// Save writes v to path in the format the path's extension names: .svg
// (SVG() string), .png (PNG() []byte), .jpg/.jpeg (JPEG() []byte),
// .html/.htm (HTML() string), .md (Markdown() string) or .txt (text/plain,
// as BundleOf makes it). v may also be a Bundle holding that MIME type. It
// returns an error, and writes nothing, when v cannot be rendered that way.
func Save(v any, path string) error {
	ext := strings.ToLower(filepath.Ext(path))
	mime, ok := saveKinds[ext]
	if !ok {
		return fmt.Errorf("display.Save %s: unknown extension %q; use one of %s", path, ext, strings.Join(saveExts(), ", "))
	}
	data, err := renderFor(v, mime)
	if err != nil {
		return fmt.Errorf("display.Save %s: %w", path, err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("display.Save: %w", err)
	}
	return nil
}

// renderFor returns the bytes of v rendered as mime.
func renderFor(v any, mime string) ([]byte, error) {
	if v == nil {
		return nil, errors.New("cannot save a nil value")
	}
	var data any
	if b, ok := v.(Bundle); ok {
		d, ok := b[mime]
		if !ok {
			return nil, fmt.Errorf("the bundle has no %s (it has %s)", mime, strings.Join(mimesOf(b), ", "))
		}
		data = d
	} else if mime == MIMEText {
		data = plainText(v)
	} else {
		for _, r := range renderers {
			if r.mime != mime {
				continue
			}
			d, ok, err := renderOne(r, v)
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, fmt.Errorf("a %T cannot be saved as %s: it has no %s method (it renders as %s)",
					v, mime, r.method, strings.Join(mimesOf(BundleOf(v)), ", "))
			}
			data = d
		}
	}
	s, ok := data.(string)
	if !ok {
		return nil, fmt.Errorf("the %s data is a %T, not text", mime, data)
	}
	if mime == MIMEPNG || mime == MIMEJPEG {
		raw, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, fmt.Errorf("the %s data is not valid base64: %v", mime, err)
		}
		return raw, nil
	}
	return []byte(s), nil
}

func mimesOf(b Bundle) []string {
	var out []string
	for k := range b {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func saveExts() []string {
	var out []string
	for k := range saveKinds {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
