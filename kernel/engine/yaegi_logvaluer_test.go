package engine

import (
	"strings"
	"testing"
)

// TestLogValuerRefused checks that a cell declaring a slog.LogValuer method
// is refused before it prints anything (slog would log the secret the
// method redacts), and that a LogValue method that is not slog's still runs.
func TestLogValuerRefused(t *testing.T) {
	e := newEngine(t)
	res, r := run(t, e, "import \"log/slog\"\ntype Token string\nfunc (Token) LogValue() slog.Value { return slog.StringValue(\"REDACTED\") }\n"+
		"fmt.Println(\"before\")\nslog.Info(\"t\", \"tok\", Token(\"secret\"))")
	if res.Err == nil || !strings.Contains(res.Err.Value, "slog cannot call methods of types declared in a cell") {
		t.Errorf("LogValue: %+v", res.Err)
	}
	if out := r.text("stdout") + r.text("stderr"); strings.Contains(out, "secret") || strings.Contains(out, "before") {
		t.Errorf("the refused cell printed %q", out)
	}
	_, r = ok(t, e, "type V int\nfunc (V) LogValue() int { return 3 }\nfmt.Println(V(1).LogValue())")
	expect(t, "a LogValue that is not slog's", r.text("stdout"), "3\n")
}
