package nbrun

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// notebook is a parsed .ipynb file kept as generic JSON (objects are
// map[string]any, numbers json.Number) so that everything gocl run does not
// touch is written back exactly as it was read.
type notebook struct {
	root  map[string]any
	cells []map[string]any
}

// readNotebook parses the nbformat 4 notebook at path.
func readNotebook(path string) (*notebook, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if err := checkUTF8(data); err != nil {
		return nil, err
	}
	return parseNotebook(data)
}

// checkUTF8 refuses a file that is not UTF-8, as nbformat requires:
// decoding it would turn the bad bytes into U+FFFD, and writing it back would
// change the notebook without a word.
func checkUTF8(data []byte) error {
	if utf8.Valid(data) {
		return nil
	}
	off := 0
	for off < len(data) {
		r, size := utf8.DecodeRune(data[off:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		off += size
	}
	line := bytes.Count(data[:off], []byte("\n")) + 1
	col := off - bytes.LastIndexByte(data[:off], '\n')
	return fmt.Errorf("not UTF-8 (byte 0x%02x at line %d, column %d): a notebook is UTF-8, and running it would replace "+
		"such bytes with U+FFFD; convert the file (iconv -f LATIN1 -t UTF-8, say) and run it again", data[off], line, col)
}

func parseNotebook(data []byte) (*notebook, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not a notebook: invalid JSON: %v", err)
	}
	root, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("not a notebook: the JSON is a %s, not an object", jsonKind(v))
	}
	major, _ := intOf(root["nbformat"])
	if major != 4 {
		return nil, fmt.Errorf("nbformat %v is not supported: gocl run reads nbformat 4 notebooks (upgrade with `jupyter nbconvert --to notebook`)", root["nbformat"])
	}
	raw, ok := root["cells"].([]any)
	if !ok {
		return nil, fmt.Errorf("not a notebook: no \"cells\" list")
	}
	nb := &notebook{root: root}
	for i, c := range raw {
		cell, ok := c.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("cell %d is a %s, not an object", i+1, jsonKind(c))
		}
		if _, ok := cell["cell_type"].(string); !ok {
			return nil, fmt.Errorf("cell %d has no cell_type", i+1)
		}
		if _, err := source(cell); err != nil {
			return nil, fmt.Errorf("cell %d: %v", i+1, err)
		}
		nb.cells = append(nb.cells, cell)
	}
	return nb, nil
}

// setLanguageInfo replaces metadata.language_info with a copy of li.
func (nb *notebook) setLanguageInfo(li map[string]any) {
	md, ok := nb.root["metadata"].(map[string]any)
	if !ok {
		md = map[string]any{}
		nb.root["metadata"] = md
	}
	cp := make(map[string]any, len(li))
	for k, v := range li {
		cp[k] = v
	}
	md["language_info"] = cp
}

// ensureIDs upgrades the notebook to nbformat 4.5, which requires a unique
// id on every cell, adding the missing ones (8 hex digits, as nbformat
// does) and replacing duplicates.
func (nb *notebook) ensureIDs() {
	if minor, ok := intOf(nb.root["nbformat_minor"]); !ok || minor < 5 {
		nb.root["nbformat_minor"] = json.Number("5")
	}
	seen := map[string]bool{}
	for _, c := range nb.cells {
		id, _ := c["id"].(string)
		if id != "" && !seen[id] {
			seen[id] = true
			continue
		}
		for {
			id = randomID()
			if !seen[id] {
				break
			}
		}
		seen[id] = true
		c["id"] = id
	}
}

// source returns the cell's source as one string, whether the file stores
// it as a string or a list of lines.
func source(cell map[string]any) (string, error) {
	return multiline(cell["source"], "source")
}

func multiline(v any, what string) (string, error) {
	switch s := v.(type) {
	case nil:
		return "", nil
	case string:
		return s, nil
	case []any:
		var b strings.Builder
		for _, l := range s {
			ls, ok := l.(string)
			if !ok {
				return "", fmt.Errorf("%s holds a %s, not a string", what, jsonKind(l))
			}
			b.WriteString(ls)
		}
		return b.String(), nil
	}
	return "", fmt.Errorf("%s is a %s, not a string or a list of strings", what, jsonKind(v))
}

// encode serializes the notebook as nbformat writes it: multiline strings
// split into lists of lines, keys sorted, one-space indent, non-ASCII kept,
// and a final newline.
func (nb *notebook) encode() []byte {
	cells := make([]any, len(nb.cells))
	for i, c := range nb.cells {
		splitCell(c)
		cells[i] = c
	}
	nb.root["cells"] = cells
	var b bytes.Buffer
	writeJSON(&b, nb.root, "")
	b.WriteByte('\n')
	return b.Bytes()
}

// splitCell applies nbformat's split_lines to one cell.
func splitCell(c map[string]any) {
	if s, ok := c["source"].(string); ok {
		c["source"] = splitLines(s)
	}
	if att, ok := c["attachments"].(map[string]any); ok {
		for _, a := range att {
			if bundle, ok := a.(map[string]any); ok {
				splitBundle(bundle)
			}
		}
	}
	if c["cell_type"] != "code" {
		return
	}
	outs, _ := c["outputs"].([]any)
	for _, o := range outs {
		out, ok := o.(map[string]any)
		if !ok {
			continue
		}
		switch out["output_type"] {
		case "execute_result", "display_data":
			if data, ok := out["data"].(map[string]any); ok {
				splitBundle(data)
			}
		case "stream":
			if s, ok := out["text"].(string); ok {
				out["text"] = splitLines(s)
			}
		}
	}
}

func splitBundle(data map[string]any) {
	for k, v := range data {
		s, ok := v.(string)
		if ok && (strings.HasPrefix(k, "text/") || k == "application/javascript" || k == "image/svg+xml") {
			data[k] = splitLines(s)
		}
	}
}

// splitLines is Python's str.splitlines(keepends=True), which nbformat uses.
func splitLines(s string) []any {
	lines := []any{}
	start := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		end := -1
		switch r {
		case '\r':
			end = i + 1
			if i+1 < len(s) && s[i+1] == '\n' {
				end = i + 2
			}
		case '\n', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
			end = i + size
		}
		if end < 0 {
			i += size
			continue
		}
		lines = append(lines, s[start:end])
		start, i = end, end
	}
	if start < len(s) {
		lines = append(lines, s[start:])
	}
	return lines
}

// writeJSON writes v as Python's json.dumps(v, indent=1, sort_keys=True,
// ensure_ascii=False) does.
func writeJSON(b *bytes.Buffer, v any, indent string) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case json.Number:
		b.WriteString(x.String())
	case string:
		writeString(b, x)
	case map[string]any:
		if len(x) == 0 {
			b.WriteString("{}")
			return
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		inner := indent + " "
		b.WriteString("{\n")
		for i, k := range keys {
			if i > 0 {
				b.WriteString(",\n")
			}
			b.WriteString(inner)
			writeString(b, k)
			b.WriteString(": ")
			writeJSON(b, x[k], inner)
		}
		b.WriteString("\n" + indent + "}")
	case []any:
		if len(x) == 0 {
			b.WriteString("[]")
			return
		}
		inner := indent + " "
		b.WriteString("[\n")
		for i, e := range x {
			if i > 0 {
				b.WriteString(",\n")
			}
			b.WriteString(inner)
			writeJSON(b, e, inner)
		}
		b.WriteString("\n" + indent + "]")
	default:
		// Not reached: values are normalized by plainJSON first.
		writeJSON(b, plainJSON(v), indent)
	}
}

func writeString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r < 0x20 {
				fmt.Fprintf(b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

// plainJSON converts any Go value to the generic form writeJSON takes, via
// encoding/json. A value that cannot be marshaled becomes its error text.
func plainJSON(v any) any {
	switch v.(type) {
	case nil, bool, string, json.Number:
		return v
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("<cannot encode %T: %v>", v, err)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return fmt.Sprintf("<cannot encode %T: %v>", v, err)
	}
	return out
}

func intOf(v any) (int, bool) {
	switch n := v.(type) {
	case json.Number:
		i, err := strconv.Atoi(n.String())
		return i, err == nil
	case int:
		return n, true
	case float64:
		return int(n), float64(int(n)) == n
	}
	return 0, false
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "list"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func randomID() string {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("nbrun: no randomness for a cell id: " + err.Error())
	}
	return hex.EncodeToString(b[:])
}
