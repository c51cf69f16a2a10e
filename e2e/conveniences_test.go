package e2e

// Issue 3, driven through the Go client: completion, inspection,
// is_complete, history, stdin and the display package, each against the
// real gocl binary.

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/go-zeromq/zmq4"

	"github.com/seed43a1e1ab/gocl/kernel/wire"
)

// ask sends a shell request and returns the decoded reply content.
func (k *kernel) ask(msgType string, content map[string]any) map[string]any {
	k.t.Helper()
	r := k.request(k.shell, msgType, content, 20*time.Second, false)
	want := strings.TrimSuffix(msgType, "_request") + "_reply"
	if r.Header.MsgType != want {
		k.t.Fatalf("%s answered with %s", msgType, r.Header.MsgType)
	}
	return decode(k.t, r)
}

// complete asks for completions with the cursor at the "|" in code; the
// cursor is counted in code points, as the protocol says.
func (k *kernel) complete(code string) (matches []string, start, end int, reply map[string]any) {
	k.t.Helper()
	code, cur := cursorAt(code)
	c := k.ask("complete_request", map[string]any{"code": code, "cursor_pos": cur})
	if c["status"] != "ok" {
		k.t.Fatalf("complete_reply = %v", c)
	}
	for _, m := range c["matches"].([]any) {
		matches = append(matches, m.(string))
	}
	return matches, int(c["cursor_start"].(float64)), int(c["cursor_end"].(float64)), c
}

// inspect asks for the inspection at the "|" in code and returns its text/plain.
func (k *kernel) inspect(code string, detail int) (string, bool) {
	k.t.Helper()
	code, cur := cursorAt(code)
	c := k.ask("inspect_request", map[string]any{"code": code, "cursor_pos": cur, "detail_level": detail})
	if c["status"] != "ok" {
		k.t.Fatalf("inspect_reply = %v", c)
	}
	if c["found"] != true {
		return "", false
	}
	data := c["data"].(map[string]any)
	if _, ok := data["text/markdown"]; !ok {
		k.t.Errorf("inspection of %q has no text/markdown: %v", code, data)
	}
	return data["text/plain"].(string), true
}

// cursorAt removes the "|" from code and returns its position in code points.
func cursorAt(code string) (string, int) {
	i := strings.Index(code, "|")
	if i < 0 {
		return code, utf8.RuneCountInString(code)
	}
	return code[:i] + code[i+1:], utf8.RuneCountInString(code[:i])
}

func TestCompletion(t *testing.T) {
	k := startKernel(t)
	rep, _ := k.execute(`type Sample struct {
	Alpha int
	beta  string
}

func (s Sample) Twice() int { return 2 * s.Alpha }

// mySum adds.
func mySum(a, b int) int { return a + b }

myVar := Sample{Alpha: 3, beta: "b"}
ñandú := 1.5`, nil)
	if rep["status"] != "ok" {
		t.Fatalf("set-up cell failed: %v", rep)
	}
	tests := []struct {
		code       string
		want       []string // all must be among the matches
		not        []string // none may be
		start, end int      // in code points
	}{
		{"my|", []string{"mySum", "myVar"}, nil, 0, 2},                               // names from earlier cells
		{"x := myV|", []string{"myVar"}, []string{"mySum"}, 5, 8},                    // after other text
		{"strings.Fie|", []string{"Fields", "FieldsFunc"}, []string{"Split"}, 8, 11}, // pre-imported package
		{"math.|", []string{"Pi", "Sqrt", "Hypot"}, nil, 5, 5},
		{"display.Pro|", []string{"Progress"}, nil, 8, 11},
		{"cl.Plat|", []string{"Platforms"}, nil, 3, 7},
		{"myVar.|", []string{"Alpha", "beta", "Twice"}, []string{"Xbeta"}, 6, 6},                             // live value's fields and methods
		{"myVar.Al|pha = 4", []string{"Alpha"}, []string{"beta"}, 6, 11},                                     // cursor mid-word: the whole word is replaced
		{"time.Now().|", []string{"Unix", "Format"}, nil, 11, 11},                                            // method of a call's result
		{"fu|", []string{"func"}, nil, 0, 2},                                                                 // keyword
		{"n := le|", []string{"len"}, nil, 5, 7},                                                             // builtin
		{"s := \"日本語\"; ña|", []string{"ñandú"}, nil, 12, 14},                                                // code points, not bytes or UTF-16
		{"// é\nfor i := 0; i < 3; i++ {\n\tif myVar.Alpha > i {\n\t\tmyV|", []string{"myVar"}, nil, 54, 57}, // half-written
		{"fmt.Println(strings.ToU|", []string{"ToUpper"}, nil, 20, 23},
	}
	for _, tt := range tests {
		got, start, end, _ := k.complete(tt.code)
		for _, w := range tt.want {
			if !slices.Contains(got, w) {
				t.Errorf("complete %q: %q missing from %v", tt.code, w, got)
			}
		}
		for _, n := range tt.not {
			if slices.Contains(got, n) {
				t.Errorf("complete %q: %q should not be offered: %v", tt.code, n, got)
			}
		}
		if start != tt.start || end != tt.end {
			t.Errorf("complete %q: cursor_start, cursor_end = %d, %d; want %d, %d", tt.code, start, end, tt.start, tt.end)
		}
	}
	// Types in the experimental metadata that JupyterLab shows.
	_, _, _, c := k.complete("myVar.|")
	types, _ := c["metadata"].(map[string]any)["_jupyter_types_experimental"].([]any)
	if len(types) == 0 {
		t.Errorf("no _jupyter_types_experimental metadata: %v", c["metadata"])
	}
	// Nonsense and out-of-range cursors give an empty, well-formed reply.
	for _, req := range []map[string]any{
		{"code": "x := ", "cursor_pos": 99}, {"code": "}}}((", "cursor_pos": 3}, {"code": "", "cursor_pos": 0},
	} {
		c := k.ask("complete_request", req)
		if c["status"] != "ok" || c["matches"] == nil {
			t.Errorf("complete %v = %v", req, c)
		}
	}
}

func TestInspection(t *testing.T) {
	k := startKernel(t)
	k.execute("// Scale multiplies v by f.\nfunc Scale(v []float64, f float64) {\n\tfor i := range v {\n\t\tv[i] *= f\n\t}\n}\n"+
		"type Pair struct {\n\tA, B int\n\tnote string\n}\n"+
		"pair := Pair{A: 1, B: 2, note: \"n\"}\ncount := 42", nil)
	tests := []struct {
		code   string
		detail int
		want   []string
	}{
		{"strings.Fie|lds(s)", 0, []string{"func Fields(s string) []string", "white space"}},
		{"fmt.Println(|", 0, []string{"func Println(a ...any)"}}, // inside the call's arguments
		{"display.HT|ML(s)", 0, []string{"func HTML(s string)", "HTML"}},
		{"display.Progre|ss(10)", 0, []string{"func Progress(", "*ProgressBar"}},
		{"cl|", 0, []string{"package", "clapi", "OpenCL"}},
		{"cl.Platfo|rms()", 0, []string{"func Platforms()", "gocl doctor"}},
		{"Sca|le(v, 2)", 0, []string{"func Scale(v []float64, f float64)", "Scale multiplies v by f."}},
		{"Scale|", 1, []string{"v[i] *= f"}}, // detail 1 shows the source
		{"var p Pa|ir", 0, []string{"type Pair struct"}},
		{"count|", 0, []string{"var count int", "42"}},
		{"pair|", 0, []string{"Pair", "A:1", "note:n"}},
		{"pair.B|", 0, []string{"field B int", "2"}},
	}
	for _, tt := range tests {
		got, found := k.inspect(tt.code, tt.detail)
		if !found {
			t.Errorf("inspect %q: not found", tt.code)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("inspect %q lacks %q:\n%s", tt.code, w, got)
			}
		}
		if strings.Contains(got, "Xnote") {
			t.Errorf("inspect %q shows yaegi's mangled field name:\n%s", tt.code, got)
		}
	}
	// The value shown is the current one.
	k.execute("count = 7", nil)
	if got, _ := k.inspect("count|", 0); !strings.Contains(got, "7") || strings.Contains(got, "42") {
		t.Errorf("inspection shows a stale value:\n%s", got)
	}
	if _, found := k.inspect("noSuchName|", 0); found {
		t.Error("an unknown name was found")
	}
}

func TestIsComplete(t *testing.T) {
	k := startKernel(t)
	tests := []struct{ code, status string }{
		{"x := 1", "complete"},
		{"fmt.Println(\"hi\")", "complete"},
		{"func f() {", "incomplete"},
		{"for i := 0; i < 3; i++ {\n\tif i > 1 {", "incomplete"},
		{"s := `raw", "incomplete"},
		{"x := []int{1,\n2,", "incomplete"},
		{"x := )", "invalid"},
		{"}", "invalid"},
	}
	for _, tt := range tests {
		c := k.ask("is_complete_request", map[string]any{"code": tt.code})
		if c["status"] != tt.status {
			t.Errorf("is_complete %q = %v, want %s", tt.code, c, tt.status)
			continue
		}
		_, hasIndent := c["indent"]
		if hasIndent != (tt.status == "incomplete") {
			t.Errorf("is_complete %q: indent present = %v for status %s", tt.code, hasIndent, tt.status)
		}
	}
	if c := k.ask("is_complete_request", map[string]any{"code": "func f() {"}); c["indent"] == "" {
		t.Errorf("an open block asks for no indent: %v", c)
	}
}

// historyOf asks for history and returns the entries as
// [session, line, input] or [session, line, [input, output]].
func (k *kernel) historyOf(req map[string]any) [][]any {
	k.t.Helper()
	c := k.ask("history_request", req)
	if c["status"] != "ok" {
		k.t.Fatalf("history_reply = %v", c)
	}
	var out [][]any
	for _, e := range c["history"].([]any) {
		out = append(out, e.([]any))
	}
	return out
}

func inputsOf(h [][]any) []string {
	var out []string
	for _, e := range h {
		switch x := e[2].(type) {
		case string:
			out = append(out, x)
		case []any:
			out = append(out, x[0].(string))
		}
	}
	return out
}

func TestHistory(t *testing.T) {
	data := t.TempDir() // shared by both kernel processes: the per-user file
	k := startKernel(t, "JUPYTER_DATA_DIR="+data)
	for _, c := range []string{"a := 1", "a + 1", "fmt.Println(a)", "a + 1", "b := \"clé\""} {
		k.execute(c, nil)
	}
	k.execute("a * 100", map[string]any{"store_history": false}) // not stored
	tail := k.historyOf(map[string]any{"hist_access_type": "tail", "n": 3, "output": true, "raw": true})
	if len(tail) != 3 {
		t.Fatalf("tail 3 = %v", tail)
	}
	session := tail[0][0].(float64)
	if got := inputsOf(tail); !slices.Equal(got, []string{"fmt.Println(a)", "a + 1", "b := \"clé\""}) {
		t.Errorf("tail inputs = %v", got)
	}
	if out := tail[1][2].([]any)[1]; out != "2" {
		t.Errorf("output of `a + 1` = %v, want \"2\"", out)
	}
	if tail[1][1].(float64) != 4 {
		t.Errorf("line of the fourth cell = %v", tail[1][1])
	}
	// Without output the entries are plain [session, line, input].
	if h := k.historyOf(map[string]any{"hist_access_type": "tail", "n": 1, "output": false, "raw": true}); len(h) != 1 || h[0][2] != "b := \"clé\"" {
		t.Errorf("tail 1 without output = %v", h)
	}
	rng := k.historyOf(map[string]any{"hist_access_type": "range", "session": 0, "start": 2, "stop": 4, "output": false, "raw": true})
	if got := inputsOf(rng); !slices.Equal(got, []string{"a + 1", "fmt.Println(a)"}) {
		t.Errorf("range 2..4 = %v", rng)
	}
	search := k.historyOf(map[string]any{"hist_access_type": "search", "pattern": "a ?*", "unique": true, "output": false, "raw": true})
	if got := inputsOf(search); !slices.Equal(got, []string{"a := 1", "a + 1"}) {
		t.Errorf("search \"a ?*\" unique = %v", got)
	}
	search = k.historyOf(map[string]any{"hist_access_type": "search", "pattern": "*a*", "n": 2, "output": false, "raw": true})
	if got := inputsOf(search); !slices.Equal(got, []string{"fmt.Println(a)", "a + 1"}) {
		t.Errorf("search \"*a*\" n=2 = %v", got)
	}

	// A restart in the same process opens a new session; so does a new process.
	k.request(k.control, "shutdown_request", map[string]any{"restart": true}, 10*time.Second, false)
	k.execute("c := 3", nil)
	h := k.historyOf(map[string]any{"hist_access_type": "tail", "n": 1, "output": false, "raw": true})
	if len(h) != 1 || h[0][0].(float64) != session+1 || h[0][1].(float64) != 1 {
		t.Errorf("after an in-process restart: %v, want session %v line 1", h, session+1)
	}
	k.request(k.control, "shutdown_request", map[string]any{"restart": false}, 10*time.Second, false)
	<-k.exited

	k2 := startKernel(t, "JUPYTER_DATA_DIR="+data)
	k2.execute("d := 4", nil)
	h = k2.historyOf(map[string]any{"hist_access_type": "tail", "n": 2, "output": false, "raw": true})
	if len(h) != 2 || h[1][0].(float64) != session+2 || h[1][2] != "d := 4" || h[0][2] != "c := 3" {
		t.Errorf("tail in a new kernel = %v", h)
	}
	prev := k2.historyOf(map[string]any{"hist_access_type": "range", "session": -2, "start": 1, "output": true, "raw": true})
	if got := inputsOf(prev); len(got) != 5 || got[4] != "b := \"clé\"" {
		t.Errorf("range of session -2 = %v", prev)
	}
	if _, err := os.Stat(filepath.Join(data, "gocl", "history.jsonl")); err != nil {
		t.Errorf("no per-user history file: %v", err)
	}
}

// answer replies to an input_request.
func (k *kernel) answer(req *wire.Message, value string) {
	k.t.Helper()
	content, _ := json.Marshal(map[string]any{"value": value, "status": "ok"})
	m := mustMessage(k.t, k, "input_reply", json.RawMessage(content))
	m.ParentHeader = &req.Header
	frames, err := k.signer.Encode(m)
	if err != nil {
		k.t.Fatal(err)
	}
	if err := k.stdin.Send(zmq4.NewMsgFrom(frames...)); err != nil {
		k.t.Fatal(err)
	}
}

func (k *kernel) executeAsync(code string, allowStdin bool) string {
	return k.send(k.shell, "execute_request", map[string]any{"code": code, "silent": false, "store_history": true,
		"user_expressions": map[string]any{}, "allow_stdin": allowStdin, "stop_on_error": true})
}

func (k *kernel) inputRequest(id string) *wire.Message {
	k.t.Helper()
	req := k.recv(k.stdin, 20*time.Second)
	if req == nil || req.Header.MsgType != "input_request" || req.ParentHeader.MsgID != id {
		k.t.Fatalf("no input_request for the cell: %v\n%s", req, k.stderr.String())
	}
	return req
}

func TestStdinPromptsReadersAndInterrupt(t *testing.T) {
	k := startKernel(t)
	// bufio.NewReader(os.Stdin), then fmt.Scan: each read that runs dry asks
	// again, with what the cell printed last on that line as the prompt.
	id := k.executeAsync("import \"bufio\"\nfmt.Println(\"reading two things\")\nfmt.Print(\"Your name: \")\n"+
		"r := bufio.NewReader(os.Stdin)\nname, _ := r.ReadString('\\n')\nfmt.Print(\"first line\\nAge? \")\n"+
		"var age int\nfmt.Scan(&age)\nfmt.Sprintf(\"%s is %d\", strings.TrimSpace(name), age)", true)
	req := k.inputRequest(id)
	if c := decode(t, req); c["prompt"] != "Your name: " || c["password"] != false {
		t.Errorf("first input_request = %v", c)
	}
	k.answer(req, "Ada Lovelace")
	req = k.inputRequest(id)
	if p := decode(t, req)["prompt"]; p != "Age? " {
		t.Errorf("second prompt = %q", p)
	}
	k.answer(req, "36")
	r := k.recv(k.shell, 20*time.Second)
	k.waitIdle(id, 10*time.Second)
	res := ofType(k.outputs(id), "execute_result")
	if r == nil || decode(t, r)["status"] != "ok" || len(res) != 1 ||
		decode(t, res[0])["data"].(map[string]any)["text/plain"] != `"Ada Lovelace is 36"` {
		t.Fatalf("reply %v, results %v", r, res)
	}

	// Interrupt while the cell waits for input: the cell stops, state stays.
	id = k.executeAsync("kept := 5\nvar s string\nfmt.Print(\"never answered: \")\nfmt.Scanln(&s)\nfmt.Println(\"not reached\")", true)
	k.inputRequest(id)
	k.request(k.control, "interrupt_request", map[string]any{}, 10*time.Second, false)
	r = k.recv(k.shell, 20*time.Second)
	if r == nil || r.ParentHeader.MsgID != id {
		t.Fatal("the cell waiting for input did not reply after an interrupt")
	}
	if c := decode(t, r); c["status"] != "error" || c["ename"] != "Interrupted" {
		t.Errorf("reply after interrupt = %v", c)
	}
	k.waitIdle(id, 10*time.Second)
	if s := stream(t, k.outputs(id), "stdout"); strings.Contains(s, "not reached") {
		t.Errorf("the cell went on after the interrupt: %q", s)
	}
	rep, outs := k.execute("kept + 1", nil)
	if rep["status"] != "ok" || decode(t, ofType(outs, "execute_result")[0])["data"].(map[string]any)["text/plain"] != "6" {
		t.Errorf("after the interrupt: %v", rep)
	}

	// allow_stdin false: the read fails at once with a clear error, and no
	// input_request is sent.
	start := time.Now()
	rep, outs = k.execute("var v string\n_, err := fmt.Scanln(&v)\nerr", map[string]any{"allow_stdin": false})
	if time.Since(start) > 20*time.Second { // a hang guard, not a timing test
		t.Errorf("a read without allow_stdin took %v", time.Since(start))
	}
	res = ofType(outs, "execute_result")
	if rep["status"] != "ok" || len(res) != 1 {
		t.Fatalf("reply %v, outputs %v", rep, outs)
	}
	if msg := decode(t, res[0])["data"].(map[string]any)["text/plain"].(string); !strings.Contains(msg, "allow_stdin") ||
		!strings.Contains(msg, "stdin") {
		t.Errorf("the error does not say why: %q", msg)
	}
	if m := k.recv(k.stdin, 200*time.Millisecond); m != nil {
		t.Errorf("an input_request was sent without allow_stdin: %v", m.Header.MsgType)
	}
}

// data returns the data bundle of a display message.
func dataOf(t *testing.T, m *wire.Message) map[string]any {
	return decode(t, m)["data"].(map[string]any)
}

func displayID(t *testing.T, m *wire.Message) string {
	tr, _ := decode(t, m)["transient"].(map[string]any)
	id, _ := tr["display_id"].(string)
	return id
}

func TestDisplayPackage(t *testing.T) {
	k := startKernel(t)
	png := []byte("\x89PNG\r\n\x1a\nrest")
	rep, outs := k.execute(`display.HTML("<b>bold</b>")
display.Markdown("**md**")
display.SVG("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"4\" height=\"4\"/>")
display.PNG([]byte("\x89PNG\r\n\x1a\nrest"))
display.JPEG([]byte{0xff, 0xd8, 0xff, 0xe0})
display.JSON(map[string]any{"k": []int{1, 2}})
display.Text("just text")`, nil)
	if rep["status"] != "ok" {
		t.Fatalf("reply = %v", rep)
	}
	ds := ofType(outs, "display_data")
	wantMIME := []string{"text/html", "text/markdown", "image/svg+xml", "image/png", "image/jpeg", "application/json", "text/plain"}
	if len(ds) != len(wantMIME) {
		t.Fatalf("%d display_data messages, want %d", len(ds), len(wantMIME))
	}
	for i, mime := range wantMIME {
		d := dataOf(t, ds[i])
		if _, ok := d[mime]; !ok {
			t.Errorf("display %d has no %s: %v", i, mime, d)
		}
		if _, ok := d["text/plain"]; !ok {
			t.Errorf("display %d has no text/plain fallback: %v", i, d)
		}
	}
	if got := dataOf(t, ds[3])["image/png"]; got != base64.StdEncoding.EncodeToString(png) {
		t.Errorf("PNG not base64 of its bytes: %v", got)
	}
	if got := dataOf(t, ds[5])["application/json"].(map[string]any)["k"]; fmt.Sprint(got) != "[1 2]" {
		t.Errorf("JSON = %v", got)
	}
	if dataOf(t, ds[6])["text/plain"] != "just text" {
		t.Errorf("Text = %v", dataOf(t, ds[6]))
	}

	// Clear(wait) keeps its place among the prints around it.
	_, outs = k.execute("fmt.Println(\"before\")\ndisplay.Clear(true)\nfmt.Println(\"after\")", nil)
	var order []string
	for _, m := range outs {
		switch m.Header.MsgType {
		case "stream":
			order = append(order, strings.TrimSpace(decode(t, m)["text"].(string)))
		case "clear_output":
			order = append(order, fmt.Sprintf("clear(wait=%v)", decode(t, m)["wait"]))
		}
	}
	if strings.Join(order, ",") != "before,clear(wait=true),after" {
		t.Errorf("outputs in order: %v", order)
	}

	// A handle: display_data, then update_display_data with the same id.
	_, outs = k.execute("h := display.New(\"first\")\nh.Update(\"second\")\nh.UpdateHTML(\"<i>third</i>\")", nil)
	ds, us := ofType(outs, "display_data"), ofType(outs, "update_display_data")
	if len(ds) != 1 || len(us) != 2 {
		t.Fatalf("%d display_data, %d update_display_data", len(ds), len(us))
	}
	id := displayID(t, ds[0])
	if id == "" || displayID(t, us[0]) != id || displayID(t, us[1]) != id {
		t.Errorf("display ids: %q, %q, %q", id, displayID(t, us[0]), displayID(t, us[1]))
	}
	if dataOf(t, us[0])["text/plain"] != "second" || dataOf(t, us[1])["text/html"] != "<i>third</i>" {
		t.Errorf("updates = %v, %v", dataOf(t, us[0]), dataOf(t, us[1]))
	}
	// Updating from a later cell reaches the same display.
	_, outs = k.execute("h.Update(\"fourth\")", nil)
	if us := ofType(outs, "update_display_data"); len(us) != 1 || displayID(t, us[0]) != id {
		t.Errorf("update from a later cell: %v", us)
	}

	// A progress bar updates in place, a few times a second at most.
	start := time.Now()
	rep, outs = k.execute("bar := display.Progress(300)\nfor i := 0; i < 300; i++ {\n\ttime.Sleep(3 * time.Millisecond)\n\tbar.Add(1)\n}\nbar.Done()", nil)
	elapsed := time.Since(start)
	ds, us = ofType(outs, "display_data"), ofType(outs, "update_display_data")
	if rep["status"] != "ok" || len(ds) != 1 || len(us) == 0 {
		t.Fatalf("progress: %v, %d displays, %d updates", rep, len(ds), len(us))
	}
	id = displayID(t, ds[0])
	for _, u := range us {
		if displayID(t, u) != id {
			t.Fatalf("a progress update went to display %q, not %q", displayID(t, u), id)
		}
	}
	if limit := int(elapsed.Seconds()*10) + 3; len(us) > limit {
		t.Errorf("%d progress updates in %v: redrawn on every Add?", len(us), elapsed)
	}
	if last := dataOf(t, us[len(us)-1])["text/plain"].(string); !strings.Contains(last, "300/300") || !strings.Contains(last, "100%") {
		t.Errorf("last progress state = %q", last)
	}

	// Save writes a value to a file in the format its extension names.
	dir := t.TempDir()
	html := filepath.Join(dir, "out.html")
	rep, outs = k.execute(fmt.Sprintf("err1 := display.Save(display.Bundle{\"text/html\": \"<h1>hi</h1>\"}, %q)\nerr2 := display.Save(\"text\", %q)\nerr3 := display.Save(\"text\", %q)\n"+
		"fmt.Println(err1 == nil, err2 == nil)\nerr3", html, filepath.Join(dir, "out.txt"), filepath.Join(dir, "out.xyz")), nil)
	if s := stream(t, outs, "stdout"); s != "true true\n" {
		t.Errorf("Save errors: %q (%v)", s, rep)
	}
	if b, err := os.ReadFile(html); err != nil || !strings.Contains(string(b), "<h1>hi</h1>") {
		t.Errorf("saved HTML = %q, %v", b, err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "out.txt")); err != nil || string(b) != "text" && string(b) != "text\n" {
		t.Errorf("saved text = %q, %v", b, err)
	}
	if res := ofType(outs, "execute_result"); len(res) != 1 || !strings.Contains(fmt.Sprint(dataOf(t, res[0])), ".xyz") {
		t.Errorf("Save to an unknown extension did not say so: %v", res)
	}
}
