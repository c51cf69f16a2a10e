package cellio

// Bundle maps a MIME type ("text/html", "image/png", ...) to its data: a
// string for text types, base64 text for binary images, any JSON value for
// application/json. It is the "data" field of a Jupyter display_data message.
type Bundle map[string]any

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
