// A type with a LogValue() slog.Value method is a slog.LogValuer: slog logs
// what the method returns, here a redacted secret. Compiled slog does not
// see the method of a type an interpreted cell declares and would print the
// secret: gocl refuses the program before it runs, naming LogValue
// (issue 24; the standard library's ExampleLogValuer_secret).
package main

import (
	"log/slog"
	"os"
)

type Token string

func (Token) LogValue() slog.Value { return slog.StringValue("REDACTED_TOKEN") }

func main() {
	noTime := func(groups []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey && len(groups) == 0 {
			return slog.Attr{}
		}
		return a
	}
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{ReplaceAttr: noTime}))
	logger.Info("permission granted", "user", "Perry", "token", Token("shhhh!"))
}
