package e2e

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestKernelBindsBeforeTheSymbolTablesLoad checks the order of the real
// binary's start (issue 19): `gocl kernel` binds its ports (package
// earlybind) before Go initializes the symbol tables and the rest of gocl,
// so that a front end's first connection is not refused and made to wait
// out libzmq's reconnect interval. It reads the Go runtime's own trace of
// package initialization.
func TestKernelBindsBeforeTheSymbolTablesLoad(t *testing.T) {
	ports := freePorts(t, 5)
	conn := map[string]any{
		"transport": "tcp", "ip": "127.0.0.1", "shell_port": ports[0], "iopub_port": ports[1],
		"stdin_port": ports[2], "control_port": ports[3], "hb_port": ports[4],
		"signature_scheme": "hmac-sha256", "key": "k", "kernel_name": "gocl",
	}
	dir := t.TempDir()
	cf := filepath.Join(dir, "kernel.json")
	raw, _ := json.Marshal(conn)
	if err := os.WriteFile(cf, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goclBin, "kernel", "--connection-file", cf)
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1", "JUPYTER_DATA_DIR="+dir)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	var order []string
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 || f[0] != "init" {
			break // the runtime's trace ends where main begins
		}
		switch f[1] {
		case "github.com/seed43a1e1ab/gocl/internal/earlybind", "github.com/seed43a1e1ab/gocl/kernel/symbols/stdlib",
			"github.com/traefik/yaegi/interp", "github.com/seed43a1e1ab/gocl/kernel/transport":
			order = append(order, f[1])
		}
	}
	if len(order) == 0 || order[0] != "github.com/seed43a1e1ab/gocl/internal/earlybind" {
		t.Fatalf("packages initialized in the order %q: the kernel's ports must be bound (earlybind) first", order)
	}
}
