#!/bin/sh
# bench/coldpath three times in a row on the GPU machine, with /proc/stat
# before and after: issue 21's second device call (bench/RESULTS.md, "Issue
# 21: why the call after a long wait runs cold"). Builds nothing.
#
#   bench/gpu/coldpath.sh COLDPATH OUT [ROUNDS]
#
# COLDPATH is the binary (cc -O2 bench/coldpath/coldpath.c -lOpenCL);
# OUT gets coldpath-1.md .. coldpath-3.md, stat.txt and machine.txt.
set -u
bin=$1
out=$(mkdir -p "$2" && cd "$2" && pwd)
rounds=${3:-24}
export OCL_ICD_FILENAMES="${OCL_ICD_FILENAMES:-libnvidia-opencl.so.1}"
{ lscpu; uname -a; cat /proc/loadavg; } >"$out/machine.txt" 2>&1
grep '^cpu' /proc/stat >"$out/stat.txt"
for i in 1 2 3; do
	echo "== $(date +%T) coldpath $i" >&2
	timeout 150 "$bin" "$rounds" >"$out/coldpath-$i.md" 2>&1 || echo "coldpath $i failed" >&2
done
echo "== after" >>"$out/stat.txt"
grep '^cpu' /proc/stat >>"$out/stat.txt"
cat /proc/loadavg >>"$out/machine.txt"
echo "== $(date +%T) done" >&2
