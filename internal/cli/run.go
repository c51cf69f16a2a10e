package cli

import (
	"io"
	"os"

	"github.com/seed43a1e1ab/gocl/kernel/nbrun"
	"github.com/seed43a1e1ab/gocl/kernel/session"
	"github.com/seed43a1e1ab/gocl/kernel/supervisor"
)

func runCmd(args []string, stdout, stderr io.Writer) int {
	cfg := nbrun.Default
	cfg.NewEngine = func() (nbrun.Runner, error) {
		if os.Getenv("GOCL_ENGINE") == "in-process" {
			return session.NewEngine()
		}
		return supervisor.New(engineConfig(nil))
	}
	cfg.LanguageInfo = languageInfo()
	return cfg.Main(args, stdout, stderr)
}

// languageInfo is the language_info of gocl's kernel_info_reply (see
// kernel/dispatch), which nbclient stores in the notebooks it executes; gocl
// run stores the same. e2e/run_test.go fails if the two drift apart.
func languageInfo() map[string]any {
	return map[string]any{
		"name":               "go",
		"version":            GoVersion(),
		"mimetype":           "text/x-go",
		"file_extension":     ".go",
		"pygments_lexer":     "go",
		"codemirror_mode":    "go",
		"nbconvert_exporter": "script",
	}
}
