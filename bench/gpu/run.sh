#!/bin/sh
# One complete run on an NVIDIA GPU machine: what issues 4 and 5 need from
# real hardware, in one go, with nothing built there.
#
#   bench/gpu/run.sh BIN OUT
#
# BIN holds x86-64 builds made elsewhere (make -C bench/transfer, plus
# gocl and hostmath: see bench/gpu/README.md); OUT receives results.tar.gz,
# refreshed after every step so that a run cut short still returns what it
# measured. Steps, most important first: the transfer benchmark against the
# C reference (4 GB), notebooks 01-05 at full size and 00, executed in place
# with gocl run, and the host helpers against numpy.
set -u
bin=$(cd "$1" && pwd)
out=$2
export OCL_ICD_FILENAMES="${OCL_ICD_FILENAMES:-libnvidia-opencl.so.1}"
export GOCL_CTX="${GOCL_CTX:-nvidia}"
work=$(mktemp -d)
mkdir -p "$work/notebooks"
pack() { tar czf "$out/results.tar.gz.tmp" -C "$work" . && mv "$out/results.tar.gz.tmp" "$out/results.tar.gz"; }
step() { echo "== $(date +%T) $*" | tee -a "$work/steps.log" >&2; }

step machine
{ nvidia-smi; echo; lscpu | sed -n '1,20p'; echo; free -g; echo; uname -a; } >"$work/machine.txt" 2>&1
"$bin/gocl" version >>"$work/machine.txt" 2>&1
"$bin/gocl" doctor >"$work/doctor.txt" 2>&1
pack

step "transfer benchmark, 4 GB"
timeout 150 bench/transfer/run.sh "$bin/gocl" "$work/transfer" "${GPU_N:-500000000}" >"$work/transfer.log" 2>&1
echo "exit $?" >>"$work/transfer.log"
pack

for nb in 01 03 05 04 02 00; do
	f=$(ls notebooks/"$nb"-*.ipynb)
	cp "$f" "$work/notebooks/"
	step "notebook $f"
	timeout 150 "$bin/gocl" run "$work/notebooks/$(basename "$f")" --inplace --allow-errors >"$work/notebooks/$nb.log" 2>&1
	echo "exit $?" >>"$work/notebooks/$nb.log"
	pack
done

step "host helpers against numpy"
py=$(command -v python3)
timeout 120 "$bin/hostmath" -n "${GPU_N:-5e8}" -runs 3 -python "$py" >"$work/hostmath.md" 2>"$work/hostmath.log"
echo "exit $?" >>"$work/hostmath.log"
step done
pack
