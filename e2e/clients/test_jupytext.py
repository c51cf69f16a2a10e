"""jupytext pairing of a gocl notebook with a Go percent script, in a Go module.

A paired `.go` script has no package clause, so `go build ./...` in the
module fails on it. The notebook's first cell is the fix:

    //go:build ignore

    package main

jupytext writes it where Go reads build constraints (after only line
comments), so the go command skips the file, and gocl runs the cell as an
empty program. Both lines are needed: with the constraint alone, Go 1.26's
go command skips the file only while it is new (modified in the last two
seconds, before its package index caches the directory), and then fails
with "expected 'package'"; the build below waits past that. The test pairs, builds, edits the script, syncs it back,
and executes the notebook with nbclient.
"""
import json
import os
import shutil
import subprocess
import tempfile
import time
import unittest

import nbclient
import nbformat

import clientenv

clientenv.setup()

CELLS = ["//go:build ignore\n\npackage main", 'msg := "hello"', "fmt.Println(msg, len(msg))"]


class JupytextTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="gocl-jupytext-")
        with open(os.path.join(self.dir, "go.mod"), "w") as f:
            f.write("module example.com/m\n\ngo 1.24\n")
        with open(os.path.join(self.dir, "main.go"), "w") as f:
            f.write("package main\n\nfunc main() {}\n")
        if not os.environ.get("GOCL_KEEP"):
            self.addCleanup(shutil.rmtree, self.dir, True)

    def jupytext(self, *args):
        r = clientenv.run([clientenv.tool("jupytext"), *args], cwd=self.dir)
        self.assertEqual(r.returncode, 0, r.stderr)

    def go_build(self):
        time.sleep(3)  # past the go command's two seconds of "modified recently"
        return clientenv.run(["go", "build", "./..."], cwd=self.dir, env=dict(os.environ, GOWORK="off", GOFLAGS=""))

    def pair(self, cells):
        clientenv.notebook(cells, os.path.join(self.dir, "nb.ipynb"))
        self.jupytext("--set-formats", "ipynb,go:percent", "nb.ipynb")
        with open(os.path.join(self.dir, "nb.go")) as f:
            return f.read()

    def test_without_the_constraint_go_build_fails(self):
        self.pair(CELLS[1:])
        self.assertNotEqual(self.go_build().returncode, 0, "a paired script without //go:build ignore built; the test proves nothing")

    def test_paired_script_with_the_constraint_builds_and_round_trips(self):
        script = self.pair(CELLS)
        self.assertIn("// %%\n//go:build ignore\n\npackage main\n", script)
        r = self.go_build()
        self.assertEqual(r.returncode, 0, f"go build ./... with the paired script: {r.stderr}\n{script}")
        r = clientenv.run(["go", "vet", "./..."], cwd=self.dir, env=dict(os.environ, GOWORK="off", GOFLAGS=""))
        self.assertEqual(r.returncode, 0, f"go vet ./...: {r.stderr}")
        # Edit the script as a user would, and sync the notebook from it.
        with open(os.path.join(self.dir, "nb.go"), "w") as f:
            f.write(script.replace('"hello"', '"round trip"'))
        self.jupytext("--sync", "nb.go")
        nb = nbformat.read(os.path.join(self.dir, "nb.ipynb"), as_version=4)
        self.assertEqual([c.source for c in nb.cells], [CELLS[0], 'msg := "round trip"', CELLS[2]])
        nbclient.NotebookClient(nb, kernel_name="gocl", timeout=120).execute()
        out = "".join(o.get("text", "") for c in nb.cells for o in c.outputs)
        self.assertEqual(out, "round trip 10\n")
        r = self.go_build()
        with open(os.path.join(self.dir, "nb.go"), "rb") as f:
            raw = f.read()
        self.assertEqual(r.returncode, 0, f"{r.stderr} {raw!r} {os.listdir(self.dir)}")


if __name__ == "__main__":
    unittest.main()
