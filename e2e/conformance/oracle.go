package conformance

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// CorpusProgram is one program of our own corpus, corpus/<Name>/main.go.
type CorpusProgram struct {
	// Name is the program's directory name.
	Name string
	// Source is main.go.
	Source string
	// Want is what the go command's build of the program does.
	Want Want
	// Refused says Go refuses to compile the program (see RefusedTag).
	Refused bool
}

// BuildCorpus compiles every program under corpusDir with one go build (the
// go run of each, done at once) into binDir, one binary per directory.
// Programs whose build constraints exclude them (a newer Go's API) produce
// no binary.
func BuildCorpus(corpusDir, binDir string) error {
	cmd := exec.Command("go", "build", "-o", binDir+string(filepath.Separator), "./...")
	cmd.Dir = corpusDir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build the corpus: %v\n%s", err, out)
	}
	return nil
}

// Oracle runs a corpus binary as `go run` would and says what Go does: its
// standard output and, when it ends in a panic, the panic's message. A
// program that exits otherwise than by returning from main or by a panic is
// an error: the corpus holds no such program.
func Oracle(bin string, limit time.Duration) (Want, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	hung, err := runLimited(cmd, limit)
	if hung {
		return Want{}, fmt.Errorf("%s ran longer than %v", bin, limit)
	}
	w := Want{Stdout: stdout.String()}
	var ee *exec.ExitError
	switch {
	case err == nil:
		return w, nil
	case !errors.As(err, &ee):
		return w, err
	}
	for _, line := range strings.Split(stderr.String(), "\n") {
		if msg, ok := strings.CutPrefix(line, "panic: "); ok {
			w.Panic = strings.TrimSuffix(msg, " [recovered]")
			return w, nil
		}
	}
	return w, fmt.Errorf("%s exited with %v and no panic: %s", bin, err, tail(stderr.String(), 500))
}

// ReadCorpus reads the programs of corpusDir that binDir has a binary for,
// and those Go refuses (see RefusedTag), and names those it has no binary
// for.
func ReadCorpus(corpusDir, binDir string) (progs []CorpusProgram, unbuilt []string, err error) {
	entries, err := os.ReadDir(corpusDir)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		src, err := os.ReadFile(filepath.Join(corpusDir, e.Name(), "main.go"))
		if err != nil {
			return nil, nil, fmt.Errorf("corpus program %s: %w", e.Name(), err)
		}
		if isRefused(string(src)) {
			progs = append(progs, CorpusProgram{Name: e.Name(), Source: string(src), Refused: true})
			continue
		}
		if _, err := os.Stat(filepath.Join(binDir, e.Name())); err != nil {
			unbuilt = append(unbuilt, e.Name())
			continue
		}
		progs = append(progs, CorpusProgram{Name: e.Name(), Source: string(src)})
	}
	return progs, unbuilt, nil
}
