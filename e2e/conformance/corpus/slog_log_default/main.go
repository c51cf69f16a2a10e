// The log package's default logger and log/slog's default are one in Go:
// log.SetOutput and SetFlags reach slog's default handler, and
// slog.SetDefault sends log.Print to the new handler. yaegi gave a cell's
// log functions a logger of their own: slog.Info printed elsewhere, and
// log.Print ignored slog.SetDefault (issue 24; the standard library's
// ExampleSetLogLoggerLevel_log and _slog).
package main

import (
	"log"
	"log/slog"
	"os"
)

func main() {
	log.SetFlags(0)
	log.SetOutput(os.Stdout)
	log.Print("log first")
	slog.Info("info", "n", 1)
	slog.Debug("not shown")

	slog.SetLogLoggerLevel(slog.LevelWarn)
	noTime := func(groups []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey && len(groups) == 0 {
			return slog.Attr{}
		}
		return a
	}
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{ReplaceAttr: noTime})))
	log.Print("through slog")
	log.Printf("n=%d", 2)
}
