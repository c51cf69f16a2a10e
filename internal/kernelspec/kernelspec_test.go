package kernelspec

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

func TestInstallWritesSpecAndLogos(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "share", "jupyter", "kernels")
	for i := 0; i < 2; i++ { // a second install replaces the first
		dest, err := Install(dir, "/opt/gocl/bin/gocl")
		if err != nil {
			t.Fatal(err)
		}
		if dest != filepath.Join(dir, "gocl") {
			t.Fatalf("installed into %s", dest)
		}
	}
	raw, err := os.ReadFile(filepath.Join(dir, "gocl", "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	var spec map[string]any
	if err := json.Unmarshal(raw, &spec); err != nil {
		t.Fatal(err)
	}
	if spec["display_name"] != "Go (gocl)" || spec["language"] != "go" || spec["interrupt_mode"] != "message" {
		t.Errorf("kernel.json = %s", raw)
	}
	argv := spec["argv"].([]any)
	if argv[0] != "/opt/gocl/bin/gocl" || argv[len(argv)-1] != "{connection_file}" {
		t.Errorf("argv = %v", argv)
	}
	for _, size := range []int{32, 64} {
		f, err := os.ReadFile(filepath.Join(dir, "gocl", "logo-"+itoa(size)+"x"+itoa(size)+".png"))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(f))
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b.Dx() != size || b.Dy() != size {
			t.Errorf("logo %d is %v", size, b)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("leftover temporary folders: %v", entries)
	}
}

func TestInstallRejectsRelativeBinary(t *testing.T) {
	if _, err := Install(t.TempDir(), "gocl"); err == nil {
		t.Fatal("a relative binary path was accepted")
	}
}

func TestKernelsDirPrefix(t *testing.T) {
	d, err := KernelsDir(Where{Prefix: "/tmp/p"})
	if err != nil || d != "/tmp/p/share/jupyter/kernels" {
		t.Fatalf("got %q, %v", d, err)
	}
	t.Setenv("JUPYTER_DATA_DIR", "/tmp/jd")
	d, err = KernelsDir(Where{User: true})
	if err != nil || d != "/tmp/jd/kernels" {
		t.Fatalf("got %q, %v", d, err)
	}
}

func itoa(i int) string { return string(rune('0'+i/10)) + string(rune('0'+i%10)) }
