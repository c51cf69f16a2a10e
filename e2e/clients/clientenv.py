"""Shared set-up for the tests that drive gocl through Jupyter's command-line
clients (papermill, nbclient, jupyter_console, nbconvert, jupytext).

They run under the Python of gocl's venv ($GOCL_VENV, where install.sh puts
Jupyter, the clients and gocl-jupyter), with the kernelspec installed into a
temporary prefix, as e2e/jupyter does.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "jupyter"))

import goclenv  # noqa: E402

ROOT = goclenv.ROOT
GOCL = goclenv.GOCL
BIN = os.path.dirname(sys.executable)  # the venv's bin: papermill, jupyter, jupytext


def setup():
    goclenv.setup()
    os.environ["PATH"] = BIN + os.pathsep + os.path.dirname(GOCL) + os.pathsep + os.environ.get("PATH", "")


def teardown():
    goclenv.teardown()


def tool(name):
    """The venv's command name (papermill, jupyter, jupytext)."""
    return os.path.join(BIN, name)


def notebook(cells, path):
    """Write a gocl notebook of cells: each a source string, or (source, tags)."""
    nb = {"cells": [], "metadata": {"kernelspec": {"name": "gocl", "display_name": "Go (gocl)", "language": "go"},
                                    "language_info": {"name": "go"}},
          "nbformat": 4, "nbformat_minor": 5}
    for i, c in enumerate(cells):
        src, tags = (c, []) if isinstance(c, str) else c
        nb["cells"].append({"cell_type": "code", "id": f"c{i}", "metadata": {"tags": tags} if tags else {},
                            "execution_count": None, "outputs": [], "source": src})
    with open(path, "w") as f:
        json.dump(nb, f)


def stdout_of(nb):
    """The stdout stream text of every cell of an executed notebook, in order."""
    out = []
    for c in nb["cells"]:
        for o in c.get("outputs", []):
            if o.get("output_type") == "stream" and o.get("name") == "stdout":
                out.append("".join(o["text"]) if isinstance(o["text"], list) else o["text"])
    return "".join(out)


def run(args, timeout=300, **kw):
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout, **kw)
