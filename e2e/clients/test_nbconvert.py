"""nbconvert and nbclient with gocl notebooks.

--to script writes a Go program (gocl-jupyter's exporter for the language
go, which runs gocl export) that go run runs with the notebook's output.
--to html of a widget notebook: what the README says about reading it
offline, checked on the HTML nbconvert writes.
"""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

import nbclient
import nbformat

import clientenv

clientenv.setup()

OFFLINE = "--NbConvertBase.display_data_priority=['text/html','image/svg+xml','image/png','text/markdown','text/plain']"


class ScriptTest(unittest.TestCase):
    def test_to_script_is_a_go_program_with_the_notebooks_output(self):
        d = tempfile.mkdtemp(prefix="gocl-nbconvert-")
        self.addCleanup(shutil.rmtree, d, True)
        nb = os.path.join(d, "prog.ipynb")
        clientenv.notebook([
            "type point struct{ x, y int }\n\nfunc (p point) sum() int { return p.x + p.y }\n\nps := []point{{1, 2}, {3, 4}}",
            "total := 0\nfor _, p := range ps {\n\ttotal += p.sum()\n}\nfmt.Println(\"total\", total)\ntotal",
            "func double() int { return 2 * total } // a func that uses a cell's variable\nfmt.Println(double())",
            'display.Markdown("only in a notebook")',
        ], nb)
        r = clientenv.run([clientenv.tool("jupyter"), "nbconvert", "--to", "script", nb])
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(d, "prog.go")) as f:
            script = f.read()
        self.assertIn("package main", script)
        self.assertIn("// display.Markdown(\"only in a notebook\")", script)
        exported = clientenv.run([clientenv.GOCL, "export", nb])
        self.assertEqual(exported.returncode, 0, exported.stderr)
        self.assertEqual(script, exported.stdout, "nbconvert --to script and gocl export differ")
        # A module for it, as gocl export -o writes one; then nbconvert's file in it.
        prog = os.path.join(d, "prog")
        r = clientenv.run([clientenv.GOCL, "export", nb, "-o", os.path.join(prog, "main.go")])
        self.assertEqual(r.returncode, 0, r.stderr)
        shutil.copy(os.path.join(d, "prog.go"), os.path.join(prog, "main.go"))
        run = clientenv.run(["go", "run", "."], cwd=prog, env=dict(os.environ, GOWORK="off"))
        self.assertEqual(run.returncode, 0, run.stderr)
        executed = nbformat.read(nb, as_version=4)
        nbclient.NotebookClient(executed, kernel_name="gocl", timeout=120).execute()
        self.assertEqual(run.stdout, clientenv.stdout_of(executed))
        self.assertEqual(run.stdout, "total 10\n20\n")


class WidgetHTMLTest(unittest.TestCase):
    def test_widget_html_online_and_offline(self):
        d = tempfile.mkdtemp(prefix="gocl-nbconvert-html-")
        self.addCleanup(shutil.rmtree, d, True)
        path = os.path.join(d, "w.ipynb")
        clientenv.notebook(['s := widgets.NewIntSlider("n", 0, 10, 3)\nwidgets.Show(s)'], path)
        nb = nbformat.read(path, as_version=4)
        nbclient.NotebookClient(nb, kernel_name="gocl", timeout=120).execute()
        self.assertIn("widgets", nb.metadata, "nbclient saves the widget state")
        nbformat.write(nb, path)
        r = clientenv.run([clientenv.tool("jupyter"), "nbconvert", "--to", "html", path])
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(d, "w.html")) as f:
            page = f.read()
        # The default: the widget view, drawn by a renderer from unpkg.com; offline its place stays blank.
        self.assertIn('<script type="application/vnd.jupyter.widget-view+json">', page)
        self.assertIn("https://unpkg.com/@jupyter-widgets/html-manager@", page)
        self.assertNotIn("IntSlider(value=3", page)
        # The README's offline recipe: the fallback shows, with no widget view to hide it.
        r = clientenv.run([clientenv.tool("jupyter"), "nbconvert", "--to", "html", OFFLINE, "--output", "offline", path])
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(d, "offline.html")) as f:
            page = f.read()
        self.assertIn("IntSlider(value=3, description=n, min=0, max=10)", page)
        self.assertNotIn('<script type="application/vnd.jupyter.widget-view+json">', page)


if __name__ == "__main__":
    unittest.main()
