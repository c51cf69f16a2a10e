package cellio

import "encoding/json"

// Bundle maps a MIME type ("text/html", "image/png", ...) to its data: a
// string for text types, base64 text for binary images, any JSON value for
// application/json. It is the "data" field of a Jupyter display_data message.
//
// A Bundle decoded from JSON holds each type's data as the json.RawMessage
// it arrived as (see UnmarshalJSON); read text through Text.
type Bundle map[string]any

// UnmarshalJSON decodes a bundle keeping each MIME type's data as raw JSON
// (a json.RawMessage), which encodes again as it was. The kernel process
// passes bundles from the engine process on to the front end this way,
// without decoding and encoding their data (an image is megabytes of base64
// text; a number in application/json keeps every digit).
func (b *Bundle) UnmarshalJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	if raw == nil {
		*b = nil
		return nil
	}
	out := make(Bundle, len(raw))
	for mime, v := range raw {
		out[mime] = v
	}
	*b = out
	return nil
}

// Text returns the data of a text MIME type ("text/plain"), whether the
// bundle holds it as a string or as raw JSON (UnmarshalJSON). ok is false
// when the type is missing or its data is not a string.
func (b Bundle) Text(mime string) (text string, ok bool) {
	switch v := b[mime].(type) {
	case string:
		return v, true
	case json.RawMessage:
		if json.Unmarshal(v, &text) == nil {
			return text, true
		}
	}
	return "", false
}

// Kind says what a Message asks the front end to do.
type Kind int

const (
	// KindShow adds a new output (display_data).
	KindShow Kind = iota
	// KindUpdate replaces the output that carries the same DisplayID
	// (update_display_data).
	KindUpdate
	// KindClear clears the cell's outputs (clear_output); Wait defers the
	// clearing until the next output arrives, to avoid flicker.
	KindClear
)

// Message is one rich-output event of a cell. It holds plain data only, so it
// can cross a process boundary unchanged.
type Message struct {
	Kind      Kind           `json:"kind"`
	Data      Bundle         `json:"data,omitempty"`
	Metadata  map[string]any `json:"metadata,omitempty"`
	DisplayID string         `json:"display_id,omitempty"` // set for displays that can be updated later
	Wait      bool           `json:"wait,omitempty"`       // for Clear
}
