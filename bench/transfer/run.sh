#!/bin/sh
# Runs issue 4's transfer benchmark in one go: the compiled reference
# (clref), the same measurements from notebook cells through `gocl run`,
# and the report comparing them.
#
#   bench/transfer/run.sh GOCL OUTDIR [N]
#
# GOCL is the gocl binary, OUTDIR receives the files, N is the number of
# float64 values per copy (default 5e8 = 4 GB). Both sides use the same
# device: GOCL_CTX chooses it for the cells and, unless CLREF_DEVICE is set,
# for the reference ("nvidia", "0:1", ...; unset: the first GPU, else the
# first device). Pass the OpenCL environment the machine needs (for NVIDIA
# without an .icd file: OCL_ICD_FILENAMES=libnvidia-opencl.so.1; doctor.txt
# shows what the loader saw).
#
# bench/transfer/bin/clref, goref and report are built by
# `make -C bench/transfer`; where they are missing this script builds them
# if gcc and go are at hand. On a machine without compilers, build them
# elsewhere (x86-64) and carry bench/transfer/bin along. goref (the same
# pinned writes and 8-byte loop from compiled Go) is optional: without it
# the report lacks the rows that split the binding's cost from the
# interpreter's.
#
# OUTDIR gets: ref.json, cells.json, goref.json, cells.out.ipynb (the
# executed notebook), report.md (the markdown for bench/RESULTS.md, also
# printed), doctor.txt and run.log (what the programs said on stderr).
set -eu

usage() {
	echo "usage: $0 GOCL OUTDIR [N]   (N float64 values per copy, default 500000000)" >&2
	exit 2
}
[ $# -ge 2 ] && [ $# -le 3 ] || usage
gocl=$1
out=$2
n=${3:-500000000}

here=$(cd "$(dirname "$0")" && pwd)
case $gocl in /*) ;; *) gocl=$(pwd)/$gocl ;; esac
[ -x "$gocl" ] || { echo "run.sh: $gocl is not an executable gocl binary" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
log=$out/run.log
: >"$log"

have() { # have NAME: bench/transfer/bin/NAME exists or could be built
	[ -x "$here/bin/$1" ] && return 0
	echo "run.sh: $here/bin/$1 is missing; building it" >&2
	make -C "$here" "bin/$1" >>"$log" 2>&1 && return 0
	echo "run.sh: could not build bin/$1 here (see $log); run 'make -C bench/transfer' on a machine with gcc, libOpenCL and go, and carry bench/transfer/bin" >&2
	return 1
}
have clref || exit 1
have report || exit 1

echo "== gocl doctor" >&2
"$gocl" doctor >"$out/doctor.txt" 2>&1 || true
sed -n '/^devices/,$p' "$out/doctor.txt" >&2

export CLREF_DEVICE="${CLREF_DEVICE:-${GOCL_CTX:-}}"
echo "== reference: clref $n (device selector: ${CLREF_DEVICE:-first GPU, else first device})" >&2
if ! "$here/bin/clref" "$n" >"$out/ref.json" 2>>"$log"; then
	tail -n 5 "$log" >&2
	echo "run.sh: the reference failed (see $log)" >&2
	exit 1
fi

echo "== cells: gocl run cells.ipynb" >&2
if ! GOCL_BENCH_N=$n GOCL_BENCH_OUT=$out/cells.json "$gocl" run "$here/cells.ipynb" -o "$out/cells.out.ipynb" >>"$log" 2>&1; then
	tail -n 20 "$log" >&2
	echo "run.sh: the cells failed (see $log and $out/cells.out.ipynb)" >&2
	exit 1
fi

goref=
if have goref; then
	echo "== compiled Go through clapi: goref $n" >&2
	if "$here/bin/goref" "$n" >"$out/goref.json" 2>>"$log"; then
		goref=$out/goref.json
	else
		echo "run.sh: goref failed (see $log); the report goes on without it" >&2
	fi
fi

echo "== report" >&2
"$here/bin/report" "$out/ref.json" "$out/cells.json" $goref >"$out/report.md"
cat "$out/report.md"
