#!/bin/sh
# Issue 12's one GPU run: gocl, PyOpenCL and C side by side, then the
# notebooks that need the GPU's outputs (08, and 04 reworked on sub-buffers).
#
#   bench/gpu/lab.sh BIN OUT [N...]
#
# BIN holds builds made elsewhere: clref (make -C bench/transfer) and gocl
# (go build -ldflags='-s -w'), and, if present, hostblocked (go build
# -ldflags='-s -w' ./bench/hostblocked), run after the three programs at
# each N (res/hostblocked-N.md). PyOpenCL must be importable (on the GPU
# machine: pip install --target from the carried .whl/, PYTHONPATH set).
# N are float64 counts (default: 5e8 = 4 GB, then 5e7 = 4e8 bytes). OUT gets
# lab.tar.gz (everything, refreshed after each step), report.md (the table
# for bench/RESULTS.md) and lab.log. Works on PoCL too (GOCL_CTX=0 etc.) at
# small N, which is how it is tested. ROUNDS=K (default 1) runs the three
# programs K times in turns and reports the merged rounds; NOTEBOOKS=0 skips
# the notebooks.
set -u
bin=$(cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
shift 2
sizes=${*:-500000000 50000000}
rounds=${ROUNDS:-1}
here=$(cd "$(dirname "$0")/../.." && pwd)
export GOCL_CTX="${GOCL_CTX:-nvidia}"
export PYOPENCL_CTX="${PYOPENCL_CTX:-$GOCL_CTX}"
export CLREF_DEVICE="${CLREF_DEVICE:-$GOCL_CTX}"
work=$(mktemp -d)
mkdir -p "$work/res" "$work/notebooks"
if [ "$GOCL_CTX" = nvidia ]; then
	# NVIDIA's OpenCL is installed but not registered there (see gocl
	# doctor): name it to every loader, PyOpenCL's bundled ocl-icd too.
	export OCL_ICD_FILENAMES="${OCL_ICD_FILENAMES:-libnvidia-opencl.so.1}"
	mkdir -p "$work/icd"
	echo libnvidia-opencl.so.1 >"$work/icd/nvidia.icd"
	export OCL_ICD_VENDORS="${OCL_ICD_VENDORS:-$work/icd}"
fi
py=${PYTHON:-python3}
log=$out/lab.log
: >"$log"
pack() { tar czf "$out/lab.tar.gz.tmp" -C "$work" . && mv "$out/lab.tar.gz.tmp" "$out/lab.tar.gz"; }
step() { echo "== $(date +%T) $*" | tee -a "$log" >&2; }
peak() { pdir=$1 name=$2; shift 2; timeout 150 "$py" "$here/bench/pyopencl/peakrss.py" "$pdir/peak-$name.json" "$@"; }

step machine
{ nvidia-smi 2>/dev/null; lscpu | sed -n '1,20p'; free -g; uname -a; "$py" -c 'import pyopencl, numpy, sys; print(sys.version, pyopencl.VERSION_TEXT, numpy.__version__)'; } >"$work/machine.txt" 2>&1
"$bin/gocl" version >>"$work/machine.txt" 2>&1
"$bin/gocl" doctor >"$work/doctor.txt" 2>&1
pack

for n in $sizes; do
	# ROUNDS > 1 runs the three programs in turns, round after round, into
	# res-rK/, and merges the rounds into res/ (bench/pyopencl/merge_rounds.py):
	# more samples of the driver's swings, falling on all three alike.
	r=1
	while [ "$r" -le "$rounds" ]; do
		dir=$work/res
		[ "$rounds" -gt 1 ] && dir=$work/res-r$r && mkdir -p "$dir"
		step "C reference, N=$n, round $r of $rounds"
		peak "$dir" "clref-$n" "$bin/clref" "$n" >"$dir/ref-$n.json" 2>>"$log" || echo "clref failed at N=$n" >>"$log"
		step "gocl cells (bench/transfer/cells.ipynb), N=$n, round $r of $rounds"
		GOCL_BENCH_N=$n GOCL_BENCH_OUT=$dir/cells-$n.json peak "$dir" "gocl-$n" "$bin/gocl" run "$here/bench/transfer/cells.ipynb" -o "$dir/cells-$n.out.ipynb" >>"$log" 2>&1 ||
			echo "gocl cells failed at N=$n" >>"$log"
		step "PyOpenCL seed script, N=$n, round $r of $rounds"
		peak "$dir" "pyopencl-$n" "$py" "$here/bench/pyopencl/seed.py" "$n" >"$dir/pyopencl-$n.json" 2>>"$log" || echo "pyopencl failed at N=$n" >>"$log"
		r=$((r + 1))
	done
	if [ "$rounds" -gt 1 ]; then
		"$py" "$here/bench/pyopencl/merge_rounds.py" "$work/res" "$work"/res-r* 2>>"$log"
	fi
	if [ -x "$bin/hostblocked" ]; then
		# The same pinned write, C, compiled clapi and a cell interleaved in
		# one process (bench/hostblocked): ratios that no process swing skews.
		step "hostblocked, N=$n"
		timeout 150 "$bin/hostblocked" -bytes "$((8 * n))" -rounds 40 -json "$work/res/hostblocked-$n.samples" >"$work/res/hostblocked-$n.md" 2>>"$log" ||
			echo "hostblocked failed at N=$n" >>"$log"
	fi
	"$py" "$here/bench/pyopencl/report.py" "$work/res" "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)" >"$out/report.md" 2>>"$log"
	cp "$out/report.md" "$work/report.md"
	pack
done

[ "${NOTEBOOKS:-1}" = 0 ] && { step done; cat "$out/report.md"; exit 0; }
for nb in 08 04; do
	f=$(ls "$here"/notebooks/"$nb"-*.ipynb 2>/dev/null) || continue
	cp "$f" "$work/notebooks/"
	step "notebook $f"
	timeout 150 "$bin/gocl" run "$work/notebooks/$(basename "$f")" --inplace --allow-errors >"$work/notebooks/$nb.log" 2>&1
	echo "exit $?" >>"$work/notebooks/$nb.log"
	pack
done
step done
cat "$out/report.md"
