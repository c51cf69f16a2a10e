"""papermill loads this module through the `papermill.engine` entry point
gocl; importing it registers the gocl translator (see gocl_jupyter.papermill).
The engine itself is papermill's nbclient engine, unchanged, so
`--engine gocl` runs a notebook exactly as the default engine does.
"""
from papermill.engines import NBClientEngine

from . import papermill as _translator  # noqa: F401  (registers GoTranslator)


class GoclEngine(NBClientEngine):
    """papermill's default engine; see the module doc for why it exists."""
