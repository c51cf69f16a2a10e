// Package kernelspec installs gocl's Jupyter kernelspec the way
// `jupyter kernelspec install` would: a folder named gocl under
// PREFIX/share/jupyter/kernels holding kernel.json and two logos.
package kernelspec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Name is the kernelspec's folder name, what `--kernel gocl` selects.
const Name = "gocl"

// Spec is the content of kernel.json.
type Spec struct {
	Argv          []string          `json:"argv"`
	DisplayName   string            `json:"display_name"`
	Language      string            `json:"language"`
	InterruptMode string            `json:"interrupt_mode"`
	Env           map[string]string `json:"env,omitempty"`
	Metadata      map[string]any    `json:"metadata"`
}

// NewSpec returns the kernelspec that runs binary (an absolute path).
func NewSpec(binary string) Spec {
	return Spec{
		Argv:          []string{binary, "kernel", "--connection-file", "{connection_file}"},
		DisplayName:   "Go (gocl)",
		Language:      "go",
		InterruptMode: "message",
		Metadata:      map[string]any{"debugger": true}, // JupyterLab enables its debugger only for a kernelspec that says so
	}
}

// Where says which kernels folder to install into.
type Where struct {
	User      bool   // the user's Jupyter data dir ($JUPYTER_DATA_DIR or ~/.local/share/jupyter)
	SysPrefix bool   // the prefix of the Python that runs Jupyter (sys.prefix)
	Prefix    string // an explicit prefix
}

// KernelsDir returns the folder kernelspecs go into for w. With nothing
// chosen it is the user's folder, or /usr/local/share/jupyter/kernels for
// root, as jupyter kernelspec install does.
func KernelsDir(w Where) (string, error) {
	switch {
	case w.Prefix != "":
		p, err := filepath.Abs(w.Prefix)
		if err != nil {
			return "", err
		}
		return filepath.Join(p, "share", "jupyter", "kernels"), nil
	case w.SysPrefix:
		prefix, err := pythonPrefix()
		if err != nil {
			return "", err
		}
		return filepath.Join(prefix, "share", "jupyter", "kernels"), nil
	case w.User || os.Geteuid() != 0:
		return filepath.Join(UserDataDir(), "kernels"), nil
	default:
		return "/usr/local/share/jupyter/kernels", nil
	}
}

// UserDataDir is Jupyter's per-user data folder.
func UserDataDir() string {
	if d := os.Getenv("JUPYTER_DATA_DIR"); d != "" {
		return d
	}
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "jupyter")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		home = os.TempDir()
	}
	return filepath.Join(home, ".local", "share", "jupyter")
}

func pythonPrefix() (string, error) {
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		out, err := exec.Command(py, "-c", "import sys; print(sys.prefix)").Output()
		if err == nil {
			return strings.TrimSpace(string(out)), nil
		}
	}
	return "", errors.New("--sys-prefix needs python3 to find sys.prefix, and none ran; use --user or --prefix DIR")
}

// Install writes the kernelspec for binary into dir/gocl, replacing an
// earlier one, and returns the folder. The files are written to a temporary
// folder first and renamed, so a failure leaves the old kernelspec intact.
func Install(kernelsDir, binary string) (string, error) {
	if !filepath.IsAbs(binary) {
		return "", fmt.Errorf("kernelspec needs the binary's absolute path, got %q", binary)
	}
	if err := os.MkdirAll(kernelsDir, 0o755); err != nil {
		return "", fmt.Errorf("creating %s: %w", kernelsDir, err)
	}
	tmp, err := os.MkdirTemp(kernelsDir, ".gocl-")
	if err != nil {
		return "", fmt.Errorf("writing into %s: %w (use --user, or run as root)", kernelsDir, err)
	}
	defer os.RemoveAll(tmp)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", " ")
	if err := enc.Encode(NewSpec(binary)); err != nil {
		return "", err
	}
	files := map[string][]byte{"kernel.json": buf.Bytes()}
	for _, size := range []int{32, 64} {
		png, err := Logo(size)
		if err != nil {
			return "", err
		}
		files[fmt.Sprintf("logo-%dx%d.png", size, size)] = png
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(tmp, name), data, 0o644); err != nil {
			return "", err
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return "", err
	}
	dest := filepath.Join(kernelsDir, Name)
	if err := os.RemoveAll(dest); err != nil {
		return "", fmt.Errorf("removing the old kernelspec %s: %w", dest, err)
	}
	if err := os.Rename(tmp, dest); err != nil {
		return "", err
	}
	return dest, nil
}
