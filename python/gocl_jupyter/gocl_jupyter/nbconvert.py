"""nbconvert's exporter for gocl notebooks: a Go program, by `gocl export`.

    jupyter nbconvert --to script notebook.ipynb   # notebook.go, for a gocl notebook
    jupyter nbconvert --to gocl notebook.ipynb     # the same, by name

`--to script` finds it through nbconvert's `nbconvert.exporters.script`
entry point for the language go; a notebook of another Go kernel gets
nbconvert's plain script (its cells one after another), as before. The
program is what `gocl export` writes (see `gocl export -h`), which needs
the gocl binary: GOCL_BIN, else gocl on the PATH. nbconvert writes only the
.go file: to run it with `go run`, put it in a module that requires gocl, or
use `gocl export NOTEBOOK.ipynb -o DIR/main.go`, which writes a go.mod too.
"""
import os
import shutil
import subprocess
import tempfile

import nbformat
from nbconvert.exporters import TemplateExporter


def gocl_binary():
    path = os.environ.get("GOCL_BIN") or shutil.which("gocl")
    if not path:
        raise RuntimeError("gocl export needs the gocl binary: put gocl on the PATH (install.sh does) or name it in GOCL_BIN")
    return path


class GoProgramExporter(TemplateExporter):
    """Exports a gocl notebook as a Go program (gocl export)."""

    export_from_notebook = "Go program (gocl)"
    output_mimetype = "text/plain"  # the script template's only mimetype

    def _file_extension_default(self):
        return ".go"

    def _template_name_default(self):
        return "script"

    def from_notebook_node(self, nb, resources=None, **kw):
        resources = self._init_resources(resources)
        kernel = nb.metadata.get("kernelspec", {}).get("name", "")
        if kernel != "gocl":
            # Another Go kernel's notebook: nbconvert's plain script.
            self.file_extension = nb.metadata.get("language_info", {}).get("file_extension", ".txt")
            return super().from_notebook_node(nb, resources, **kw)
        resources["output_extension"] = ".go"
        with tempfile.TemporaryDirectory(prefix="gocl-nbconvert-") as d:
            name = (resources.get("metadata") or {}).get("name") or "notebook"
            path = os.path.join(d, name + ".ipynb")
            nbformat.write(nb, path)
            r = subprocess.run([gocl_binary(), "export", path], capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"gocl export failed:\n{r.stderr}")
        return r.stdout, resources
