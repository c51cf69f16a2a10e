package engine

import (
	"strings"
	"testing"
)

// TestLogSourceRefused checks that log's Lshortfile and Llongfile and slog's
// AddSource are refused before the cell prints anything, and that log's
// other flags and AddSource: false still run.
func TestLogSourceRefused(t *testing.T) {
	e := newEngine(t)
	for _, c := range []struct{ name, src, want string }{
		{"Lshortfile", "import \"log\"\nfmt.Println(\"before\")\nl := log.New(os.Stdout, \"p: \", log.Lshortfile)\nl.Print(\"x\")", "log.Lshortfile cannot name a cell's file"},
		{"Llongfile", "import \"log\"\nfmt.Println(\"before\")\nlog.SetFlags(log.LstdFlags | log.Llongfile)", "log.Llongfile cannot name a cell's file"},
		{"AddSource", "import \"log/slog\"\nfmt.Println(\"before\")\nh := slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{AddSource: true})\nslog.New(h).Info(\"x\")", "slog's AddSource cannot name a cell's file"},
	} {
		res, r := run(t, e, c.src)
		if res.Err == nil || !strings.Contains(res.Err.Value, c.want) {
			t.Errorf("%s: %+v", c.name, res.Err)
		}
		if out := r.text("stdout"); out != "" {
			t.Errorf("%s: the refused cell printed %q", c.name, out)
		}
	}
	_, r := ok(t, e, "import (\n\"log\"\n\"log/slog\"\n)\nl := log.New(os.Stdout, \"p: \", log.Lmsgprefix)\nl.Print(\"x\")\n"+
		"_ = slog.HandlerOptions{AddSource: false}")
	expect(t, "other flags", r.text("stdout"), "p: x\n")
}
