#!/bin/sh
# How Event.Wait waits, measured on the GPU (bench/RESULTS.md, "the wait
# before the call"): bench/hostblocked with GOCL_WAIT=block (park the
# goroutine, as before) and GOCL_WAIT=spin (poll from the waiting
# goroutine, the default on a GPU), in turns, at each size; then the
# pageable copy in one process (-pageable). Also what the machine says of
# its idle states and transparent huge pages.
#
#   bench/gpu/waitprobe.sh BIN OUT [BYTES...]
#
# BIN holds hostblocked (go build -ldflags='-s -w' ./bench/hostblocked).
# OUT gets waitprobe.tar.gz. Sizes default to 4e8 and 4e9 bytes.
set -u
bin=$(cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
shift 2
sizes=${*:-4e8 4e9}
reps=${REPS:-2}
export GOCL_CTX="${GOCL_CTX:-nvidia}"
[ "$GOCL_CTX" = nvidia ] && export OCL_ICD_FILENAMES="${OCL_ICD_FILENAMES:-libnvidia-opencl.so.1}"
work=$(mktemp -d)
pack() { tar czf "$out/waitprobe.tar.gz" -C "$work" .; }
{
	for f in /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag \
		/sys/devices/system/cpu/cpuidle/current_driver /sys/devices/system/cpu/cpuidle/current_governor /proc/cmdline; do
		echo "$f: $(cat "$f" 2>&1)"
	done
	for d in /sys/devices/system/cpu/cpu0/cpuidle/state*; do
		[ -d "$d" ] && echo "$d: $(cat "$d/name") latency $(cat "$d/latency") us"
	done
	nproc
} >"$work/machine.txt" 2>&1
for n in $sizes; do
	r=1
	while [ "$r" -le "$reps" ]; do
		for m in block spin; do
			GOCL_WAIT=$m timeout 120 "$bin/hostblocked" -bytes "$n" -rounds 30 -json "$work/hb-$n-$m-$r.json" >"$work/hb-$n-$m-$r.md" 2>>"$work/err.txt" ||
				echo "hostblocked $n $m $r failed" >>"$work/err.txt"
			pack
		done
		r=$((r + 1))
	done
done
for n in $sizes; do
	timeout 120 "$bin/hostblocked" -pageable -bytes "$n" -rounds 8 -json "$work/hb-pageable-$n.json" >"$work/hb-pageable-$n.md" 2>>"$work/err.txt" ||
		echo "hostblocked -pageable $n failed" >>"$work/err.txt"
	pack
done
cat "$work"/*.md
