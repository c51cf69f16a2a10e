"""Plug-ins that make Jupyter's command-line clients work with the gocl kernel.

- papermill: GoTranslator (entry point papermill.translators:gocl) writes
  `-p` parameters as Go declarations.
- nbconvert: GoProgramExporter (entry point nbconvert.exporters:gocl) runs
  `gocl export`, so `jupyter nbconvert --to gocl` writes a Go program.
"""
