package conformance

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// RefusedTag is the build tag of a corpus program that Go refuses to
// compile: its main.go starts with "//go:build gocl_refused", so that the
// build of the corpus (and of the repository) leaves it out. For such a
// program the oracle is the go command's refusal: gocl passes when it
// refuses the program too, before printing anything, with an error that
// contains the go command's message (the position aside). A cell that
// gives a refused program's answer instead is a wrong answer.
const RefusedTag = "gocl_refused"

// isRefused reports whether src is a corpus program that Go refuses: its
// first line is the RefusedTag build constraint.
func isRefused(src string) bool {
	first, _, _ := strings.Cut(src, "\n")
	return strings.TrimSpace(first) == "//go:build "+RefusedTag
}

// RefusedOracle asks the go command what it makes of the refused corpus
// program at path: it must not build (an error otherwise: the program does
// not belong with the refused ones), and it must report exactly one compile
// error, whose message (without its position) becomes the error gocl must
// give. dir is a scratch directory.
func RefusedOracle(path, dir string) (Want, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return Want{}, err
	}
	cmd := exec.Command("go", "build", "-tags", RefusedTag, "-o", filepath.Join(dir, "refused.bin"), abs)
	cmd.Dir = dir // outside any module: the program is one file of the standard library's imports
	out, err := cmd.CombinedOutput()
	os.Remove(filepath.Join(dir, "refused.bin"))
	var ee *exec.ExitError
	switch {
	case err == nil:
		return Want{}, fmt.Errorf("%s: the go command builds it, but it is tagged %s (a program Go refuses)", path, RefusedTag)
	case !errors.As(err, &ee):
		return Want{}, fmt.Errorf("go build %s: %v", path, err)
	}
	if n := len(compileErrorRE.FindAllString(string(out), -1)); n != 1 {
		return Want{}, fmt.Errorf("%s: the go command reports %d compile errors; a refused program has exactly one, so that the oracle is clear:\n%s", path, n, out)
	}
	return Want{Error: firstCompileError(string(out))}, nil
}
