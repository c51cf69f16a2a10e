#!/bin/sh
# Issue 21's notebook run: notebooks 01-08 at full size on an NVIDIA GPU,
# executed in place (their outputs are then committed), in one device call.
#
#   bench/gpu/nbrun.sh DIR OUT
#
# DIR holds bin.tar.xz (bin/gocl, built here with -ldflags='-s -w'), nb/
# (copies of notebooks/0[1-8]-*.ipynb) and plugins/: the plugin cache of
# notebook 06's compiled cell, built here by running 06 once with that very
# gocl (GOCL_PLUGIN_CACHE=DIR/plugins gocl run ...), since the GPU machine
# has no Go toolchain. OUT gets machine.txt and nb.tar.gz (the notebooks and
# their logs), refreshed after each notebook.
set -u
cd "$1"
out=$2
python3 -c "import tarfile; tarfile.open('bin.tar.xz').extractall('.')"
export OCL_ICD_FILENAMES=libnvidia-opencl.so.1 GOCL_CTX=nvidia GOCL_PLUGIN_CACHE="$PWD/plugins"
{ nvidia-smi; bin/gocl version; bin/gocl doctor; } > "$out/machine.txt" 2>&1
for nb in 01 02 03 04 05 06 07 08; do
	f=$(ls nb/$nb-*.ipynb)
	echo "== $(date +%T) $f"
	(cd nb && timeout 200 ../bin/gocl run "$(basename "$f")" --inplace --allow-errors > "$nb.log" 2>&1; echo "exit $?" >> "$nb.log")
	tail -1 "nb/$nb.log"
	tar czf "$out/nb.tar.gz" nb
done
echo "== $(date +%T) done"
