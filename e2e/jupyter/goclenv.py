"""Shared set-up for the tests that drive gocl through Debian's Jupyter.

The gocl binary is $GOCL_BIN (install.sh sets it) or ../../bin/gocl. Its
kernelspec is installed into a temporary prefix that JUPYTER_PATH points at,
so the tests never touch the user's own Jupyter set-up.
"""
import atexit
import os
import shutil
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
GOCL = os.environ.get("GOCL_BIN") or os.path.join(ROOT, "bin", "gocl")

_prefix = None


def setup():
    """Install the kernelspec into a temporary prefix; return its JUPYTER_PATH."""
    global _prefix
    if _prefix is None:
        if not os.path.exists(GOCL):
            raise RuntimeError(f"{GOCL} does not exist: build it first (./install.sh or go build -o bin/gocl .)")
        _prefix = tempfile.mkdtemp(prefix="gocl-jupyter-")
        subprocess.run([GOCL, "install", "--prefix", _prefix], check=True, stdout=subprocess.DEVNULL)
        path = os.path.join(_prefix, "share", "jupyter")
        os.environ["JUPYTER_PATH"] = path + os.pathsep + os.environ.get("JUPYTER_PATH", "")
        os.environ["JUPYTER_DATA_DIR"] = os.path.join(_prefix, "data")
    return os.path.join(_prefix, "share", "jupyter")


def teardown():
    """Nothing until the interpreter exits: the test modules share the prefix,
    and removing it when one module ends (as tearDownModule used to) left the
    modules after it running whatever "gocl" kernelspec the system has, an
    older installed binary rather than $GOCL_BIN."""


def _remove():
    global _prefix
    if _prefix:
        shutil.rmtree(_prefix, ignore_errors=True)
        _prefix = None


atexit.register(_remove)
